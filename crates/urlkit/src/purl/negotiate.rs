//! Proactive content negotiation (RFC 9110 §12): which of a record's offers a request's
//! `Accept` and `Accept-Language` prefer, with q-values and specificity.
//!
//! A header member that cannot be read (no `/` in a media range, a q-value that is not a
//! number from 0 to 1 with at most three decimals) is left out, as RFC 9110 lets a
//! recipient ignore what it cannot parse; the rest of the header still counts.

/// A quality in thousandths: `q=0.5` is 500, a missing q-value 1000.
pub type Quality = u16;

/// One member of `Accept`: `type/subtype` (either may be `*`), its parameters other than
/// `q`, and its quality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MediaRange {
    /// The type, lower case (`text`, or `*`).
    pub kind: String,
    /// The subtype, lower case (`html`, or `*`).
    pub subtype: String,
    /// Parameters before the q-value, names lower case, values as given without quotes.
    pub parameters: Vec<(String, String)>,
    /// The quality.
    pub quality: Quality,
}

/// Reads a q-value (`1`, `0.8`, `0.125`, `1.000`): `None` when it is not one.
fn quality(text: &str) -> Option<Quality> {
    let text = text.trim();
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = format!("{fraction:0<3}").parse::<u16>().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

/// Splits a header into its members and each member into its first part and its
/// `;`-separated parameters, dropping empty members (`a,,b`).
fn members(header: &str) -> impl Iterator<Item = (&str, Vec<(&str, &str)>)> {
    header.split(',').filter_map(|member| {
        let mut parts = member.split(';');
        let first = parts.next()?.trim();
        if first.is_empty() {
            return None;
        }
        let parameters = parts
            .filter_map(|p| {
                let (name, value) = p.split_once('=')?;
                Some((name.trim(), value.trim().trim_matches('"')))
            })
            .collect();
        Some((first, parameters))
    })
}

/// The members of an `Accept` header that can be read.
pub fn accept(header: &str) -> Vec<MediaRange> {
    members(header)
        .filter_map(|(range, parameters)| {
            let (kind, subtype) = range.split_once('/')?;
            let (kind, subtype) = (kind.trim(), subtype.trim());
            if kind.is_empty() || subtype.is_empty() || (kind == "*" && subtype != "*") {
                return None;
            }
            let mut range = MediaRange {
                kind: kind.to_ascii_lowercase(),
                subtype: subtype.to_ascii_lowercase(),
                parameters: Vec::new(),
                quality: 1000,
            };
            for (name, value) in parameters {
                if name.eq_ignore_ascii_case("q") {
                    range.quality = quality(value)?;
                    // Parameters after the weight are extensions of the weight, not of the
                    // media type (RFC 9110 §12.5.1).
                    break;
                }
                range
                    .parameters
                    .push((name.to_ascii_lowercase(), value.to_string()));
            }
            Some(range)
        })
        .collect()
}

/// How closely `range` names `offer` (a media type such as `text/html;charset=utf-8`):
/// `None` when it does not match, else 0 for `*/*`, 1 for `type/*`, 2 for `type/subtype`,
/// 3 and up for a match with parameters (each parameter of the range must be the offer's).
fn specificity(range: &MediaRange, offer: &str) -> Option<usize> {
    let mut parts = offer.split(';');
    let (kind, subtype) = parts.next()?.trim().split_once('/')?;
    let offered: Vec<(String, String)> = parts
        .filter_map(|p| {
            let (n, v) = p.split_once('=')?;
            Some((
                n.trim().to_ascii_lowercase(),
                v.trim().trim_matches('"').to_string(),
            ))
        })
        .collect();
    if range.kind == "*" {
        return Some(0);
    }
    if !range.kind.eq_ignore_ascii_case(kind.trim()) {
        return None;
    }
    if range.subtype == "*" {
        return Some(1);
    }
    if !range.subtype.eq_ignore_ascii_case(subtype.trim()) {
        return None;
    }
    let all_offered = range.parameters.iter().all(|(name, value)| {
        offered
            .iter()
            .any(|(n, v)| n == name && v.eq_ignore_ascii_case(value))
    });
    all_offered.then_some(2 + range.parameters.len())
}

/// The quality `ranges` give `offer`: that of the most specific range that matches it
/// (RFC 9110 §12.5.1), 0 when none does. Without an `Accept` header every offer is 1000.
pub fn media_quality(ranges: &[MediaRange], offer: &str) -> Quality {
    ranges
        .iter()
        .filter_map(|range| specificity(range, offer).map(|s| (s, range.quality)))
        .max_by_key(|&(s, _)| s)
        .map_or(0, |(_, quality)| quality)
}

/// One member of `Accept-Language`: a language range (`en`, `en-gb`, `*`) and its quality.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LanguageRange {
    /// The range, lower case.
    pub range: String,
    /// The quality.
    pub quality: Quality,
}

/// The members of an `Accept-Language` header that can be read.
pub fn accept_language(header: &str) -> Vec<LanguageRange> {
    members(header)
        .filter_map(|(range, parameters)| {
            let well_formed = range == "*"
                || range.split('-').all(|subtag| {
                    (1..=8).contains(&subtag.len())
                        && subtag.bytes().all(|b| b.is_ascii_alphanumeric())
                });
            if !well_formed {
                return None;
            }
            let mut quality_given = 1000;
            for (name, value) in parameters {
                if name.eq_ignore_ascii_case("q") {
                    quality_given = quality(value)?;
                }
            }
            Some(LanguageRange {
                range: range.to_ascii_lowercase(),
                quality: quality_given,
            })
        })
        .collect()
}

/// The quality `ranges` give the language tag `tag`, by RFC 4647 §3.3.1 basic filtering:
/// a range matches a tag equal to it or starting with it and a `-`; `*` matches any. The
/// longest matching range counts. Where none does, a range that is a dialect of the tag
/// (`de-AT` for a `de` offer, as RFC 4647 §3.4's lookup falls back) gives its quality
/// less one thousandth, so the language itself is taken over a language not asked for.
/// 0 when nothing matches.
pub fn language_quality(ranges: &[LanguageRange], tag: &str) -> Quality {
    let tag = tag.to_ascii_lowercase();
    let prefix_of = |long: &str, short: &str| {
        long == short
            || (long.starts_with(short) && long.as_bytes().get(short.len()) == Some(&b'-'))
    };
    let specific = ranges.iter().filter(|r| r.range != "*");
    let matching = specific
        .clone()
        .filter(|r| prefix_of(&tag, &r.range))
        .max_by_key(|r| r.range.len())
        .map(|r| r.quality);
    let dialect = specific
        .filter(|r| prefix_of(&r.range, &tag))
        .map(|r| r.quality.saturating_sub(1))
        .max();
    let wildcard = ranges.iter().rfind(|r| r.range == "*").map(|r| r.quality);
    matching.or(dialect).or(wildcard).unwrap_or(0)
}

/// Which offer a request prefers: the index into `offers` (each a media type and an
/// optional language tag) with the highest media quality, then the highest language
/// quality, the first listed among equals; `None` when every offer has quality 0 for
/// either header. A header that is absent accepts everything.
pub fn choose(
    offers: &[(&str, Option<&str>)],
    accept_header: Option<&str>,
    accept_language_header: Option<&str>,
) -> Option<usize> {
    let media = accept_header.map(accept);
    let languages = accept_language_header.map(accept_language);
    let mut best: Option<(usize, Quality, Quality)> = None;
    for (index, (media_type, language)) in offers.iter().enumerate() {
        let media_q = media
            .as_deref()
            .map_or(1000, |r| media_quality(r, media_type));
        let language_q = match (&languages, language) {
            (Some(ranges), Some(tag)) => language_quality(ranges, tag),
            // An offer in no particular language suits any reader, a little less than one
            // in a language asked for.
            (Some(_), None) => 1,
            (None, _) => 1000,
        };
        if media_q == 0 || language_q == 0 {
            continue;
        }
        if best.is_none_or(|(_, m, l)| (media_q, language_q) > (m, l)) {
            best = Some((index, media_q, language_q));
        }
    }
    best.map(|(index, _, _)| index)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_values_are_read_to_three_decimals_and_others_are_dropped() {
        assert_eq!(quality("1"), Some(1000));
        assert_eq!(quality("1.000"), Some(1000));
        assert_eq!(quality("0.8"), Some(800));
        assert_eq!(quality("0.125"), Some(125));
        assert_eq!(quality("0"), Some(0));
        for bad in ["1.5", "0.1234", "2", "-0.5", "x", "", "0.x"] {
            assert_eq!(quality(bad), None, "{bad}");
        }
        let ranges = accept("text/html;q=0.1234, application/json;q=0.5, */*;q=oops, image/*");
        let names: Vec<_> = ranges
            .iter()
            .map(|r| format!("{}/{}", r.kind, r.subtype))
            .collect();
        assert_eq!(names, ["application/json", "image/*"]);
    }

    #[test]
    fn the_most_specific_range_sets_an_offer_s_quality() {
        // RFC 9110 §12.5.1's example.
        let ranges =
            accept("text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed, text/plain;format=fixed;q=0.4, */*;q=0.5");
        for (offer, want) in [
            ("text/plain;format=flowed", 1000),
            ("text/plain", 700),
            ("text/html", 300),
            ("image/jpeg", 500),
            ("text/plain;format=fixed", 400),
            ("text/html;level=3", 300),
        ] {
            assert_eq!(media_quality(&ranges, offer), want, "{offer}");
        }
    }

    #[test]
    fn the_preferred_offer_wins_and_q_zero_refuses() {
        let offers = [
            ("text/html", None),
            ("text/turtle", None),
            ("application/ld+json", None),
        ];
        assert_eq!(choose(&offers, None, None), Some(0));
        assert_eq!(
            choose(
                &offers,
                Some("text/turtle;q=0.9, application/ld+json"),
                None
            ),
            Some(2)
        );
        assert_eq!(choose(&offers, Some("text/*"), None), Some(0));
        assert_eq!(
            choose(&offers, Some("*/*;q=0.1, text/turtle"), None),
            Some(1)
        );
        assert_eq!(choose(&offers, Some("image/png"), None), None);
        assert_eq!(
            choose(&offers, Some("text/html;q=0, text/*"), None),
            Some(1)
        );
    }

    #[test]
    fn languages_match_by_prefix_and_the_longest_range_counts() {
        let ranges = accept_language("en-GB, en;q=0.8, fr;q=0.5, *;q=0.1");
        assert_eq!(language_quality(&ranges, "en-GB"), 1000);
        assert_eq!(language_quality(&ranges, "en-US"), 800);
        assert_eq!(language_quality(&ranges, "fr-CA"), 500);
        assert_eq!(language_quality(&ranges, "de"), 100);
        assert_eq!(language_quality(&accept_language("en"), "eng"), 0);
        // A reader of Austrian German takes German over the wildcard's anything.
        let austrian = accept_language("de-AT, *;q=0.1");
        assert_eq!(language_quality(&austrian, "de"), 999);
        assert_eq!(language_quality(&austrian, "fr"), 100);
        let offers = [
            ("text/html", Some("de")),
            ("text/html", Some("fr")),
            ("text/html", None),
        ];
        assert_eq!(choose(&offers, None, Some("fr, de;q=0.5")), Some(1));
        assert_eq!(choose(&offers, None, Some("ja")), Some(2));
        assert_eq!(choose(&offers[..2], None, Some("ja")), None);
    }
}
