//! Reference resolution (RFC 3986 §5.2) and its inverse, relativization.

use super::{recompose_into, split, UriRef};
use std::fmt;

/// Why a reference could not be resolved or relativized.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ResolveError {
    /// What kind of fault, for a caller that words it itself.
    pub kind: ResolveProblem,
    /// What is wrong, in words.
    pub message: String,
}

/// The kinds of [`ResolveError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResolveProblem {
    /// The base has no scheme: RFC 3986 §5.1 resolves against an absolute URI only.
    BaseNotAbsolute,
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ResolveError {}

fn split_base(base: &str) -> Result<UriRef<'_>, ResolveError> {
    let b = split(base);
    if b.scheme.is_none() {
        return Err(ResolveError {
            kind: ResolveProblem::BaseNotAbsolute,
            message: format!(
                "base {} has no scheme; RFC 3986 §5.1 requires an absolute base URI",
                crate::inspect::parts::excerpt(base)
            ),
        });
    }
    Ok(b)
}

/// Resolves `reference` against `base` with the strict algorithm of RFC 3986 §5.2.2
/// (a reference with a scheme is taken as it is, even when the scheme equals the base's),
/// merging paths (§5.2.3), removing dot segments (§5.2.4) and recomposing (§5.3).
///
/// Both strings are split by RFC 3986 Appendix B and otherwise taken as they are: nothing is
/// validated, normalized or percent-encoded. The base's fragment is ignored (§5.1).
///
/// Bad input: a base without a scheme is an error (§5.1).
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let b = split_base(base)?;
    let r = split(reference);
    Ok(resolve_parts(&b, &r))
}

fn resolve_parts(b: &UriRef<'_>, r: &UriRef<'_>) -> String {
    let path: String;
    let (scheme, authority, query);
    if r.scheme.is_some() {
        scheme = r.scheme;
        authority = r.authority;
        path = remove_dot_segments(r.path);
        query = r.query;
    } else {
        scheme = b.scheme;
        if r.authority.is_some() {
            authority = r.authority;
            path = remove_dot_segments(r.path);
            query = r.query;
        } else {
            authority = b.authority;
            if r.path.is_empty() {
                path = b.path.to_owned();
                query = if r.query.is_some() { r.query } else { b.query };
            } else {
                path = if r.path.starts_with('/') {
                    remove_dot_segments(r.path)
                } else {
                    remove_dot_segments(&merge(b, r.path))
                };
                query = r.query;
            }
        }
    }
    let mut out = String::with_capacity(path.len() + 32);
    recompose_into(&mut out, scheme, authority, &path, query, r.fragment);
    out
}

/// RFC 3986 §5.2.3: the reference's path appended to the base path's directory.
fn merge(b: &UriRef<'_>, ref_path: &str) -> String {
    if b.authority.is_some() && b.path.is_empty() {
        format!("/{ref_path}")
    } else {
        let dir = match b.path.rfind('/') {
            Some(i) => &b.path[..=i],
            None => "",
        };
        format!("{dir}{ref_path}")
    }
}

/// Removes `.` and `..` segments from a path as RFC 3986 §5.2.4 prescribes. Every input is
/// accepted; `..` above the root is dropped.
///
/// One deviation, for paths that do not start with `/` (bases such as `foo:a/b`): the
/// algorithm as written turns `a/../c` into `/c`, inventing a root; here the result keeps
/// the input's rootlessness (`c`), as the errata discussion and common implementations do.
pub fn remove_dot_segments(path: &str) -> String {
    let out = remove_dot_segments_as_written(path);
    if !path.starts_with('/') && out.starts_with('/') {
        out[1..].to_owned()
    } else {
        out
    }
}

fn remove_dot_segments_as_written(path: &str) -> String {
    let mut input = path;
    let mut out = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            input = if input.len() == 3 { "/" } else { &input[3..] };
            let cut = out.rfind('/').unwrap_or(0);
            out.truncate(cut);
        } else if input == "." || input == ".." {
            input = "";
        } else {
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| i + start);
            out.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    out
}

/// Finds the shortest reference that resolves (RFC 3986 §5.2) against `base` to exactly
/// `target`: the inverse of [`resolve`]. The candidates are the fragment or query alone, the
/// relative path (`../x`), the absolute path (`/x`), the network-path reference (`//host/x`)
/// and `target` itself; each is checked by resolving it, and the shortest that resolves
/// back wins (on a tie, the earlier in that list). So the result always resolves back to
/// `target` once dot segments are removed from `target`'s path.
///
/// Bad input: a base without a scheme is an error (§5.1); a target with a different scheme
/// or authority comes back with that part included.
pub fn relativize(base: &str, target: &str) -> Result<String, ResolveError> {
    let b = split_base(base)?;
    let t0 = split(target);
    // Resolution removes dot segments, so compare with the target as resolution would leave it.
    let normal_target = resolve_parts(&b, &t0);
    let t = split(&normal_target);
    let works = |candidate: &str| resolve_parts(&b, &split(candidate)) == normal_target;
    let frag = |s: &mut String| {
        if let Some(f) = t.fragment {
            s.push('#');
            s.push_str(f);
        }
    };
    let mut candidates: Vec<String> = Vec::new();
    if t.scheme == b.scheme {
        if t.authority == b.authority {
            if t.path == b.path {
                let mut c = String::new();
                if t.query != b.query {
                    if let Some(q) = t.query {
                        c.push('?');
                        c.push_str(q);
                    }
                }
                frag(&mut c);
                candidates.push(c);
            }
            if let Some(rel) = relative_path(b.path, t.path, b.authority.is_some()) {
                let mut c = rel;
                if let Some(q) = t.query {
                    c.push('?');
                    c.push_str(q);
                }
                frag(&mut c);
                candidates.push(c);
            }
            let mut c = String::new();
            recompose_into(&mut c, None, None, t.path, t.query, t.fragment);
            candidates.push(c);
        }
        let mut c = String::new();
        recompose_into(&mut c, None, t.authority, t.path, t.query, t.fragment);
        candidates.push(c);
    }
    candidates.push(normal_target.clone());
    // `min_by_key` keeps the first of equally short candidates.
    Ok(candidates
        .into_iter()
        .filter(|c| works(c))
        .min_by_key(String::len)
        .unwrap_or(normal_target))
}

/// The relative-path reference from the directory of `base_path` to `target_path`.
fn relative_path(base_path: &str, target_path: &str, has_authority: bool) -> Option<String> {
    let base_path = if has_authority && base_path.is_empty() {
        "/"
    } else {
        base_path
    };
    if !base_path.starts_with('/') || !target_path.starts_with('/') {
        return None;
    }
    let base_dir: Vec<&str> = base_path[1..].split('/').collect();
    let base_dir = &base_dir[..base_dir.len() - 1];
    let target: Vec<&str> = target_path[1..].split('/').collect();
    let (target_dir, target_last) = target.split_at(target.len() - 1);
    let common = base_dir
        .iter()
        .zip(target_dir)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out = String::new();
    for _ in common..base_dir.len() {
        out.push_str("../");
    }
    for seg in &target_dir[common..] {
        out.push_str(seg);
        out.push('/');
    }
    out.push_str(target_last[0]);
    if out.is_empty() {
        out.push_str("./");
    } else if out.split('/').next().is_some_and(|s| s.contains(':')) {
        out.insert_str(0, "./");
    }
    Some(out)
}
