//! The top-level-domain hint: where a URL was found says which charsets its bytes are
//! likely in (`.jp` → Shift_JIS, EUC-JP, ISO-2022-JP; `.ru` → windows-1251, KOI8-R, …).

use encoding_rs::Encoding;

/// Top-level domain of the host of the URL that `text` holds, if it looks like a URL
/// with an authority (`scheme://host…` or `//host…`): `"http://example.jp/x"` gives
/// `Some("jp")`, returned as written (not lower-cased). The authority is read as RFC 3986
/// §3.2 lays it out: userinfo before the last `@`, a port after the last `:`.
///
/// Returns `None` for text without `//`, for hosts without a dot, for IP literals and
/// numeric last labels, and for labels that are not ASCII letters, digits and `-`
/// (Unicode labels must be in Punycode, as DNS carries them). Never panics.
pub fn tld_of_url(text: &[u8]) -> Option<&str> {
    let start = text.windows(2).position(|w| w == b"//")? + 2;
    let scheme = &text[..start - 2];
    let scheme = scheme.strip_suffix(b":").unwrap_or(scheme);
    if !scheme
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return None;
    }
    let rest = &text[start..];
    let end = rest
        .iter()
        .position(|b| b"/?#\\".contains(b) || b.is_ascii_whitespace())
        .unwrap_or(rest.len());
    let authority = &rest[..end];
    let host = match authority.iter().rposition(|&b| b == b'@') {
        Some(at) => &authority[at + 1..],
        None => authority,
    };
    if host.first() == Some(&b'[') {
        return None;
    }
    let host = match host.iter().position(|&b| b == b':') {
        Some(colon) => &host[..colon],
        None => host,
    };
    let host = host.strip_suffix(b".").unwrap_or(host);
    let dot = host.iter().rposition(|&b| b == b'.')?;
    let label = &host[dot + 1..];
    if label.is_empty()
        || label.iter().all(u8::is_ascii_digit)
        || !label
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return None;
    }
    std::str::from_utf8(label).ok()
}

/// A TLD hint as chardetng wants it (lower-case ASCII, no leading dot), or `None` when
/// the hint cannot be a DNS label (empty, too long, other characters).
pub(super) fn normalise_tld(hint: Option<&str>) -> Option<String> {
    let hint = hint?.trim_start_matches('.');
    (!hint.is_empty()
        && hint.len() <= 63
        && hint.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
    .then(|| hint.to_ascii_lowercase())
}

/// The legacy charsets native to the country-code TLD `tld` (lower case); any other TLD
/// has none.
pub(super) fn natives_of_tld(tld: &str) -> &'static [&'static Encoding] {
    use encoding_rs::*;
    static JAPANESE: [&Encoding; 3] = [&SHIFT_JIS_INIT, &EUC_JP_INIT, &ISO_2022_JP_INIT];
    static CHINESE: [&Encoding; 1] = [&GBK_INIT];
    static TRADITIONAL_CHINESE: [&Encoding; 1] = [&BIG5_INIT];
    static KOREAN: [&Encoding; 1] = [&EUC_KR_INIT];
    static CYRILLIC: [&Encoding; 4] = [
        &WINDOWS_1251_INIT,
        &KOI8_R_INIT,
        &ISO_8859_5_INIT,
        &IBM866_INIT,
    ];
    static UKRAINIAN: [&Encoding; 2] = [&WINDOWS_1251_INIT, &KOI8_U_INIT];
    static GREEK: [&Encoding; 2] = [&WINDOWS_1253_INIT, &ISO_8859_7_INIT];
    static HEBREW: [&Encoding; 1] = [&WINDOWS_1255_INIT];
    static ARABIC: [&Encoding; 1] = [&WINDOWS_1256_INIT];
    static THAI: [&Encoding; 1] = [&WINDOWS_874_INIT];
    static TURKISH: [&Encoding; 1] = [&WINDOWS_1254_INIT];
    static CENTRAL_EUROPEAN: [&Encoding; 2] = [&WINDOWS_1250_INIT, &ISO_8859_2_INIT];
    static BALTIC: [&Encoding; 1] = [&WINDOWS_1257_INIT];
    static VIETNAMESE: [&Encoding; 1] = [&WINDOWS_1258_INIT];
    match tld {
        "jp" => &JAPANESE,
        "cn" => &CHINESE,
        "tw" | "hk" | "mo" => &TRADITIONAL_CHINESE,
        "kr" => &KOREAN,
        "ru" | "su" | "by" | "kz" | "bg" | "mk" | "rs" | "xn--p1ai" => &CYRILLIC,
        "ua" => &UKRAINIAN,
        "gr" | "cy" => &GREEK,
        "il" => &HEBREW,
        "sa" | "ae" | "eg" | "ir" | "iq" | "jo" | "sy" | "lb" | "kw" | "qa" | "om" | "ye"
        | "dz" | "ma" | "tn" | "ly" | "sd" | "bh" | "ps" | "af" | "pk" => &ARABIC,
        "th" => &THAI,
        "tr" | "az" => &TURKISH,
        "cz" | "sk" | "pl" | "hu" | "si" | "hr" | "ro" | "ba" => &CENTRAL_EUROPEAN,
        "lt" | "lv" | "ee" => &BALTIC,
        "vn" => &VIETNAMESE,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tld_of_url_finds_the_hosts_last_label() {
        assert_eq!(tld_of_url(b"http://example.jp/path"), Some("jp"));
        assert_eq!(
            tld_of_url(b"https://user:pw@www.Example.RU:8080/?q=1"),
            Some("RU")
        );
        assert_eq!(tld_of_url(b"//cdn.example.com.#x"), Some("com"));
        assert_eq!(
            tld_of_url(b"http://xn--fsqu00a.xn--3lr804guic/"),
            Some("xn--3lr804guic")
        );
        assert_eq!(tld_of_url(b"http://localhost/"), None);
        assert_eq!(tld_of_url(b"http://127.0.0.1/"), None);
        assert_eq!(tld_of_url(b"http://[::1]/"), None);
        assert_eq!(tld_of_url(b"q=%E6%9D%B1"), None);
        assert_eq!(tld_of_url(b""), None);
        assert_eq!(tld_of_url("http://例子.卷筒纸/".as_bytes()), None);
    }

    #[test]
    fn hints_that_cannot_be_labels_are_dropped() {
        assert_eq!(normalise_tld(Some(".JP")).as_deref(), Some("jp"));
        for bad in ["", ".", "x y", "日本", "a.b"] {
            assert_eq!(normalise_tld(Some(bad)), None, "{bad:?}");
        }
    }
}
