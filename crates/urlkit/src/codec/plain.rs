//! Plain UTF-8 entries: short entries (the rows of a column) that need none of the
//! decoder's state machine, decoded straight into the caller's buffer.
//!
//! An entry is plain when the full decoder would find nothing to report in it: every `%`
//! starts an escape with two hex digits, no escape needs attention (a control other than
//! tab, LF and CR, `%25`, a bidi control), no whitespace is removed, and the result is
//! UTF-8. For such an entry the output is the same as the full decoder's and there are no
//! findings; any other entry is left to the full decoder, which repairs and reports.

use super::decoder::{detected_message, EntryDecoder, DETECTION_WINDOW};
use super::entry_paths::{decodes_to_utf8_text, holds_whitespace_to_remove};
use super::kernel::{self, hex_value, portable, Kernels, StopTable, REMOVABLE_WHITESPACE};
use super::lines::Framing;
use super::whole::WholeUtf8;
use super::{utf8, CharsetChoice, DecodeOptions};
use crate::detect::{self, Ranking};
use crate::diagnostics::{Code, Diagnostics};

/// Input bytes of a run that are decoded and checked as one group (see
/// [`PlainUtf8::decode_run`]): long enough for the vector loops and the UTF-8 check to run
/// at full speed, short enough that an entry that is not plain wastes little of the work
/// done on the entries after it. 1 M URLs of 83 bytes through the column functions: with
/// findings dropped, 28 ns a row with groups of 512 bytes, 24 with 1,024, 23 with 2,048
/// (where a group with bytes to repair copies more); with diagnostics, where every row
/// with a finding stops a run, 1,024 is as fast as 512 or faster on clean rows (29 against
/// 35 ns), dirty ones (5 % with findings: 64 against 65) and the `percent` input (61
/// against 62), and smaller groups are slower on all three (256: 48, 73, 72). Since rows
/// with findings dropped stay in their group, 2,048 is faster than 1,024 on every kind of
/// row (200,000 of each, `column_rows`, best of three alternating: clean 22.4 against
/// 23.4 ns, 5 % malformed escapes 25.2 against 25.8, the `percent` input 26.4 against
/// 27.0; with diagnostics, clean 27.0 against 27.8, `percent` 33.1 against 37.5), and
/// 4,096 is slower where rows have bytes to repair.
const GROUP_BYTES: usize = 2048;

/// The input bytes of the group after one whose first entry stopped it (see
/// [`PlainUtf8::decode_run`]) grow back from this, doubling with every group taken whole.
const SMALL_GROUP_BYTES: usize = 128;

/// What a run of plain entries ([`PlainUtf8::decode_run`]) does with an entry that has
/// findings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RunFindings {
    /// The entry ends the run, for the caller's full decoder.
    Stop,
    /// The entry stays in the run when its findings leave the output as decoding every
    /// escape gives it; the findings are neither made nor counted.
    Drop,
    /// As with `Drop`, and the entry is marked for the caller to make its findings.
    Mark,
}

/// The fast path of a decoder whose options allow one.
pub(crate) struct PlainUtf8 {
    stops: StopTable,
    strip_whitespace: bool,
    /// Where [`decode_run`](Self::decode_run)'s spans decoded an escape that may need a
    /// report.
    flagged: Vec<usize>,
    /// Where the run's `%` bytes are (see [`scan_run`]).
    percents: Vec<u64>,
    /// How many `%` bytes come before each word of `percents` (and all of them, last).
    percents_before: Vec<u32>,
    /// The vector loops: the fastest this processor runs (another set in tests).
    kernels: &'static Kernels,
    /// What [`decode_run`](Self::decode_run) does with an entry that has findings (see
    /// [`take_findings`](Self::take_findings)).
    findings: RunFindings,
    /// With [`RunFindings::Mark`]: the entries of the last run with findings, by index in
    /// the run, in order.
    marked: Vec<usize>,
    /// The entries of a group with findings, by index in the group, as found (with
    /// `Drop`, only those repaired).
    group_marked: Vec<usize>,
    /// Whether a run that drops or marks findings ends at an entry whose detection may
    /// not settle as UTF-8 (see [`settle_as_utf8`](Self::settle_as_utf8)).
    settling: bool,
    /// The offsets in a group's input of the `%` bytes that start no escape, which
    /// [`decode_group`](Self::decode_group) copied as they are (with findings dropped or marked).
    kept_percents: Vec<usize>,
    /// Whether the last group ended early at an entry that ends in an incomplete escape,
    /// which it decoded (with findings dropped or marked): the run goes on after it.
    group_cut_short: bool,
    /// The repair of one broken part of a group's outputs ([`repair_outputs`]).
    repaired: Vec<u8>,
    /// Input bytes of the next group: [`GROUP_BYTES`], or fewer after a group whose first
    /// entry stopped it (one entry, then growing back as groups are taken whole), so that
    /// entries that are not plain one after another (a file of lines in legacy charsets
    /// with `auto`) are not each decoded with a whole group after them for nothing.
    group_bytes: usize,
}

impl PlainUtf8 {
    /// The fast path for `options`: decoding to UTF-8 text, one entry per input.
    pub(crate) fn for_options(options: &DecodeOptions) -> Option<Self> {
        Self::for_entries(options).filter(|_| !options.per_line)
    }

    /// The fast path for the entries of `options`, whatever their framing: decoding to
    /// UTF-8 text.
    fn for_entries(options: &DecodeOptions) -> Option<Self> {
        Self::with_kernels(options, kernel::kernels())
    }

    /// [`for_entries`](Self::for_entries) with these vector loops.
    pub(crate) fn with_kernels(options: &DecodeOptions, kernels: &'static Kernels) -> Option<Self> {
        decodes_to_utf8_text(options).then(|| PlainUtf8 {
            // Whitespace is looked for before decoding: the span never meets any to remove.
            stops: StopTable::new(false, options.plus_space),
            strip_whitespace: !options.keep_whitespace,
            flagged: Vec::new(),
            percents: Vec::new(),
            percents_before: Vec::new(),
            kernels,
            findings: RunFindings::Stop,
            marked: Vec::new(),
            group_marked: Vec::new(),
            settling: false,
            kept_percents: Vec::new(),
            group_cut_short: false,
            repaired: Vec::new(),
            group_bytes: GROUP_BYTES,
        })
    }

    /// What [`decode_run`](Self::decode_run) does with the entries that have findings:
    /// with [`RunFindings::Drop`] or [`RunFindings::Mark`] it also takes those that a
    /// lenient decoder decodes without the state machine: a `%` that starts no escape
    /// (kept as it is), a second layer (`%2541`: one layer decoded), a control character
    /// or a bidi control (decoded), and bytes that are not UTF-8 (each maximal part of a
    /// broken sequence made U+FFFD, entry by entry, after the group is decoded).
    /// Whitespace to remove still stops a run. Their findings are not made; with `Mark`
    /// their indices are noted ([`marked`](Self::marked)) for the caller to make them.
    pub(crate) fn take_findings(&mut self, findings: RunFindings) {
        self.findings = findings;
    }

    /// With `settling`, a run that drops or marks findings still ends, as with
    /// [`RunFindings::Stop`], at an entry whose output it would repair or that has an
    /// escaped NUL or ESC: with `auto`, detection may read those bytes in another charset
    /// (see [`detect::first_unsettling_byte`]), so the entry is left to the full decoder.
    pub(crate) fn settle_as_utf8(&mut self, settling: bool) {
        self.settling = settling;
    }

    /// With [`RunFindings::Mark`], after [`decode_run`](Self::decode_run): the index in
    /// the run of every entry it took that may have findings, in order. Every entry with a
    /// finding is among them; an entry is also marked when the run could not rule one out
    /// from its group alone (a `%25` at its end before an entry that starts with two hex
    /// digits, or an output that is UTF-8 before one that starts inside a character).
    pub(crate) fn marked(&self) -> &[usize] {
        &self.marked
    }

    /// Decodes all of `input` onto `out` and returns true when it is plain; otherwise
    /// leaves `out` as it was and returns false, for the full decoder to take the entry.
    pub(crate) fn decode(&mut self, input: &[u8], out: &mut Vec<u8>) -> bool {
        let kernels = self.kernels;
        if holds_whitespace_to_remove(input, self.strip_whitespace, kernels) {
            return false;
        }
        let start = out.len();
        let mut at = 0;
        loop {
            // The loops run whole vectors up to the input's end (see `Kernels::decode_span`).
            at += (kernels.decode_span)(&input[at..], &self.stops.class, out);
            debug_assert!(at <= input.len());
            if at >= input.len() {
                break;
            }
            // The span stops before a malformed escape or one that needs attention.
            let Some(value) = plain_escape(&input[at..]) else {
                out.truncate(start);
                return false;
            };
            out.push(value);
            at += 3;
        }
        if !utf8::is_utf8(&out[start..]) {
            out.truncate(start);
            return false;
        }
        true
    }

    /// Decodes the leading plain entries of `values`, where entry `i` is
    /// `values[offsets[i]..offsets[i + 1]]` (the entries lie end to end, as in an Arrow
    /// column), a group of entries at a time: their outputs are appended to `out` one after
    /// the other, with the length of `out` after each pushed onto `out_ends`. Returns how
    /// many entries it decoded; the entry after them is not plain (or there is none), and
    /// is left to the caller, with `out` holding nothing of it. With findings dropped
    /// ([`take_findings`](Self::take_findings)), the entries whose findings leave the
    /// output as decoding every escape gives it count as plain.
    ///
    /// Each group (about [`GROUP_BYTES`] of input) is scanned, decoded and checked as UTF-8
    /// on its own, so an entry
    /// that is not plain costs at most the rest of its group besides itself, however long
    /// the run: a column with a few such rows runs at about the speed of a clean one.
    ///
    /// # Panics
    /// When the offsets of the entries it looks at (those decoded and the group of the one
    /// that stops it) decrease or pass the end of `values`.
    pub(crate) fn decode_run(
        &mut self,
        values: &[u8],
        offsets: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
    ) -> usize {
        self.marked.clear();
        let Some((&first, ends)) = offsets.split_first() else {
            return 0;
        };
        let (mut done, mut start) = (0, first);
        while done < ends.len() {
            let rest = &ends[done..];
            let count = entries_within(rest, start.saturating_add(self.group_bytes)).max(1);
            let group = &rest[..count];
            // Every pair compared without a branch (the compiler vectorises the fold).
            let in_order = group
                .windows(2)
                .fold(true, |in_order, pair| in_order & (pair[0] <= pair[1]));
            assert!(
                group[0] >= start && in_order && group[count - 1] <= values.len(),
                "entry offsets must not decrease nor pass the end of the values"
            );
            self.group_marked.clear();
            let taken = self.decode_group(values, start, group, out, out_ends);
            self.group_bytes = if taken == 0 {
                0
            } else if taken == count {
                (self.group_bytes * 2).clamp(SMALL_GROUP_BYTES, GROUP_BYTES)
            } else {
                self.group_bytes
            };
            if self.findings == RunFindings::Mark && !self.group_marked.is_empty() {
                self.group_marked.sort_unstable();
                self.group_marked.dedup();
                let marked = self.group_marked.iter().take_while(|&&entry| entry < taken);
                self.marked.extend(marked.map(|&entry| done + entry));
            }
            done += taken;
            if taken < count && !self.group_cut_short {
                break;
            }
            start = ends[done - 1];
        }
        done
    }

    /// Decodes the leading plain entries of one group: entry `i` is
    /// `values[start..ends[0]]` for the first, `values[ends[i - 1]..ends[i]]` after it, in
    /// one pass over all of them (see [`decode_run`](Self::decode_run)).
    ///
    /// Entries laid end to end are decoded as one input, which is right when no escape
    /// crosses from one entry into the next: an entry whose last two bytes hold a `%`
    /// (an incomplete escape, which the full decoder reports) ends the group before it.
    fn decode_group(
        &mut self,
        values: &[u8],
        first: usize,
        ends: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
    ) -> usize {
        let mut entries = ends.len();
        let entry_at = |offset: usize| ends.partition_point(|&end| end <= offset);
        let end_of = |entries: usize| entries.checked_sub(1).map_or(first, |last| ends[last]);
        // Where each entry's output will end: each escape (every `%` of a plain entry
        // starts one) takes three bytes to one. An entry with whitespace to remove, or with
        // a `%` in its last two bytes (an incomplete escape), ends the group.
        let span = &values[first..end_of(entries)];
        let whitespace = scan_run(span, self.strip_whitespace, &mut self.percents);
        if whitespace < span.len() {
            entries = entry_at(first + whitespace);
        }
        let out_start = out.len();
        let first_end = out_ends.len();
        let dropped = self.findings != RunFindings::Stop;
        let marking = self.findings == RunFindings::Mark;
        // Whether the run takes only entries whose detection may settle as UTF-8.
        let settling = self.settling && dropped;
        // Whether the escapes that need attention are decoded without a look: findings
        // dropped, and none that could stop the run.
        let quiet = dropped && !marking && !settling;
        let group = GroupInput {
            percents: &self.percents,
            percents_before: &mut self.percents_before,
            bytes: span,
            first,
        };
        let (planned, cut_short) =
            plan_output(group, &ends[..entries], out_start, out_ends, dropped);
        entries = planned;

        // Decode up to the first escape that is malformed or needs a report (with findings
        // dropped, every escape, and every `%` that starts none as it is).
        let span = &values[first..end_of(entries)];
        self.kept_percents.clear();
        let quiet_kernel = self.kernels.decode_span_quiet.filter(|_| quiet);
        let lenient_kernel = self.kernels.decode_span_lenient.filter(|_| quiet);
        let mut at = 0;
        if let Some(decode) = lenient_kernel {
            // The whole group in one call, every `%` that starts no escape copied as it is
            // and noted.
            at = decode(span, &self.stops.class, out, &mut self.kept_percents);
        }
        while at < span.len() {
            self.flagged.clear();
            let taken = match (quiet_kernel, self.kernels.decode_span_flagging) {
                (Some(decode), _) => decode(&span[at..], &self.stops.class, out),
                (None, Some(decode)) => {
                    decode(&span[at..], &self.stops.class, out, &mut self.flagged)
                }
                (None, None) => (self.kernels.decode_span)(&span[at..], &self.stops.class, out),
            };
            let mut flagged = self.flagged.iter().map(|&offset| at + offset);
            if marking || settling {
                let mut unsettling = None;
                for offset in flagged {
                    match escape_in_run(&span[offset..], marking, settling) {
                        EscapeInRun::EndsGroup => {
                            unsettling = Some(offset);
                            break;
                        }
                        EscapeInRun::Marked => self.group_marked.push(entry_at(first + offset)),
                        EscapeInRun::Plain => {}
                    }
                }
                if let Some(offset) = unsettling {
                    entries = entries.min(entry_at(first + offset));
                    break;
                }
            } else if !dropped {
                if let Some(offset) = flagged.find(|&at| plain_escape(&span[at..]).is_none()) {
                    entries = entries.min(entry_at(first + offset));
                    break;
                }
            }
            at += taken;
            if at >= span.len() {
                break;
            }
            let value = if dropped {
                match escape_in_run(&span[at..], marking, settling) {
                    EscapeInRun::EndsGroup => {
                        entries = entries.min(entry_at(first + at));
                        break;
                    }
                    EscapeInRun::Marked => self.group_marked.push(entry_at(first + at)),
                    EscapeInRun::Plain => {}
                }
                // No escape crosses from one entry into the next: after an entry that
                // ends in an incomplete one, the next starts with a byte that is not a hex
                // digit, or the group ends (see `plan_output`).
                portable::escape_at(&span[at..])
            } else {
                plain_escape(&span[at..])
            };
            match value {
                Some(value) => {
                    out.push(value);
                    at += 3;
                }
                None if dropped => {
                    out.push(b'%');
                    self.kept_percents.push(at);
                    at += 1;
                }
                None => {
                    entries = entries.min(entry_at(first + at));
                    break;
                }
            }
        }
        // Each `%` kept as it is gives one byte of output where the plan counted it as
        // an escape's three bytes to one.
        for &percent in &self.kept_percents {
            let entry = entry_at(first + percent);
            for end in &mut out_ends[first_end + entry..] {
                *end += 2;
            }
        }
        out_ends.truncate(first_end + entries);
        if dropped {
            // Nothing of an entry that ended the group early (see `escape_in_run`).
            out.truncate(out_ends[first_end..].last().copied().unwrap_or(out_start));
            // Each output UTF-8 on its own, as the full decoder repairs it.
            let marked_before = self.group_marked.len();
            repair_outputs(
                out,
                &mut out_ends[first_end..],
                out_start,
                &mut self.repaired,
                &mut self.group_marked,
            );
            // The first entry repaired ends the group, those before it staying where they
            // are (see `repair_outputs`).
            let first_repaired = self.group_marked.get(marked_before).copied();
            if let Some(first) = first_repaired.filter(|_| settling) {
                out_ends.truncate(first_end + first);
                out.truncate(out_ends[first_end..].last().copied().unwrap_or(out_start));
                self.group_cut_short = false;
                return first;
            }
            self.group_cut_short = cut_short && entries == planned;
            return entries;
        }

        // The outputs are UTF-8 when all of them together are and none starts inside a
        // character (the one before would end inside it).
        let decoded_end = out_ends.last().copied().unwrap_or(out_start);
        let decoded = &out[out_start..decoded_end];
        if !utf8::is_utf8(decoded) {
            let valid = out_start + utf8::valid_up_to(decoded);
            entries = entries.min(out_ends[first_end..].partition_point(|&end| end <= valid));
        }
        entries = whole_characters(&out[..decoded_end], &out_ends[first_end..], entries);
        out_ends.truncate(first_end + entries);
        out.truncate(out_ends.last().copied().unwrap_or(out_start));
        self.group_cut_short = cut_short && entries == planned;
        entries
    }
}

/// How many of the leading `ends` (which do not decrease) are at most `limit`: a group's
/// worth of entries, found by doubling steps from the start and a binary search inside
/// the last, where a binary search over a whole run's ends (thousands) waited on a chain
/// of a dozen loads for every group of a dozen entries.
fn entries_within(ends: &[usize], limit: usize) -> usize {
    let mut step = 16;
    let mut below = 0;
    while below + step <= ends.len() && ends[below + step - 1] <= limit {
        below += step;
        step *= 2;
    }
    let window = &ends[below..ends.len().min(below + step)];
    below + window.partition_point(|&end| end <= limit)
}

/// Makes each of the outputs that end at `ends` in `out` (the first starting at `start`)
/// UTF-8 as the full decoder does, each on its own: every maximal part of a sequence that
/// is not UTF-8 becomes one U+FFFD. `ends` are moved with the outputs; `scratch` holds
/// the repair of one broken part, or of the outputs one pass repairs. When all of them are
/// UTF-8 already (almost always) it costs a vector pass; otherwise each broken part is
/// made U+FFFD where it is, the bytes after it moved once, and the rest checked again with
/// a vector pass, but where broken outputs come one after another ([`THICK`]), which one
/// pass repairs while they keep coming ([`repair_each_from`]). The index of each
/// output it repaired (one that is not UTF-8 on its own, or that the next starts inside
/// a character of) is pushed onto `repaired`, once.
fn repair_outputs(
    out: &mut Vec<u8>,
    ends: &mut [usize],
    start: usize,
    scratch: &mut Vec<u8>,
    repaired: &mut Vec<usize>,
) {
    let Some(&end) = ends.last() else {
        return;
    };
    debug_assert_eq!(out.len(), end, "the outputs end the buffer");
    // Where the bytes from `from` to `until` first stop being UTF-8 and how many bytes
    // the part that is not UTF-8 has (to `until` when the end cuts it short).
    let place = |error: Result<(), (usize, Option<usize>)>, from: usize, until: usize| {
        error
            .err()
            .map(|(valid, length)| (from + valid, length.unwrap_or(until - from - valid)))
    };
    // The outputs before `entry` are settled.
    let mut entry = 0;
    // Whether `entry` has been pushed onto `repaired`.
    let mut entry_repaired = false;
    let mut error = place(utf8::validate(&out[start..]), start, end);
    // All of them UTF-8 and none starting inside a character (almost always): each start
    // looked at without a branch (`|`, not `||`).
    let cut = || {
        ends.iter()
            .fold(false, |cut, &end| cut | starts_inside_character(out, end))
    };
    if error.is_none() && !cut() {
        return;
    }
    // The output of the last broken part repaired in place, and how many repaired in place
    // came each within [`NEAR_FAULTS`] of the one before.
    let (mut last_repaired, mut near_in_a_row) = (None, 0);
    loop {
        let (valid, length) = error.unwrap_or((out.len(), 0));
        // An output the next starts inside a character of, before that place: the bytes
        // are UTF-8 across the two, but neither is on its own.
        while entry < ends.len() && ends[entry] <= valid {
            if starts_inside_character(out, ends[entry]) {
                break;
            }
            entry += 1;
            entry_repaired = false;
        }
        if entry == ends.len() {
            return;
        }
        near_in_a_row = if last_repaired.is_some_and(|last| entry - last <= NEAR_FAULTS) {
            near_in_a_row + 1
        } else {
            0
        };
        if near_in_a_row >= THICK {
            // Broken outputs come thick: one pass repairs them while they keep coming.
            let done = entry_repaired.then_some(entry);
            let (after, last) = repair_each_from(out, ends, start, entry, done, scratch, repaired);
            (entry, entry_repaired, last_repaired) = (after, false, Some(last));
            // The pass repairs one output at least.
            let from = ends[after - 1];
            error = place(utf8::validate(&out[from..]), from, out.len());
            continue;
        }
        last_repaired = Some(entry);
        let entry_end = ends[entry];
        let (part_start, part_end) = if entry_end <= valid {
            // Cut inside a character: the whole output is repaired on its own.
            let entry_start = entry.checked_sub(1).map_or(start, |before| ends[before]);
            (entry_start, entry_end)
        } else {
            // The part that is not UTF-8 ends with its output.
            (valid, (valid + length).min(entry_end))
        };
        scratch.clear();
        if part_end - part_start == length && part_start == valid {
            scratch.extend_from_slice(utf8::REPLACEMENT);
        } else {
            utf8::repair_into(&out[part_start..part_end], scratch, |_, _| {});
        }
        let (old_length, new_length) = (part_end - part_start, scratch.len());
        let end = out.len();
        if new_length > old_length {
            out.resize(end + new_length - old_length, 0);
        }
        out.copy_within(part_end..end, part_start + new_length);
        out.truncate(end + new_length - old_length);
        out[part_start..part_start + new_length].copy_from_slice(scratch);
        for end_of in &mut ends[entry..] {
            *end_of = *end_of + new_length - old_length;
        }
        if !entry_repaired {
            repaired.push(entry);
            entry_repaired = true;
        }
        // Where the bytes left to check start.
        let from = part_start + new_length;
        if from == ends[entry] {
            // This output is UTF-8 on its own now (what the next starts with is the
            // next one's to repair).
            (entry, entry_repaired) = (entry + 1, false);
            if entry == ends.len() {
                return;
            }
        }
        error = place(utf8::validate(&out[from..]), from, out.len());
    }
}

/// How close (in outputs; 1: the next) a broken output comes after the last one
/// [`repair_outputs`] repaired in place to count as near it.
const NEAR_FAULTS: usize = 1;

/// Broken outputs near one another ([`NEAR_FAULTS`]) in a row that start a pass repairing
/// the outputs one after another ([`repair_each_from`]): a repair in place, which moves
/// the bytes after it and checks them again, costs about what two or three outputs
/// repaired in one pass do, so the pass pays where most outputs are broken (a column of
/// text in another charset), not where two happen to meet.
const THICK: usize = 2;

/// Makes the outputs from `first` on (of those ending at `ends` in `out`, the first
/// starting at `start`) UTF-8 each on its own, in one pass through `scratch`, until
/// [`CLEAN_RUN`] in a row needed nothing or the outputs end; the bytes after them move
/// once. Pushes the index of each it repaired (one not UTF-8 on its own, or that the next
/// starts inside a character of) onto `repaired`, but `done`, pushed already. Returns the
/// index of the output after the last it looked at, and of the last it repaired (or
/// `first`). The outputs before `first` are left as they are.
fn repair_each_from(
    out: &mut Vec<u8>,
    ends: &mut [usize],
    start: usize,
    first: usize,
    done: Option<usize>,
    scratch: &mut Vec<u8>,
    repaired: &mut Vec<usize>,
) -> (usize, usize) {
    let from = first.checked_sub(1).map_or(start, |before| ends[before]);
    scratch.clear();
    let (mut output_start, mut index, mut last, mut clean_run) = (from, first, first, 0);
    while index < ends.len() && clean_run < CLEAN_RUN {
        let end = ends[index];
        let mut broken = false;
        utf8::repair_into(&out[output_start..end], scratch, |_, _| broken = true);
        // Cut inside a character the next output goes on with.
        broken |= starts_inside_character(out, end);
        if broken {
            (last, clean_run) = (index, 0);
            if done != Some(index) {
                repaired.push(index);
            }
        } else {
            clean_run += 1;
        }
        output_start = end;
        ends[index] = from + scratch.len();
        index += 1;
    }
    // The repairs only grow the outputs: each broken part (one to three bytes) becomes
    // one U+FFFD (three).
    let grown = scratch.len() - (output_start - from);
    let old_end = out.len();
    out.resize(old_end + grown, 0);
    out.copy_within(output_start..old_end, output_start + grown);
    out[from..from + scratch.len()].copy_from_slice(scratch);
    for end in &mut ends[index..] {
        *end += grown;
    }
    (index, last)
}

/// Outputs in a row that need no repair for [`repair_each_from`] to stop: broken parts
/// have thinned out, and checking the rest with the vector validator costs less.
const CLEAN_RUN: usize = 2;

/// Of the first `count` outputs ending at `ends` in `decoded`, how many come before the
/// first that ends inside a character (the byte after it continues the character, so the
/// output after it starts inside one).
fn whole_characters(decoded: &[u8], ends: &[usize], count: usize) -> usize {
    (0..count)
        .find(|&entry| starts_inside_character(decoded, ends[entry]))
        .unwrap_or(count)
}

/// Whether the byte of `decoded` at `at` continues a character (none there: false).
fn starts_inside_character(decoded: &[u8], at: usize) -> bool {
    decoded.get(at).is_some_and(|&byte| (byte as i8) < -0x40)
}

/// `options` with UTF-8 for `auto`: what an entry whose detection settles as UTF-8 is
/// decoded with.
fn as_utf8(options: &DecodeOptions) -> DecodeOptions {
    DecodeOptions {
        charset: CharsetChoice::Fixed(crate::Charset::UTF_8),
        ..options.clone()
    }
}

/// With `auto`, the detection of an entry the UTF-8 fast path decoded (`raw` in, `decoded`
/// out) when it settles as UTF-8 without a byte order mark, as the full decoder would
/// detect it; `None` otherwise (the entry is then left to the full decoder). Text input
/// with a literal non-ASCII character is left to it too: detection reads such an entry
/// differently.
fn settled_as_utf8(
    raw: &[u8],
    text_input: bool,
    decoded: &[u8],
    ranking: Ranking,
) -> Option<detect::Detection> {
    if literal_characters_unread(raw, text_input) {
        return None;
    }
    match ranking {
        Ranking::Charset => detect::settled_utf8(decoded),
        Ranking::RunnersUp => Some(detect::detect_url_entry(decoded, true, ranking)),
    }
    .filter(|d| d.charset.is_utf8() && d.bom_length == 0)
}

/// With `auto`, whether detection leaves out literal characters of `raw`: text input
/// with a literal non-ASCII character, whose detection reads only the escapes.
fn literal_characters_unread(raw: &[u8], text_input: bool) -> bool {
    text_input && !raw.is_ascii()
}

/// The fast path for whole entries decoded with `auto` (a column's rows, each detected on
/// its own), when only the charset of each is asked for ([`Ranking::Charset`]): a plain
/// UTF-8 entry whose detection settles as UTF-8 without a byte order mark (ASCII or valid
/// UTF-8; see [`detect::settled_utf8`]) decodes as with a fixed UTF-8 charset, its one
/// finding the `charset-detected` note that names UTF-8.
pub(crate) struct PlainAuto {
    plain: PlainUtf8,
    /// The input is text: a literal non-ASCII character is not read by detection, so an
    /// entry with one is left to the full decoder.
    text: bool,
}

impl PlainAuto {
    /// The fast path for `options`: `auto` charset, whole entries, text out, charset only.
    pub(crate) fn for_options(options: &DecodeOptions) -> Option<Self> {
        if options.charset != CharsetChoice::Auto
            || options.ranking != Ranking::Charset
            || options.per_line
        {
            return None;
        }
        let mut plain = PlainUtf8::for_entries(&as_utf8(options))?;
        plain.settle_as_utf8(true);
        Some(PlainAuto {
            plain,
            text: options.text,
        })
    }

    /// With [`RunFindings::Drop`], [`decode_run`](Self::decode_run) also takes the entries
    /// with findings that a fixed UTF-8 charset's runs take with findings dropped, when
    /// their bytes are UTF-8 and have no escaped NUL or ESC (see
    /// [`PlainUtf8::settle_as_utf8`]); any other value stops at every entry with findings.
    pub(crate) fn take_findings(&mut self, findings: RunFindings) {
        let findings = match findings {
            RunFindings::Drop => RunFindings::Drop,
            RunFindings::Stop | RunFindings::Mark => RunFindings::Stop,
        };
        self.plain.take_findings(findings);
    }

    /// [`PlainUtf8::decode_run`], keeping only the leading entries whose detection settles
    /// as UTF-8 (the output of the others taken back out of `out`).
    pub(crate) fn decode_run(
        &mut self,
        values: &[u8],
        offsets: &[usize],
        out: &mut Vec<u8>,
        out_ends: &mut Vec<usize>,
    ) -> usize {
        let (out_start, first_end) = (out.len(), out_ends.len());
        let taken = self.plain.decode_run(values, offsets, out, out_ends);
        // The outputs are UTF-8: detection settles each as UTF-8 without a byte order mark
        // (see `detect::settled_utf8`) unless it starts with a byte order mark or holds a
        // byte that may make detection answer otherwise. One pass looks for such a byte in
        // all the outputs at once; the entries before the first that holds one need only
        // their first bytes looked at.
        let unsettling =
            detect::first_unsettling_byte(&out[out_start..]).map_or(out.len(), |at| out_start + at);
        let mut entry_start = out_start;
        for entry in 0..taken {
            let entry_end = out_ends[first_end + entry];
            let raw = &values[offsets[entry]..offsets[entry + 1]];
            let settles = entry_end <= unsettling
                && !out[entry_start..entry_end].starts_with(detect::UTF8_BOM)
                && !literal_characters_unread(raw, self.text);
            if !settles {
                out.truncate(entry_start);
                out_ends.truncate(first_end + entry);
                return entry;
            }
            entry_start = entry_end;
        }
        taken
    }
}

/// The most lines [`PlainLines`] gathers at a time.
const MOST_LINES_IN_A_RUN: usize = 1024;

/// Per-line decoding's fast path: whole lines of a chunk that are plain entries are decoded
/// a run at a time (see [`PlainUtf8::decode_run`]), each result followed by the separator;
/// any other line, and a line cut by the end of a chunk, goes through the per-line framing
/// and the full decoder, which repair and report.
///
/// With `auto`, a plain line is one whose result detection settles as UTF-8 without the
/// statistical model (ASCII only, valid UTF-8 or empty, with no byte order mark): the
/// result is the same as decoding it in UTF-8, and the line's only finding is the
/// `charset-detected` note, made here as the full decoder makes it.
pub(crate) struct PlainLines {
    plain: PlainUtf8,
    /// `auto`: each line's charset is detected, with this much of the detection.
    detect: Option<Ranking>,
    /// `auto` on text input: detection reads only the escapes, so a line with literal
    /// non-ASCII characters is left to the full decoder.
    text: bool,
    /// The escape of the separator written after each result (`%0A` or `%0D%0A`): a
    /// line's text followed by it decodes to the line's result followed by the separator,
    /// and is plain exactly when the line is (`%` never continues an escape cut short).
    separator: &'static [u8],
    /// The separator itself.
    newline: super::Newline,
    /// The fast path for whole lines with findings: in UTF-8 (with `auto`, for lines whose
    /// decoded bytes settle as UTF-8).
    whole: Option<WholeUtf8>,
    /// With `auto`: the findings of a line decoded to learn whether it settles as UTF-8,
    /// only counted.
    counted: Diagnostics,
    /// The lines of the run, each followed by `separator`, end to end.
    values: Vec<u8>,
    offsets: Vec<usize>,
    /// Where each line of the run, separator included, ends in the chunk.
    line_ends: Vec<usize>,
    out_ends: Vec<usize>,
    /// Where the last run's output starts in `out`.
    run_start: usize,
    /// The output of a marked line made again with its findings, dropped.
    output_again: Vec<u8>,
}

impl PlainLines {
    /// The fast path for per-line decoding with `options`: decoding to UTF-8 text, or to
    /// text in the charset `auto` detects line by line.
    pub(crate) fn for_options(options: &DecodeOptions) -> Option<Self> {
        Self::with_kernels(options, kernel::kernels())
    }

    /// [`for_options`](Self::for_options) with these vector loops.
    fn with_kernels(options: &DecodeOptions, kernels: &'static Kernels) -> Option<Self> {
        let auto = options.charset == CharsetChoice::Auto;
        // With `auto`, the lines that settle as UTF-8 are decoded as in UTF-8.
        let utf8;
        let entries = if auto {
            utf8 = as_utf8(options);
            &utf8
        } else {
            options
        };
        let mut plain = PlainUtf8::with_kernels(entries, kernels)?;
        let whole = WholeUtf8::with_kernels(entries, kernels);
        if whole.is_some() {
            // The runs go on past a line with findings, which the one pass for whole lines
            // makes from the line alone; with `auto`, only past one whose bytes are UTF-8
            // (the others' charset is detected on their own).
            plain.take_findings(RunFindings::Mark);
            plain.settle_as_utf8(auto);
        }
        let mut lines = Self::with_plain(options, plain)?;
        if auto {
            lines.detect = Some(options.ranking);
            lines.text = options.text;
        }
        lines.whole = whole;
        Some(lines)
    }

    /// [`for_options`](Self::for_options) with the fast path for entries given.
    fn with_plain(options: &DecodeOptions, plain: PlainUtf8) -> Option<Self> {
        options.per_line.then(|| PlainLines {
            plain,
            detect: None,
            text: false,
            separator: match options.newline {
                super::Newline::Lf => b"%0A",
                super::Newline::CrLf => b"%0D%0A",
            },
            newline: options.newline,
            whole: None,
            counted: Diagnostics::with_limit(0),
            values: Vec::new(),
            offsets: Vec::new(),
            line_ends: Vec::new(),
            out_ends: Vec::new(),
            run_start: 0,
            output_again: Vec::new(),
        })
    }

    /// Feeds `chunk` as [`Framing::feed`] does, with the same output and findings: runs of
    /// lines are decoded here, a whole line with findings by the one pass for whole lines
    /// when it takes the line (with `auto`, when its decoded bytes settle as UTF-8), every
    /// other line by `framing`.
    ///
    /// The whole lines of the chunk are gathered a batch at a time. With a fixed UTF-8
    /// charset a run goes on past the lines with findings it decodes without the state
    /// machine ([`RunFindings::Mark`]), whose findings the one pass for whole lines then
    /// makes from each line alone; a run that stops at a line (whitespace to remove, or
    /// with `auto` a line that is not plain) resumes after it, on the lines already
    /// gathered, so a line with findings costs little more than its own decoding.
    pub(crate) fn feed(
        &mut self,
        framing: &mut Framing<EntryDecoder>,
        chunk: &[u8],
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        let mut rest = chunk;
        while !rest.is_empty() {
            if framing.at_line_start() {
                let gathered = self.gather_lines(rest);
                if gathered > 0 {
                    self.decode_gathered(rest, gathered, framing, out, diagnostics);
                    rest = &rest[self.line_ends[gathered - 1]..];
                    continue;
                }
            }
            // The rest of a line begun before, or the start of one that ends in a later
            // chunk.
            let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |at| at + 1);
            framing.feed(&rest[..end], out, diagnostics);
            rest = &rest[end..];
        }
    }

    /// Decodes the `gathered` lines of `input` that [`gather_lines`](Self::gather_lines)
    /// gathered: runs of plain lines here, each line that stops a run on its own.
    fn decode_gathered(
        &mut self,
        input: &[u8],
        gathered: usize,
        framing: &mut Framing<EntryDecoder>,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) {
        let mut line = 0;
        while line < gathered {
            let mut lines = self.decode_run_from(line, out);
            if let Some(ranking) = self.detect {
                lines = self.detected(input, line, lines, ranking, framing, out, diagnostics);
            }
            if lines > 0 {
                self.pass_run(input, line, lines, framing, diagnostics);
                line += lines;
                if line == gathered {
                    break;
                }
            }
            // A line that is not plain (with `auto`, or not settled as UTF-8).
            let (whole_line, text) = self.line_of(input, line);
            let (number, offset) = framing.line_position();
            let taken = match self.detect {
                None => {
                    decode_whole_line(self.whole.as_mut(), text, number, offset, out, diagnostics)
                }
                Some(ranking) => {
                    self.whole_settled(text, number, offset, ranking, out, diagnostics)
                }
            };
            if taken {
                out.extend_from_slice(self.newline.as_bytes());
                framing.pass_lines(1, whole_line.len() as u64);
            } else {
                framing.feed(whole_line, out, diagnostics);
            }
            line += 1;
        }
    }

    /// Passes the `lines` gathered lines of `input` from `first` on, which a run decoded,
    /// through `framing`, making the findings of those the run marked, each from the line
    /// alone (its output, the same as the run's, is dropped).
    fn pass_run(
        &mut self,
        input: &[u8],
        first: usize,
        lines: usize,
        framing: &mut Framing<EntryDecoder>,
        diagnostics: &mut Diagnostics,
    ) {
        // With `auto`, `detected` made the marked lines' findings after their notes.
        let marked = if self.detect.is_none() {
            self.plain.marked().len()
        } else {
            0
        };
        let mut passed = first;
        for index in 0..marked {
            let line = first + self.plain.marked()[index];
            let start = self.line_start(line);
            if line > passed {
                let bytes = start - self.line_start(passed);
                framing.pass_lines((line - passed) as u64, bytes as u64);
            }
            let (whole_line, text) = self.line_of(input, line);
            let (number, offset) = framing.line_position();
            self.output_again.clear();
            let whole = self.whole.as_mut();
            let taken = decode_whole_line(
                whole,
                text,
                number,
                offset,
                &mut self.output_again,
                diagnostics,
            );
            if taken {
                framing.pass_lines(1, whole_line.len() as u64);
            } else {
                framing.feed(whole_line, &mut self.output_again, diagnostics);
            }
            passed = line + 1;
        }
        let end = first + lines;
        if end > passed {
            let bytes = self.line_ends[end - 1] - self.line_start(passed);
            framing.pass_lines((end - passed) as u64, bytes as u64);
        }
    }

    /// Where gathered line `line` starts in the input.
    fn line_start(&self, line: usize) -> usize {
        line.checked_sub(1)
            .map_or(0, |before| self.line_ends[before])
    }

    /// Gathered line `line` of `input` with its line break, and its text without it.
    fn line_of<'i>(&self, input: &'i [u8], line: usize) -> (&'i [u8], &'i [u8]) {
        let whole_line = &input[self.line_start(line)..self.line_ends[line]];
        let text = &whole_line[..whole_line.len() - 1];
        (whole_line, text.strip_suffix(b"\r").unwrap_or(text))
    }

    /// `auto`: decodes `text`, a whole line with findings (line `number`, at input offset
    /// `offset`), onto `out` and its findings onto `diagnostics` as the full decoder does,
    /// and returns true, when the one pass for whole lines takes it and its decoded bytes
    /// are UTF-8 that detection settles as UTF-8 without a byte order mark (a malformed
    /// escape, a control character or a second layer in UTF-8 text): its
    /// `charset-detected` note, then its findings. Otherwise returns false having done
    /// nothing, for the full decoder to take the line.
    ///
    /// The line is decoded twice: once with the findings only counted, to see whether its
    /// bytes are UTF-8 and what detection says of them, then with the note before the
    /// findings, as the full decoder orders them.
    fn whole_settled(
        &mut self,
        text: &[u8],
        number: u64,
        offset: u64,
        ranking: Ranking,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) -> bool {
        // A line as long as detection's window is detected on the window alone.
        let Some(whole) = self
            .whole
            .as_mut()
            .filter(|_| text.len() < DETECTION_WINDOW)
        else {
            return false;
        };
        if self.text && !text.is_ascii() {
            return false;
        }
        let start = out.len();
        self.counted.reset(0);
        if !whole.decode(text, offset, out, &mut self.counted) {
            return false;
        }
        // Bytes that are not UTF-8 were repaired: detection reads them otherwise.
        let repaired = self
            .counted
            .counts()
            .iter()
            .any(|&(code, _)| code == Code::InvalidSequence);
        let detection = if repaired {
            None
        } else {
            settled_as_utf8(text, self.text, &out[start..], ranking)
        };
        out.truncate(start);
        let Some(detection) = detection else {
            return false;
        };
        diagnostics.start_line(number, offset);
        diagnostics.push_lazy(Code::CharsetDetected, offset, || {
            detected_message(&detection)
        });
        let taken = whole.decode(text, offset, out, diagnostics);
        debug_assert!(taken, "the same line is taken again");
        taken
    }

    /// `auto`: of the `lines` gathered lines from `first` on that
    /// [`decode_run_from`](Self::decode_run_from) just decoded onto `out`, keeps those before
    /// the first whose charset detection does not settle as UTF-8 without a byte order mark
    /// (taking the rest out of `out`), notes each kept line's detection as the full decoder
    /// does, followed by the findings of a line the run marked (made from the line alone
    /// by the one pass for whole lines, as [`whole_settled`](Self::whole_settled) makes
    /// them), and returns how many it kept. A marked line as long as detection's window
    /// is not kept.
    #[allow(clippy::too_many_arguments)]
    fn detected(
        &mut self,
        input: &[u8],
        first: usize,
        lines: usize,
        ranking: Ranking,
        framing: &Framing<EntryDecoder>,
        out: &mut Vec<u8>,
        diagnostics: &mut Diagnostics,
    ) -> usize {
        let separator = self.separator.len() / 3;
        let (first_line, first_start) = framing.line_position();
        let run_input_start = self.line_start(first);
        let mut line_start = self.run_start;
        let mut next_mark = 0;
        for kept in 0..lines {
            let line = first + kept;
            let line_end = self.out_ends[kept];
            let text = &out[line_start..line_end - separator];
            let input_start = self.line_start(line);
            let (_, raw) = self.line_of(input, line);
            let marked = self.plain.marked().get(next_mark) == Some(&kept);
            let detection = settled_as_utf8(raw, self.text, text, ranking)
                .filter(|_| !marked || raw.len() < DETECTION_WINDOW);
            let Some(detection) = detection else {
                out.truncate(line_start);
                return kept;
            };
            let offset = first_start + (input_start - run_input_start) as u64;
            diagnostics.start_line(first_line + kept as u64, offset);
            diagnostics.push_lazy(Code::CharsetDetected, offset, || {
                detected_message(&detection)
            });
            if let (true, Some(whole)) = (marked, self.whole.as_mut()) {
                next_mark += 1;
                self.output_again.clear();
                // A line of a run has no whitespace to remove, and this one is shorter
                // than the window, so the one pass takes it.
                let taken = whole.decode(raw, offset, &mut self.output_again, diagnostics);
                debug_assert!(taken && self.output_again == text, "the run's line again");
            }
            line_start = line_end;
        }
        lines
    }

    /// Gathers the leading whole lines of `input`, at most [`MOST_LINES_IN_A_RUN`], each
    /// without its line break and followed by the separator's escape, into `values`;
    /// returns how many.
    fn gather_lines(&mut self, input: &[u8]) -> usize {
        self.values.clear();
        self.offsets.clear();
        self.offsets.push(0);
        self.line_ends.clear();
        let mut start = 0;
        // The line breaks of each 64 bytes as the bits of a word, where a search from
        // each line's start paid a call and its setup for every line.
        let mut last = [0; 64];
        for (block_start, block) in blocks_of_64(input, &mut last) {
            let mut breaks = line_breaks(block);
            while breaks != 0 {
                let end = block_start + breaks.trailing_zeros() as usize;
                breaks &= breaks - 1;
                let line = &input[start..end];
                self.values
                    .extend_from_slice(line.strip_suffix(b"\r").unwrap_or(line));
                self.values.extend_from_slice(self.separator);
                self.offsets.push(self.values.len());
                start = end + 1;
                self.line_ends.push(start);
                if self.line_ends.len() == MOST_LINES_IN_A_RUN {
                    return MOST_LINES_IN_A_RUN;
                }
            }
        }
        self.line_ends.len()
    }

    /// Decodes the gathered lines from `first` on that are plain onto `out`, each result
    /// followed by the separator, up to the first that is not; returns how many.
    fn decode_run_from(&mut self, first: usize, out: &mut Vec<u8>) -> usize {
        self.out_ends.clear();
        self.run_start = out.len();
        self.plain.decode_run(
            &self.values,
            &self.offsets[first..],
            out,
            &mut self.out_ends,
        )
    }
}

/// With a fixed UTF-8 charset: decodes `text`, a whole line with findings (line `number`,
/// at input offset `offset`), onto `out` and its findings onto `diagnostics` in one pass
/// (`whole`), and returns true; returns false having done nothing when there is no such
/// pass or it does not take the line (whitespace to remove, a line too long).
fn decode_whole_line(
    whole: Option<&mut WholeUtf8>,
    text: &[u8],
    number: u64,
    offset: u64,
    out: &mut Vec<u8>,
    diagnostics: &mut Diagnostics,
) -> bool {
    whole.is_some_and(|whole| {
        diagnostics.start_line(number, offset);
        whole.decode(text, offset, out, diagnostics)
    })
}

/// A group's input, as [`plan_output`] reads it.
struct GroupInput<'a> {
    /// Where the `%` bytes of `bytes` are (see [`scan_run`]).
    percents: &'a [u64],
    /// Where planning counts the `%` bytes before each word of `percents`
    /// ([`count_before_each_word`]).
    percents_before: &'a mut Vec<u32>,
    /// The group's input, from its first entry's start.
    bytes: &'a [u8],
    /// Where `bytes` start in the values the entries' ends count in.
    first: usize,
}

/// Pushes onto `out_ends` where each entry's output will end (from `out_start`), given
/// where the entries of `group` end (as offsets into the values): each escape of a plain
/// entry takes three bytes to one. Returns how many entries it planned, stopping before
/// the first whose last two bytes hold a `%` (an escape must not run on into the entry
/// after it). With `ending_in_percent`, such an entry is planned too, and unless the
/// entry after it starts with a byte that is not a hex digit (which no escape takes),
/// planning stops after it (the second value is then true).
fn plan_output(
    group: GroupInput<'_>,
    ends: &[usize],
    out_start: usize,
    out_ends: &mut Vec<usize>,
    ending_in_percent: bool,
) -> (usize, bool) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has the instruction the function is compiled for.
        return unsafe { plan_output_popcnt(group, ends, out_start, out_ends, ending_in_percent) };
    }
    plan_output_with(group, ends, out_start, out_ends, ending_in_percent)
}

/// [`plan_output`] with the processor's own bit count.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn plan_output_popcnt(
    group: GroupInput<'_>,
    ends: &[usize],
    out_start: usize,
    out_ends: &mut Vec<usize>,
    ending_in_percent: bool,
) -> (usize, bool) {
    plan_output_with(group, ends, out_start, out_ends, ending_in_percent)
}

#[inline(always)]
fn plan_output_with(
    group: GroupInput<'_>,
    ends: &[usize],
    out_start: usize,
    out_ends: &mut Vec<usize>,
    ending_in_percent: bool,
) -> (usize, bool) {
    let GroupInput {
        percents,
        percents_before,
        bytes,
        first,
    } = group;
    count_before_each_word(percents, percents_before);
    let percent_at = |offset: usize| percents[offset / 64] >> (offset % 64) & 1;
    let mut start = 0;
    for (entry, &end) in ends.iter().enumerate() {
        let end = end - first;
        // The last two bytes of the entry, without a loop: a branch the processor
        // predicts (it almost never stops here).
        let last = if end > start { percent_at(end - 1) } else { 0 };
        let second_last = if end >= start + 2 {
            percent_at(end - 2)
        } else {
            0
        };
        let incomplete = last | second_last != 0;
        if incomplete && !ending_in_percent {
            return (entry, false);
        }
        // Counted before the entry's word, then in it: entries end one or two words on
        // from the last, a count of words to add that the processor would mispredict.
        let below = (1u64 << (end % 64)) - 1;
        let escapes = percents_before[end / 64] as usize
            + percents
                .get(end / 64)
                .map_or(0, |bits| (bits & below).count_ones() as usize);
        // Each escape of a plain entry takes three bytes to one; more `%` bytes than that
        // allows mean one of them starts no escape, and the entry is not plain.
        let Some(out_end) = (out_start + end).checked_sub(2 * escapes) else {
            return (entry, false);
        };
        out_ends.push(out_end);
        if incomplete
            && bytes
                .get(end)
                .is_some_and(|&next| hex_value(next).is_some())
        {
            return (entry + 1, true);
        }
        start = end;
    }
    (ends.len(), false)
}

/// Sets `before` to how many bits are set in the words of `words` before each, and the
/// count of all of them last.
#[inline(always)]
fn count_before_each_word(words: &[u64], before: &mut Vec<u32>) {
    before.clear();
    let mut count = 0;
    before.extend(words.iter().map(|word| {
        let before_word = count;
        count += word.count_ones();
        before_word
    }));
    before.push(count);
}

/// Sets `percents` to one bit per byte of `bytes`, 64 to a word, set where the byte is
/// `%`, and returns the offset of the first whitespace the decoder removes (the length of
/// `bytes` when there is none, or when `whitespace` is false), where it stops.
fn scan_run(bytes: &[u8], whitespace: bool, percents: &mut Vec<u64>) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the processor has the instructions the function is compiled for.
        return unsafe { scan_run_avx512(bytes, whitespace, percents) };
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has the instructions the function is compiled for.
        return unsafe { scan_run_avx2(bytes, whitespace, percents) };
    }
    scan_run_with(bytes, whitespace, percents, scan_block)
}

/// [`scan_run`] 32 bytes at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn scan_run_avx2(bytes: &[u8], whitespace: bool, percents: &mut Vec<u64>) -> usize {
    // The closure has this function's AVX2 too.
    scan_run_with(bytes, whitespace, percents, |block| scan_block_avx2(block))
}

/// [`scan_run`] 64 bytes at a time, the last bytes (fewer than 64) read with a masked
/// load where the others copy them into a block of their own: a copy of a length known
/// only at run time is a call, and the load after it waits for the copy's stores.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn scan_run_avx512(bytes: &[u8], whitespace: bool, percents: &mut Vec<u64>) -> usize {
    use std::arch::x86_64::{
        __m512i, _mm512_cmpeq_epi8_mask, _mm512_cmple_epu8_mask, _mm512_loadu_si512,
        _mm512_maskz_loadu_epi8, _mm512_set1_epi8, _mm512_shuffle_epi8,
    };
    percents.clear();
    percents.reserve(bytes.len().div_ceil(64));
    let percent = _mm512_set1_epi8(b'%' as i8);
    let space = _mm512_set1_epi8(b' ' as i8);
    // The removable whitespace (tab, LF, FF, CR, space) by its low four bits, each lane of
    // 16 bytes alike: a byte up to 0x20 is removable when it equals its entry.
    let mut table = [0x7Fu8; 64];
    for lane in table.chunks_exact_mut(16) {
        for byte in [b'\t', b'\n', 0x0C, b'\r', b' '] {
            lane[usize::from(byte & 0x0F)] = byte;
        }
    }
    // SAFETY: `table` holds the 64 bytes the unaligned load reads.
    let table = unsafe { _mm512_loadu_si512(table.as_ptr().cast::<__m512i>()) };
    let mut at = 0;
    while at < bytes.len() {
        let left = bytes.len() - at;
        // SAFETY: the load reads `bytes[at..at + 64]`, or for the last block only the
        // bytes the mask selects, all inside `bytes` (a masked load touches no other).
        let block = unsafe {
            let start = bytes.as_ptr().add(at);
            if left >= 64 {
                _mm512_loadu_si512(start.cast::<__m512i>())
            } else {
                _mm512_maskz_loadu_epi8((1u64 << left) - 1, start.cast::<i8>())
            }
        };
        percents.push(_mm512_cmpeq_epi8_mask(block, percent));
        if whitespace && _mm512_cmple_epu8_mask(block, space) != 0 {
            // The shuffle reads the table by the low four bits of each byte (all of them
            // below 0x80 here, where the shuffle would give zero).
            let removable = _mm512_cmpeq_epi8_mask(_mm512_shuffle_epi8(table, block), block)
                & _mm512_cmple_epu8_mask(block, space);
            if removable != 0 {
                return (at + removable.trailing_zeros() as usize).min(bytes.len());
            }
        }
        at += 64;
    }
    bytes.len()
}

/// The `%` bytes and the bytes up to 0x20 of 64 bytes, as the bits of two words, with
/// AVX2's byte compares and masks.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn scan_block_avx2(block: &[u8; 64]) -> (u64, u64) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_min_epu8, _mm256_movemask_epi8,
        _mm256_set1_epi8,
    };
    let (mut percent, mut low) = (0, 0);
    for (half, bytes) in block.chunks_exact(32).enumerate() {
        // SAFETY: `bytes` holds the 32 bytes the unaligned load reads.
        let lane = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast::<__m256i>()) };
        let space = _mm256_set1_epi8(b' ' as i8);
        let percent_mask =
            _mm256_movemask_epi8(_mm256_cmpeq_epi8(lane, _mm256_set1_epi8(b'%' as i8)));
        let low_mask = _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_min_epu8(lane, space), lane));
        percent |= u64::from(percent_mask as u32) << (32 * half);
        low |= u64::from(low_mask as u32) << (32 * half);
    }
    (percent, low)
}

#[inline(always)]
fn scan_run_with(
    bytes: &[u8],
    whitespace: bool,
    percents: &mut Vec<u64>,
    scan_block: impl Fn(&[u8; 64]) -> (u64, u64),
) -> usize {
    percents.clear();
    percents.reserve(bytes.len().div_ceil(64));
    let mut last = [0; 64];
    for (at, block) in blocks_of_64(bytes, &mut last) {
        let (percent, low) = scan_block(block);
        percents.push(percent);
        // Removable whitespace is among the bytes up to 0x20.
        if whitespace && low != 0 {
            if let Some(found) = block.iter().position(|&b| REMOVABLE_WHITESPACE.contains(b)) {
                return (at + found).min(bytes.len());
            }
        }
    }
    bytes.len()
}

/// `bytes` 64 at a time, each with its offset; the last part, when shorter, copied into
/// `last` (whose other bytes stay as they are: zeros where the caller made them so).
#[inline]
fn blocks_of_64<'a>(
    bytes: &'a [u8],
    last: &'a mut [u8; 64],
) -> impl Iterator<Item = (usize, &'a [u8; 64])> {
    let (blocks, rest) = bytes.as_chunks::<64>();
    last[..rest.len()].copy_from_slice(rest);
    let last: &'a [u8; 64] = last;
    (0..)
        .step_by(64)
        .zip(blocks.iter().chain((!rest.is_empty()).then_some(last)))
}

/// The `%` bytes and the bytes up to 0x20 of 64 bytes, as the bits of two words.
#[inline]
fn scan_block(block: &[u8; 64]) -> (u64, u64) {
    scan_block_for(block, b'%')
}

/// The LF bytes of 64 bytes, as the bits of a word.
#[inline]
fn line_breaks(block: &[u8; 64]) -> u64 {
    scan_block_for(block, b'\n').0
}

/// The bytes equal to `sought` and the bytes up to 0x20 of 64 bytes, as the bits of two
/// words, with SSE2's byte compares and masks (every x86-64 processor has them); a caller
/// that takes the first word alone has the second's work left out when inlined.
#[cfg(target_arch = "x86_64")]
#[inline]
fn scan_block_for(block: &[u8; 64], sought: u8) -> (u64, u64) {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_set1_epi8,
    };
    let (mut found, mut low) = (0, 0);
    for (quarter, bytes) in block.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is part of x86-64 itself, and `bytes` holds the 16 bytes the
        // unaligned load reads.
        let (found_mask, low_mask) = unsafe {
            let lane = _mm_loadu_si128(bytes.as_ptr().cast::<__m128i>());
            let space = _mm_set1_epi8(b' ' as i8);
            (
                _mm_movemask_epi8(_mm_cmpeq_epi8(lane, _mm_set1_epi8(sought as i8))),
                _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(lane, space), lane)),
            )
        };
        found |= u64::from(found_mask as u16) << (16 * quarter);
        low |= u64::from(low_mask as u16) << (16 * quarter);
    }
    (found, low)
}

/// [`scan_block_for`] where SSE2 is not at hand.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
fn scan_block_for(block: &[u8; 64], sought: u8) -> (u64, u64) {
    scan_block_by_words_for(block, sought)
}

/// [`scan_block_by_words_for`] of `%`: [`scan_block`] without SSE2.
#[cfg(test)]
#[inline]
fn scan_block_by_words(block: &[u8; 64]) -> (u64, u64) {
    scan_block_by_words_for(block, b'%')
}

/// [`scan_block_for`] eight bytes at a time in a `u64`. The second word is exact where it
/// is zero (no byte up to 0x20) and may mark more bytes after one that is.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline]
fn scan_block_by_words_for(block: &[u8; 64], sought: u8) -> (u64, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // The first byte of each set high bit, lowest first, as eight bits.
    let gather = |high_bits: u64| (high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
    let (mut percent, mut low) = (0, 0);
    for (eighth, bytes) in block.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(bytes.try_into().unwrap());
        let zero = portable::bytes_equal(word, sought);
        // A byte below 0x21 borrows: its high bit is set (later bytes may be too).
        let below = word.wrapping_sub(ONES * 0x21) & !word & HIGH;
        percent |= gather(zero) << (8 * eighth);
        low |= gather(below) << (8 * eighth);
    }
    (percent, low)
}

#[cfg(test)]
#[test]
fn line_breaks_are_found_as_a_byte_by_byte_search_finds_them() {
    for seed in 0..200u64 {
        let block: [u8; 64] = std::array::from_fn(|at| {
            let mixed = (seed * 64 + at as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56;
            [b'\n', b'\r', b'%', 0x8A, 0x0B, b'a'][mixed as usize % 6]
        });
        let expected = (0..64).fold(0u64, |bits, at| bits | u64::from(block[at] == b'\n') << at);
        assert_eq!(line_breaks(&block), expected, "{block:?}");
        assert_eq!(
            scan_block_by_words_for(&block, b'\n').0,
            expected,
            "{block:?}"
        );
    }
}

#[cfg(test)]
#[test]
fn a_run_is_scanned_for_escapes_and_whitespace() {
    let bytes: Vec<u8> = (0..200u32)
        .map(|i| match i {
            _ if i % 7 == 3 || i % 64 == 63 => b'%',
            _ => (i * 37) as u8 | 0x21,
        })
        .collect();
    let mut bits = vec![];
    assert_eq!(scan_run(&bytes, true, &mut bits), 200);
    assert_eq!(bits.len(), 4);
    for (i, &byte) in bytes.iter().enumerate() {
        assert_eq!(bits[i / 64] >> (i % 64) & 1 == 1, byte == b'%', "byte {i}");
    }
    assert_eq!(bits[3] >> 8, 0, "nothing past the end");
    for (at, low) in [(150, b' '), (64, b'\n'), (199, 0x0C), (0, b'\t')] {
        let mut with_low = bytes.clone();
        // A control that is not whitespace does not stop the scan.
        with_low[at / 2] = 0x01;
        with_low[at] = low;
        assert_eq!(scan_run(&with_low, true, &mut bits), at, "{low:#x} at {at}");
        assert_eq!(scan_run(&with_low, false, &mut bits), 200);
    }
    // Every length and every place of whitespace, each scan as the one by words.
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512bw") {
        let mut by_words = vec![];
        for length in 0..bytes.len() {
            for low in [
                None,
                Some(b' '),
                Some(b'\r'),
                Some(0x0C),
                Some(0x01),
                Some(0x00),
            ] {
                let mut with_low = bytes[..length].to_vec();
                if let Some(low) = low {
                    with_low
                        .iter_mut()
                        .skip(length * 2 / 3)
                        .for_each(|b| *b = low);
                }
                for whitespace in [false, true] {
                    let expected = scan_run_with(&with_low, whitespace, &mut by_words, |b| {
                        scan_block_by_words(b)
                    });
                    // SAFETY: the processor has AVX-512BW.
                    let got = unsafe { scan_run_avx512(&with_low, whitespace, &mut bits) };
                    assert_eq!((got, &bits), (expected, &by_words), "{length} {low:?}");
                }
            }
        }
    }
    for block in bytes.chunks_exact(64) {
        let block: &[u8; 64] = block.try_into().unwrap();
        assert_eq!(scan_block_by_words(block), scan_block(block));
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2.
            assert_eq!(unsafe { scan_block_avx2(block) }, scan_block(block));
        }
        let mut spaced = *block;
        spaced[9] = b' ';
        spaced[40] = b'\r';
        let (percent, low) = scan_block_by_words(&spaced);
        assert_eq!(percent, scan_block(&spaced).0);
        assert_eq!(low.trailing_zeros(), 9);
        assert_eq!(low & scan_block(&spaced).1, scan_block(&spaced).1);
    }
}

/// The byte the escape at the start of `rest` decodes to, when it is one of those that may
/// need attention but need no report here: tab, LF, CR, `%25` not followed by two hex
/// digits (a literal `%`, not a second layer), and 0xE2 that does not begin a bidi
/// control. `None` for any other, and for a malformed escape.
///
/// `rest` may run on into the entries after this one: what they hold can only make the
/// answer `None`, leaving the entry to the full decoder, which sees it alone.
fn plain_escape(rest: &[u8]) -> Option<u8> {
    match portable::escape_at(rest)? {
        value @ (b'\t' | b'\n' | b'\r') => Some(value),
        b'%' if !starts_with_two_hex_digits(&rest[3..]) => Some(b'%'),
        0xE2 if !starts_bidi_control(&rest[3..]) => Some(0xE2),
        _ => None,
    }
}

/// What a `%` met in a run with findings dropped or marked does to it (see
/// [`escape_in_run`]).
enum EscapeInRun {
    /// Nothing to report: the run goes on.
    Plain,
    /// It has a finding, and the run marks its entry.
    Marked,
    /// Its entry ends the group, for the full decoder.
    EndsGroup,
}

/// What the `%` at the start of `rest` does to a run with findings dropped (or `marking`):
/// with `settling`, an escape of NUL or of ISO-2022-JP's escape byte, which may make
/// detection answer other than UTF-8 (see [`detect::first_unsettling_byte`]), ends the
/// group before its entry rather than having a run whose detection would stop there; a
/// `%` the plain path would not take is marked when `marking`.
fn escape_in_run(rest: &[u8], marking: bool, settling: bool) -> EscapeInRun {
    let unsettling =
        || portable::escape_at(rest).is_some_and(|b| detect::UNSETTLING_BYTES.contains(&b));
    if settling && unsettling() {
        EscapeInRun::EndsGroup
    } else if marking && plain_escape(rest).is_none() {
        EscapeInRun::Marked
    } else {
        EscapeInRun::Plain
    }
}

/// Whether `rest` starts with two hex digits: after `%25`, a second layer of encoding
/// (`%2541`), which the full decoder reports.
fn starts_with_two_hex_digits(rest: &[u8]) -> bool {
    matches!(rest, [high, low, ..] if hex_value(*high).is_some() && hex_value(*low).is_some())
}

/// Whether the input after an escape of 0xE2 continues it into a bidi control
/// (`%80%AA`..`%80%AE`, `%81%A6`..`%81%A9`), which the full decoder reports.
fn starts_bidi_control(rest: &[u8]) -> bool {
    let second = portable::escape_at(rest);
    let third = rest.get(3..).and_then(portable::escape_at);
    matches!(
        (second, third),
        (Some(0x80), Some(0xAA..=0xAE)) | (Some(0x81), Some(0xA6..=0xA9))
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(options: &DecodeOptions, input: &[u8]) -> Option<String> {
        let mut out = b"kept".to_vec();
        let taken = PlainUtf8::for_options(options)
            .expect("UTF-8 text has a fast path")
            .decode(input, &mut out);
        if !taken {
            assert_eq!(
                out, b"kept",
                "a row left to the full decoder leaves the output as it was"
            );
            return None;
        }
        Some(String::from_utf8(out[4..].to_vec()).unwrap())
    }

    #[test]
    fn clean_rows_are_decoded_here() {
        let options = DecodeOptions::default();
        let row = b"https://ex.com/caf%C3%A9?q=%E2%82%AC%20%F0%9F%98%80&x=%E2%80%94%0A%09";
        assert_eq!(
            plain(&options, row).unwrap(),
            "https://ex.com/café?q=€ 😀&x=—\n\t"
        );
        assert_eq!(plain(&options, b"").unwrap(), "");
        // A literal `%` (`%25`) not followed by two hex digits is not a second layer.
        assert_eq!(plain(&options, b"50%25%20off%25").unwrap(), "50% off%");
        assert_eq!(plain(&options, b"%25zz%25a").unwrap(), "%zz%a");
        assert_eq!(plain(&options, "é+".as_bytes()).unwrap(), "é+");
        let plus = DecodeOptions {
            plus_space: true,
            ..DecodeOptions::default()
        };
        assert_eq!(plain(&plus, b"a+b").unwrap(), "a b");
        let keep = DecodeOptions {
            keep_whitespace: true,
            ..DecodeOptions::default()
        };
        assert_eq!(plain(&keep, b"a b\n").unwrap(), "a b\n");
    }

    #[test]
    fn rows_with_something_to_report_are_left_to_the_decoder() {
        let options = DecodeOptions::default();
        for row in [
            &b"a%zz"[..],
            b"a%4",
            b"a%",
            b"%2541",
            b"50%25ab",
            b"%00",
            b"%7F",
            b"%E2%80%AE",
            b"%e2%81%a6",
            b"%C3",
            b"%FF",
            b"\xFF",
            b"a b",
            b"a\nb",
            b"\x0C",
        ] {
            assert_eq!(
                plain(&options, row),
                None,
                "{:?}",
                String::from_utf8_lossy(row)
            );
        }
    }

    #[test]
    fn clean_rows_laid_end_to_end_are_decoded_in_one_run() {
        let mut plain = PlainUtf8::for_options(&DecodeOptions::default()).unwrap();
        let values = b"caf%C3%A9%E2%82%AC%20x%0Ay%F0%9F%98%80";
        let (mut out, mut out_ends) = (b"kept".to_vec(), vec![]);
        let offsets = [0, 9, 18, 18, 25, 26, 38];
        assert_eq!(
            plain.decode_run(values, &offsets, &mut out, &mut out_ends),
            6
        );
        assert_eq!(out, "keptcafé€ x\ny😀".as_bytes());
        assert_eq!(out_ends, [9, 12, 12, 15, 16, 20]);
        // Split inside a character ("%C3" | "%A9"), the first row is not plain.
        out.truncate(4);
        out_ends.clear();
        assert_eq!(
            plain.decode_run(values, &[0, 6, 9], &mut out, &mut out_ends),
            0
        );
        assert_eq!((&out[..], &out_ends[..]), (&b"kept"[..], &[][..]));
        // Nor is a row that ends in an incomplete escape ("%C" | "3%A9").
        assert_eq!(
            plain.decode_run(values, &[0, 5, 9], &mut out, &mut out_ends),
            0
        );
        // More `%` bytes than escapes could fit in a row ("%%%ab": three escapes would
        // need nine bytes) stop the run at that row, whatever the output held before.
        for kept in [&b""[..], b"kept"] {
            let (mut out, mut out_ends) = (kept.to_vec(), vec![]);
            assert_eq!(
                plain.decode_run(b"ok%%%ab", &[0, 2, 7], &mut out, &mut out_ends),
                1
            );
            assert_eq!(
                (&out[kept.len()..], &out_ends[..]),
                (&b"ok"[..], &[kept.len() + 2][..])
            );
            out.truncate(kept.len());
            out_ends.clear();
            assert_eq!(
                plain.decode_run(b"%%%ab", &[0, 5], &mut out, &mut out_ends),
                0
            );
            assert_eq!((&out[..], &out_ends[..]), (kept, &[][..]));
        }
    }

    #[test]
    fn with_findings_dropped_rows_with_findings_stay_in_the_run() {
        let mut plain = PlainUtf8::for_options(&DecodeOptions::default()).unwrap();
        plain.take_findings(RunFindings::Drop);
        // A malformed escape, a second layer, a control and a bidi character, an incomplete
        // escape at the end of a row (before one that starts with hex digits), a character
        // cut by the end of a row and one cut short inside a row; then whitespace to
        // remove, which stops the run.
        let rows: [&[u8]; 10] = [
            b"a%zzb",
            b"%2541%20",
            b"%00%7F",
            b"%E2%80%AE",
            b"100%",
            b"41%4",
            b"%C3%A9",
            b"%E2%82",
            b"%AC%C3x",
            b"a b",
        ];
        let values = rows.concat();
        let mut offsets = vec![0];
        for row in rows {
            offsets.push(offsets.last().unwrap() + row.len());
        }
        let (mut out, mut out_ends) = (Vec::new(), Vec::new());
        assert_eq!(
            plain.decode_run(&values, &offsets, &mut out, &mut out_ends),
            9
        );
        let expected = [
            &b"a%zzb"[..],
            b"%41 ",
            b"\x00\x7F",
            "\u{202E}".as_bytes(),
            b"100%",
            b"41%4",
            "é".as_bytes(),
            "\u{FFFD}".as_bytes(),
            "\u{FFFD}\u{FFFD}x".as_bytes(),
        ];
        let mut start = 0;
        for (end, expected) in out_ends.iter().zip(expected) {
            assert_eq!(&out[start..*end], expected);
            start = *end;
        }
        // Without, the first row stops it.
        plain.take_findings(RunFindings::Stop);
        out.clear();
        out_ends.clear();
        assert_eq!(
            plain.decode_run(&values, &offsets, &mut out, &mut out_ends),
            0
        );
    }

    /// Rows for the kernel property test: clean pieces, and pieces that each make the full
    /// decoder repair or report, or sit on the edge of doing so.
    const PIECES: &[&[u8]] = &[
        b"a",
        b"xyz/",
        b"%20",
        b"%2F",
        b"%C3%A9",
        b"%E2%82%AC",
        b"%F0%9F%98%80",
        b"%EF%BF%BD",
        b"\xC3\xA9",
        b"+",
        b"%0A",
        b"%09",
        b"%25",
        b"%25%20",
        b"%2541",
        b"%25a",
        b"%E2",
        b"%E2%80%AE",
        b"%80",
        b"%C3",
        b"%FF",
        b"\xFF",
        b"%00",
        b"%1B",
        b"%7F",
        b"%",
        b"%4",
        b"%zz",
        b" ",
        b"\r",
    ];

    /// Broken outputs one after another are repaired in one pass from the third on, which
    /// stops after two whole ones; the outputs after are checked again and a later broken
    /// one repaired in place, each output as the standard library's lossy conversion
    /// repairs it alone.
    #[test]
    fn thick_broken_outputs_are_repaired_in_one_pass_and_the_rest_checked_again() {
        let outputs: [&[u8]; 9] = [
            b"caf\xE9",
            b"\xE9t\xE9",
            b"a\xE2\x82",
            b"\xAC b",
            b"fine",
            b"\xC3\xA9t\xC3\xA9",
            b"whole",
            b"x\xFFy",
            b"end",
        ];
        let mut out = b"kept".to_vec();
        let mut ends = Vec::new();
        for output in outputs {
            out.extend_from_slice(output);
            ends.push(out.len());
        }
        let (mut scratch, mut repaired) = (Vec::new(), Vec::new());
        repair_outputs(&mut out, &mut ends, 4, &mut scratch, &mut repaired);
        let mut start = 4;
        let texts: Vec<&str> = ends
            .iter()
            .map(|&end| {
                let text = std::str::from_utf8(&out[start..end]).unwrap();
                start = end;
                text
            })
            .collect();
        let lossy: Vec<String> = outputs
            .iter()
            .map(|output| String::from_utf8_lossy(output).into_owned())
            .collect();
        assert_eq!(texts, lossy);
        assert_eq!(&out[..4], b"kept");
        // The third ends inside the euro sign the fourth ends.
        assert_eq!(repaired, [0, 1, 2, 3, 7]);
    }

    proptest::proptest! {
        /// The entries within a limit are those a binary search over all of them counts.
        #[test]
        fn entries_within_a_limit_are_counted_as_a_binary_search_counts_them(
            lengths in proptest::collection::vec(0usize..200, 0..300),
            limit in 0usize..40_000,
        ) {
            let ends: Vec<usize> = lengths
                .iter()
                .scan(0, |end, length| {
                    *end += length;
                    Some(*end)
                })
                .collect();
            proptest::prop_assert_eq!(
                entries_within(&ends, limit),
                ends.partition_point(|&end| end <= limit)
            );
        }

        /// Each output is repaired as the standard library's lossy conversion repairs it
        /// alone, the outputs keep their order and nothing else in the buffer moves, and
        /// exactly the outputs that are not UTF-8 on their own or that the next byte
        /// continues a character of are reported, once each and in order.
        #[test]
        fn outputs_are_repaired_each_on_its_own(
            outputs in proptest::collection::vec(
                proptest::collection::vec(
                    proptest::sample::select(vec![
                        &b"ab"[..], b"\xC3\xA9", b"\xE2\x82\xAC", b"\xF0\x9F\x98\x80",
                        b"\xC3", b"\xE2\x82", b"\xF0\x9F", b"\x80", b"\xA9", b"\xFF",
                        b"\xED\xA0\x80",
                    ]),
                    0..6,
                ),
                0..12,
            ),
        ) {
            let outputs: Vec<Vec<u8>> = outputs.iter().map(|pieces| pieces.concat()).collect();
            let mut out = b"kept".to_vec();
            let mut ends = Vec::new();
            for output in &outputs {
                out.extend_from_slice(output);
                ends.push(out.len());
            }
            // Broken: not UTF-8 on its own, or the byte after it (the first of the outputs
            // after it) continues a character.
            let expected_broken: Vec<usize> = (0..outputs.len())
                .filter(|&k| {
                    let next = outputs[k + 1..].iter().flatten().next();
                    std::str::from_utf8(&outputs[k]).is_err()
                        || next.is_some_and(|&byte| (byte as i8) < -0x40)
                })
                .collect();
            let (mut scratch, mut repaired) = (Vec::new(), vec![99]);
            repair_outputs(&mut out, &mut ends, 4, &mut scratch, &mut repaired);
            proptest::prop_assert_eq!(&out[..4], b"kept");
            proptest::prop_assert_eq!(ends.last().copied().unwrap_or(4), out.len());
            let mut start = 4;
            for (k, &end) in ends.iter().enumerate() {
                proptest::prop_assert_eq!(
                    std::str::from_utf8(&out[start..end]).unwrap(),
                    String::from_utf8_lossy(&outputs[k])
                );
                start = end;
            }
            proptest::prop_assert_eq!(repaired[0], 99, "what was reported before stays");
            proptest::prop_assert_eq!(&repaired[1..], &expected_broken[..]);
        }
    }

    proptest::proptest! {
        /// Every kernel this processor runs (and so NEON under emulation on aarch64) takes
        /// the same rows in the same runs as the portable reference, and every row it takes
        /// is one the full decoder decodes to the same output with nothing to report (with
        /// findings dropped, to the same output; marked, to the same output, every row with
        /// findings among the marked ones).
        #[test]
        fn runs_agree_with_the_full_decoder_on_every_kernel(
            rows in proptest::collection::vec(
                proptest::collection::vec(proptest::sample::select(PIECES), 0..24),
                0..48,
            ),
            plus_space in proptest::bool::ANY,
            keep_whitespace in proptest::bool::ANY,
            findings in proptest::sample::select(vec![RunFindings::Stop, RunFindings::Drop, RunFindings::Mark]),
            settling in proptest::bool::ANY,
        ) {
            let rows: Vec<Vec<u8>> = rows.iter().map(|pieces| pieces.concat()).collect();
            let options = DecodeOptions { plus_space, keep_whitespace, ..DecodeOptions::default() };
            let values = rows.concat();
            let offsets: Vec<usize> = std::iter::once(0)
                .chain(rows.iter().scan(0, |end, row| {
                    *end += row.len();
                    Some(*end)
                }))
                .collect();
            let mut full = crate::Codec::decoder(&options);
            let mut reference: Option<(Vec<usize>, Vec<Vec<usize>>)> = None;
            for kernels in kernel::available() {
                let mut plain = PlainUtf8::with_kernels(&options, kernels).unwrap();
                plain.take_findings(findings);
                plain.settle_as_utf8(settling);
                let (mut out, mut out_ends) = (b"before".to_vec(), Vec::new());
                let (mut runs, mut marks) = (Vec::new(), Vec::new());
                let mut row = 0;
                while row < rows.len() {
                    let out_start = out.len();
                    out_ends.clear();
                    let taken = plain.decode_run(&values, &offsets[row..], &mut out, &mut out_ends);
                    proptest::prop_assert_eq!(out_ends.len(), taken);
                    let mut start = out_start;
                    for (k, &end) in out_ends.iter().enumerate() {
                        let mut expected = Vec::new();
                        full.entry_in_full(&rows[row + k], &mut expected).unwrap();
                        let marked = plain.marked().contains(&k);
                        proptest::prop_assert!(
                            findings == RunFindings::Drop || marked || full.diagnostics().is_empty(),
                            "{}: row {:?} taken, but {:?}",
                            kernels.name,
                            String::from_utf8_lossy(&rows[row + k]),
                            full.diagnostics().items()
                        );
                        proptest::prop_assert_eq!(&out[start..end], &expected[..], "{}", kernels.name);
                        let repaired = full.diagnostics().items().iter().any(|d| d.code == Code::InvalidSequence);
                        // None of the rows here holds a literal NUL or ESC.
                        let unsettling = out[start..end].iter().any(|&b| b == 0 || b == 0x1B);
                        proptest::prop_assert!(
                            !settling || findings == RunFindings::Stop || !(repaired || unsettling),
                            "{}: row {:?} repaired or unsettling in a run that stops there",
                            kernels.name,
                            String::from_utf8_lossy(&rows[row + k])
                        );
                        start = end;
                    }
                    proptest::prop_assert_eq!(start, out.len(), "nothing of the row left behind");
                    proptest::prop_assert!(
                        findings == RunFindings::Mark || plain.marked().is_empty(),
                        "only a marking run marks"
                    );
                    proptest::prop_assert!(plain.marked().windows(2).all(|pair| pair[0] < pair[1]));
                    marks.push(plain.marked().to_vec());
                    runs.push(taken);
                    row += taken + 1;
                }
                match &reference {
                    None => reference = Some((runs, marks)),
                    Some(portable) => {
                        proptest::prop_assert_eq!(portable, &(runs, marks), "{}", kernels.name)
                    }
                }
            }
        }
    }

    /// Feeds `input` in the chunks that `cuts` make to per-line decoding with `options`:
    /// through [`PlainLines`] on `kernels` (with the one pass for whole lines with findings
    /// when the charset is a fixed UTF-8) when `kernels` is given, through the framing and
    /// the full decoder alone otherwise. Returns the output and the findings, in the order
    /// made.
    fn lines_fed(
        options: &DecodeOptions,
        kernels: Option<&'static Kernels>,
        input: &[u8],
        cuts: &[usize],
    ) -> (Vec<u8>, Vec<crate::Diagnostic>) {
        let mut framing = Framing::new(EntryDecoder::new(options), true, options.newline);
        let mut lines = kernels.map(|kernels| PlainLines::with_kernels(options, kernels).unwrap());
        let (mut out, mut diagnostics) = (Vec::new(), Diagnostics::new());
        let mut start = 0;
        for &cut in cuts.iter().chain([&input.len()]) {
            let cut = cut.clamp(start, input.len());
            let chunk = &input[start..cut];
            match lines.as_mut() {
                Some(lines) => lines.feed(&mut framing, chunk, &mut out, &mut diagnostics),
                None => framing.feed(chunk, &mut out, &mut diagnostics),
            }
            start = cut;
        }
        framing.finish(&mut out, &mut diagnostics);
        (out, diagnostics.into_vec())
    }

    proptest::proptest! {
        /// Per-line decoding on every kernel this processor runs (and so NEON under
        /// emulation on aarch64) gives the output and findings (in the same order) of the
        /// framing and the full decoder alone fed the same chunks, on lines that mix clean ones with ones to repair or report (so
        /// that runs stop and resume after them), LF and CRLF breaks, in chunks that cut
        /// lines anywhere, with a fixed UTF-8 charset and with `auto`.
        #[test]
        fn lines_agree_with_the_full_decoder_on_every_kernel(
            rows in proptest::collection::vec(
                (
                    proptest::collection::vec(proptest::sample::select(PIECES), 0..12),
                    proptest::bool::weighted(0.3),
                ),
                0..64,
            ),
            last_break in proptest::bool::ANY,
            mut cuts in proptest::collection::vec(0usize..1200, 0..4),
            plus_space in proptest::bool::ANY,
            keep_whitespace in proptest::bool::ANY,
            newline_crlf in proptest::bool::ANY,
            auto in proptest::bool::weighted(0.3),
        ) {
            let mut input = Vec::new();
            for (k, (pieces, crlf)) in rows.iter().enumerate() {
                input.extend(pieces.concat());
                if k + 1 < rows.len() || last_break {
                    input.extend_from_slice(if *crlf { b"\r\n" } else { b"\n" });
                }
            }
            cuts.sort_unstable();
            let options = DecodeOptions {
                plus_space,
                keep_whitespace,
                per_line: true,
                newline: if newline_crlf { super::super::Newline::CrLf } else { super::super::Newline::Lf },
                charset: if auto { CharsetChoice::Auto } else { CharsetChoice::Fixed(crate::Charset::UTF_8) },
                ..DecodeOptions::default()
            };
            let expected = lines_fed(&options, None, &input, &cuts);
            for kernels in kernel::available() {
                let got = lines_fed(&options, Some(kernels), &input, &cuts);
                proptest::prop_assert_eq!(
                    String::from_utf8_lossy(&got.0),
                    String::from_utf8_lossy(&expected.0),
                    "{}",
                    kernels.name
                );
                proptest::prop_assert_eq!(&got.1, &expected.1, "{}", kernels.name);
            }
        }
    }

    /// More lines than are gathered at a time, every tenth with something to repair or
    /// report, fed in chunks that end inside lines: the same output and findings, in the
    /// same order, as the framing and the full decoder alone fed the same chunks.
    #[test]
    fn many_lines_with_findings_resume_after_each() {
        let dirty: [&[u8]; 6] = [b"100%", b"%zz", b"%C3", b"%2541", b"%00", b"%E2%80%AE"];
        let mut input = Vec::new();
        for line in 0..(3 * MOST_LINES_IN_A_RUN + 17) {
            input.extend_from_slice(b"https://example.com/caf%C3%A9?q=a%20b");
            if line % 10 == 3 {
                input.extend_from_slice(dirty[line / 10 % dirty.len()]);
            }
            input.extend_from_slice(if line % 7 == 0 { b"\r\n" } else { b"\n" });
        }
        let cuts: Vec<usize> = (1..40).map(|k| k * 4099).collect();
        for charset in [
            CharsetChoice::Fixed(crate::Charset::UTF_8),
            CharsetChoice::Auto,
        ] {
            let options = DecodeOptions {
                per_line: true,
                charset,
                ..DecodeOptions::default()
            };
            let expected = lines_fed(&options, None, &input, &cuts);
            assert!(expected.1.len() > 300, "{}", expected.1.len());
            for kernels in kernel::available() {
                let got = lines_fed(&options, Some(kernels), &input, &cuts);
                assert!(got.0 == expected.0, "{}", kernels.name);
                assert_eq!(got.1, expected.1, "{}", kernels.name);
            }
        }
    }

    /// A line longer than `auto`'s window, whole in the chunk given, is read whole by the
    /// full decoder too: the same note either way.
    #[test]
    fn auto_notes_a_long_line_as_the_full_decoder_does() {
        let options = DecodeOptions {
            charset: CharsetChoice::Auto,
            per_line: true,
            ..DecodeOptions::default()
        };
        let mut long = b"a".repeat(70_000);
        long.extend_from_slice(b"%C3%A9");
        let input = [&b"caf%C3%A9\n"[..], &long, b"\n%EF%BB%BFx\n"].concat();
        let outcome = crate::Codec::decoder(&options).run(&input).unwrap();
        let notes: Vec<(u64, &str)> = outcome
            .diagnostics
            .items()
            .iter()
            .map(|d| (d.line.unwrap(), d.message.as_str()))
            .collect();
        let entry = DecodeOptions {
            per_line: false,
            ..options
        };
        let alone = crate::Codec::decoder(&entry).run(&long).unwrap();
        assert_eq!(
            notes,
            [
                (1, "charset detected: UTF-8 (valid UTF-8, confidence 0.75)"),
                (2, alone.diagnostics.items()[0].message.as_str()),
                (
                    3,
                    "charset detected: UTF-8 (byte order mark, confidence 1.00)"
                ),
            ]
        );
        assert!(outcome.output.ends_with("aé\nx\n".as_bytes()));
    }

    #[test]
    fn other_charsets_binary_and_per_line_have_no_fast_path() {
        let latin1 = DecodeOptions {
            charset: CharsetChoice::for_label("latin1").unwrap(),
            ..DecodeOptions::default()
        };
        let binary = DecodeOptions {
            binary: true,
            ..DecodeOptions::default()
        };
        let per_line = DecodeOptions {
            per_line: true,
            ..DecodeOptions::default()
        };
        let auto = DecodeOptions {
            charset: CharsetChoice::Auto,
            ..DecodeOptions::default()
        };
        for options in [latin1, binary, per_line, auto] {
            assert!(PlainUtf8::for_options(&options).is_none());
        }
    }
}
