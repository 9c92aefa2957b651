//! A host's `robots.txt` as the checker reads it (RFC 9309, through `texting_robots`):
//! fetched once per host and run, kept for the run.

use texting_robots::Robot;

/// The product token the checker looks for in `robots.txt` (`User-agent: urlkit-purl`);
/// without a group of its own, the `*` group applies.
pub const ROBOTS_AGENT: &str = "urlkit-purl";

/// The most of a `robots.txt` read (RFC 9309 asks parsers to read at least 500 KiB).
pub const ROBOTS_CAP: usize = 512 << 10;

/// The longest `Crawl-delay` honoured, in seconds (a larger one is read as this).
pub const MAX_CRAWL_DELAY: f32 = 60.0;

/// What a host's `robots.txt` allows.
#[derive(Debug)]
pub enum Robots {
    /// Everything: no `robots.txt` (`4xx`), or none that could be read (a `5xx`, no
    /// answer): the target's own check then says what is wrong with the host.
    All,
    /// What the file says for the checker.
    Rules(Box<Robot>),
}

impl Robots {
    /// The rules of a `robots.txt` body; a body that cannot be parsed allows everything.
    pub fn parse(body: &[u8]) -> Robots {
        let body = &body[..body.len().min(ROBOTS_CAP)];
        match Robot::new(ROBOTS_AGENT, body) {
            Ok(robot) => Robots::Rules(Box::new(robot)),
            Err(error) => {
                tracing::debug!("robots.txt not understood, everything allowed: {error}");
                Robots::All
            }
        }
    }

    /// Whether the checker may fetch `url` (its path and query are what is compared).
    pub fn allows(&self, url: &reqwest::Url) -> bool {
        match self {
            Robots::All => true,
            Robots::Rules(robot) => robot.allowed(url.as_str()),
        }
    }

    /// The `Crawl-delay` asked for, capped at [`MAX_CRAWL_DELAY`].
    pub fn crawl_delay(&self) -> Option<std::time::Duration> {
        match self {
            Robots::All => None,
            Robots::Rules(robot) => robot
                .delay
                .filter(|d| d.is_finite() && *d > 0.0)
                .map(|d| std::time::Duration::from_secs_f32(d.min(MAX_CRAWL_DELAY))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(text: &str) -> reqwest::Url {
        reqwest::Url::parse(text).unwrap()
    }

    #[test]
    fn the_checkers_group_wins_over_the_star() {
        let robots = Robots::parse(
            b"User-agent: *\nDisallow: /\n\nUser-agent: urlkit-purl\nDisallow: /private/\nCrawl-delay: 2\n",
        );
        assert!(robots.allows(&url("https://e.org/docs/a")));
        assert!(!robots.allows(&url("https://e.org/private/a")));
        assert_eq!(
            robots.crawl_delay(),
            Some(std::time::Duration::from_secs(2))
        );
        let star = Robots::parse(b"User-agent: *\nDisallow: /x\n");
        assert!(!star.allows(&url("https://e.org/x/y")));
        assert!(star.allows(&url("https://e.org/y")));
        assert_eq!(star.crawl_delay(), None);
        assert!(Robots::All.allows(&url("https://e.org/x")));
    }
}
