//! What the front ends show people, defined once: sizes in the units limits are named in,
//! the name a file's result is saved under, the URL components in the order a URL reads,
//! and an inspected view's parts ([`ShownParts`]). The server uses these directly; the
//! page's script gets them from the server (the component list, as a data attribute of
//! the page) or from the WebAssembly module (`humanSize`, `resultName` and `shownParts`
//! of `urlkit.mjs`, which run this code), so the browser and the server cannot say
//! different things. `crates/urlkit-wasm/js/test/vectors.json`
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

/// One view's components as the inspector shows them, in the order a URL reads. The rule
/// that reads them from a view's report is this one, for both views and both front ends:
/// the server's page calls [`ShownParts::of_view`] on the report it renders, and the
/// page's script calls it through the WebAssembly module (`shownParts` of `urlkit.mjs`)
/// on the report `POST /api/inspect` answered. A part the view does not have, or has
/// empty where empty means none (user, password, port), is `None`; so is an opaque
/// origin (`null`).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ShownParts {
    /// The serialized URL (the URL Standard's view only).
    pub href: Option<String>,
    /// The scheme, without `:`.
    pub scheme: Option<String>,
    /// The user (the URL Standard's `user`, RFC 3986's whole `userinfo`).
    pub user: Option<String>,
    /// The password (the URL Standard's view only).
    pub password: Option<String>,
    /// The host as written in the URL (Punycode; IPv6 in brackets).
    pub host: Option<String>,
    /// The host in Unicode, where the view gives one.
    pub host_unicode: Option<String>,
    /// The host's kind by the name the report gives it (`domain`, `ipv6`, `reg-name`, …).
    pub host_type: Option<String>,
    /// The port written in the URL.
    pub port: Option<String>,
    /// The scheme's default port, shown where the URL writes none.
    pub default_port: Option<String>,
    /// The path.
    pub path: Option<String>,
    /// The path's segments, decoded, as the report lists them.
    pub segments: Vec<String>,
    /// The query, without `?`.
    pub query: Option<String>,
    /// The query's pairs, decoded, as the report lists them.
    pub pairs: Vec<(String, String)>,
    /// How many pairs the report left out.
    pub pairs_not_listed: u64,
    /// The fragment, without `#`.
    pub fragment: Option<String>,
    /// The fragment decoded (the URL Standard's view only).
    pub fragment_decoded: Option<String>,
    /// The origin, where it is not opaque.
    pub origin: Option<String>,
}

/// The fields of a view's report that [`ShownParts`] reads: the JSON of the URL
/// Standard's `UrlReport` or of RFC 3986's `Components`. Other fields are left alone.
#[derive(serde::Deserialize)]
struct View {
    href: Option<String>,
    scheme: Option<String>,
    user: Option<String>,
    userinfo: Option<String>,
    password: Option<String>,
    host: Option<String>,
    host_unicode: Option<String>,
    host_type: Option<String>,
    port: Option<Text>,
    default_port: Option<Text>,
    path: Option<String>,
    path_segments: Option<Vec<String>>,
    query: Option<String>,
    #[serde(default)]
    query_pairs: Vec<(String, String)>,
    #[serde(default)]
    query_pairs_not_listed: u64,
    fragment: Option<String>,
    fragment_decoded: Option<String>,
    origin: Option<String>,
}

/// A value shown as text: the URL Standard's ports are numbers, RFC 3986's are text.
#[derive(serde::Deserialize)]
#[serde(untagged)]
enum Text {
    Number(u64),
    Text(String),
}

impl Text {
    fn into_string(self) -> String {
        match self {
            Text::Number(n) => n.to_string(),
            Text::Text(t) => t,
        }
    }
}

impl ShownParts {
    /// The parts of a view, from the JSON of its report (a URL Standard `UrlReport` or an
    /// RFC 3986 `Components`, as `POST /api/inspect` answers them).
    ///
    /// Bad input: text that is not JSON, JSON that is not an object, or an object whose
    /// fields read here have the wrong type (a number for a host, …) is an error saying
    /// what was expected.
    pub fn of_view(view: &str) -> Result<ShownParts, serde_json::Error> {
        ShownParts::of_value(serde_json::from_str(view)?)
    }

    /// [`of_view`](ShownParts::of_view) of a report's JSON value.
    ///
    /// Bad input: as for [`of_view`](ShownParts::of_view).
    pub fn of_value(view: serde_json::Value) -> Result<ShownParts, serde_json::Error> {
        if !view.is_object() {
            return Err(serde::de::Error::custom(format!(
                "a view's report is a JSON object, not {}",
                match view {
                    serde_json::Value::Array(_) => "an array",
                    serde_json::Value::String(_) => "a string",
                    serde_json::Value::Number(_) => "a number",
                    serde_json::Value::Bool(_) => "a boolean",
                    _ => "null",
                }
            )));
        }
        serde_json::from_value::<View>(view).map(ShownParts::from)
    }

    /// The parts of a report the server holds (a `UrlReport` or `Components`), by the
    /// same rule as [`of_view`](ShownParts::of_view): through its JSON.
    ///
    /// Bad input: none; a report always serializes to a view.
    pub fn of_report(report: &impl serde::Serialize) -> ShownParts {
        serde_json::to_value(report)
            .and_then(ShownParts::of_value)
            .unwrap_or_default()
    }
}

impl From<View> for ShownParts {
    fn from(v: View) -> ShownParts {
        let nonempty = |text: Option<String>| text.filter(|t| !t.is_empty());
        ShownParts {
            href: v.href,
            scheme: v.scheme,
            user: nonempty(v.user.or(v.userinfo)),
            password: nonempty(v.password),
            host: v.host,
            host_unicode: v.host_unicode,
            host_type: v.host_type,
            port: nonempty(v.port.map(Text::into_string)),
            default_port: v.default_port.map(Text::into_string),
            path: v.path,
            segments: v.path_segments.unwrap_or_default(),
            query: v.query,
            pairs: v.query_pairs,
            pairs_not_listed: v.query_pairs_not_listed,
            fragment: v.fragment,
            fragment_decoded: v.fragment_decoded,
            origin: v.origin.filter(|o| o != "null"),
        }
    }
}
