//! The URL Standard's setters (URL Standard §6.1, the URL API's attribute setters), with
//! the reason when one refuses a value, and [`Edits`] applied through them.

use super::failure::{diagnose, host_failure};
use super::{parse, Url};
use crate::inspect::edit::{Component, EditError, EditProblem, Edits};
use crate::inspect::parts::{excerpt, is_special};

impl Url {
    /// Sets a component as the URL API's setter does (URL Standard §6.1: `protocol`,
    /// `username`, `password`, `hostname`, `host` for [`Component::HostPort`], `port`,
    /// `pathname`, `search`, `hash`, `href`): the value is percent-encoded where the
    /// component needs it, and an empty value clears the port, query and fragment.
    ///
    /// Bad input: a value the setter refuses is an [`EditError`] naming the component and
    /// why (a scheme that would turn a special URL into a non-special one, a port on a URL
    /// without a host, an invalid host, …), and the URL is unchanged. What the standard
    /// takes in part it takes without an error: `hostport` with a bad port sets the host
    /// alone, `port` with `8080x` sets 8080.
    pub fn set(&mut self, component: Component, value: &str) -> Result<(), EditError> {
        let ada = self.ada_mut();
        let taken = match component {
            Component::Scheme => ada.set_protocol(value).is_ok(),
            Component::User => ada.set_username(Some(value)).is_ok(),
            Component::Password => ada.set_password(Some(value)).is_ok(),
            Component::Host => ada.set_hostname(Some(value)).is_ok(),
            Component::HostPort => ada.set_host(Some(value)).is_ok(),
            Component::Port => ada.set_port(Some(value)).is_ok(),
            Component::Path => ada.set_pathname(Some(value)).is_ok(),
            Component::Query => {
                ada.set_search(Some(value));
                true
            }
            Component::Fragment => {
                ada.set_hash(Some(value));
                true
            }
            Component::Href => ada.set_href(value).is_ok(),
        };
        if !taken {
            return Err(self.refusal(component, value));
        }
        Ok(())
    }

    /// Removes a component: the user, password, port, query or fragment goes, the path
    /// becomes empty (`/` for special schemes), the host becomes empty (only `file:` and
    /// non-special URLs may have an empty host; `hostport` also removes the port).
    ///
    /// Bad input: clearing the scheme or the whole URL, the host of an `http:` URL (or of
    /// one with a user or port), or the path of a URL with an opaque path is an
    /// [`EditError`] saying so; the URL is unchanged.
    pub fn clear(&mut self, component: Component) -> Result<(), EditError> {
        match component {
            Component::Scheme | Component::Href => Err(EditError::new(
                EditProblem::CannotClear,
                component.name(),
                None,
                "a URL always has a scheme; set another one instead",
            )),
            Component::User if self.username().is_empty() => Ok(()),
            Component::Password if self.password().is_none() => Ok(()),
            Component::User | Component::Password => self.set(component, ""),
            Component::Port => {
                let _ = self.ada_mut().set_port(None);
                Ok(())
            }
            Component::Query => {
                self.ada_mut().set_search(None);
                Ok(())
            }
            Component::Fragment => {
                self.ada_mut().set_hash(None);
                Ok(())
            }
            Component::Path => self.set(Component::Path, ""),
            Component::Host | Component::HostPort => {
                if self.host_str().is_none_or(str::is_empty) {
                    return Ok(());
                }
                if component == Component::HostPort && self.port().is_some() {
                    let mut without_port = self.clone();
                    let _ = without_port.ada_mut().set_port(None);
                    without_port.set(Component::Host, "")?;
                    *self = without_port;
                    return Ok(());
                }
                self.set(Component::Host, "")
            }
        }
    }

    /// Whether the component is absent or empty, so that a conditional set (trurl's
    /// `--set port?=8080`) fills it in: the user, password, host, port (a default port,
    /// which the URL Standard leaves out, counts as none), path, query or fragment. The
    /// scheme and the whole URL are never absent.
    pub fn lacks(&self, component: Component) -> bool {
        match component {
            Component::Scheme | Component::Href => false,
            Component::User => self.username().is_empty(),
            Component::Password => self.password().is_none(),
            Component::Host | Component::HostPort => self.host_str().is_none_or(str::is_empty),
            Component::Port => self.port().is_none(),
            Component::Path => self.path().is_empty(),
            Component::Query => self.query().is_none_or(str::is_empty),
            Component::Fragment => self.fragment().is_none_or(str::is_empty),
        }
    }

    /// Why the setter of `component` refused `value` (it has already said no).
    fn refusal(&self, component: Component, value: &str) -> EditError {
        let name = component.name();
        let value: String = value
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        let no_credentials = || {
            EditError::new(EditProblem::NoAuthority,
                name,
                None,
                format!(
                    "{} cannot have a user, password or port (URL Standard §4.2 \"cannot have a username/password/port\")",
                    if self.scheme() == "file" {
                        "a file: URL".to_owned()
                    } else {
                        format!("a URL without a host ({})", self.scheme())
                    }
                ),
            )
        };
        let opaque = |what: &str| {
            EditError::new(
                EditProblem::OpaquePath,
                name,
                None,
                format!(
                    "a {}: URL with an opaque path has no {what} to set (URL Standard §4.1)",
                    self.scheme()
                ),
            )
        };
        match component {
            Component::Scheme => self.scheme_refusal(&value),
            Component::User | Component::Password => no_credentials(),
            Component::Port => {
                if self.host_str().is_none_or(str::is_empty) || self.scheme() == "file" {
                    return no_credentials();
                }
                self.port_refusal(&value).unwrap_or_else(|| {
                    EditError::new(
                        EditProblem::InvalidPort,
                        name,
                        None,
                        "the URL Standard refuses this port",
                    )
                })
            }
            Component::Path if self.has_opaque_path() => opaque("path"),
            Component::Host | Component::HostPort => {
                if self.has_opaque_path() {
                    return opaque("host");
                }
                let host_end = host_end(&value, self.is_special());
                let host = &value[..host_end];
                if host_end < value.len() && value.as_bytes()[host_end] == b':' {
                    if host.is_empty() {
                        return EditError::new(
                            EditProblem::InvalidHost,
                            name,
                            Some(0),
                            "the host before \":\" is empty",
                        );
                    }
                    if self.scheme() == "file" {
                        return EditError::new(
                            EditProblem::InvalidHost,
                            name,
                            Some(host_end),
                            "a file: URL has no port, and \":\" cannot be part of its host",
                        );
                    }
                    if component == Component::Host {
                        return EditError::new(EditProblem::InvalidHost,
                            name,
                            Some(host_end),
                            "\":\" cannot be part of a host: set the port with port=…, or host and port with hostport=…",
                        );
                    }
                }
                if host.is_empty() {
                    let why = if self.is_special() && self.scheme() != "file" {
                        format!("a {}: URL must have a host", self.scheme())
                    } else {
                        "the host cannot be emptied while the URL has a user, password or port"
                            .to_owned()
                    };
                    return EditError::new(EditProblem::HostRequired, name, None, why);
                }
                let failure = host_failure(host, self.scheme(), 0, &|i| i);
                match failure {
                    Some(f) => {
                        EditError::new(EditProblem::InvalidHost, name, Some(f.position), f.message)
                    }
                    None => EditError::new(
                        EditProblem::InvalidHost,
                        name,
                        None,
                        "the URL Standard refuses this host",
                    ),
                }
            }
            Component::Href => {
                let f = diagnose(&value, None);
                EditError::new(EditProblem::InvalidUrl, name, Some(f.position), f.message)
            }
            Component::Path | Component::Query | Component::Fragment => EditError::new(
                EditProblem::TooLong,
                name,
                None,
                "the URL would be longer than 4 GiB",
            ),
        }
    }

    /// Why the scheme setter refused `value`.
    fn scheme_refusal(&self, value: &str) -> EditError {
        let refuse = |kind: EditProblem, position: Option<usize>, message: String| {
            EditError::new(kind, "scheme", position, message)
        };
        let b = value.as_bytes();
        if !b.first().is_some_and(u8::is_ascii_alphabetic) {
            return refuse(
                EditProblem::InvalidScheme,
                Some(0),
                "a scheme starts with a letter (URL Standard §4.4)".into(),
            );
        }
        let end = b
            .iter()
            .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))
            .unwrap_or(b.len());
        if end < b.len() && b[end] != b':' {
            return refuse(
                EditProblem::InvalidScheme,
                Some(end),
                format!(
                    "{:?} cannot be part of a scheme: a letter, then letters, digits, \"+\", \"-\" or \".\"",
                    value[end..].chars().next().unwrap_or('?')
                ),
            );
        }
        let new = value[..end].to_ascii_lowercase();
        if is_special(&new) != self.is_special() {
            return refuse(
                EditProblem::SchemeChange,
                None,
                format!(
                    "the URL Standard does not turn a {} URL ({}:) into a {} one ({new}:); special schemes are http, https, ws, wss, ftp and file",
                    if self.is_special() { "special" } else { "non-special" },
                    self.scheme(),
                    if self.is_special() { "non-special" } else { "special" },
                ),
            );
        }
        if new == "file" {
            return refuse(
                EditProblem::SchemeChange,
                None,
                "a URL with a user, password or port cannot become a file: URL".into(),
            );
        }
        if self.scheme() == "file" {
            return refuse(
                EditProblem::SchemeChange,
                None,
                "a file: URL with an empty host cannot change its scheme".into(),
            );
        }
        refuse(
            EditProblem::SchemeChange,
            None,
            "the URL Standard refuses this scheme".into(),
        )
    }

    /// Why the port setter would refuse `value`, if it would: it must start with a digit,
    /// and its digits must make a number up to 65535.
    fn port_refusal(&self, value: &str) -> Option<EditError> {
        if value.is_empty() {
            return None;
        }
        if !value.starts_with(|c: char| c.is_ascii_digit()) {
            return Some(EditError::new(
                EditProblem::InvalidPort,
                "port",
                Some(0),
                "a port is a number from 0 to 65535",
            ));
        }
        let digits = value
            .find(|c: char| !c.is_ascii_digit())
            .map_or(value, |end| &value[..end]);
        let in_range = digits.trim_start_matches('0').len() <= 5
            && digits.parse::<u32>().map_or(true, |n| n <= 65535);
        (!in_range).then(|| {
            EditError::new(
                EditProblem::InvalidPort,
                "port",
                Some(0),
                format!("port {digits} is above 65535"),
            )
        })
    }
}

/// Where the host of a `host` setter's value ends: at a `:` outside brackets, or where the
/// host state stops (`/`, `?`, `#`, or `\` for special schemes).
fn host_end(value: &str, special: bool) -> usize {
    let mut in_brackets = false;
    value
        .bytes()
        .position(|c| {
            match c {
                b'[' => in_brackets = true,
                b']' => in_brackets = false,
                _ => {}
            }
            c == b':' && !in_brackets || matches!(c, b'/' | b'?' | b'#') || special && c == b'\\'
        })
        .unwrap_or(value.len())
}

impl Edits {
    /// Applies the edits to a URL of the URL Standard, through its setters
    /// ([`Url::set`], [`Url::clear`]): the redirect resolves as a browser follows a link.
    ///
    /// Bad input: a redirect that does not parse against the URL, or a value a setter
    /// refuses, is the [`EditError`] naming the component.
    pub fn apply(&self, url: &Url) -> Result<Url, EditError> {
        let mut url = match &self.redirect {
            Some(reference) => parse(reference, Some(url)).map_err(|e| {
                EditError::new(
                    EditProblem::Redirect,
                    "url",
                    Some(e.position),
                    format!("redirect {}: {}", excerpt(reference), e.message),
                )
            })?,
            None => url.clone(),
        };
        for (component, value) in &self.set {
            url.set(*component, value)?;
        }
        for (component, value) in &self.set_if_empty {
            if url.lacks(*component) {
                url.set(*component, value)?;
            }
        }
        for component in &self.clear {
            url.clear(*component)?;
        }
        if !self.append_path.is_empty() {
            if url.has_opaque_path() {
                return Err(EditError::new(
                    EditProblem::OpaquePath,
                    "path",
                    None,
                    "a URL with an opaque path has no segments to append to",
                ));
            }
            let path = self.appended_path(url.path());
            url.set(Component::Path, &path)?;
        }
        if self.edits_query() {
            match self.edited_query(url.query()) {
                Some(query) => url.set(Component::Query, &query)?,
                None => url.clear(Component::Query)?,
            }
        }
        Ok(url)
    }
}
