//! Findings reported beside every result: a stable code, a byte offset into the input and a
//! short message.
//!
//! Codes are part of the public contract (scripts match on them); messages may be reworded.

use std::fmt;

/// How many findings a front end keeps per run (the API, the page, the WebAssembly module,
/// the command line's `--json`); beyond it they are only counted, so bad input cannot
/// exhaust memory.
pub const KEPT_FINDINGS: usize = 10_000;

/// The stable identifier of a kind of finding.
///
/// Serialised (JSON, `Display`) as the kebab-case name shown on each variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(rename_all = "kebab-case"))]
pub enum Code {
    /// `malformed-escape`: a `%` not followed by two hex digits (kept as it is).
    MalformedEscape,
    /// `invalid-sequence`: bytes that are not valid in the charset (decoded as U+FFFD).
    InvalidSequence,
    /// `unencodable-character`: a character the charset cannot represent (written as `&#N;`).
    UnencodableCharacter,
    /// `invalid-input`: the text given to the encoder is not valid UTF-8.
    InvalidInput,
    /// `control-character`: a C0/C1 control character or DEL in the decoded text.
    ControlCharacter,
    /// `bidi-character`: a bidirectional-override or isolate character in the decoded text.
    BidiCharacter,
    /// `multiple-layers`: the text is percent-encoded more than once (`%2520`).
    MultipleLayers,
    /// `url-too-long`: a URL longer than 2,048 characters.
    UrlTooLong,
    /// `password-in-url`: a URL carries a password (RFC 3986 §3.2.1 deprecates it).
    PasswordInUrl,
    /// `charset-detected`: which charset `auto` chose, and how sure it is.
    CharsetDetected,
    /// `whitespace-removed`: unencoded whitespace was removed before decoding.
    WhitespaceRemoved,
    /// `explicit-default-port`: a URL names its scheme's default port (`http://a:80/`).
    ExplicitDefaultPort,
    /// `whitespace-stripped`: the URL parser dropped leading/trailing C0 controls or spaces,
    /// or tabs and newlines inside the URL (URL Standard §4.4).
    WhitespaceStripped,
    /// `backslash-as-slash`: the URL parser treated a `\` as `/` (special schemes).
    BackslashAsSlash,
    /// `non-canonical-ipv4`: an IPv4 host written other than as four decimal numbers
    /// (`0x7f.1`, `2130706433`, `010.0.0.1`).
    NonCanonicalIpv4,
    /// `mixed-script`: a host label mixes scripts (UTS #39 §5.1).
    MixedScript,
    /// `confusable-host`: a host label imitates a Latin one (UTS #39 §4).
    ConfusableHost,
    /// `validation-error`: another URL Standard validation error the parser recovered from.
    ValidationError,
    /// `literal-non-ascii`: byte input holds a literal (unescaped) non-ASCII byte, read in a
    /// legacy charset like the escapes are; text input would have kept it as the character
    /// it is.
    LiteralNonAscii,
    /// `entries-joined`: a line break removed as whitespace separated what look like two
    /// entries (the next line starts a URL, `scheme://`); per-line decoding keeps them apart.
    EntriesJoined,
}

impl Code {
    /// The stable kebab-case name of this code.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::MalformedEscape => "malformed-escape",
            Code::InvalidSequence => "invalid-sequence",
            Code::UnencodableCharacter => "unencodable-character",
            Code::InvalidInput => "invalid-input",
            Code::ControlCharacter => "control-character",
            Code::BidiCharacter => "bidi-character",
            Code::MultipleLayers => "multiple-layers",
            Code::UrlTooLong => "url-too-long",
            Code::PasswordInUrl => "password-in-url",
            Code::CharsetDetected => "charset-detected",
            Code::WhitespaceRemoved => "whitespace-removed",
            Code::ExplicitDefaultPort => "explicit-default-port",
            Code::WhitespaceStripped => "whitespace-stripped",
            Code::BackslashAsSlash => "backslash-as-slash",
            Code::NonCanonicalIpv4 => "non-canonical-ipv4",
            Code::MixedScript => "mixed-script",
            Code::ConfusableHost => "confusable-host",
            Code::ValidationError => "validation-error",
            Code::LiteralNonAscii => "literal-non-ascii",
            Code::EntriesJoined => "entries-joined",
        }
    }

    /// Whether strict mode turns this finding into an error.
    pub fn is_error_in_strict_mode(self) -> bool {
        matches!(
            self,
            Code::MalformedEscape
                | Code::InvalidSequence
                | Code::UnencodableCharacter
                | Code::InvalidInput
        )
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One finding: what, where (byte offset into the operation's input) and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Byte offset into the input of the operation (for per-line mode, into the whole input).
    pub offset: u64,
    /// In per-line mode: the line (entry) the finding is on, counted from 1; `None`
    /// otherwise (absent from JSON).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub line: Option<u64>,
    /// In per-line mode: the byte of that line the finding is at, counted from 1; `None`
    /// otherwise (absent from JSON).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub column: Option<u64>,
    /// A short human-readable explanation.
    pub message: String,
}

impl Diagnostic {
    /// A finding with the given code, offset and message, on no particular line.
    pub fn new(code: Code, offset: u64, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            offset,
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// This finding as strict mode reports it when it rejects the input there: the
    /// message says what was wrong and that the input was rejected, in place of what
    /// lenient mode does with it (`kept as it is`, `decoded as U+FFFD`, …).
    ///
    /// Messages of the findings strict mode rejects read `what was wrong; what lenient
    /// mode did`; a message without that second part is kept whole.
    pub fn rejected(&self) -> Diagnostic {
        let problem = self
            .message
            .rsplit_once("; ")
            .map_or(self.message.as_str(), |(problem, _)| problem);
        Diagnostic {
            message: format!("{problem}; rejected (strict mode)"),
            ..self.clone()
        }
    }
}

/// `byte N: message (code)`; in per-line mode `line L, byte B (byte N of the input):
/// message (code)`, B counted from 0 in the line as N is in the input (the command line's
/// other per-line messages say `line L, byte B` too), because a reader of a file of lines
/// looks for the line.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let (Some(line), Some(column)) = (self.line, self.column) {
            let in_line = column.saturating_sub(1);
            write!(
                f,
                "line {line}, byte {in_line} (byte {} of the input): ",
                self.offset
            )?;
        } else {
            write!(f, "byte {}: ", self.offset)?;
        }
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for Diagnostic {}

/// Where findings go. The codec reports into it; callers decide how many to keep.
///
/// A sink keeps at most `limit` findings (so a gigabyte of bad input cannot exhaust memory)
/// and counts the rest. The first finding that strict mode rejects is remembered even when
/// it comes past the limit, so strict mode never misses one.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
    dropped: u64,
    limit: Option<usize>,
    first_strict_error: Option<Diagnostic>,
    /// How many findings of each code, kept or not, in the order codes were first seen.
    counts: Vec<(Code, u64)>,
    /// In per-line mode: the current line's number and the offset it starts at.
    line: Option<(u64, u64)>,
    /// The first finding strict mode rejects is not remembered past the limit (see
    /// [`forget_strict_errors`](Self::forget_strict_errors)).
    forgets_strict_errors: bool,
}

impl Diagnostics {
    /// A sink that keeps every finding.
    pub fn new() -> Self {
        Self::default()
    }

    /// A sink that keeps the first `limit` findings and counts the others.
    pub fn with_limit(limit: usize) -> Self {
        Diagnostics {
            limit: Some(limit),
            ..Self::default()
        }
    }

    /// Empties the sink for a new input, keeping the first `limit` findings from now on:
    /// the same as [`with_limit`](Self::with_limit), keeping the memory already allocated.
    pub(crate) fn reset(&mut self, limit: usize) {
        self.items.clear();
        self.dropped = 0;
        self.limit = Some(limit);
        self.first_strict_error = None;
        self.counts.clear();
        self.line = None;
    }

    /// This sink, not remembering the first finding strict mode rejects when it is past
    /// the limit (so its message is never made), when `forget`: for a lenient codec that
    /// keeps no findings and only counts them, which has no use for it.
    /// [`first_strict_error`](Self::first_strict_error) then gives `None`.
    pub(crate) fn forget_strict_errors(&mut self, forget: bool) {
        self.forgets_strict_errors = forget;
    }

    /// Whether a finding of `code` at `offset` is the earliest in the input that strict
    /// mode rejects, and to be remembered as such.
    fn is_first_strict_error(&self, code: Code, offset: u64) -> bool {
        !self.forgets_strict_errors
            && code.is_error_in_strict_mode()
            && self
                .first_strict_error
                .as_ref()
                .is_none_or(|first| offset < first.offset)
    }

    fn is_full(&self) -> bool {
        self.limit.is_some_and(|limit| self.items.len() >= limit)
    }

    /// Records a finding. In per-line mode (see [`start_line`](Self::start_line)) a
    /// finding without a line is placed on the current line.
    pub fn push(&mut self, mut diagnostic: Diagnostic) {
        self.count(diagnostic.code);
        if let (Some((line, start)), None) = (self.line, diagnostic.line) {
            diagnostic.line = Some(line);
            diagnostic.column = Some(diagnostic.offset.saturating_sub(start) + 1);
        }
        // The earliest in the input, not the first found: one pass finds malformed escapes
        // before the charset's check finds an invalid sequence they decoded to.
        if self.is_first_strict_error(diagnostic.code, diagnostic.offset) {
            self.first_strict_error = Some(diagnostic.clone());
        }
        if self.is_full() {
            self.dropped += 1;
        } else {
            self.items.push(diagnostic);
        }
    }

    fn count(&mut self, code: Code) {
        match self.counts.iter_mut().find(|(c, _)| *c == code) {
            Some((_, n)) => *n += 1,
            None => self.counts.push((code, 1)),
        }
    }

    /// Records a finding at `offset()`, at `least` or after, whose offset and message
    /// are worked out only if the finding is kept (or could be the first that strict mode
    /// rejects): past the cap, it is only counted.
    pub(crate) fn push_located(
        &mut self,
        code: Code,
        least: u64,
        offset: impl FnOnce() -> u64,
        message: impl FnOnce() -> String,
    ) {
        if self.is_full() && !self.is_first_strict_error(code, least) {
            // Not the first strict error at `least`, nor at any offset after it.
            self.count(code);
            self.dropped += 1;
        } else {
            self.push(Diagnostic::new(code, offset(), message()));
        }
    }

    /// Records a finding whose message is built only if the finding is kept (or is the
    /// first that strict mode rejects).
    pub(crate) fn push_lazy(&mut self, code: Code, offset: u64, message: impl FnOnce() -> String) {
        self.push_located(code, offset, || offset, message);
    }

    /// Per-line mode: the findings pushed from now on are on line `line` (counted from
    /// 1), which starts at input offset `start`; their column is counted from there.
    pub fn start_line(&mut self, line: u64, start: u64) {
        self.line = Some((line, start));
    }

    /// How many findings of each code were made, kept or only counted, in the order the
    /// codes were first seen. The counts add up to the findings kept plus
    /// [`dropped`](Self::dropped).
    pub fn counts(&self) -> &[(Code, u64)] {
        &self.counts
    }

    /// [`counts`](Self::counts), the most frequent code first (codes as frequent keep the
    /// order they were first seen in): the summary front ends show before the list.
    pub fn counts_most_frequent_first(&self) -> Vec<(Code, u64)> {
        let mut counts = self.counts.clone();
        counts.sort_by_key(|&(_, count)| std::cmp::Reverse(count));
        counts
    }

    /// The findings kept, in the order they were found.
    pub fn items(&self) -> &[Diagnostic] {
        &self.items
    }

    /// How many findings were found beyond the limit and not kept.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// Whether nothing was found.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty() && self.dropped == 0
    }

    /// The earliest finding in the input that strict mode treats as an error, kept or not
    /// (`None` in the findings of a lenient codec that keeps none: see
    /// [`Codec::keep_findings`](crate::Codec::keep_findings)).
    pub fn first_strict_error(&self) -> Option<&Diagnostic> {
        self.first_strict_error.as_ref()
    }

    /// The findings kept, in their order (found, or input order where the caller says).
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.items.iter()
    }

    /// Puts the findings kept in input order (stable: findings at one offset keep the
    /// order found).
    pub(crate) fn sort_by_offset(&mut self) {
        self.items.sort_by_key(|d| d.offset);
    }

    /// Takes out the findings kept so far, leaving the sink empty but still counting
    /// towards its limit.
    pub fn take_items(&mut self) -> Vec<Diagnostic> {
        if let Some(limit) = self.limit.as_mut() {
            *limit = limit.saturating_sub(self.items.len());
        }
        std::mem::take(&mut self.items)
    }

    /// Takes the kept findings out.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }

    /// Moves `other`'s findings after these, as far as the limit allows, and counts the
    /// others together with those `other` had counted. The first strict error stays this
    /// sink's when it has one.
    pub(crate) fn append(&mut self, other: Diagnostics) {
        self.dropped += other.dropped;
        for diagnostic in other.items {
            self.push(diagnostic);
        }
        if self.first_strict_error.is_none() {
            self.first_strict_error = other.first_strict_error;
        }
    }

    /// Calls `f` on every kept finding and on the remembered strict error; kept findings
    /// for which it returns `false` are removed (and not counted).
    pub(crate) fn retain_map(&mut self, mut f: impl FnMut(&mut Diagnostic) -> bool) {
        self.items.retain_mut(|d| f(d));
        if let Some(first) = self.first_strict_error.as_mut() {
            f(first);
        }
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_strict_error_is_remembered_past_the_limit() {
        let mut sink = Diagnostics::with_limit(2);
        for offset in 0..3 {
            sink.push(Diagnostic::new(Code::ControlCharacter, offset, "control"));
        }
        sink.push_lazy(Code::MalformedEscape, 7, || "bad escape".to_string());
        sink.push(Diagnostic::new(Code::InvalidSequence, 9, "later"));
        assert_eq!(sink.items().len(), 2);
        assert_eq!(sink.dropped(), 3);
        let first = sink.first_strict_error().unwrap();
        assert_eq!((first.code, first.offset), (Code::MalformedEscape, 7));
    }

    #[test]
    fn a_located_finding_past_the_limit_is_placed_only_when_it_could_be_the_first_strict_error() {
        let mut sink = Diagnostics::with_limit(1);
        sink.push(Diagnostic::new(Code::ControlCharacter, 0, "control"));
        let placed = std::cell::Cell::new(0);
        let place = |offset: u64| {
            placed.set(placed.get() + 1);
            offset
        };
        // Past the limit, with no strict error yet: placed, and remembered.
        sink.push_located(Code::InvalidSequence, 10, || place(12), || "bad".into());
        assert_eq!(placed.get(), 1);
        assert_eq!(sink.first_strict_error().map(|d| d.offset), Some(12));
        // At or after the first strict error: only counted.
        sink.push_located(Code::InvalidSequence, 12, || place(15), || "bad".into());
        // Not an error strict mode rejects: only counted.
        sink.push_located(Code::ControlCharacter, 3, || place(4), || "control".into());
        assert_eq!(placed.get(), 1);
        // It could come before the first strict error: placed, and remembered.
        sink.push_located(Code::InvalidSequence, 5, || place(6), || "bad".into());
        assert_eq!(placed.get(), 2);
        assert_eq!(sink.first_strict_error().map(|d| d.offset), Some(6));
        assert_eq!(sink.items().len(), 1);
        assert_eq!(sink.dropped(), 4);
        assert_eq!(
            sink.counts(),
            [(Code::ControlCharacter, 2), (Code::InvalidSequence, 3)]
        );
    }

    #[test]
    fn counts_by_code_include_the_findings_past_the_limit() {
        let mut sink = Diagnostics::with_limit(2);
        for offset in 0..3 {
            sink.push_lazy(Code::MalformedEscape, offset, || "bad escape".to_string());
        }
        sink.push(Diagnostic::new(Code::ControlCharacter, 9, "control"));
        assert_eq!(
            sink.counts(),
            [(Code::MalformedEscape, 3), (Code::ControlCharacter, 1)]
        );
        let total: u64 = sink.counts().iter().map(|(_, n)| n).sum();
        assert_eq!(total, sink.items().len() as u64 + sink.dropped());
    }

    #[test]
    fn findings_in_per_line_mode_carry_their_line_and_column() {
        let mut sink = Diagnostics::new();
        sink.push(Diagnostic::new(Code::MalformedEscape, 1, "before lines"));
        sink.start_line(3, 10);
        sink.push(Diagnostic::new(Code::MalformedEscape, 14, "on line 3"));
        let items = sink.items();
        assert_eq!((items[0].line, items[0].column), (None, None));
        assert_eq!((items[1].line, items[1].column), (Some(3), Some(5)));
        assert_eq!(
            items[0].to_string(),
            "byte 1: before lines (malformed-escape)"
        );
        assert_eq!(
            items[1].to_string(),
            "line 3, byte 4 (byte 14 of the input): on line 3 (malformed-escape)"
        );
    }

    #[test]
    fn a_rejected_finding_says_it_was_rejected_instead_of_repaired() {
        let kept = Diagnostic::new(
            Code::MalformedEscape,
            2,
            "\"%z\" is not followed by two hex digits; kept as it is",
        );
        let rejected = kept.rejected();
        assert_eq!(
            rejected.message,
            "\"%z\" is not followed by two hex digits; rejected (strict mode)"
        );
        assert_eq!((rejected.code, rejected.offset), (kept.code, kept.offset));
    }

    #[test]
    fn taking_items_keeps_counting_towards_the_limit() {
        let mut sink = Diagnostics::with_limit(3);
        for offset in 0..2 {
            sink.push(Diagnostic::new(Code::ControlCharacter, offset, "control"));
        }
        assert_eq!(sink.take_items().len(), 2);
        for offset in 2..5 {
            sink.push(Diagnostic::new(Code::ControlCharacter, offset, "control"));
        }
        assert_eq!((sink.items().len(), sink.dropped()), (1, 2));
    }
}
