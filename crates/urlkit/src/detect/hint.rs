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

/// Whether `encoding` is native to the country-code TLD `tld` (lower case); any other
/// TLD has no native charsets.
pub(super) fn native_to_tld(tld: &str, encoding: &'static Encoding) -> bool {
    use encoding_rs::*;
    let natives: &[&'static Encoding] = match tld {
        "jp" => &[SHIFT_JIS, EUC_JP, ISO_2022_JP],
        "cn" => &[GBK],
        "tw" | "hk" | "mo" => &[BIG5],
        "kr" => &[EUC_KR],
        "ru" | "su" | "by" | "kz" | "bg" | "mk" | "rs" | "xn--p1ai" => {
            &[WINDOWS_1251, KOI8_R, ISO_8859_5, IBM866]
        }
        "ua" => &[WINDOWS_1251, KOI8_U],
        "gr" | "cy" => &[WINDOWS_1253, ISO_8859_7],
        "il" => &[WINDOWS_1255],
        "sa" | "ae" | "eg" | "ir" | "iq" | "jo" | "sy" | "lb" | "kw" | "qa" | "om" | "ye"
        | "dz" | "ma" | "tn" | "ly" | "sd" | "bh" | "ps" | "af" | "pk" => &[WINDOWS_1256],
        "th" => &[WINDOWS_874],
        "tr" | "az" => &[WINDOWS_1254],
        "cz" | "sk" | "pl" | "hu" | "si" | "hr" | "ro" | "ba" => &[WINDOWS_1250, ISO_8859_2],
        "lt" | "lv" | "ee" => &[WINDOWS_1257],
        "vn" => &[WINDOWS_1258],
        _ => &[],
    };
    natives.contains(&encoding)
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
