//! What a release ships beside the binary, made from the command line's own definition so
//! that it cannot drift from it: shell completions (`urlkit completions SHELL`, by
//! clap_complete), man pages (`urlkit man [DIR]`, by clap_mangen: `urlkit.1` and one page
//! per subcommand, `urlkit-decode.1`, …), and the version line of `urlkit --version`
//! (the version, the commit the build script found, the library's features).

use clap::{Args, Command};
use clap_complete::Shell;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::LazyLock;

/// `urlkit --version`: `0.1.0 (commit 27c0168abcd1; features: whatwg, serde, serve, purl)`:
/// the library's features, then the program's own (`serve`, the web tool; `purl`, the
/// resolver). The commit is `unknown` for a build outside a git checkout without
/// `URLKIT_COMMIT`.
pub static VERSION: LazyLock<String> = LazyLock::new(|| {
    let program_features: &[&str] = &[
        #[cfg(feature = "serve")]
        "serve",
        #[cfg(feature = "purl")]
        "purl",
    ];
    let enabled: Vec<&str> = urlkit::FEATURES
        .iter()
        .copied()
        .chain(program_features.iter().copied())
        .collect();
    let features = if enabled.is_empty() {
        "none".to_owned()
    } else {
        enabled.join(", ")
    };
    format!(
        "{} (commit {}; features: {features})",
        env!("CARGO_PKG_VERSION"),
        env!("URLKIT_COMMIT")
    )
});

/// Options of `completions`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  urlkit completions bash > ~/.local/share/bash-completion/completions/urlkit
  urlkit completions zsh > ~/.zfunc/_urlkit        (with fpath+=~/.zfunc in ~/.zshrc)
  urlkit completions fish > ~/.config/fish/completions/urlkit.fish")]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Options of `man`.
#[derive(Args, Debug)]
#[command(after_help = "Examples:
  urlkit man | man -l -                      read urlkit(1) now
  urlkit man ~/.local/share/man/man1         urlkit.1 and a page per subcommand")]
pub struct ManArgs {
    /// Write urlkit.1 and one page per subcommand (urlkit-decode.1, …) into this
    /// directory, created if missing, and list them; without it, urlkit.1 goes to
    /// standard output.
    #[arg(value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Prints the completion script of `command` for the shell asked for.
pub fn completions(args: CompletionsArgs, mut command: Command) -> ExitCode {
    let name = command.get_name().to_owned();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut out);
    finish(std::io::stdout().lock().write_all(&out))
}

/// Writes the man pages of `command`: `urlkit.1` to standard output, or every page into a
/// directory.
pub fn man(args: ManArgs, command: Command) -> ExitCode {
    // No page lists a `help` subcommand, which has no page of its own.
    let command = command.disable_help_subcommand(true);
    match args.dir {
        None => {
            let mut out = Vec::new();
            let written = clap_mangen::Man::new(command)
                .render(&mut out)
                .and_then(|()| std::io::stdout().lock().write_all(&out));
            finish(written)
        }
        Some(dir) => match write_pages(&dir, command) {
            Ok(pages) => {
                let listed = pages
                    .iter()
                    .try_for_each(|p| writeln!(std::io::stdout().lock(), "{}", p.display()));
                finish(listed)
            }
            Err(e) => {
                eprintln!("urlkit: cannot write man pages into {}: {e}", dir.display());
                ExitCode::from(1)
            }
        },
    }
}

/// Writes the pages of `command` and of each subcommand (`urlkit-decode.1`) into `dir`,
/// and returns their paths in the order of the commands.
fn write_pages(dir: &Path, command: Command) -> std::io::Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir)?;
    let mut command = command;
    command.build();
    let mut pages = Vec::new();
    write_page(dir, &command, &mut pages)?;
    Ok(pages)
}

fn write_page(dir: &Path, command: &Command, pages: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(command.clone());
    let path = dir.join(man.get_filename());
    let mut out = Vec::new();
    man.render(&mut out)?;
    std::fs::write(&path, out)?;
    pages.push(path);
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        write_page(dir, sub, pages)?;
    }
    Ok(())
}

/// Status 0, or 1 with the reason when standard output could not be written (a closed
/// pipe ends quietly).
fn finish(written: std::io::Result<()>) -> ExitCode {
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("urlkit: {e}");
            ExitCode::from(1)
        }
    }
}
