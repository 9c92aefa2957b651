//! The page's logins: a session per login, named by a random id in an HttpOnly,
//! SameSite=Strict cookie, with its own CSRF token that every form carries. The login form
//! itself is guarded by a token in a cookie of its own (double submit). Sessions live in
//! the memory of the instance that made them and end after [`SESSION_TTL`] or at logout.

use axum::http::{HeaderMap, HeaderValue};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "urlkit-purl-session";
/// The login form's CSRF cookie.
pub const LOGIN_COOKIE: &str = "urlkit-purl-login";
/// How long a session lasts.
pub const SESSION_TTL: Duration = Duration::from_secs(12 * 60 * 60);
/// Most sessions held at once; past it the oldest go first.
pub const MAX_SESSIONS: usize = 10_000;

/// One login.
#[derive(Clone, Debug)]
pub struct Session {
    /// Who logged in.
    pub user: String,
    /// The token every form of this session carries.
    pub csrf: String,
    expires: Instant,
}

/// The sessions of this instance.
#[derive(Default)]
pub struct Sessions {
    by_id: Mutex<HashMap<String, Session>>,
}

/// 32 random bytes as hex, or `None` when the system has no randomness to give.
pub fn random_token() -> Option<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).ok()?;
    Some(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Whether two secrets are equal, in a time that does not depend on where they differ.
pub fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The value of cookie `name` in the request.
pub use urlkit_web::cookie::value as cookie;

/// A `Set-Cookie` for the page's paths: HttpOnly, SameSite=Strict, Secure over TLS;
/// `None` for the value ends it.
pub fn set_cookie(name: &str, value: Option<&str>, max_age: Duration, tls: bool) -> HeaderValue {
    let secure = if tls { "; Secure" } else { "" };
    let text = match value {
        Some(value) => format!(
            "{name}={value}; Path=/-/; HttpOnly; SameSite=Strict; Max-Age={}{secure}",
            max_age.as_secs()
        ),
        None => format!("{name}=; Path=/-/; HttpOnly; SameSite=Strict; Max-Age=0{secure}"),
    };
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("x=; Max-Age=0"))
}

impl Sessions {
    /// Opens a session for `user`: its id (for the cookie) and the session.
    pub fn open(&self, user: &str) -> Option<(String, Session)> {
        let id = random_token()?;
        let session = Session {
            user: user.to_string(),
            csrf: random_token()?,
            expires: Instant::now() + SESSION_TTL,
        };
        let mut by_id = self.by_id.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        by_id.retain(|_, s| s.expires > now);
        if by_id.len() >= MAX_SESSIONS {
            if let Some(oldest) = by_id
                .iter()
                .min_by_key(|(_, s)| s.expires)
                .map(|(id, _)| id.clone())
            {
                by_id.remove(&oldest);
            }
        }
        by_id.insert(id.clone(), session.clone());
        Some((id, session))
    }

    /// The live session the request's cookie names.
    pub fn of(&self, headers: &HeaderMap) -> Option<(String, Session)> {
        let id = cookie(headers, SESSION_COOKIE)?;
        let by_id = self.by_id.lock().unwrap_or_else(|p| p.into_inner());
        let session = by_id.get(id)?;
        (session.expires > Instant::now()).then(|| (id.to_string(), session.clone()))
    }

    /// Ends the session `id`.
    pub fn close(&self, id: &str) {
        let mut by_id = self.by_id.lock().unwrap_or_else(|p| p.into_inner());
        by_id.remove(id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::header;

    #[test]
    fn sessions_are_found_by_their_cookie_and_end_at_logout() {
        let sessions = Sessions::default();
        let (id, session) = sessions.open("alice").unwrap();
        assert_eq!(id.len(), 64);
        assert_ne!(id, session.csrf);
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("urlkit-lang=cs; {SESSION_COOKIE}={id}")).unwrap(),
        );
        assert_eq!(sessions.of(&headers).unwrap().1.user, "alice");
        sessions.close(&id);
        assert!(sessions.of(&headers).is_none());
        let mut forged = HeaderMap::new();
        forged.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("{SESSION_COOKIE}={}", "0".repeat(64))).unwrap(),
        );
        assert!(sessions.of(&forged).is_none());
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }
}
