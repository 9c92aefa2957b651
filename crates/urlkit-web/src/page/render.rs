//! The page's template filled in: `{{…}}` placeholders, the form's options, the reference
//! tables and the language switch, in the reader's language.

use super::assets::asset_url;
use super::view::{self, escape};
use super::{Direction, PageState};
use crate::i18n::{Catalog, Lang};
use std::fmt::Write as _;
use urlkit::{Charset, EncodeSet};
use urlkit_api::shown::{human_size, COMPONENTS};

const TEMPLATE: &str = include_str!("assets/index.html");

fn option(out: &mut String, value: &str, text: &str, selected: bool) {
    let _ = write!(
        out,
        "<option value=\"{}\"{}>{}</option>",
        escape(value),
        if selected { " selected" } else { "" },
        escape(text)
    );
}

/// The charset list. `first`, when given, is an extra first entry (value and label): files
/// offer "bytes as they are" there.
fn charset_options(selected: &str, t: &Catalog, first: Option<(&str, &str)>) -> String {
    let mut out = String::new();
    let selected = match (selected, first) {
        ("", Some((value, _))) => value,
        ("", None) => "UTF-8",
        (s, _) => s,
    };
    if let Some((value, label)) = first {
        option(&mut out, value, label, selected == value);
    }
    option(
        &mut out,
        "auto",
        &t.text("charset-auto"),
        selected.eq_ignore_ascii_case("auto"),
    );
    let chosen = Charset::for_label(selected).ok();
    for (charset, labels) in Charset::all() {
        let _ = write!(
            out,
            "<option value=\"{name}\" title=\"labels: {labels}\"{selected}>{name}</option>",
            name = escape(charset.name()),
            labels = escape(&labels.join(", ")),
            selected = if Some(charset) == chosen {
                " selected"
            } else {
                ""
            },
        );
    }
    out
}

fn set_options(selected: &str) -> String {
    let selected = if selected.is_empty() {
        "unreserved"
    } else {
        selected
    };
    let mut out = String::new();
    for (name, description) in EncodeSet::described() {
        option(
            &mut out,
            name,
            &format!("{name} — {description}"),
            name == selected,
        );
    }
    out
}

fn newline_options(selected: &str) -> String {
    let mut out = String::new();
    option(&mut out, "lf", "LF (\\n)", selected != "crlf");
    option(&mut out, "crlf", "CRLF (\\r\\n)", selected == "crlf");
    out
}

fn op_options(selected: &str, t: &Catalog) -> String {
    let mut out = String::new();
    option(&mut out, "encode", &t.text("encode"), selected != "decode");
    option(&mut out, "decode", &t.text("decode"), selected == "decode");
    out
}

fn component_options(selected: &str, t: &Catalog) -> String {
    let mut out = String::new();
    for name in COMPONENTS {
        option(
            &mut out,
            name,
            &t.text(&format!("part-{name}")),
            name == selected || (selected.is_empty() && name == "host"),
        );
    }
    out
}

/// The switch: each language named in itself, the current one marked.
fn language_links(current: Lang) -> String {
    language_links_to("/", current)
}

/// The switch on the page at `path`.
pub fn language_links_to(path: &str, current: Lang) -> String {
    let path = escape(path);
    let mut out = String::new();
    for lang in Lang::ALL {
        let _ = write!(
            out,
            "<a href=\"{path}?lang={tag}\" hreflang=\"{tag}\" lang=\"{tag}\" dir=\"{dir}\"{current}>{name}</a>",
            tag = lang.tag(),
            dir = lang.dir(),
            current = if lang == current {
                " aria-current=\"true\""
            } else {
                ""
            },
            name = escape(&lang.catalog().text("language-name")),
        );
    }
    out
}

/// The reference tables, built from the characters so the escapes cannot be mistyped.
fn reference_rows(chars: &[(&str, &str)], t: &Catalog) -> String {
    let mut out = String::new();
    for (text, note) in chars {
        let escaped: String = text.bytes().map(|b| format!("%{b:02X}")).collect();
        let shown = match *text {
            " " => t.text("ref-space"),
            "\n" => t.text("ref-line-feed"),
            "\r" => t.text("ref-carriage-return"),
            "\t" => t.text("ref-tab"),
            c => c.to_string(),
        };
        let literal = text.chars().all(|c| !c.is_whitespace());
        let _ = write!(
            out,
            "<tr><td{dir}><code class=\"char\">{}</code></td><td dir=\"ltr\"><code>{}</code></td><td>{}</td></tr>",
            escape(&shown),
            escaped,
            escape(&t.text(note)),
            dir = if literal { " dir=\"ltr\"" } else { "" },
        );
    }
    out
}

const RESERVED: &[(&str, &str)] = &[
    (":", "ref-after-scheme"),
    ("/", "ref-path-segments"),
    ("?", "ref-starts-query"),
    ("#", "ref-starts-fragment"),
    ("[", "ref-ipv6"),
    ("]", "ref-ipv6"),
    ("@", "ref-ends-userinfo"),
    ("!", "ref-sub-delim"),
    ("$", "ref-sub-delim"),
    ("&", "ref-separates-parameters"),
    ("'", "ref-sub-delim"),
    ("(", "ref-sub-delim"),
    (")", "ref-sub-delim"),
    ("*", "ref-sub-delim"),
    ("+", "ref-space-in-form"),
    (",", "ref-sub-delim"),
    (";", "ref-parameter-separator"),
    ("=", "ref-name-value"),
];

const COMMON: &[(&str, &str)] = &[
    (" ", "ref-plus-in-form"),
    ("\"", "ref-quotation-mark"),
    ("%", "ref-escape-character"),
    ("<", "ref-less-than"),
    (">", "ref-greater-than"),
    ("\\", "ref-backslash"),
    ("^", "ref-caret"),
    ("`", "ref-grave"),
    ("{", "ref-left-brace"),
    ("|", "ref-vertical-bar"),
    ("}", "ref-right-brace"),
    ("\n", "ref-line-feed"),
    ("\r", "ref-carriage-return"),
    ("\t", "ref-tab"),
    ("é", "ref-utf8-two"),
    ("€", "ref-utf8-three"),
    ("引", "ref-utf8-three"),
    ("😀", "ref-utf8-four"),
];

/// Fills the template: `{{name}}` placeholders, `{{t:ID}}` (a message, escaped),
/// `{{html:ID}}` (a message holding markup, as it is), `{{value:FIELD}}` (escaped field
/// value), `{{checked:FIELD}}` (` checked` when the checkbox was on) and
/// `{{pressed:DIRECTION}}`.
pub fn render(state: &PageState) -> String {
    let mut out = String::with_capacity(TEMPLATE.len() + 32 * 1024);
    let mut rest = TEMPLATE;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let key = &rest[start + 2..start + len];
        out.push_str(&fill(state, key));
        rest = &rest[start + len + 2..];
    }
    out.push_str(rest);
    out
}

fn fill(state: &PageState, key: &str) -> String {
    let t = state.catalog();
    if let Some(id) = key.strip_prefix("t:") {
        return escape(&t.text(id));
    }
    if let Some(id) = key.strip_prefix("html:") {
        return t.text(id);
    }
    if let Some(field) = key.strip_prefix("value:") {
        return escape(state.field(field));
    }
    if let Some(field) = key.strip_prefix("checked:") {
        return if state.on(field) {
            " checked".into()
        } else {
            String::new()
        };
    }
    if let Some(direction) = key.strip_prefix("pressed:") {
        return (state.direction.name() == direction).to_string();
    }
    let codec_ok = state.codec.as_ref().and_then(|r| r.as_ref().ok());
    let lang_query = format!("?lang={}", state.lang.tag());
    match key {
        "lang" => state.lang.tag().into(),
        "dir" => state.lang.dir().into(),
        "css" => asset_url("style.css"),
        "js" => asset_url("app.js"),
        "mjs" => asset_url("urlkit.mjs"),
        "wasm" => asset_url("urlkit.wasm"),
        "worker" => asset_url("worker.js"),
        "messages" => t.for_script().to_string(),
        // What the page's script shows without asking the WebAssembly module: the limits
        // as the server names them, the URL's components, how many findings come first.
        "text_limit_shown" => human_size(state.text_limit),
        "upload_limit_shown" => human_size(state.upload_limit),
        "components" => COMPONENTS.join(" "),
        "first_findings" => view::FIRST_FINDINGS.to_string(),
        "language_links" => language_links(state.lang),
        "form_action" => format!("/{lang_query}"),
        "lang_query" => lang_query,
        "op" => state.direction.name().into(),
        "direction_note" => escape(&t.text(match state.direction {
            Direction::Auto => "direction-auto",
            Direction::Encode => "direction-encode",
            Direction::Decode => "direction-decode",
        })),
        "input_kind" | "output_kind" => {
            let encoded = (key == "input_kind") == (state.direction == Direction::Decode);
            match state.direction {
                Direction::Auto => String::new(),
                _ => escape(&t.text(if encoded { "kind-encoded" } else { "kind-text" })),
            }
        }
        "charset_options" => charset_options(state.field("charset"), t, None),
        "file_charset_options" => {
            let bytes = t.text("file-charset-bytes");
            charset_options("", t, Some(("", &bytes)))
        }
        "set_options" => set_options(state.field("set")),
        "newline_options" => newline_options(state.field("newline")),
        "file_op_options" => op_options(state.field("file_op"), t),
        "component_options" => component_options(state.field("edit_component"), t),
        "output" => codec_ok.map(|r| escape(&r.output)).unwrap_or_default(),
        "status" => codec_ok
            .map(|r| view::codec_status(r, t))
            .unwrap_or_default(),
        "diagnostics" => match &state.codec {
            Some(Ok(r)) => view::findings(
                &r.diagnostics,
                r.diagnostics_not_listed,
                &r.diagnostic_counts,
                t,
            ),
            Some(Err(e)) => view::error(e, t, view::Limits::text(state.text_limit)),
            None => String::new(),
        },
        "inspect_result" => state
            .inspect
            .as_ref()
            .map(|r| view::inspected(r, t))
            .unwrap_or_default(),
        "file_result" => state
            .file
            .as_ref()
            .map(|r| view::file(r, t, view::Limits::upload(state.upload_limit)))
            .unwrap_or_default(),
        "reserved_rows" => reference_rows(RESERVED, t),
        "common_rows" => reference_rows(COMMON, t),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::assets::{SCRIPT, WORKER};

    fn state(lang: Lang) -> PageState {
        let mut state = PageState::new(lang, 1 << 20);
        state.fields.insert("live".into(), "on".into());
        state
    }

    #[test]
    fn escape_covers_markup_characters() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn the_template_is_filled_in_every_language() {
        for lang in Lang::ALL {
            let page = render(&state(lang));
            assert!(!page.contains("{{"), "unfilled placeholder ({lang:?})");
            assert!(page.contains("Shift_JIS"));
            assert!(page.contains("%E2%82%AC"));
            assert!(page.contains(&format!(
                "<html lang=\"{}\" dir=\"{}\">",
                lang.tag(),
                lang.dir()
            )));
        }
    }

    #[test]
    fn every_message_the_template_names_is_in_the_catalog() {
        let ids = Lang::En.catalog().ids();
        let mut rest = TEMPLATE;
        let mut named = 0;
        while let Some(start) = rest.find("{{") {
            let end = rest[start..].find("}}").expect("closed placeholder") + start;
            let key = &rest[start + 2..end];
            if let Some(id) = key.strip_prefix("t:") {
                assert!(ids.contains(&id) && !id.ends_with("-html"), "{key}");
                named += 1;
            } else if let Some(id) = key.strip_prefix("html:") {
                assert!(ids.contains(&id) && id.ends_with("-html"), "{key}");
            }
            rest = &rest[end..];
        }
        assert!(named > 40, "{named}");
    }

    #[test]
    fn every_message_the_scripts_name_is_in_the_catalog() {
        let ids = Lang::En.catalog().ids();
        let mut named = 0;
        for script in [SCRIPT, WORKER] {
            // Calls `t("id"` (not the ends of longer names such as `select("`).
            for (at, _) in script.match_indices("t(\"") {
                if script[..at]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.' || c == '$')
                {
                    continue;
                }
                let rest = &script[at + 3..];
                let id = &rest[..rest.find('"').expect("closed string")];
                assert!(ids.contains(&id), "{id}");
                named += 1;
            }
        }
        assert!(named > 20, "{named}");
    }
}
