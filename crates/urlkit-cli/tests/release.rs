//! What a release ships beside the binary, made by the binary itself: the completion
//! scripts, the man pages and the version line.

use std::path::Path;
use std::process::{Command, Output};

mod common;

/// Every subcommand a user can type, written out here rather than read from the binary.
const SUBCOMMANDS: [&str; 17] = [
    "purl",
    "encode",
    "decode",
    "detect",
    "charsets",
    "serve",
    "parse",
    "edit",
    "inspect",
    "resolve",
    "relativize",
    "normalize",
    "compare",
    "idn",
    "base58",
    "completions",
    "man",
];

fn run(args: &[&str]) -> Output {
    common::urlkit(args, "")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).expect("UTF-8")
}

/// Whether `program` can be started at all.
fn installed(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn version_names_the_version_the_commit_and_the_features() {
    let line = stdout(&run(&["--version"]));
    let prefix = format!("urlkit {} (commit ", env!("CARGO_PKG_VERSION"));
    assert!(line.starts_with(&prefix), "{line}");
    let (commit, features) = line[prefix.len()..]
        .trim_end()
        .strip_suffix(')')
        .and_then(|rest| rest.split_once("; features: "))
        .unwrap_or_else(|| panic!("{line}"));
    // The checkout's commit, asked of git here, or `unknown` outside a checkout.
    let head = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    if std::env::var_os("URLKIT_COMMIT").is_none() {
        match head {
            Some(head) => assert!(
                commit.len() == 12 && head.starts_with(commit),
                "{commit} is not {head}"
            ),
            None => assert_eq!(commit, "unknown"),
        }
    }
    // The command line always has the URL Standard's view.
    assert!(features.split(", ").any(|f| f == "whatwg"), "{features}");
    for program_feature in ["serve", "purl"] {
        assert!(
            features.split(", ").any(|f| f == program_feature),
            "{features}"
        );
    }
    assert_eq!(stdout(&run(&["-V"])), line);
}

#[test]
fn bash_completion_loads_and_completes_subcommands_and_options() {
    let script = stdout(&run(&["completions", "bash"]));
    for sub in SUBCOMMANDS {
        assert!(script.contains(sub), "bash completion lacks {sub}");
    }
    if !installed("bash") {
        eprintln!("skipped: bash is not installed, so the script is not loaded");
        return;
    }
    let dir = tempdir("bash");
    let file = dir.join("urlkit.bash");
    std::fs::write(&file, &script).unwrap();
    let syntax = Command::new("bash").arg("-n").arg(&file).output().unwrap();
    assert!(
        syntax.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&syntax.stderr)
    );
    // Loaded, the function completes a subcommand and an option of it.
    let completed = Command::new("bash")
        .arg("-c")
        .arg(
            r#"source "$1"
complete -p urlkit
COMP_WORDS=(urlkit dec); COMP_CWORD=1; _urlkit urlkit dec urlkit; echo "${COMPREPLY[*]}"
COMP_WORDS=(urlkit decode --char); COMP_CWORD=2; _urlkit urlkit --char decode; echo "${COMPREPLY[*]}""#,
        )
        .arg("bash")
        .arg(&file)
        .output()
        .unwrap();
    let text = stdout(&completed);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].ends_with(" urlkit"), "{text}");
    assert_eq!(&lines[1..], ["decode", "--charset"], "{text}");
}

#[test]
fn every_shell_gets_a_script_naming_the_subcommands() {
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = stdout(&run(&["completions", shell]));
        for sub in SUBCOMMANDS {
            assert!(script.contains(sub), "{shell} completion lacks {sub}");
        }
    }
    let refused = run(&["completions", "tcsh"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("possible values"));
}

/// Every command under `urlkit PATH…` (each as its path of subcommand names), read from
/// the `Commands:` lists of the help texts, `help` left out, depth first.
fn commands_under(path: &[String]) -> Vec<Vec<String>> {
    let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
    args.push("--help");
    let help = stdout(&run(&args));
    let mut found = Vec::new();
    let mut listing = false;
    for line in help.lines() {
        if line.trim_end() == "Commands:" {
            listing = true;
            continue;
        }
        if listing {
            // Entries are indented by two; a wrapped description by more.
            let Some(entry) = line.strip_prefix("  ").filter(|e| !e.starts_with(' ')) else {
                if line.trim().is_empty() {
                    listing = false;
                }
                continue;
            };
            let name = entry.split_whitespace().next().unwrap_or("");
            if name.is_empty() || name == "help" {
                continue;
            }
            let mut sub = path.to_vec();
            sub.push(name.to_string());
            found.push(sub.clone());
            found.extend(commands_under(&sub));
        }
    }
    found
}

/// The long options `urlkit SUB… --help` lists, read from the help text (not their
/// aliases).
fn long_options(sub: &[String]) -> Vec<String> {
    let mut args: Vec<&str> = sub.iter().map(String::as_str).collect();
    args.push("--help");
    let help = stdout(&run(&args));
    let mut options: Vec<String> = help
        .lines()
        .filter_map(|line| {
            let line = line.trim_start();
            let line = line
                .strip_prefix('-')
                .filter(|_| line.as_bytes().get(2) == Some(&b','))
                .map_or(line, |_| line[3..].trim_start());
            let name = line.strip_prefix("--")?;
            let end = name
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .unwrap_or(name.len());
            // A wrapped `[aliases: …]` list is not an option of its own.
            (name.as_bytes().get(end) != Some(&b']')).then(|| format!("--{}", &name[..end]))
        })
        .collect();
    options.dedup();
    options
}

#[test]
fn man_pages_cover_every_subcommand_and_option() {
    let dir = tempdir("man");
    let listed = stdout(&run(&["man", dir.to_str().unwrap()]));
    let commands = commands_under(&[]);
    for sub in SUBCOMMANDS {
        assert!(
            commands.contains(&vec![sub.to_string()]),
            "{sub} not listed"
        );
    }
    assert!(commands.contains(&vec!["purl".to_string(), "token".into(), "create".into()]));
    let mut expected = vec![dir.join("urlkit.1")];
    expected.extend(
        commands
            .iter()
            .map(|path| dir.join(format!("urlkit-{}.1", path.join("-")))),
    );
    let mut listed: Vec<&Path> = listed.lines().map(Path::new).collect();
    listed.sort();
    expected.sort();
    assert_eq!(listed, expected);
    let man = installed("man");
    if !man {
        eprintln!("skipped: man is not installed, so the pages are checked as text only");
    }
    for path in &commands {
        let sub = path.join("-");
        let page = std::fs::read_to_string(dir.join(format!("urlkit-{sub}.1"))).unwrap();
        assert!(
            page.contains(&format!(".TH urlkit-{sub} 1")),
            "urlkit-{sub}.1 has no .TH line"
        );
        let text = page.replace("\\-", "-");
        let options = long_options(path);
        assert!(options.contains(&"--help".to_owned()), "{sub}: {options:?}");
        for option in &options {
            assert!(
                text.contains(option.as_str()),
                "urlkit-{sub}.1 lacks {option}"
            );
        }
        if man {
            let shown = Command::new("man")
                .arg("-l")
                .arg(dir.join(format!("urlkit-{sub}.1")))
                .env("MANPAGER", "cat")
                .env("MANWIDTH", "100")
                .output()
                .unwrap();
            let shown = stdout(&shown);
            assert!(shown.contains(&format!("urlkit-{sub}")), "{shown}");
            for option in &options {
                assert!(
                    shown.contains(option.as_str()),
                    "man -l urlkit-{sub}.1 lacks {option}"
                );
            }
        }
    }
    // Without a directory, urlkit.1 goes to standard output.
    let page = stdout(&run(&["man"]));
    assert!(page.contains(".TH urlkit 1"), "{page}");
    assert_eq!(page, std::fs::read_to_string(dir.join("urlkit.1")).unwrap());
}

/// A new empty directory for one test.
fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("urlkit-release-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
