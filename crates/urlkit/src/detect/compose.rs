//! Characters a charset writes in pieces, put together as the model counts them (it
//! learnt composed text), before a decoding is scored:
//!
//! * Vietnamese tone marks: windows-1258 has precomposed forms for only some Vietnamese
//!   letters and writes the others as a base letter followed by a combining tone mark,
//!   composed here as Unicode §3.11 (canonical composition) does for these marks.
//! * Hangul syllables outside the 2,350 of KS X 1001, which EUC-KR writes as eight bytes
//!   (KS X 1001 annex 3, as Python's `euc_kr` codec encodes them): the Hangul filler, then
//!   the initial consonant, the vowel and the final consonant (the filler again when there
//!   is none) as compatibility jamo; composed here into the syllable they stand for.
//! * Half-width katakana, which Shift_JIS writes in one byte and EUC-JP in two (older
//!   Japanese sites and phones wrote whole words in them): widened to the full-width
//!   kana of their compatibility decompositions (Unicode's NFKC), a voiced or
//!   semi-voiced sound mark composed with the kana before it.

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
pub(super) fn compose_tone_marks(text: &[char]) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.iter().copied().peekable();
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

/// The Hangul filler (U+3164), which starts an eight-byte syllable and stands for a
/// missing final consonant in it.
const FILLER: char = '\u{3164}';
/// The initial consonants, in the order of the Hangul syllables block (Unicode §3.12).
const INITIALS: &str = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ";
/// The final consonants, in the same order (index + 1 in a syllable; 0 is none).
const FINALS: &str = "ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ";

/// The syllable that the filler followed by `jamo` (initial, vowel, final or filler)
/// stands for, or `None` when they are no such sequence.
fn compose_syllable(jamo: [char; 3]) -> Option<char> {
    let [initial, vowel, last] = jamo;
    let initial = INITIALS.chars().position(|c| c == initial)? as u32;
    let vowel = (vowel as u32).checked_sub(0x314F).filter(|&v| v < 21)?;
    let last = if last == FILLER {
        0
    } else {
        FINALS.chars().position(|c| c == last)? as u32 + 1
    };
    char::from_u32(0xAC00 + (initial * 21 + vowel) * 28 + last)
}

/// The characters of `text` with every eight-byte EUC-KR syllable (the Hangul filler
/// and three compatibility jamo) composed into the syllable; any other character,
/// a filler that starts no such sequence included, passes through unchanged.
pub(super) fn compose_jamo(text: &[char]) -> impl Iterator<Item = char> + '_ {
    let mut rest = text;
    std::iter::from_fn(move || {
        let (&c, after) = rest.split_first()?;
        if let [FILLER, a, b, d, ..] = *rest {
            if let Some(syllable) = compose_syllable([a, b, d]) {
                rest = &rest[4..];
                return Some(syllable);
            }
        }
        rest = after;
        Some(c)
    })
}

/// The first and last half-width katakana and sign (U+FF61 to U+FF9F).
const HALF_WIDTH: std::ops::RangeInclusive<char> = '\u{FF61}'..='\u{FF9F}';
/// The full-width form of each character of [`HALF_WIDTH`], in order: its compatibility
/// decomposition, with the two sound marks as spacing marks (a mark that follows no kana
/// it composes with stays one of its own).
const FULL_WIDTH: [char; 63] = [
    '。', '「', '」', '、', '・', 'ヲ', 'ァ', 'ィ', 'ゥ', 'ェ', 'ォ', 'ャ', 'ュ', 'ョ', 'ッ', 'ー',
    'ア', 'イ', 'ウ', 'エ', 'オ', 'カ', 'キ', 'ク', 'ケ', 'コ', 'サ', 'シ', 'ス', 'セ', 'ソ', 'タ',
    'チ', 'ツ', 'テ', 'ト', 'ナ', 'ニ', 'ヌ', 'ネ', 'ノ', 'ハ', 'ヒ', 'フ', 'ヘ', 'ホ', 'マ', 'ミ',
    'ム', 'メ', 'モ', 'ヤ', 'ユ', 'ヨ', 'ラ', 'リ', 'ル', 'レ', 'ロ', 'ワ', 'ン', '゛', '゜',
];
/// The half-width voiced and semi-voiced sound marks.
const VOICED: char = '\u{FF9E}';
const SEMI_VOICED: char = '\u{FF9F}';

/// Whether `text` holds a half-width katakana or sign, which [`widen_kana`] changes.
pub(super) fn has_half_width_kana(text: &[char]) -> bool {
    text.iter().any(|c| HALF_WIDTH.contains(c))
}

/// The full-width form of half-width `c`, or `c` itself for any other character.
fn widen(c: char) -> char {
    if HALF_WIDTH.contains(&c) {
        FULL_WIDTH[(c as u32 - 0xFF61) as usize]
    } else {
        c
    }
}

/// Full-width `kana` with the half-width sound mark `mark` as one character (カ and
/// ﾞ make ガ, ハ and ﾟ make パ), or `None` when the two have no composed form.
fn voice(kana: char, mark: char) -> Option<char> {
    let voiced_by_one = "カキクケコサシスセソタチツテトハヒフヘホ";
    let n = kana as u32;
    let composed = match mark {
        VOICED if kana == 'ウ' => 0x30F4,
        VOICED if voiced_by_one.contains(kana) => n + 1,
        SEMI_VOICED if "ハヒフヘホ".contains(kana) => n + 2,
        _ => return None,
    };
    char::from_u32(composed)
}

/// The characters of `text` with every half-width katakana and sign in its full-width
/// form, and a kana followed by a half-width sound mark it composes with made one
/// character; any other character passes through unchanged.
pub(super) fn widen_kana(text: &[char]) -> impl Iterator<Item = char> + '_ {
    let mut chars = text.iter().copied().peekable();
    std::iter::from_fn(move || {
        let c = chars.next()?;
        let wide = widen(c);
        if HALF_WIDTH.contains(&c) {
            if let Some(voiced) = chars.peek().and_then(|&mark| voice(wide, mark)) {
                chars.next();
                return Some(voiced);
            }
        }
        Some(wide)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chars(text: &str) -> Vec<char> {
        text.chars().collect()
    }

    #[test]
    fn half_width_katakana_are_widened_and_voiced() {
        let widened = |text: &str| widen_kana(&chars(text)).collect::<String>();
        assert_eq!(widened("ｱﾝﾃｲ"), "アンテイ");
        assert_eq!(widened("ｶﾞｷﾞﾊﾞﾊﾟﾎﾟｳﾞ"), "ガギバパポヴ");
        assert_eq!(widened("ﾃﾞｰﾀ｡｢ﾒﾆｭｰ｣"), "データ。「メニュー」");
        // A mark with no composed form, or after no kana, stays a spacing mark.
        assert_eq!(widened("ｱﾞｲﾟﾞ"), "ア゛イ゜゛");
        // Anything else passes through, full-width kana and a mark after one included.
        assert_eq!(widened("abcアﾞ中"), "abcア゛中");
        assert!(has_half_width_kana(&chars("a ｱ")));
        assert!(!has_half_width_kana(&chars("アイウ abc")));
    }

    #[test]
    fn full_width_kana_follow_the_half_width_order() {
        // The signs, the small kana, the long vowel mark, then the 45 kana from ア to ン
        // in the order of the syllabary, as the full-width block has them.
        assert_eq!(widen('\u{FF61}'), '。');
        assert_eq!(widen('\u{FF66}'), 'ヲ');
        assert_eq!(widen('\u{FF70}'), 'ー');
        assert_eq!(widen('\u{FF71}'), 'ア');
        assert_eq!(widen('\u{FF9D}'), 'ン');
        let kana: Vec<char> = ('\u{FF71}'..='\u{FF9D}').map(widen).collect();
        assert_eq!(kana.len(), 45);
        assert!(kana.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(kana.iter().all(|c| ('\u{30A1}'..='\u{30FA}').contains(c)));
    }

    #[test]
    fn the_tables_line_up() {
        let n = BASES.chars().count();
        assert!(COMPOSED.iter().all(|c| c.chars().count() == n));
        assert_eq!(INITIALS.chars().count(), 19);
        assert_eq!(FINALS.chars().count(), 27);
    }

    #[test]
    fn eight_byte_hangul_is_composed() {
        // 똠 (ㄸ ㅗ ㅁ), 펲 (ㅍ ㅔ ㅍ) and 쀍 (ㅃ ㅞ ㄺ) as EUC-KR writes them outside KS X 1001,
        // decoded: the filler, then the jamo.
        let decoded = "\u{3164}ㄸㅗㅁ방 \u{3164}ㅍㅔㅍ\u{3164}ㅃㅞㄺ";
        assert_eq!(
            compose_jamo(&chars(decoded)).collect::<String>(),
            "똠방 펲쀍"
        );
        // Without a final consonant, the filler stands in for it.
        assert_eq!(
            compose_jamo(&chars("\u{3164}ㄱㅏ\u{3164}")).collect::<String>(),
            "가"
        );
        // Jamo that are no syllable, and a filler at the end, stay as they are.
        for text in [
            "\u{3164}ㅏㄱㄱ",
            "ㄱㅏ",
            "\u{3164}",
            "\u{3164}ㄱㅏ",
            "a\u{3164}ㄱ",
        ] {
            assert_eq!(compose_jamo(&chars(text)).collect::<String>(), text);
        }
    }

    #[test]
    fn decomposed_vietnamese_is_composed() {
        let decomposed = "Vie\u{302}\u{323}t Nam"; // ê is precomposed in windows-1258
        let text = "Vi\u{ea}\u{323}t Nam tie\u{301}ng";
        assert_eq!(
            compose_tone_marks(&chars(text)).collect::<String>(),
            "Việt Nam tiéng"
        );
        // A mark after a letter it does not compose with is kept.
        assert_eq!(
            compose_tone_marks(&chars("b\u{301}")).collect::<String>(),
            "b\u{301}"
        );
        assert_eq!(compose_tone_marks(&chars("")).count(), 0);
        assert_eq!(
            compose_tone_marks(&chars(decomposed)).collect::<String>(),
            "Vie\u{302}\u{323}t Nam",
            "e + circumflex is not a windows-1258 base: left alone"
        );
    }
}
