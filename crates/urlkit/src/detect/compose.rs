//! Canonical composition of the Vietnamese tone marks. windows-1258 has precomposed forms
//! for only some Vietnamese letters and writes the others as a base letter followed by
//! a combining tone mark; the model counts composed (NFC) letters, so a decoding is
//! composed before it is scored (Unicode §3.11, canonical composition, for these marks).

/// The five combining tone marks, and for each the letters it composes with and the
/// composed letters, position by position (`BASES[i]` + mark → `COMPOSED[mark][i]`).
const MARKS: [char; 5] = ['\u{300}', '\u{301}', '\u{303}', '\u{309}', '\u{323}'];
const BASES: &str = "aăâeêioôơuưyAĂÂEÊIOÔƠUƯY";
const COMPOSED: [&str; 5] = [
    "àằầèềìòồờùừỳÀẰẦÈỀÌÒỒỜÙỪỲ",
    "áắấéếíóốớúứýÁẮẤÉẾÍÓỐỚÚỨÝ",
    "ãẵẫẽễĩõỗỡũữỹÃẴẪẼỄĨÕỖỠŨỮỸ",
    "ảẳẩẻểỉỏổởủửỷẢẲẨẺỂỈỎỔỞỦỬỶ",
    "ạặậẹệịọộợụựỵẠẶẬẸỆỊỌỘỢỤỰỴ",
];

/// `base` with the tone mark `mark` as one character, or `None` when the pair has no
/// Vietnamese composed form (the mark then stays a character of its own).
fn compose_pair(base: char, mark: char) -> Option<char> {
    let m = MARKS.iter().position(|&x| x == mark)?;
    let i = BASES.chars().position(|b| b == base)?;
    COMPOSED[m].chars().nth(i)
}

/// The characters of `text` with every Vietnamese base letter and following tone mark
/// composed into one character; any other character, and a mark that follows no base
/// letter it composes with, passes through unchanged.
pub(super) fn compose_tone_marks(text: &str) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.chars().peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        if let Some(&next) = chars.peek() {
            if let Some(composed) = compose_pair(c, next) {
                chars.next();
                return Some(composed);
            }
        }
        Some(c)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tables_line_up() {
        let n = BASES.chars().count();
        assert!(COMPOSED.iter().all(|c| c.chars().count() == n));
    }

    #[test]
    fn decomposed_vietnamese_is_composed() {
        let decomposed = "Vie\u{302}\u{323}t Nam"; // ê is precomposed in windows-1258
        let text = "Vi\u{ea}\u{323}t Nam tie\u{301}ng";
        assert_eq!(
            compose_tone_marks(text).collect::<String>(),
            "Việt Nam tiéng"
        );
        // A mark after a letter it does not compose with is kept.
        assert_eq!(
            compose_tone_marks("b\u{301}").collect::<String>(),
            "b\u{301}"
        );
        assert_eq!(compose_tone_marks("").count(), 0);
        assert_eq!(
            compose_tone_marks(decomposed).collect::<String>(),
            "Vie\u{302}\u{323}t Nam",
            "e + circumflex is not a windows-1258 base: left alone"
        );
    }
}
