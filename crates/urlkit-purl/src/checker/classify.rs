//! What a check of a target found: the kinds of outcome, from an HTTP status or from the
//! error of a request that got none.

use serde::{Deserialize, Serialize};

/// The kind of a check's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeKind {
    /// The target answered `2xx` (perhaps after temporary redirects).
    Ok,
    /// The target answered `2xx` after permanent redirects (`301`, `308`) only: the place
    /// they lead to is offered as the record's new target.
    Moved,
    /// `404 Not Found` or `410 Gone`.
    Gone,
    /// Another `4xx`.
    ClientError,
    /// A `5xx`.
    ServerError,
    /// Redirects that come back to a place already visited, or more of them than the limit.
    RedirectLoop,
    /// The host's name does not resolve.
    Dns,
    /// The TLS handshake failed (a bad certificate, or no TLS spoken).
    Tls,
    /// No answer within the timeout.
    Timeout,
    /// The host was reached but refused or dropped the connection.
    Unreachable,
    /// The host's `robots.txt` does not let the checker fetch the target: not fetched.
    Disallowed,
}

impl OutcomeKind {
    /// Every kind, in the order the summaries list them.
    pub const ALL: [OutcomeKind; 11] = [
        OutcomeKind::Ok,
        OutcomeKind::Moved,
        OutcomeKind::Gone,
        OutcomeKind::ClientError,
        OutcomeKind::ServerError,
        OutcomeKind::RedirectLoop,
        OutcomeKind::Dns,
        OutcomeKind::Tls,
        OutcomeKind::Timeout,
        OutcomeKind::Unreachable,
        OutcomeKind::Disallowed,
    ];

    /// The name stored and shown (`client_error`).
    pub fn label(self) -> &'static str {
        match self {
            OutcomeKind::Ok => "ok",
            OutcomeKind::Moved => "moved",
            OutcomeKind::Gone => "gone",
            OutcomeKind::ClientError => "client_error",
            OutcomeKind::ServerError => "server_error",
            OutcomeKind::RedirectLoop => "redirect_loop",
            OutcomeKind::Dns => "dns",
            OutcomeKind::Tls => "tls",
            OutcomeKind::Timeout => "timeout",
            OutcomeKind::Unreachable => "unreachable",
            OutcomeKind::Disallowed => "disallowed",
        }
    }

    /// The kind of a label; `None` for a text that is none.
    pub fn parse(label: &str) -> Option<OutcomeKind> {
        OutcomeKind::ALL.into_iter().find(|k| k.label() == label)
    }

    /// Whether people following the record would not reach the target: every kind but
    /// `ok`, `moved` (still reached, through a redirect) and `disallowed` (not known).
    pub fn is_broken(self) -> bool {
        !matches!(
            self,
            OutcomeKind::Ok | OutcomeKind::Moved | OutcomeKind::Disallowed
        )
    }
}

impl std::fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// The kind of a final (not redirecting) answer's status.
pub fn of_status(status: u16) -> OutcomeKind {
    match status {
        404 | 410 => OutcomeKind::Gone,
        400..=499 => OutcomeKind::ClientError,
        500..=599 => OutcomeKind::ServerError,
        // 2xx, and a 1xx or 3xx without a place to go: the server answered.
        _ => OutcomeKind::Ok,
    }
}

/// The error and all its causes, as one line (`a: b: c`).
pub fn chain_text(error: &(dyn std::error::Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let more = cause.to_string();
        if !text.contains(&more) {
            text.push_str(": ");
            text.push_str(&more);
        }
        source = cause.source();
    }
    text
}

/// The kind of a request that got no answer, and what happened in words. reqwest says
/// little more than "timeout" and "connect" itself: the kind of a failed connection is
/// read from the causes (hyper's `dns error`, rustls' alerts and messages).
pub fn of_error(error: &reqwest::Error) -> (OutcomeKind, String) {
    let text = chain_text(error);
    // The causes only: the error's own line names the URL, whose words prove nothing.
    let lower = std::error::Error::source(error)
        .map(chain_text)
        .unwrap_or_default()
        .to_ascii_lowercase();
    let kind = if error.is_timeout() || lower.contains("timed out") {
        OutcomeKind::Timeout
    } else if lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
        || lower.contains("no address associated")
    {
        OutcomeKind::Dns
    } else if lower.contains("tls")
        || lower.contains("certificate")
        || lower.contains("handshake")
        || lower.contains("corrupt message")
        || lower.contains("invalidcontenttype")
        || lower.contains("peer is incompatible")
    {
        OutcomeKind::Tls
    } else {
        OutcomeKind::Unreachable
    };
    (kind, text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_fall_into_kinds() {
        assert_eq!(of_status(200), OutcomeKind::Ok);
        assert_eq!(of_status(204), OutcomeKind::Ok);
        assert_eq!(of_status(404), OutcomeKind::Gone);
        assert_eq!(of_status(410), OutcomeKind::Gone);
        assert_eq!(of_status(403), OutcomeKind::ClientError);
        assert_eq!(of_status(429), OutcomeKind::ClientError);
        assert_eq!(of_status(500), OutcomeKind::ServerError);
        assert_eq!(of_status(503), OutcomeKind::ServerError);
    }

    #[test]
    fn labels_read_back() {
        for kind in OutcomeKind::ALL {
            assert_eq!(OutcomeKind::parse(kind.label()), Some(kind));
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.label()));
        }
        assert_eq!(OutcomeKind::parse("fine"), None);
        assert!(OutcomeKind::Gone.is_broken());
        assert!(OutcomeKind::Timeout.is_broken());
        assert!(!OutcomeKind::Moved.is_broken());
        assert!(!OutcomeKind::Disallowed.is_broken());
    }
}
