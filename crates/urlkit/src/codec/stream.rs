//! The streaming codec every front end uses: either direction, fed in chunks, with its
//! findings kept up to a cap and, in strict mode, stopped at the first finding strict mode
//! rejects.

use super::plain::RunFindings;
use super::{CharsetChoice, DecodeOptions, Decoder, EncodeOptions, Encoder, Outcome};
use crate::charset::Charset;
use crate::detect::Detection;
use crate::diagnostics::{Diagnostic, Diagnostics, KEPT_FINDINGS};
use std::fmt;

/// Strict mode rejected the input at this finding (its code, byte offset and message, which
/// says the input was rejected there; see [`Diagnostic::rejected`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejection(pub Diagnostic);

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Rejection {}

/// A streaming percent codec of either direction: feed chunks, then finish. The output for
/// any chunking equals the output for the whole input, and so do the findings.
///
/// Bad input never stops a lenient codec: each problem is repaired as [`encode`] and
/// [`decode`] describe and reported in [`diagnostics`](Self::diagnostics), which keep the
/// first [`KEPT_FINDINGS`] findings (see [`keep_findings`](Self::keep_findings)) and count
/// the rest. A [`strict`](Self::strict) codec instead returns a [`Rejection`] at the first
/// finding strict mode rejects (a malformed escape, an invalid sequence, an unencodable
/// character, text that is not UTF-8), from that call and every later one.
///
/// [`encode`]: super::encode
/// [`decode`]: super::decode
///
/// ```
/// use urlkit::{Codec, DecodeOptions};
///
/// let mut codec = Codec::decoder(&DecodeOptions::default());
/// let mut out = Vec::new();
/// for chunk in [&b"%E5%BC"[..], b"%95 %E3", b"%81%8D"] {
///     codec.feed(chunk, &mut out).unwrap();
/// }
/// codec.finish(&mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), "引き");
/// ```
pub struct Codec {
    direction: Direction,
    strict: bool,
    /// Findings kept per input (see [`keep_findings`](Self::keep_findings)).
    kept: usize,
    diagnostics: Diagnostics,
    rejected: Option<Rejection>,
    /// Nothing was fed since the codec was made or reset.
    fresh: bool,
    /// Lenient entries with findings that leave the output as plain decoding gives it
    /// may be taken by [`plain_entries`](Self::plain_entries) (see
    /// [`drop_findings`](Self::drop_findings)).
    findings_dropped: bool,
}

enum Direction {
    Encode(Box<Encoder>, Charset),
    /// The decoder and the charset it was given (`None` for `auto`).
    Decode(Box<Decoder>, Option<Charset>),
}

impl Codec {
    /// A lenient encoding codec.
    pub fn encoder(options: &EncodeOptions) -> Self {
        Self::with(Direction::Encode(
            Box::new(Encoder::new(options)),
            options.charset,
        ))
    }

    /// A lenient decoding codec.
    pub fn decoder(options: &DecodeOptions) -> Self {
        let fixed = match options.charset {
            CharsetChoice::Fixed(c) => Some(c),
            CharsetChoice::Auto => None,
        };
        Self::with(Direction::Decode(Box::new(Decoder::new(options)), fixed))
    }

    fn with(direction: Direction) -> Self {
        Codec {
            direction,
            strict: false,
            kept: KEPT_FINDINGS,
            diagnostics: Diagnostics::with_limit(KEPT_FINDINGS),
            rejected: None,
            fresh: true,
            findings_dropped: false,
        }
    }

    /// This codec, rejecting input at the first finding strict mode rejects when `strict`.
    pub fn strict(mut self, strict: bool) -> Self {
        self.strict = strict;
        self.settle_strict_errors();
        self
    }

    /// This codec, keeping at most `limit` findings (default [`KEPT_FINDINGS`]) and
    /// counting the rest. A lenient codec that keeps none makes no message at all: its
    /// findings do not remember the first one strict mode would reject either
    /// ([`Diagnostics::first_strict_error`] is `None`).
    pub fn keep_findings(mut self, limit: usize) -> Self {
        self.kept = limit;
        self.diagnostics = Diagnostics::with_limit(limit);
        self.settle_strict_errors();
        self
    }

    /// This codec, for a caller that keeps only the output: when lenient, with a fixed
    /// UTF-8 charset (or `auto`, for entries whose bytes settle as UTF-8),
    /// [`plain_entries`](Self::plain_entries) also takes the entries whose
    /// findings leave the output as decoding every escape gives it (a `%` that starts no
    /// escape kept as it is, a second layer, a control or bidi character, bytes that are
    /// not UTF-8 repaired), and their findings are neither made nor counted. A strict codec
    /// is not changed: the runs take no entry with a finding it would reject.
    pub(crate) fn drop_findings(mut self) -> Self {
        self.findings_dropped = true;
        self
    }

    /// Only a strict codec, or one that keeps findings, remembers the first one strict
    /// mode rejects (and makes its message).
    fn settle_strict_errors(&mut self) {
        self.diagnostics
            .forget_strict_errors(!self.strict && self.kept == 0);
    }

    /// Readies this codec for a new input of its own, whatever it was given so far: the
    /// same as a new codec with the same options, strictness and findings cap (output
    /// state, findings, a rejection and what `auto` detected are all cleared), without
    /// building one again. Front ends that run many short entries, such as the rows of a
    /// column, reuse one codec this way.
    pub fn reset(&mut self) {
        match &mut self.direction {
            Direction::Encode(e, _) => e.reset(),
            Direction::Decode(d, _) => d.reset(),
        }
        self.diagnostics.reset(self.kept);
        self.rejected = None;
        self.fresh = true;
    }

    /// Runs `input` as a whole entry of its own, appending its output to `out`: the same
    /// output, findings and rejection as [`reset`](Self::reset), [`feed`](Self::feed) and
    /// [`finish`](Self::finish), which is what it does for any entry that needs repair or
    /// reporting. A short entry decoded to UTF-8 with nothing to report (the usual row of
    /// a column) is decoded straight into `out` instead, without the codec's machinery.
    ///
    /// Strict, a rejected entry leaves `out` as it was.
    ///
    /// ```
    /// use urlkit::{Codec, DecodeOptions};
    ///
    /// let mut codec = Codec::decoder(&DecodeOptions::default());
    /// let mut out = Vec::new();
    /// codec.entry(b"caf%C3%A9", &mut out).unwrap();
    /// assert!(codec.diagnostics().items().is_empty());
    /// codec.entry(b"%zz", &mut out).unwrap();
    /// assert_eq!(out, "café%zz".as_bytes());
    /// assert_eq!(codec.diagnostics().items()[0].offset, 0);
    /// ```
    pub fn entry(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Rejection> {
        if !self.fresh {
            self.reset();
        }
        if let Direction::Decode(decoder, _) = &mut self.direction {
            if decoder.decode_plain_entry(input, out) {
                return Ok(());
            }
        }
        self.entry_in_full(input, out)
    }

    /// [`entry`](Self::entry) without first trying the fast path for plain entries: the
    /// same output, findings and rejection, for an entry known to need repair or a report,
    /// such as the one [`Entries::plain_entries`](crate::settings::Entries::plain_entries) stopped before. Any entry is
    /// accepted; a plain one just takes the longer way.
    ///
    /// A lenient codec decoding to UTF-8 text decodes an entry of up to 64 KiB with no
    /// whitespace to remove in a single pass, repairing and reporting where the pass stops
    /// (the same output and findings, in the same order, as feeding and finishing); any
    /// other entry goes through the streaming decoder.
    ///
    /// ```
    /// use urlkit::{Codec, DecodeOptions};
    ///
    /// let mut codec = Codec::decoder(&DecodeOptions::default());
    /// let mut out = Vec::new();
    /// codec.entry_in_full(b"50%2541", &mut out).unwrap();
    /// assert_eq!(out, b"50%41");
    /// assert_eq!(codec.diagnostics().items()[0].code.as_str(), "multiple-layers");
    /// ```
    pub fn entry_in_full(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<(), Rejection> {
        if !self.fresh {
            self.reset();
        }
        // A lenient decoder's short UTF-8 entry takes a single pass, findings and all
        // (strict mode stops where feeding stops, which that pass does not mark).
        if let (Direction::Decode(decoder, _), false) = (&mut self.direction, self.strict) {
            if decoder.decode_whole_entry(input, out, &mut self.diagnostics) {
                self.fresh = false;
                return Ok(());
            }
        }
        let start = out.len();
        let outcome = self.feed(input, out).and_then(|()| self.finish(out));
        if outcome.is_err() {
            out.truncate(start);
        }
        outcome
    }

    /// Decodes the leading plain entries laid end to end in `values` in one pass: see
    /// [`Entries::plain_entries`](crate::settings::Entries::plain_entries), the column
    /// functions' way to it.
    ///
    /// With `marked`, a lenient codec with a fixed UTF-8 charset also takes the entries
    /// whose findings leave the output as decoding every escape gives it, and pushes the
    /// index (among `offsets`' entries) of each that may have findings onto `marked`.
    pub(crate) fn plain_entries(
        &mut self,
        values: &[u8],
        offsets: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
        marked: Option<&mut Vec<usize>>,
    ) -> usize {
        if !self.fresh {
            self.reset();
        }
        let findings = match (self.strict, &marked, self.findings_dropped) {
            (true, _, _) => RunFindings::Stop,
            (false, Some(_), _) => RunFindings::Mark,
            (false, None, true) => RunFindings::Drop,
            (false, None, false) => RunFindings::Stop,
        };
        match &mut self.direction {
            Direction::Decode(decoder, _) => {
                if let Some(plain) = decoder.plain.as_mut() {
                    plain.take_findings(findings);
                    let taken = plain.decode_run(values, offsets, out, out_ends);
                    if let (Some(marked), RunFindings::Mark) = (marked, findings) {
                        marked.extend_from_slice(plain.marked());
                    }
                    taken
                } else if let Some(plain) = decoder.plain_auto.as_mut() {
                    plain.take_findings(findings);
                    plain.decode_run(values, offsets, out, out_ends)
                } else {
                    0
                }
            }
            Direction::Encode(..) => 0,
        }
    }

    /// The charset of the entries [`plain_entries`](Self::plain_entries) decodes: the
    /// fixed one, or UTF-8 with `auto`; `None` when it decodes none.
    pub(crate) fn plain_charset(&self) -> Option<Charset> {
        match &self.direction {
            Direction::Decode(decoder, fixed) if decoder.plain.is_some() => *fixed,
            Direction::Decode(decoder, _) if decoder.plain_auto.is_some() => Some(Charset::UTF_8),
            _ => None,
        }
    }

    /// Processes the next chunk, appending to `out`.
    ///
    /// Strict, a finding strict mode rejects ends the stream: this call and every later one
    /// return that [`Rejection`], and what this call appended to `out` is to be discarded.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<u8>) -> Result<(), Rejection> {
        self.fresh = false;
        self.check()?;
        match &mut self.direction {
            Direction::Encode(e, _) => e.feed(chunk, out, &mut self.diagnostics),
            Direction::Decode(d, _) => d.feed(chunk, out, &mut self.diagnostics),
        }
        self.check()
    }

    /// Ends the input, appending what was held back to `out`. Strict, as
    /// [`feed`](Self::feed).
    pub fn finish(&mut self, out: &mut Vec<u8>) -> Result<(), Rejection> {
        self.fresh = false;
        self.check()?;
        match &mut self.direction {
            Direction::Encode(e, _) => e.finish(out, &mut self.diagnostics),
            Direction::Decode(d, _) => d.finish(out, &mut self.diagnostics),
        }
        self.check()
    }

    /// Feeds all of `input`, finishes and returns everything: output, charset, findings and
    /// what `auto` detected. Strict, the [`Rejection`] instead.
    pub fn run(mut self, input: &[u8]) -> Result<Outcome, Rejection> {
        let mut output = Vec::with_capacity(input.len() + input.len() / 2);
        self.feed(input, &mut output)?;
        self.finish(&mut output)?;
        Ok(Outcome {
            charset: self.charset(),
            detection: self.detection().cloned(),
            diagnostics: self.diagnostics,
            output,
            layers: None,
        })
    }

    fn check(&mut self) -> Result<(), Rejection> {
        if self.strict && self.rejected.is_none() {
            self.rejected = self
                .diagnostics
                .first_strict_error()
                .map(|finding| Rejection(finding.rejected()));
        }
        match &self.rejected {
            Some(rejection) => Err(rejection.clone()),
            None => Ok(()),
        }
    }

    /// The findings kept so far (in the order found) and the count of those beyond the cap.
    pub fn diagnostics(&self) -> &Diagnostics {
        &self.diagnostics
    }

    /// Takes out the findings kept so far, for a caller that reports them as it goes; later
    /// findings still count towards the cap.
    pub fn take_findings(&mut self) -> Vec<Diagnostic> {
        self.diagnostics.take_items()
    }

    /// The charset in use: the one chosen, or for decoding with `auto` what was detected for
    /// the current or last entry (`None` before any input).
    pub fn charset(&self) -> Option<Charset> {
        match &self.direction {
            Direction::Encode(_, c) => Some(*c),
            Direction::Decode(d, fixed) => d.charset().or(*fixed),
        }
    }

    /// What `auto` found for the current (or last) entry; `None` when encoding or decoding
    /// in a fixed charset.
    pub fn detection(&self) -> Option<&Detection> {
        match &self.direction {
            Direction::Encode(..) => None,
            Direction::Decode(d, _) => d.detection(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Code;

    fn malformed(count: usize) -> Vec<u8> {
        b"%zz".repeat(count)
    }

    #[test]
    fn a_lenient_codec_that_only_counts_remembers_no_strict_error() {
        let options = DecodeOptions::default();
        let input = b"a%FFb%zz";
        let mut counting = Codec::decoder(&options).keep_findings(0);
        let mut out = Vec::new();
        counting.entry(input, &mut out).unwrap();
        assert_eq!(out, "a\u{FFFD}b%zz".as_bytes());
        assert_eq!(counting.diagnostics().dropped(), 2);
        assert!(counting.diagnostics().first_strict_error().is_none());
        // Keeping findings, or strict, it is remembered as before (strict: rejected).
        let mut keeping = Codec::decoder(&options);
        keeping.entry(input, &mut Vec::new()).unwrap();
        let first = keeping.diagnostics().first_strict_error().map(|d| d.offset);
        assert_eq!(first, Some(1));
        let mut strict = Codec::decoder(&options).keep_findings(0).strict(true);
        let rejection = strict.entry(input, &mut Vec::new()).unwrap_err();
        assert_eq!(
            (rejection.0.code, rejection.0.offset),
            (Code::InvalidSequence, 1)
        );
    }

    #[test]
    fn any_chunking_gives_the_whole_result() {
        let options = DecodeOptions {
            charset: CharsetChoice::for_label("shift_jis").unwrap(),
            ..DecodeOptions::default()
        };
        let input = b"%83%89%81%5B%83%81%83%93%zz";
        let whole = Codec::decoder(&options).run(input).unwrap();
        let mut codec = Codec::decoder(&options);
        let mut out = Vec::new();
        for chunk in input.chunks(1) {
            codec.feed(chunk, &mut out).unwrap();
        }
        codec.finish(&mut out).unwrap();
        assert_eq!(out, whole.output);
        assert_eq!(codec.diagnostics().items(), whole.diagnostics.items());
        assert_eq!(String::from_utf8(out).unwrap(), "ラーメン%zz");
    }

    #[test]
    fn strict_rejects_at_the_first_finding_and_stays_rejected() {
        let mut codec = Codec::decoder(&DecodeOptions::default()).strict(true);
        let mut out = Vec::new();
        codec.feed(b"ab", &mut out).unwrap();
        let rejection = codec.feed(b"%zz%41", &mut out).unwrap_err();
        assert_eq!(
            (rejection.0.code, rejection.0.offset),
            (Code::MalformedEscape, 2)
        );
        assert_eq!(codec.feed(b"x", &mut out), Err(rejection.clone()));
        assert_eq!(codec.finish(&mut out), Err(rejection));
    }

    #[test]
    fn strict_sees_a_finding_past_the_cap() {
        // Ten control characters fill a cap of four; the malformed escape after them is not
        // kept, but strict mode still rejects at it.
        let mut input = b"%01".repeat(10);
        input.extend_from_slice(b"%zz");
        let lenient = Codec::decoder(&DecodeOptions::default())
            .keep_findings(4)
            .run(&input)
            .unwrap();
        assert_eq!(lenient.diagnostics.items().len(), 4);
        assert!(lenient.diagnostics.dropped() > 0);
        let strict = Codec::decoder(&DecodeOptions::default())
            .keep_findings(4)
            .strict(true)
            .run(&input)
            .unwrap_err();
        assert_eq!(strict.0.offset, 30);
    }

    #[test]
    fn findings_past_the_cap_are_counted() {
        let finished = Codec::decoder(&DecodeOptions::default())
            .keep_findings(3)
            .run(&malformed(5))
            .unwrap();
        assert_eq!(finished.diagnostics.items().len(), 3);
        assert_eq!(finished.diagnostics.dropped(), 2);
    }

    #[test]
    fn encoding_reports_its_charset_and_no_detection() {
        let codec = Codec::encoder(&EncodeOptions::default());
        assert_eq!(codec.charset(), Some(Charset::UTF_8));
        assert!(codec.detection().is_none());
    }

    /// Everything a finished input leaves in a codec: output or rejection, findings kept
    /// and dropped, charset and detection.
    type State = (
        Result<Vec<u8>, Rejection>,
        Vec<Diagnostic>,
        u64,
        Option<Charset>,
        Option<Detection>,
    );

    /// The state `input` leaves in `codec`, to compare two codecs by.
    fn state(codec: &mut Codec, input: &[u8]) -> State {
        let mut out = Vec::new();
        let ran = codec
            .feed(input, &mut out)
            .and_then(|()| codec.finish(&mut out))
            .map(|()| out);
        let diagnostics = codec.diagnostics();
        (
            ran,
            diagnostics.items().to_vec(),
            diagnostics.dropped(),
            codec.charset(),
            codec.detection().cloned(),
        )
    }

    /// The codecs the reset test runs: both directions, fixed and detected charsets,
    /// per-line framing, strictness and a small findings cap.
    fn codecs() -> Vec<fn() -> Codec> {
        vec![
            || Codec::decoder(&DecodeOptions::default()),
            || Codec::decoder(&DecodeOptions::default()).strict(true),
            || {
                Codec::decoder(&DecodeOptions {
                    charset: CharsetChoice::Auto,
                    ..DecodeOptions::default()
                })
            },
            || {
                Codec::decoder(&DecodeOptions {
                    charset: CharsetChoice::for_label("shift_jis").unwrap(),
                    per_line: true,
                    plus_space: true,
                    ..DecodeOptions::default()
                })
                .keep_findings(2)
            },
            || Codec::encoder(&EncodeOptions::default()).strict(true),
            || {
                Codec::encoder(&EncodeOptions {
                    charset: Charset::for_label("windows-1251").unwrap(),
                    per_line: true,
                    ..EncodeOptions::default()
                })
            },
        ]
    }

    /// Strict per-line decoding rejects at the same finding however the input is cut into
    /// chunks: the earliest in the input, not the first one some chunk happened to reveal.
    #[test]
    fn strict_rejection_does_not_depend_on_the_chunks() {
        let input = b"%E2%82%AC0=?0%E2%82%AC%C3%A9a%E2%80%0A%09%0d%%C3%A9\nx%zz";
        for per_line in [false, true] {
            for charset in [CharsetChoice::Fixed(Charset::UTF_8), CharsetChoice::Auto] {
                let make = || {
                    Codec::decoder(&DecodeOptions {
                        charset,
                        per_line,
                        ..DecodeOptions::default()
                    })
                    .strict(true)
                };
                let whole = make().run(input).unwrap_err();
                for cut in 0..=input.len() {
                    let mut codec = make();
                    let mut out = Vec::new();
                    let ran = codec
                        .feed(&input[..cut], &mut out)
                        .and_then(|()| codec.feed(&input[cut..], &mut out))
                        .and_then(|()| codec.finish(&mut out));
                    assert_eq!(
                        ran.unwrap_err(),
                        whole,
                        "cut at {cut}, per line {per_line}, {charset:?}"
                    );
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn a_reset_codec_equals_a_new_one(
            earlier in proptest::collection::vec(proptest::sample::select(PIECES), 0..8),
            cut in 0usize..40,
            later in proptest::collection::vec(proptest::sample::select(PIECES), 0..8),
        ) {
            let earlier = earlier.concat();
            let later = later.concat();
            for make in codecs() {
                let mut reused = make();
                // Whatever came before (finished, rejected or cut anywhere) is forgotten.
                let mut out = Vec::new();
                let _ = reused.feed(&earlier[..cut.min(earlier.len())], &mut out);
                if cut % 2 == 0 {
                    let _ = reused.finish(&mut out);
                }
                reused.reset();
                proptest::prop_assert_eq!(state(&mut reused, &later), state(&mut make(), &later));
            }
        }
    }

    const PIECES: &[&[u8]] = &[
        b"a",
        b"%41",
        b"%zz",
        b"%",
        b"%E5%BC",
        b"%95",
        b"%83%89",
        b"%FF",
        b"\n",
        b"\r",
        b" ",
        b"+",
        b"%EF%BB%BF",
        b"\xEF\xBB\xBF",
        b"\xC3\xA9",
        b"%2520",
        b"\xE2\x80\xAE",
        b"%E2%80%AE",
        b"\xC3",
    ];
}
