//! The page's languages: English, Hindi, Czech and Persian, one Fluent catalog each
//! (`locales/*.ftl`), chosen from `?lang=`, the `urlkit-lang` cookie the switch sets, or
//! `Accept-Language`.
//!
//! The server renders the page with [`Catalog::text`]; the page's script gets the same
//! messages as [`Catalog::for_script`], patterns with `{ $name }` holes and, for messages
//! that choose by a number, one pattern per plural category, so both speak from one
//! catalog.

use axum::http::{header, HeaderMap, HeaderValue};
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};
use intl_pluralrules::{PluralCategory, PluralRuleType, PluralRules};
use serde_json::{Map, Value};
use std::sync::OnceLock;
use unic_langid::LanguageIdentifier;

/// A language the page speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English, the reference catalog and the fallback.
    #[default]
    En,
    /// Hindi.
    Hi,
    /// Czech.
    Cs,
    /// Persian, written right to left.
    Fa,
}

/// The cookie that remembers the language chosen with the switch.
pub const COOKIE: &str = "urlkit-lang";

impl Lang {
    /// Every language, in the order the switch lists them.
    pub const ALL: [Lang; 4] = [Lang::En, Lang::Hi, Lang::Cs, Lang::Fa];

    /// The BCP 47 tag (`en`, `hi`, `cs`, `fa`).
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Hi => "hi",
            Lang::Cs => "cs",
            Lang::Fa => "fa",
        }
    }

    /// `rtl` for Persian, `ltr` otherwise.
    pub fn dir(self) -> &'static str {
        if self == Lang::Fa {
            "rtl"
        } else {
            "ltr"
        }
    }

    /// The language a tag names (`cs`, `cs-CZ`, `FA`); `None` for any other.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag.trim().split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.tag() == primary)
    }

    /// The language for a request: `?lang=` first, then the cookie, then the best match
    /// of `Accept-Language` (RFC 9110 §12.5.4, weights honoured), else English. Values
    /// that name no language of the page are passed over.
    pub fn choose(query: Option<&str>, cookie: Option<&str>, accept: Option<&str>) -> Lang {
        if let Some(lang) = query.or(cookie).and_then(Lang::from_tag) {
            return lang;
        }
        let Some(accept) = accept else {
            return Lang::En;
        };
        // Each range with its weight, in the order given; weight 0 is "not this one", and
        // a range whose weight cannot be read is passed over.
        let mut ranges: Vec<(&str, u16)> = accept
            .split(',')
            .filter_map(|item| {
                let mut parts = item.split(';');
                let range = parts.next()?.trim();
                let mut weight = 1000;
                for parameter in parts {
                    let (name, value) = parameter.split_once('=')?;
                    if name.trim().eq_ignore_ascii_case("q") {
                        weight = quality(value.trim())?;
                    }
                }
                (!range.is_empty() && weight > 0).then_some((range, weight))
            })
            .collect();
        ranges.sort_by_key(|(_, weight)| std::cmp::Reverse(*weight));
        ranges
            .into_iter()
            .find_map(|(range, _)| Lang::from_tag(range))
            .unwrap_or_default()
    }

    fn id(self) -> LanguageIdentifier {
        // The tags above are valid language identifiers.
        self.tag().parse().unwrap_or_default()
    }

    fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("locales/en.ftl"),
            Lang::Hi => include_str!("locales/hi.ftl"),
            Lang::Cs => include_str!("locales/cs.ftl"),
            Lang::Fa => include_str!("locales/fa.ftl"),
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// This language's catalog.
    pub fn catalog(self) -> &'static Catalog {
        static CATALOGS: OnceLock<Vec<Catalog>> = OnceLock::new();
        let all = CATALOGS.get_or_init(|| Lang::ALL.into_iter().map(Catalog::load).collect());
        &all[self.index()]
    }
}

/// The language of a request, and whether it was chosen with the switch (`?lang=`), which
/// the answer then remembers in a cookie ([`remember_language`]).
pub fn language(query: Option<&str>, headers: &HeaderMap) -> (Lang, Option<Lang>) {
    let asked = query.and_then(|q| {
        urlkit::codec::parse_form(q.as_bytes())
            .into_iter()
            .find(|(name, _)| name == "lang")
            .and_then(|(_, value)| Lang::from_tag(&value))
    });
    let cookie = crate::cookie::value(headers, COOKIE);
    let accept = headers
        .get(header::ACCEPT_LANGUAGE)
        .and_then(|v| v.to_str().ok());
    let lang = Lang::choose(asked.map(Lang::tag), cookie, accept);
    (lang, asked)
}

/// Remembers a language chosen with the switch for a year (nothing when none was chosen).
pub fn remember_language(headers: &mut HeaderMap, chosen: Option<Lang>, tls: bool) {
    if let Some(lang) = chosen {
        let cookie = format!(
            "{}={}; Path=/; Max-Age=31536000; SameSite=Lax{}",
            COOKIE,
            lang.tag(),
            if tls { "; Secure" } else { "" }
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            headers.append(header::SET_COOKIE, value);
        }
    }
}

/// One language's messages.
pub struct Catalog {
    lang: Lang,
    resource: &'static FluentResource,
    bundle: FluentBundle<&'static FluentResource>,
    /// The messages as the page's script reads them, made once.
    script: OnceLock<String>,
}

/// A message argument: text or a number (numbers choose plural forms).
#[derive(Clone, Debug)]
pub enum Arg<'a> {
    /// Text, inserted as it is.
    Text(&'a str),
    /// A count or an offset.
    Number(u64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(text)
    }
}

impl From<u64> for Arg<'_> {
    fn from(number: u64) -> Self {
        Arg::Number(number)
    }
}

impl Catalog {
    fn load(lang: Lang) -> Catalog {
        static RESOURCES: OnceLock<Vec<FluentResource>> = OnceLock::new();
        // The catalogs are part of the program and checked by the tests: a syntax error in
        // one would show as missing messages, never as a failure to start.
        let resources = RESOURCES.get_or_init(|| {
            Lang::ALL
                .into_iter()
                .map(|l| {
                    FluentResource::try_new(l.source().to_string())
                        .unwrap_or_else(|(partial, _)| partial)
                })
                .collect()
        });
        let resource = &resources[lang.index()];
        let mut bundle = FluentBundle::new_concurrent(vec![lang.id()]);
        let _ = bundle.add_resource(resource);
        Catalog {
            lang,
            resource,
            bundle,
            script: OnceLock::new(),
        }
    }

    /// The language of this catalog.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The message `id` without arguments; a missing message reads as its id, so a gap
    /// shows on the page rather than breaking it.
    pub fn text(&self, id: &str) -> String {
        self.format(id, &[])
    }

    /// The message `id` with named arguments.
    pub fn format(&self, id: &str, args: &[(&str, Arg)]) -> String {
        self.unisolated(self.format_isolated(id, args))
    }

    /// [`format`](Self::format) with the isolation marks around every inserted value.
    fn format_isolated(&self, id: &str, args: &[(&str, Arg)]) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_string();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Text(text) => fluent_args.set(*name, FluentValue::from(*text)),
                Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// Fluent puts every inserted value between Unicode isolation marks (FSI, PDI), which
    /// keep a left-to-right value whole in right-to-left text; a left-to-right page does
    /// without them.
    fn unisolated(&self, text: String) -> String {
        if self.lang.dir() == "rtl" {
            text
        } else {
            text.replace(['\u{2068}', '\u{2069}'], "")
        }
    }

    /// Every message id of the catalog, in the order written.
    pub fn ids(&self) -> Vec<&str> {
        self.resource_messages()
            .map(|m| m.id.name)
            .collect::<Vec<_>>()
    }

    fn resource_messages(&self) -> impl Iterator<Item = &fluent_syntax::ast::Message<&str>> {
        self.resource.entries().filter_map(|entry| match entry {
            fluent_syntax::ast::Entry::Message(m) => Some(m),
            _ => None,
        })
    }

    /// The messages for the page's script, as JSON: `{id: pattern}` where a pattern is a
    /// string with `{$name}` holes, or for a message that chooses by the number `$n`,
    /// `{"$plural": "n", "one": …, "other": …}` with one pattern per plural category of
    /// the language (as `Intl.PluralRules` names them). Safe to put in a `<script>`
    /// element: `<` is written `\u003c`.
    pub fn for_script(&self) -> &str {
        self.script.get_or_init(|| {
            let mut map = Map::new();
            for message in self.resource_messages() {
                let id = message.id.name;
                let Some(pattern) = &message.value else {
                    continue;
                };
                let mut variables = Vec::new();
                let mut selectors = Vec::new();
                walk(pattern, &mut variables, &mut selectors);
                map.insert(
                    id.to_string(),
                    self.script_pattern(id, &variables, &selectors),
                );
            }
            Value::Object(map).to_string().replace('<', "\\u003c")
        })
    }

    fn script_pattern(&self, id: &str, variables: &[&str], selectors: &[&str]) -> Value {
        let holes = |number: Option<(&str, u64)>| -> String {
            let placeholders: Vec<String> = variables.iter().map(|v| format!("{{${v}}}")).collect();
            let args: Vec<(&str, Arg)> = variables
                .iter()
                .zip(&placeholders)
                .map(|(name, hole)| match number {
                    Some((n, value)) if n == *name => (*name, Arg::Number(value)),
                    _ => (*name, Arg::Text(hole.as_str())),
                })
                .collect();
            let text = self.format_isolated(id, &args);
            // The number stands between isolation marks: put its hole back there.
            let text = match number {
                Some((n, value)) => text.replace(
                    &format!("\u{2068}{value}\u{2069}"),
                    &format!("\u{2068}{{${n}}}\u{2069}"),
                ),
                None => text,
            };
            self.unisolated(text)
        };
        let Some(&selector) = selectors.first() else {
            return Value::String(holes(None));
        };
        let mut forms = Map::new();
        forms.insert("$plural".into(), Value::String(selector.to_string()));
        for (category, example) in plural_examples(self.lang) {
            forms.insert(
                category.to_string(),
                Value::String(holes(Some((selector, example)))),
            );
        }
        Value::Object(forms)
    }
}

/// The variables a pattern uses, and those a select expression chooses by.
fn walk<'a>(
    pattern: &Pattern<&'a str>,
    variables: &mut Vec<&'a str>,
    selectors: &mut Vec<&'a str>,
) {
    let note = |list: &mut Vec<&'a str>, name: &'a str| {
        if !list.contains(&name) {
            list.push(name);
        }
    };
    for element in &pattern.elements {
        let PatternElement::Placeable { expression } = element else {
            continue;
        };
        match expression {
            Expression::Inline(InlineExpression::VariableReference { id }) => {
                note(variables, id.name)
            }
            Expression::Select { selector, variants } => {
                if let InlineExpression::VariableReference { id } = selector {
                    note(variables, id.name);
                    note(selectors, id.name);
                }
                for variant in variants {
                    walk(&variant.value, variables, selectors);
                }
            }
            Expression::Inline(_) => {}
        }
    }
}

/// The plural categories a language uses for whole numbers, each with the first number
/// (from 2 on, so that no example can be mistaken for another number in the text) that
/// falls in it; `one` may only have 1 (and 0).
fn plural_examples(lang: Lang) -> Vec<(&'static str, u64)> {
    let Ok(rules) = PluralRules::create(lang.id(), PluralRuleType::CARDINAL) else {
        return vec![("other", 5)];
    };
    let mut found: Vec<(&'static str, u64)> = Vec::new();
    for n in (2..1000).chain([1, 0]) {
        let Ok(category) = rules.select(n) else {
            continue;
        };
        let name = match category {
            PluralCategory::ZERO => "zero",
            PluralCategory::ONE => "one",
            PluralCategory::TWO => "two",
            PluralCategory::FEW => "few",
            PluralCategory::MANY => "many",
            PluralCategory::OTHER => "other",
        };
        if !found.iter().any(|(c, _)| *c == name) {
            found.push((name, n));
        }
    }
    found
}

/// A weight of `Accept-Language` in thousandths (RFC 9110 §12.4.2: `0` to `1` with at most
/// three decimals); `None` for anything else.
fn quality(value: &str) -> Option<u16> {
    let (whole, fraction) = value.split_once('.').unwrap_or((value, ""));
    if fraction.len() > 3 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let thousandths = match whole {
        "0" => {
            fraction
                .bytes()
                .fold(0u16, |n, b| n * 10 + u16::from(b - b'0'))
                * 10u16.pow(3 - fraction.len() as u32)
        }
        "1" if fraction.bytes().all(|b| b == b'0') => 1000,
        _ => return None,
    };
    Some(thousandths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_catalog_has_exactly_the_messages_of_the_english_one() {
        let english = Lang::En.catalog().ids();
        assert!(english.len() > 100, "{}", english.len());
        for lang in Lang::ALL {
            let resource = FluentResource::try_new(lang.source().to_string());
            assert!(
                resource.is_ok(),
                "{lang:?}: {:?}",
                resource.err().map(|e| e.1)
            );
            let ids = lang.catalog().ids();
            let missing: Vec<&&str> = english.iter().filter(|id| !ids.contains(id)).collect();
            let extra: Vec<&&str> = ids.iter().filter(|id| !english.contains(id)).collect();
            assert!(
                missing.is_empty() && extra.is_empty(),
                "{lang:?}: missing {missing:?}, extra {extra:?}"
            );
        }
    }

    #[test]
    fn every_message_uses_the_variables_of_the_english_one() {
        let variables = |lang: Lang| -> Vec<(String, Vec<String>)> {
            lang.catalog()
                .resource_messages()
                .filter_map(|m| {
                    let mut vars = Vec::new();
                    walk(m.value.as_ref()?, &mut vars, &mut Vec::new());
                    let mut vars: Vec<String> = vars.into_iter().map(str::to_string).collect();
                    vars.sort();
                    Some((m.id.name.to_string(), vars))
                })
                .collect()
        };
        let mut english = variables(Lang::En);
        english.sort();
        for lang in Lang::ALL {
            let mut other = variables(lang);
            other.sort();
            assert_eq!(other, english, "{lang:?}");
        }
    }

    #[test]
    fn the_language_comes_from_the_query_the_cookie_or_accept_language() {
        assert_eq!(Lang::choose(Some("fa"), Some("cs"), Some("hi")), Lang::Fa);
        assert_eq!(Lang::choose(None, Some("cs"), Some("hi")), Lang::Cs);
        assert_eq!(
            Lang::choose(Some("xx"), None, Some("hi-IN,hi;q=0.9")),
            Lang::Hi
        );
        assert_eq!(
            Lang::choose(None, None, Some("de-DE,de;q=0.9,cs;q=0.8,en;q=0.5")),
            Lang::Cs
        );
        assert_eq!(Lang::choose(None, None, Some("fa-IR")), Lang::Fa);
        assert_eq!(Lang::choose(None, None, Some("de, ja;q=0.5")), Lang::En);
        assert_eq!(Lang::choose(None, None, Some(";;;,=q")), Lang::En);
        // Weights order the ranges, whatever order they come in; 0 refuses one.
        assert_eq!(Lang::choose(None, None, Some("fa;q=0.9, hi;q=1")), Lang::Hi);
        assert_eq!(Lang::choose(None, None, Some("cs;q=0")), Lang::En);
        assert_eq!(
            Lang::choose(None, None, Some("cs;q=0.2, fa;q=0.25, en;q=0.1")),
            Lang::Fa
        );
        assert_eq!(Lang::choose(None, None, Some("cs;q=0.5, hi")), Lang::Hi);
        assert_eq!(Lang::choose(None, None, Some("cs;q=2, fa;q=0.5")), Lang::Fa);
        assert_eq!(
            Lang::choose(None, None, Some("hi;q=0.0001, cs;q=.5")),
            Lang::En
        );
        assert_eq!(Lang::choose(None, None, None), Lang::En);
    }

    #[test]
    fn plural_forms_follow_the_language() {
        let cs = Lang::Cs.catalog();
        let count = |n: u64| cs.format("findings-total", &[("count", Arg::Number(n))]);
        assert_eq!(count(1), "1 nález");
        assert_eq!(count(3), "3 nálezy");
        assert_eq!(count(12), "12 nálezů");
        let script: Value = serde_json::from_str(cs.for_script()).unwrap();
        let forms = &script["findings-total"];
        assert_eq!(forms["$plural"], "count");
        assert_eq!(forms["few"], "{$count} nálezy");
        assert_eq!(forms["other"], "{$count} nálezů");
        assert_eq!(forms["one"], "{$count} nález");
        // Right to left, inserted values stay between isolation marks.
        let fa = Lang::Fa.catalog();
        let at = fa.format("at-byte", &[("offset", Arg::Number(7))]);
        assert_eq!(at, "بایت \u{2068}7\u{2069}");
    }

    #[test]
    fn script_patterns_keep_their_holes_and_cannot_end_a_script_element() {
        let en = Lang::En.catalog();
        let script = en.for_script();
        assert!(!script.contains("</"), "{script}");
        let script: Value = serde_json::from_str(script).unwrap();
        assert_eq!(
            script["error-rejected"],
            "Strict mode rejected the input at byte {$offset}: {$problem}."
        );
        assert_eq!(script["encode"], "Encode");
        assert!(script["footer-html"].as_str().unwrap().contains("<a href"));
    }
}
