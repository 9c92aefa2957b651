//! Character sets: every encoding of the WHATWG Encoding Standard under all its labels,
//! UTF-16LE/BE and UTF-32LE/BE in both directions, and the DOS code pages.
//!
//! The WHATWG encodings are `encoding_rs`; UTF-32 and the DOS code pages (tables from the
//! `oem_cp` crate) are added here with the same semantics: invalid input decodes to
//! U+FFFD, and a character the charset cannot represent is reported to the caller, which
//! writes it as an HTML numeric character reference.

mod labels;
mod text;

pub use text::{TextDecoder, TextEncoder, Unencodable};

use encoding_rs::Encoding;
use oem_cp::code_table as cp;
use std::fmt;

/// A DOS (OEM) code page: bytes `0x00..=0x7F` are ASCII, `0x80..=0xFF` come from a table.
#[derive(Clone, Copy)]
pub struct DosCodePage {
    number: u16,
    name: &'static str,
    upper_half: DosTable,
    encode: &'static oem_cp::OEMCPHashMap<char, u8>,
}

#[derive(Clone, Copy)]
enum DosTable {
    Complete(&'static [char; 128]),
    Partial(&'static [Option<char>; 128]),
}

impl DosCodePage {
    /// The character byte `byte` stands for, or `None` where the code page leaves it undefined.
    #[inline]
    pub fn decode_byte(&self, byte: u8) -> Option<char> {
        if byte < 0x80 {
            return Some(byte as char);
        }
        match self.upper_half {
            DosTable::Complete(table) => Some(table[(byte - 0x80) as usize]),
            DosTable::Partial(table) => table[(byte - 0x80) as usize],
        }
    }

    /// The byte for `character`, or `None` where the code page cannot represent it.
    #[inline]
    pub fn encode_char(&self, character: char) -> Option<u8> {
        if character.is_ascii() {
            Some(character as u8)
        } else {
            self.encode.get(&character).copied()
        }
    }

    /// The code page number (437, 850, …).
    pub fn number(&self) -> u16 {
        self.number
    }
}

impl PartialEq for DosCodePage {
    fn eq(&self, other: &Self) -> bool {
        self.number == other.number
    }
}
impl Eq for DosCodePage {}

macro_rules! dos_pages {
    ($( $number:literal $name:literal $kind:ident $decode:ident $encode:ident ),* $(,)?) => {
        const DOS_PAGES: &[DosCodePage] = &[$(
            DosCodePage {
                number: $number,
                name: $name,
                upper_half: DosTable::$kind(&cp::$decode),
                encode: &cp::$encode,
            },
        )*];
    };
}

// IBM866 and windows-874 (the labels `866`, `cp866`, `dos-874`) are WHATWG encodings.
dos_pages! {
    437 "IBM437" Complete DECODING_TABLE_CP437 ENCODING_TABLE_CP437,
    737 "IBM737" Complete DECODING_TABLE_CP737 ENCODING_TABLE_CP737,
    775 "IBM775" Complete DECODING_TABLE_CP775 ENCODING_TABLE_CP775,
    850 "IBM850" Complete DECODING_TABLE_CP850 ENCODING_TABLE_CP850,
    852 "IBM852" Complete DECODING_TABLE_CP852 ENCODING_TABLE_CP852,
    855 "IBM855" Complete DECODING_TABLE_CP855 ENCODING_TABLE_CP855,
    857 "IBM857" Partial DECODING_TABLE_CP857 ENCODING_TABLE_CP857,
    858 "IBM00858" Complete DECODING_TABLE_CP858 ENCODING_TABLE_CP858,
    860 "IBM860" Complete DECODING_TABLE_CP860 ENCODING_TABLE_CP860,
    861 "IBM861" Complete DECODING_TABLE_CP861 ENCODING_TABLE_CP861,
    862 "IBM862" Complete DECODING_TABLE_CP862 ENCODING_TABLE_CP862,
    863 "IBM863" Complete DECODING_TABLE_CP863 ENCODING_TABLE_CP863,
    864 "IBM864" Partial DECODING_TABLE_CP864 ENCODING_TABLE_CP864,
    865 "IBM865" Complete DECODING_TABLE_CP865 ENCODING_TABLE_CP865,
    869 "IBM869" Complete DECODING_TABLE_CP869 ENCODING_TABLE_CP869,
}

/// A character set urlkit can encode to and decode from.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// An encoding of the WHATWG Encoding Standard. UTF-16LE/BE encode to UTF-16 (the
    /// Standard would write UTF-8); `replacement` encodes as UTF-8, its output encoding.
    Whatwg(&'static Encoding),
    /// UTF-32, little-endian.
    Utf32Le,
    /// UTF-32, big-endian.
    Utf32Be,
    /// A DOS code page.
    Dos(DosCodePage),
}

/// A charset label that names no charset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownCharset(pub String);

impl fmt::Display for UnknownCharset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown charset {:?}: not a WHATWG label, utf-32le/be or a DOS code page",
            self.0
        )
    }
}

impl std::error::Error for UnknownCharset {}

const UTF32LE_LABELS: &[&str] = &["utf-32le", "utf32le", "utf-32", "utf32", "ucs-4le"];
const UTF32BE_LABELS: &[&str] = &["utf-32be", "utf32be", "ucs-4be", "ucs-4"];

impl Charset {
    /// UTF-8, the default.
    pub const UTF_8: Charset = Charset::Whatwg(encoding_rs::UTF_8);

    /// The charset with this label: any WHATWG label (`latin1`, `sjis`, `cp1251`, …),
    /// `utf-32le`/`utf-32be`, or a DOS code page as `ibm437`, `cp437`, `437`, `dos-437`.
    ///
    /// Matching ignores ASCII case and surrounding whitespace. An unknown label is an error.
    pub fn for_label(label: &str) -> Result<Charset, UnknownCharset> {
        let trimmed = label.trim_matches(|c: char| c.is_ascii_whitespace());
        if let Some(encoding) = Encoding::for_label_no_replacement(trimmed.as_bytes()) {
            return Ok(Charset::Whatwg(encoding));
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower == "replacement" || Encoding::for_label(lower.as_bytes()).is_some() {
            // Labels such as `iso-2022-kr` map to the replacement encoding, which decodes
            // any input to a single U+FFFD: kept so that data in those charsets is refused
            // visibly rather than misread.
            return Ok(Charset::Whatwg(encoding_rs::REPLACEMENT));
        }
        if UTF32LE_LABELS.contains(&lower.as_str()) {
            return Ok(Charset::Utf32Le);
        }
        if UTF32BE_LABELS.contains(&lower.as_str()) {
            return Ok(Charset::Utf32Be);
        }
        let number = lower
            .strip_prefix("ibm-")
            .or_else(|| lower.strip_prefix("ibm"))
            .or_else(|| lower.strip_prefix("cp"))
            .or_else(|| lower.strip_prefix("dos-"))
            .or_else(|| lower.strip_prefix("csibm"))
            .unwrap_or(&lower);
        let number = number.trim_start_matches('0');
        DOS_PAGES
            .iter()
            .find(|page| page.number.to_string() == number)
            .map(|page| Charset::Dos(*page))
            .ok_or_else(|| UnknownCharset(label.to_string()))
    }

    /// The canonical name: the WHATWG name (`UTF-8`, `Shift_JIS`, `windows-1252`),
    /// `UTF-32LE`/`UTF-32BE`, or `IBM437` and the like.
    pub fn name(&self) -> &'static str {
        match self {
            Charset::Whatwg(encoding) => encoding.name(),
            Charset::Utf32Le => "UTF-32LE",
            Charset::Utf32Be => "UTF-32BE",
            Charset::Dos(page) => page.name,
        }
    }

    /// Whether this is UTF-8 (the codec's fast path).
    pub fn is_utf8(&self) -> bool {
        *self == Charset::UTF_8
    }

    /// Every charset with its labels, WHATWG encodings first.
    pub fn all() -> Vec<(Charset, Vec<String>)> {
        let mut list: Vec<(Charset, Vec<String>)> = labels::WHATWG_LABELS
            .iter()
            .filter_map(|(name, labels)| {
                let encoding = Encoding::for_label(name.as_bytes())?;
                Some((
                    Charset::Whatwg(encoding),
                    labels.iter().map(|l| l.to_string()).collect(),
                ))
            })
            .collect();
        list.push((
            Charset::Utf32Le,
            UTF32LE_LABELS.iter().map(|l| l.to_string()).collect(),
        ));
        list.push((
            Charset::Utf32Be,
            UTF32BE_LABELS.iter().map(|l| l.to_string()).collect(),
        ));
        for page in DOS_PAGES {
            let n = page.number;
            list.push((
                Charset::Dos(*page),
                vec![
                    format!("ibm{n}"),
                    format!("ibm-{n}"),
                    format!("cp{n}"),
                    format!("dos-{n}"),
                    format!("csibm{n}"),
                    n.to_string(),
                ],
            ));
        }
        list
    }

    /// The WHATWG labels table as generated from the standard (name, labels).
    pub fn whatwg_labels() -> &'static [(&'static str, &'static [&'static str])] {
        labels::WHATWG_LABELS
    }
}

impl Default for Charset {
    fn default() -> Self {
        Charset::UTF_8
    }
}

impl fmt::Debug for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Charset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_label_resolves_to_its_encoding() {
        for (name, labels) in labels::WHATWG_LABELS {
            for label in *labels {
                let charset = Charset::for_label(label).unwrap();
                assert_eq!(charset.name(), *name, "label {label}");
                assert_eq!(
                    Encoding::for_label(label.as_bytes()).map(|e| e.name()),
                    Some(*name)
                );
            }
        }
        assert_eq!(labels::WHATWG_LABELS.len(), 40);
    }

    #[test]
    fn labels_ignore_case_and_whitespace() {
        assert_eq!(
            Charset::for_label(" LATIN1 ").unwrap().name(),
            "windows-1252"
        );
        assert_eq!(Charset::for_label("SJIS").unwrap().name(), "Shift_JIS");
        assert_eq!(Charset::for_label("cp1251").unwrap().name(), "windows-1251");
    }

    #[test]
    fn dos_code_pages_and_utf32_resolve() {
        for label in ["437", "cp437", "IBM437", "dos-437", "ibm-437"] {
            assert_eq!(Charset::for_label(label).unwrap().name(), "IBM437");
        }
        assert_eq!(Charset::for_label("cp866").unwrap().name(), "IBM866");
        assert_eq!(Charset::for_label("ibm858").unwrap().name(), "IBM00858");
        assert_eq!(Charset::for_label("utf-32be").unwrap(), Charset::Utf32Be);
        for n in [
            437, 850, 852, 855, 857, 860, 861, 862, 863, 864, 865, 866, 869,
        ] {
            assert!(Charset::for_label(&format!("cp{n}")).is_ok(), "cp{n}");
        }
    }

    #[test]
    fn unknown_label_is_an_error_that_names_it() {
        let err = Charset::for_label("klingon").unwrap_err();
        assert!(err.to_string().contains("klingon"));
        assert!(Charset::for_label("").is_err());
    }
}
