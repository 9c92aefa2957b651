//! What the front ends show people, defined once: sizes in the units limits are named in,
//! the name a file's result is saved under, and the URL components in the order a URL
//! reads. The server uses these directly; the page's script gets them from the server
//! (the component list, as a data attribute of the page) or from the WebAssembly module
//! (`humanSize` and `resultName` of `urlkit.mjs`, which run this code), so the browser
//! and the server cannot say different things. `crates/urlkit-wasm/js/test/vectors.json`
//! (`shown`) holds the expected answers both are tested against.

/// A size for people: a whole number of the largest unit that divides it (`1536 MiB`,
/// `100 MiB`, `1 KiB`), else one decimal of the largest unit it reaches (`1.5 KiB`,
/// rounded half to even), else bytes (`10 bytes`). Every `u64` has an answer.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size && bytes.is_multiple_of(size) {
            return format!("{} {unit}", bytes / size);
        }
    }
    for (unit, size) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

/// What was done to a file, which its result's name says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Percent-encoded: `.encoded`.
    Encoded,
    /// Percent-decoded: `.decoded`.
    Decoded,
}

/// The name given to a result whose upload had no usable name.
pub const NAMELESS: &str = "urlkit-result.txt";

/// The most bytes of a download's name that are kept (file systems take 255).
pub const NAME_BYTES: usize = 200;

/// The name a result is saved under: the upload's file name made safe ([`clean_name`]),
/// with `.encoded` or `.decoded` before its extension (`report.csv` →
/// `report.decoded.csv`, `notes` → `notes.decoded`). A name with nothing usable left
/// (empty, only dots, controls or invisible characters) gives `urlkit-result.encoded.txt`
/// or `urlkit-result.decoded.txt`.
pub fn result_name(upload: &str, done: Done) -> String {
    let mark = match done {
        Done::Encoded => "encoded",
        Done::Decoded => "decoded",
    };
    let clean = clean_name(upload).unwrap_or_else(|| NAMELESS.to_string());
    match clean.rfind('.') {
        Some(dot) if dot > 0 => format!("{}.{mark}{}", &clean[..dot], &clean[dot..]),
        _ => format!("{clean}.{mark}"),
    }
}

/// A file name made safe to save and to send back: its last path part (after `/` or
/// `\`), without control characters, quotes, line separators or [invisible
/// characters](is_invisible), without leading dots and spaces (no hidden file) or trailing
/// spaces, and at most [`NAME_BYTES`] bytes (a long name loses the end of its stem, keeping
/// an extension of up to 16 bytes). `None` when nothing is left.
pub fn clean_name(name: &str) -> Option<String> {
    let base = name.rsplit(['/', '\\']).next().unwrap_or("");
    let clean: String = base
        .chars()
        .filter(|c| {
            !c.is_control() && !matches!(c, '"' | '\u{2028}' | '\u{2029}') && !is_invisible(*c)
        })
        .collect();
    // No hidden file, however many dots and spaces come first (`. .bashrc`).
    let clean = clean
        .trim_start_matches(|c: char| c == '.' || c.is_whitespace())
        .trim_end();
    // A name too long loses the end of its stem, not its extension.
    let (stem, extension) = match clean.rfind('.') {
        Some(dot) if dot > 0 && clean.len() - dot <= 16 => clean.split_at(dot),
        _ => (clean, ""),
    };
    let mut end = stem.len().min(NAME_BYTES - extension.len());
    while !stem.is_char_boundary(end) {
        end -= 1;
    }
    Some(format!("{}{extension}", &stem[..end])).filter(|c| !c.is_empty())
}

/// Characters that change how a name looks without showing themselves: bidirectional
/// controls (U+202E makes `txt.exe` read `exe.txt`), zero-width characters, the word
/// joiner and invisible operators, the byte order mark, the soft hyphen.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// The URL components the inspector shows and edits, in the order a URL reads; each is a
/// name `POST /api/inspect` takes in `set` and `clear`.
pub const COMPONENTS: [&str; 8] = [
    "scheme", "user", "password", "host", "port", "path", "query", "fragment",
];
