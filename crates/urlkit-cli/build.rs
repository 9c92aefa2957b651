//! Names the commit the binary is built from, for `urlkit --version`: `URLKIT_COMMIT` when
//! set (a build from a source archive can say it), else `git rev-parse` of the checkout,
//! else `unknown` (no git, or not a git checkout). Nothing else is generated.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let text = text.trim();
    (output.status.success() && !text.is_empty()).then(|| text.to_owned())
}

fn main() {
    println!("cargo:rerun-if-env-changed=URLKIT_COMMIT");
    let commit = match std::env::var("URLKIT_COMMIT") {
        Ok(commit) if !commit.trim().is_empty() => commit.trim().to_owned(),
        _ => {
            // Built again when the checkout moves to another commit: HEAD, the branch it
            // names, and the packed refs.
            for path in ["HEAD", "packed-refs"] {
                if let Some(file) = git(&["rev-parse", "--git-path", path]) {
                    println!("cargo:rerun-if-changed={file}");
                }
            }
            if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
                if let Some(file) = git(&["rev-parse", "--git-path", &branch]) {
                    println!("cargo:rerun-if-changed={file}");
                }
            }
            git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".to_owned())
        }
    };
    println!("cargo:rustc-env=URLKIT_COMMIT={commit}");
}
