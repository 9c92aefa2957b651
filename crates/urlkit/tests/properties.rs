//! Property tests: round trips in every set and charset, and streaming equals whole input.

use proptest::prelude::*;
use urlkit::charset::TextDecoder;
use urlkit::detect::Ranking;
use urlkit::{
    Charset, CharsetChoice, Codec, DecodeOptions, DecodeSettings, EncodeOptions, EncodeSet, Newline,
};

/// Every charset that can encode (the replacement encoding cannot).
fn encodable_charsets() -> Vec<Charset> {
    Charset::all()
        .into_iter()
        .map(|(c, _)| c)
        .filter(|c| c.name() != "replacement")
        .collect()
}

fn sets() -> Vec<EncodeSet> {
    let mut sets: Vec<EncodeSet> = EncodeSet::names()
        .map(|n| EncodeSet::named(n).unwrap())
        .collect();
    sets.push(
        EncodeSet::UNRESERVED
            .with_safe("/:@")
            .unwrap()
            .with_unsafe("~.")
            .unwrap(),
    );
    sets
}

/// Text made only of characters `charset` decodes to, from arbitrary bytes.
fn text_in(charset: Charset, bytes: &[u8], unicode: &str) -> String {
    let name = charset.name();
    if name.starts_with("UTF-") || name == "gb18030" {
        return unicode.to_string();
    }
    let mut out = Vec::new();
    TextDecoder::new(charset).decode(bytes, true, &mut out, |_, _| {});
    String::from_utf8(out).unwrap().replace('\u{FFFD}', "")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// decode(encode(x)) == x for every set and every charset that can represent x.
    /// Sets that keep `%` literal (the WHATWG sets, `c0`, `iri`) are checked on text
    /// without `%`: by design they leave existing escapes alone.
    #[test]
    fn decode_inverts_encode(unicode in "\\PC{0,24}", bytes in proptest::collection::vec(any::<u8>(), 0..48)) {
        for charset in encodable_charsets() {
            let text = text_in(charset, &bytes, &unicode);
            for set in sets() {
                let text = if set.keeps(b'%') { text.replace('%', "") } else { text.clone() };
                let form = set == EncodeSet::FORM;
                let encoded = urlkit::encode(text.as_bytes(), &EncodeOptions {
                    charset, set, space_plus: form, ..EncodeOptions::default()
                });
                if encoded.diagnostics.items().iter().any(|d| d.code == urlkit::Code::UnencodableCharacter) {
                    continue;
                }
                let decoded = urlkit::decode(&encoded.output, &DecodeOptions {
                    charset: CharsetChoice::Fixed(charset),
                    plus_space: form,
                    keep_whitespace: true,
                    ..DecodeOptions::default()
                });
                prop_assert_eq!(decoded.text(), text.clone(), "charset {} set {}", charset.name(), set.name());
            }
        }
    }
}

/// Percent-encoded-looking bytes: escapes, broken escapes, whitespace, `+`, UTF-8, junk.
fn encodedish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        Just(b"%".to_vec()),
        Just(b"%4".to_vec()),
        Just(b"%41".to_vec()),
        Just(b"%E2%80%A0".to_vec()),
        Just(b"%E2%80".to_vec()),
        Just(b"%83%89".to_vec()),
        Just(b"%FF%FE".to_vec()),
        Just(b"%2520".to_vec()),
        Just(b"%E2%80%AE".to_vec()),
        Just(b" \t".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\r".to_vec()),
        Just(b"+".to_vec()),
        Just(b"http://".to_vec()),
        Just("é†😀".as_bytes().to_vec()),
        proptest::collection::vec(any::<u8>(), 1..4),
        "[a-z0-9]{1,5}".prop_map(|s| s.into_bytes()),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

fn split_points(len: usize, cuts: &[usize]) -> Vec<usize> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (len + 1)).collect();
    points.push(0);
    points.push(len);
    points.sort_unstable();
    points
}

/// Findings in input order: a stream reports each chunk's findings stage by stage, so only
/// the order within one offset is kept.
fn sorted(diagnostics: &[urlkit::Diagnostic]) -> Vec<urlkit::Diagnostic> {
    let mut list = diagnostics.to_vec();
    list.sort_by(|a, b| (a.offset, a.code.as_str()).cmp(&(b.offset, b.code.as_str())));
    list
}

type Run = (Vec<u8>, Vec<urlkit::Diagnostic>);

/// Feeds `input` cut at `points` to `codec` (lenient, every finding kept).
fn run_codec(codec: Codec, input: &[u8], points: &[usize]) -> Run {
    let mut codec = codec.keep_findings(usize::MAX);
    let mut out = Vec::new();
    for pair in points.windows(2) {
        codec
            .feed(&input[pair[0]..pair[1]], &mut out)
            .expect("a lenient codec never rejects");
    }
    codec
        .finish(&mut out)
        .expect("a lenient codec never rejects");
    (out, sorted(codec.diagnostics().items()))
}

fn run_decoder(options: &DecodeOptions, input: &[u8], points: &[usize]) -> Run {
    run_codec(Codec::decoder(options), input, points)
}

fn run_encoder(options: &EncodeOptions, input: &[u8], points: &[usize]) -> Run {
    run_codec(Codec::encoder(options), input, points)
}

const STREAM_CHARSETS: &[&str] = &[
    "utf-8",
    "shift_jis",
    "euc-jp",
    "iso-2022-jp",
    "gb18030",
    "big5",
    "euc-kr",
    "utf-16le",
    "utf-16be",
    "utf-32le",
    "windows-1252",
    "ibm437",
    "ibm864",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Any chunking of any input decodes to the same output and the same findings (codes
    /// and offsets) as the whole input.
    #[test]
    fn decoding_any_chunking_equals_the_whole(
        input in encodedish(),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
        plus_space in any::<bool>(),
        keep_whitespace in any::<bool>(),
        per_line in any::<bool>(),
    ) {
        let points = split_points(input.len(), &cuts);
        let mut choices: Vec<CharsetChoice> = STREAM_CHARSETS
            .iter()
            .map(|l| CharsetChoice::Fixed(Charset::for_label(l).unwrap()))
            .collect();
        choices.push(CharsetChoice::Auto);
        for charset in choices {
            for (binary, text) in [(false, false), (false, true), (true, false)] {
                let options = DecodeOptions {
                    charset, plus_space, keep_whitespace, binary, per_line, text,
                    newline: Newline::CrLf, ..DecodeOptions::default()
                };
                let whole = run_decoder(&options, &input, &[0, input.len()]);
                let chunked = run_decoder(&options, &input, &points);
                prop_assert_eq!(&chunked, &whole, "{:?} binary {} text {} cuts {:?}", charset, binary, text, points);
            }
        }
    }

    /// Any chunking of any text encodes to the same output and findings as the whole.
    #[test]
    fn encoding_any_chunking_equals_the_whole(
        input in encodedish(),
        cuts in proptest::collection::vec(any::<usize>(), 0..6),
        per_line in any::<bool>(),
    ) {
        let points = split_points(input.len(), &cuts);
        for label in STREAM_CHARSETS {
            for set in [EncodeSet::UNRESERVED, EncodeSet::FORM, EncodeSet::named("iri").unwrap()] {
                let options = EncodeOptions {
                    charset: Charset::for_label(label).unwrap(),
                    set,
                    space_plus: set == EncodeSet::FORM,
                    per_line,
                    ..EncodeOptions::default()
                };
                let whole = run_encoder(&options, &input, &[0, input.len()]);
                let chunked = run_encoder(&options, &input, &points);
                prop_assert_eq!(&chunked, &whole, "{} {:?} cuts {:?}", label, set, points);
            }
        }
    }

    /// Lenient decoding loses nothing: with the binary charset step, every input byte that
    /// is not part of a valid escape (or removed whitespace) reaches the output.
    #[test]
    fn lenient_decoding_keeps_every_unescaped_byte(input in encodedish()) {
        let options = DecodeOptions { binary: true, keep_whitespace: true, ..DecodeOptions::default() };
        let decoded = urlkit::decode(&input, &options).output;
        let escapes = input.windows(3).filter(|w| w[0] == b'%' && w[1].is_ascii_hexdigit() && w[2].is_ascii_hexdigit()).count();
        // Escapes cannot overlap (`%` is not a hex digit), so each takes 3 bytes to 1.
        prop_assert_eq!(decoded.len(), input.len() - 2 * escapes);
    }
}

/// Findings that look ahead past an escape (`%25` + hex digits, `%E2` + a bidi tail) are
/// the same wherever chunks split, exhaustively over every pair of split points.
#[test]
fn lookahead_findings_do_not_depend_on_chunk_boundaries() {
    let input = b"a%2520b%E2%80%AEc%e2%81%a7%25%E2%80%41%0D%01";
    let options = DecodeOptions::default();
    let whole = run_decoder(&options, input, &[0, input.len()]);
    let codes: Vec<&str> = whole.1.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "multiple-layers",
            "bidi-character",
            "bidi-character",
            "invalid-sequence",
            "control-character"
        ]
    );
    for i in 0..=input.len() {
        for j in i..=input.len() {
            let chunked = run_decoder(&options, input, &[0, i, j, input.len()]);
            assert_eq!(chunked, whole, "split at {i}, {j}");
        }
    }
}

/// The options the column properties draw.
fn row_options(
    charset: &str,
    plus_space: bool,
    keep_whitespace: bool,
    text: bool,
) -> DecodeOptions {
    DecodeOptions {
        charset: CharsetChoice::for_label(charset).unwrap(),
        plus_space,
        keep_whitespace,
        text,
        ..DecodeOptions::default()
    }
}

/// Rows as a column holds them: mostly clean escapes and text, with now and then what the
/// decoder must repair or report.
fn rowish() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        6 => Just(b"%C3%A9".to_vec()),
        4 => Just(b"%E2%82%AC".to_vec()),
        3 => Just(b"%F0%9F%98%80".to_vec()),
        6 => "[a-zA-Z0-9/=&?._~-]{1,6}".prop_map(|s| s.into_bytes()),
        2 => Just(b"%2F".to_vec()),
        2 => Just("é".as_bytes().to_vec()),
        1 => Just(b"+".to_vec()),
        1 => Just(b"%0A%09%0d".to_vec()),
        1 => Just(b"%e2%81%a7".to_vec()),
        1 => Just(b"%E2%80%AE".to_vec()),
        1 => Just(b"%E2%80%AA".to_vec()),
        1 => Just(b"%E2%80".to_vec()),
        1 => Just(b"%E2".to_vec()),
        1 => Just(b"%2541".to_vec()),
        1 => Just(b"50%25".to_vec()),
        1 => Just(b"%25%20".to_vec()),
        1 => Just(b"%25a".to_vec()),
        1 => Just(b"%7F".to_vec()),
        1 => Just(b"%00".to_vec()),
        1 => Just(b"%C3".to_vec()),
        1 => Just(b"%".to_vec()),
        1 => Just(b"%4".to_vec()),
        1 => Just(b"%zz".to_vec()),
        1 => Just(b" ".to_vec()),
        1 => Just(b"\n".to_vec()),
        1 => Just(vec![0x0C]),
        1 => Just(vec![0xFF]),
        1 => Just(vec![0x01]),
    ];
    proptest::collection::vec(piece, 0..16).prop_map(|pieces| pieces.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `Codec::entry`, which decodes plain rows without the codec's machinery, gives each
    /// row of a column the same output, findings and rejection as resetting, feeding and
    /// finishing; and a codec used both ways in turn stays in step.
    #[test]
    fn an_entry_equals_reset_feed_and_finish(
        rows in proptest::collection::vec(rowish(), 1..6),
        plus_space in any::<bool>(),
        keep_whitespace in any::<bool>(),
        text in any::<bool>(),
        strict in any::<bool>(),
        charset in prop::sample::select(vec!["utf-8", "windows-1252", "auto"]),
        counting_only in any::<bool>(),
    ) {
        let options = row_options(charset, plus_space, keep_whitespace, text);
        // Keeping findings, or only counting them, as the column functions without
        // diagnostics do.
        let kept = if counting_only { 0 } else { urlkit::diagnostics::KEPT_FINDINGS };
        let mut by_entry = Codec::decoder(&options).strict(strict).keep_findings(kept);
        let mut by_parts = Codec::decoder(&options).strict(strict).keep_findings(kept);
        for row in &rows {
            let mut entry_out = b"before".to_vec();
            let entry = by_entry.entry(row, &mut entry_out);
            let mut parts_out = b"before".to_vec();
            by_parts.reset();
            let parts = by_parts
                .feed(row, &mut parts_out)
                .and_then(|()| by_parts.finish(&mut parts_out));
            if parts.is_err() {
                parts_out.truncate(6);
            }
            prop_assert_eq!(&entry, &parts, "row {:?}", String::from_utf8_lossy(row));
            prop_assert_eq!(&entry_out, &parts_out, "row {:?}", String::from_utf8_lossy(row));
            prop_assert_eq!(by_entry.diagnostics().items(), by_parts.diagnostics().items());
            prop_assert_eq!(by_entry.diagnostics().dropped(), by_parts.diagnostics().dropped());
            prop_assert_eq!(by_entry.diagnostics().counts(), by_parts.diagnostics().counts());
            prop_assert_eq!(by_entry.charset(), by_parts.charset());
        }
    }
}

/// A column's rows as they come: mostly clean, some with what the decoder must repair or
/// report, some empty or a single escape's worth, so that rows meet at every kind of edge.
fn column_rows() -> impl Strategy<Value = Vec<Vec<u8>>> {
    let clean = proptest::collection::vec(
        prop_oneof![
            Just(b"%C3%A9".to_vec()),
            Just(b"%E2%82%AC".to_vec()),
            Just(b"%F0%9F%98%80".to_vec()),
            "[a-zA-Z0-9/=&?._~+-]{1,6}".prop_map(|s| s.into_bytes()),
            Just("é".as_bytes().to_vec()),
            // A byte order mark: `auto` reads it as one (and leaves it out) at the start.
            Just(b"%EF%BB%BF".to_vec()),
            // ISO-2022-JP's escape into JIS X 0208, and UTF-16 of Latin letters without a
            // mark, both as literal bytes: what `auto` looks for before it settles on UTF-8.
            Just(b"\x1b$B".to_vec()),
            Just(b"a\x00b\x00".to_vec()),
        ],
        0..8,
    )
    .prop_map(|pieces| pieces.concat());
    // The end of a character or of a bidi control begun by the row before.
    let continuation = prop::sample::select(vec![&b"%A9"[..], b"%82%AC", b"%80%AE", b"%A9abc"])
        .prop_map(|bytes| bytes.to_vec());
    let cut = proptest::collection::vec(rowish(), 0..2)
        .prop_map(|pieces| pieces.concat().into_iter().take(3).collect());
    let row = prop_oneof![6 => clean, 3 => rowish(), 1 => cut, 1 => continuation];
    proptest::collection::vec(row, 0..40)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// `Entries::plain_entries`, which decodes the leading plain rows of a column in one
    /// pass over all of them, followed by `Entries::run_in_full` for each row it leaves
    /// (a whole row with findings in one pass when it can), gives every row the output,
    /// findings (in the same order) and rejection of the full decoder fed that row alone
    /// and finished (`Plan::run`). A runner dropping findings (`Entries::dropping_findings`)
    /// gives every row the full decoder's output; the rows it takes in runs are those the
    /// full decoder takes without a rejection.
    #[test]
    fn plain_entries_agree_with_an_entry_per_row(
        rows in column_rows(),
        plus_space in any::<bool>(),
        keep_whitespace in any::<bool>(),
        text in any::<bool>(),
        strict in any::<bool>(),
        charset in prop::sample::select(vec!["utf-8", "windows-1252", "auto"]),
        charset_only in any::<bool>(),
        dropping in any::<bool>(),
        marking in any::<bool>(),
    ) {
        let plan = DecodeSettings {
            charset: Some(charset.to_string()),
            plus_space,
            keep_whitespace,
            text,
            strict,
            ..DecodeSettings::default()
        }
        .check()
        .unwrap();
        // `auto` ranking the charset alone, as columns without diagnostics do, or also the
        // runners-up, which has no fast path.
        let plan = if charset_only { plan.ranking(urlkit::detect::Ranking::Charset) } else { plan };
        type Row = (Result<Vec<urlkit::Diagnostic>, urlkit::Rejection>, Vec<u8>);
        // Each row fed and finished on its own: the state machine itself, without the
        // fast paths for plain rows and for whole rows with findings.
        let expected: Vec<Row> = rows
            .iter()
            .map(|row| match plan.run(row) {
                Ok(outcome) => (Ok(outcome.diagnostics.items().to_vec()), outcome.output),
                Err(rejection) => (Err(rejection), Vec::new()),
            })
            .collect();

        let values = rows.concat();
        let offsets: Vec<usize> = std::iter::once(0)
            .chain(rows.iter().scan(0, |end, row| {
                *end += row.len();
                Some(*end)
            }))
            .collect();
        let mut in_runs = if dropping { plan.entries().dropping_findings() } else { plan.entries() };
        // Rows taken in runs with `auto` lose only the note that names UTF-8 as detected.
        let mut taken_in_runs = vec![false; rows.len()];
        let mut got: Vec<Row> = Vec::new();
        let (mut out, mut out_ends, mut marked) = (b"before".to_vec(), Vec::new(), Vec::new());
        while got.len() < rows.len() {
            let out_start = out.len();
            let first = got.len();
            marked.clear();
            let taken = if marking {
                in_runs.plain_entries_marking(&values, &offsets[first..], &mut out, &mut out_ends, &mut marked)
            } else {
                in_runs.plain_entries(&values, &offsets[first..], &mut out, &mut out_ends)
            };
            prop_assert_eq!(out_ends.len(), taken, "one end per entry decoded");
            prop_assert!(marked.windows(2).all(|pair| pair[0] < pair[1]) && marked.iter().all(|&k| k < taken));
            let mut row_start = out_start;
            for (k, &end) in out_ends.iter().enumerate() {
                let output = out[row_start..end].to_vec();
                if marked.contains(&k) {
                    // A marked row's findings come from the full decoder on the row alone,
                    // its output from the run.
                    let findings = in_runs
                        .run_in_full(&rows[first + k], &mut Vec::new())
                        .map(|entry| entry.diagnostics().items().to_vec());
                    got.push((findings, output));
                } else {
                    taken_in_runs[got.len()] = true;
                    got.push((Ok(vec![]), output));
                }
                row_start = end;
            }
            prop_assert_eq!(row_start, out.len(), "nothing of the entry left is in the output");
            out_ends.clear();
            if got.len() < rows.len() {
                // The row the run stopped before goes straight to the full decoder.
                let mut row_out = Vec::new();
                let outcome = in_runs
                    .run_in_full(&rows[got.len()], &mut row_out)
                    .map(|entry| entry.diagnostics().items().to_vec());
                got.push((outcome, row_out));
            }
        }
        for (row, (got, expected)) in got.iter().zip(&expected).enumerate() {
            let mut expected = expected.clone();
            if dropping && taken_in_runs[row] {
                // The findings are dropped, never a rejection.
                prop_assert!(expected.0.is_ok(), "row {} {:?}", row, String::from_utf8_lossy(&rows[row]));
                prop_assert_eq!(&got.1, &expected.1, "row {} {:?}", row, String::from_utf8_lossy(&rows[row]));
                continue;
            }
            if charset == "auto" && taken_in_runs[row] {
                // The full decoder's findings there: the detection of UTF-8, and nothing else.
                if let Ok(findings) = &mut expected.0 {
                    prop_assert!(
                        findings.len() == 1
                            && findings[0].code.as_str() == "charset-detected"
                            && findings[0].message.contains("UTF-8"),
                        "row {} {:?}: {:?}", row, String::from_utf8_lossy(&rows[row]), findings
                    );
                    findings.clear();
                }
            }
            prop_assert_eq!(got, &expected, "row {} {:?}", row, String::from_utf8_lossy(&rows[row]));
        }
    }
}

/// The per-line result of `input` made by hand: each line (LF or CRLF, the last one with
/// or without a line break) through its own codec's full decoder, its result followed by
/// `newline`, its findings moved to the line's place in the whole input; or the first
/// rejection, placed the same way.
fn lines_one_by_one(
    options: &DecodeOptions,
    strict: bool,
    input: &[u8],
) -> Result<(Vec<u8>, Vec<urlkit::Diagnostic>), urlkit::Rejection> {
    let entry_options = DecodeOptions {
        per_line: false,
        ..options.clone()
    };
    let mut codec = Codec::decoder(&entry_options).strict(strict);
    let place = |d: &urlkit::Diagnostic, number: u64, start: u64| urlkit::Diagnostic {
        offset: d.offset + start,
        line: Some(number),
        column: Some(d.offset + 1),
        ..d.clone()
    };
    let (mut out, mut findings) = (Vec::new(), Vec::new());
    let mut start = 0;
    let mut number = 1;
    while start < input.len() {
        let end = input[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |at| start + at);
        let line = &input[start..end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        // Fed and finished: the state machine itself, not a fast path for whole entries.
        codec.reset();
        let outcome = codec
            .feed(line, &mut out)
            .and_then(|()| codec.finish(&mut out));
        if let Err(rejection) = outcome {
            return Err(urlkit::Rejection(place(&rejection.0, number, start as u64)));
        }
        out.extend_from_slice(options.newline.as_bytes());
        findings.extend(
            codec
                .diagnostics()
                .items()
                .iter()
                .map(|d| place(d, number, start as u64)),
        );
        start = end + 1;
        number += 1;
    }
    Ok((out, findings))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Per-line decoding, whose plain lines are decoded a run at a time, gives every line
    /// the output, findings and rejection of the full decoder run on that line alone, in
    /// any chunking of the input; with `auto` too, where a plain line's charset is
    /// settled beside the run (its `charset-detected` note included), among lines that
    /// detection answers otherwise: a byte order mark, legacy bytes, ISO-2022-JP escapes,
    /// UTF-16 without a mark.
    #[test]
    fn plain_lines_agree_with_the_full_decoder_per_line(
        rows in proptest::collection::vec(
            prop_oneof![
                8 => column_rows(),
                1 => proptest::collection::vec(
                    prop::sample::select(vec![
                        &b"%EF%BB%BFcaf%C3%A9"[..],
                        b"%EF%BB%BF",
                        b"%83%89%81%5B%83%81%83%93",
                        b"%C0%E2%EE%F1",
                        b"%1B%24%42%24%22%1B%28%42",
                        b"a%00b%00c%00",
                        "\u{FEFF}é".as_bytes(),
                    ]).prop_map(|row| row.to_vec()),
                    1..3,
                ),
            ],
            1..4,
        ).prop_map(|parts| parts.concat()),
        crlf in proptest::collection::vec(any::<bool>(), 130),
        last_break in any::<bool>(),
        mut cuts in proptest::collection::vec(0usize..2000, 0..4),
        plus_space in any::<bool>(),
        keep_whitespace in any::<bool>(),
        strict in any::<bool>(),
        newline_crlf in any::<bool>(),
        text in any::<bool>(),
        auto in any::<bool>(),
        runners_up in prop::bool::weighted(0.2),
    ) {
        let mut input = Vec::new();
        for (k, row) in rows.iter().enumerate() {
            // Rows hold no line break of their own: each is one line.
            input.extend(row.iter().copied().filter(|&b| b != b'\n'));
            if k + 1 < rows.len() || last_break {
                input.extend_from_slice(if crlf[k] { b"\r\n" } else { b"\n" });
            }
        }
        let options = DecodeOptions {
            per_line: true,
            newline: if newline_crlf { Newline::CrLf } else { Newline::Lf },
            ranking: if runners_up { Ranking::RunnersUp } else { Ranking::Charset },
            ..row_options(if auto { "auto" } else { "utf-8" }, plus_space, keep_whitespace, text)
        };
        let expected = lines_one_by_one(&options, strict, &input);

        cuts.push(input.len());
        cuts.sort_unstable();
        let mut codec = Codec::decoder(&options).strict(strict);
        let mut out = Vec::new();
        let mut start = 0;
        let mut ran = Ok(());
        for &cut in &cuts {
            let cut = cut.min(input.len());
            ran = ran.and_then(|()| codec.feed(&input[start..cut], &mut out));
            start = cut;
        }
        ran = ran.and_then(|()| codec.finish(&mut out));
        match expected {
            Ok((expected_out, expected_findings)) => {
                prop_assert_eq!(ran, Ok(()));
                prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&expected_out));
                // Findings are in input order per stage: a chunk's end may change the
                // order of a line's findings of different stages, never the findings.
                let sorted = |findings: &[urlkit::Diagnostic]| {
                    let mut findings = findings.to_vec();
                    findings.sort_by_key(|d| (d.offset, d.code.as_str()));
                    findings
                };
                prop_assert_eq!(sorted(codec.diagnostics().items()), sorted(&expected_findings));
            }
            // A chunk's end may also change which of a line's strict errors of different
            // stages the full decoder meets first (an escape cut short after a sequence
            // that is not UTF-8, say): with cuts inside the input, the rejection is on the
            // same line.
            Err(rejection) if cuts.iter().any(|&cut| cut > 0 && cut < input.len()) => {
                let ran = ran.expect_err("the line one by one is rejected");
                prop_assert_eq!(ran.0.line, rejection.0.line);
            }
            Err(rejection) => prop_assert_eq!(ran, Err(rejection)),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A text decoder fed any bytes in any chunks writes what encoding_rs's own decoder
    /// writes for the whole (every invalid sequence one U+FFFD), and reports invalid
    /// sequences exactly when there are some, no more than the U+FFFD it writes; inputs
    /// run past the decoder's window of room (8 KiB).
    #[test]
    fn text_decoding_in_chunks_is_encoding_rs_s_decoding(
        bytes in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..64),
            proptest::collection::vec(any::<u8>(), 8000..20000),
        ],
        cuts in proptest::collection::vec(any::<usize>(), 0..4),
        which in 0usize..8,
    ) {
        let encoding = [
            encoding_rs::SHIFT_JIS,
            encoding_rs::GBK,
            encoding_rs::BIG5,
            encoding_rs::EUC_KR,
            encoding_rs::ISO_2022_JP,
            encoding_rs::WINDOWS_1253,
            encoding_rs::UTF_16LE,
            encoding_rs::UTF_8,
        ][which];
        let (expected, had_errors) = encoding.decode_without_bom_handling(&bytes);
        let mut decoder = TextDecoder::new(Charset::Whatwg(encoding));
        let (mut out, mut reported) = (Vec::new(), 0usize);
        for chunk in split_points(bytes.len(), &cuts).windows(2) {
            decoder.decode(&bytes[chunk[0]..chunk[1]], false, &mut out, |_, _| reported += 1);
        }
        decoder.decode(&[], true, &mut out, |_, _| reported += 1);
        let out = String::from_utf8(out).expect("UTF-8 out");
        prop_assert_eq!(&out, &expected);
        prop_assert_eq!(reported > 0, had_errors);
        let replacements = expected.matches('\u{FFFD}').count();
        prop_assert!(reported <= replacements, "{} reported, {} written", reported, replacements);
    }
}
