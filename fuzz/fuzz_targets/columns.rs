//! Rows of a column decoded in runs (`Entries::plain_entries`, with findings dropped, or
//! marked with `plain_entries_marking`) give each row what the same runner gives it alone:
//! the same output, no findings for a row a run takes unmarked (with `auto`, only the note
//! that names UTF-8), the same findings for a marked row and for a row a run stops before.
#![no_main]

use libfuzzer_sys::fuzz_target;
use urlkit::detect::Ranking;
use urlkit::settings::Entries;
use urlkit::{DecodeSettings, Diagnostic, Rejection};

#[path = "common.rs"]
mod common;

/// How the runs treat rows with findings.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Stop,
    Drop,
    Mark,
}

type Row = (Result<Vec<Diagnostic>, Rejection>, Vec<u8>);

/// `row` run alone by `runner`: its findings (or rejection) and output.
fn alone(runner: &mut Entries, row: &[u8]) -> Row {
    let mut out = Vec::new();
    let findings = runner
        .run(row, &mut out)
        .map(|entry| entry.diagnostics().items().to_vec());
    if findings.is_err() {
        out.clear();
    }
    (findings, out)
}

/// Rows of `data`, each as long as the byte before it says (at most 63).
fn rows(mut data: &[u8]) -> Vec<&[u8]> {
    let mut rows = Vec::new();
    while let Some((&length, rest)) = data.split_first() {
        let length = usize::from(length % 64).min(rest.len());
        rows.push(&rest[..length]);
        data = &rest[length..];
    }
    rows
}

fuzz_target!(|data: &[u8]| {
    let ([charset, flags], data) = common::split::<2>(data);
    let settings = DecodeSettings {
        charset: Some(["utf-8", "windows-1252", "auto"][usize::from(charset % 3)].to_string()),
        plus_space: flags & 1 != 0,
        keep_whitespace: flags & 2 != 0,
        text: flags & 4 != 0,
        strict: flags & 8 != 0,
        ..DecodeSettings::default()
    };
    let mode = [Mode::Stop, Mode::Drop, Mode::Mark, Mode::Stop][usize::from(flags >> 4 & 3)];
    let plan = settings
        .check()
        .expect("fixed settings are valid")
        .ranking(Ranking::Charset);
    let rows = rows(data);
    let mut reference = plan.entries();
    let expected: Vec<Row> = rows.iter().map(|row| alone(&mut reference, row)).collect();

    let values = rows.concat();
    let mut offsets = vec![0];
    for row in &rows {
        offsets.push(offsets.last().copied().unwrap_or(0) + row.len());
    }
    let mut runner = match mode {
        Mode::Drop => plan.entries().dropping_findings(),
        Mode::Stop | Mode::Mark => plan.entries(),
    };
    let auto = charset % 3 == 2;
    let (mut out, mut out_ends, mut marked) = (Vec::new(), Vec::new(), Vec::new());
    let mut row = 0;
    while row < rows.len() {
        let start = out.len();
        marked.clear();
        let taken = match mode {
            Mode::Mark => runner.plain_entries_marking(
                &values,
                &offsets[row..],
                &mut out,
                &mut out_ends,
                &mut marked,
            ),
            Mode::Stop | Mode::Drop => {
                runner.plain_entries(&values, &offsets[row..], &mut out, &mut out_ends)
            }
        };
        assert_eq!(out_ends.len(), taken, "one end per row taken");
        let mut row_start = start;
        for (k, &end) in out_ends.iter().enumerate() {
            let (findings, output) = &expected[row + k];
            assert_eq!(
                &out[row_start..end],
                &output[..],
                "row {} of a run",
                row + k
            );
            if marked.contains(&k) {
                let again = alone(&mut runner, rows[row + k]);
                assert_eq!(&again.0, findings, "a marked row's findings");
            } else {
                let findings = findings.as_ref().expect("a row taken is never rejected");
                let only_the_note = |f: &[Diagnostic]| {
                    f.len() == 1
                        && f[0].code.as_str() == "charset-detected"
                        && f[0].message.contains("UTF-8")
                };
                assert!(
                    mode == Mode::Drop || findings.is_empty() || (auto && only_the_note(findings)),
                    "row {} taken unmarked, but {findings:?}",
                    row + k
                );
            }
            row_start = end;
        }
        assert_eq!(
            row_start,
            out.len(),
            "nothing of the row left is in the output"
        );
        out_ends.clear();
        row += taken;
        if row < rows.len() {
            let mut row_out = Vec::new();
            let findings = runner
                .run_in_full(rows[row], &mut row_out)
                .map(|entry| entry.diagnostics().items().to_vec());
            assert_eq!(
                (findings, row_out),
                expected[row].clone(),
                "row {row}, which a run stopped before"
            );
            row += 1;
        }
    }
});
