//! Charset detection (interim: byte order mark, ASCII, UTF-8, then chardetng).

/// One candidate charset and its score.
pub struct Candidate {
    /// WHATWG name.
    pub charset: &'static str,
    /// 0.0..=1.0
    pub confidence: f32,
}

/// What [`detect`] chose.
pub struct Detection {
    /// WHATWG name.
    pub charset: &'static str,
    /// 0.0..=1.0
    pub confidence: f32,
    /// Why.
    pub reason: &'static str,
    /// Bytes of byte order mark to skip.
    pub bom_length: usize,
    /// Other candidates, best first.
    pub runners_up: Vec<Candidate>,
}

/// Guesses the charset of `bytes`.
pub fn detect(bytes: &[u8], tld_hint: Option<&str>) -> Detection {
    let simple = |charset, reason, bom_length| Detection {
        charset,
        confidence: 1.0,
        reason,
        bom_length,
        runners_up: Vec::new(),
    };
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        return simple("UTF-8", "byte order mark", 3);
    }
    if bytes.is_ascii() {
        return simple("UTF-8", "ASCII only", 0);
    }
    if std::str::from_utf8(bytes).is_ok() {
        return simple("UTF-8", "valid UTF-8", 0);
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    detector.feed(bytes, true);
    let encoding = detector.guess(
        tld_hint.map(|t| t.as_bytes()),
        chardetng::Utf8Detection::Allow,
    );
    Detection {
        charset: encoding.name(),
        confidence: 0.5,
        reason: "statistical guess",
        bom_length: 0,
        runners_up: Vec::new(),
    }
}

/// The top-level domain of the URL at the start of `text`, if any.
pub fn tld_of_url(text: &[u8]) -> Option<&str> {
    let text = std::str::from_utf8(text).ok()?;
    let rest = &text[text.find("://")? + 3..];
    let host = rest.split(['/', '?', '#', ':']).next()?;
    let tld = host.rsplit('.').next()?;
    (!tld.is_empty() && tld.is_ascii()).then_some(tld)
}
