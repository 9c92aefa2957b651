//! Builds `crates/urlkit-wasm` for `wasm32-unknown-unknown` and copies the module to
//! `OUT_DIR/urlkit_wasm.wasm`, where `src/lib.rs` embeds it.
//!
//! The inner build runs its own `cargo` with a separate target directory
//! (`<target>/wasm`), so it neither waits on the outer build's lock nor disturbs its
//! artifacts, and debug, release and clippy builds all share one wasm build.
//!
//! `<target>` follows one rule, which the Node harness (`crates/urlkit-wasm/js/test/
//! harness.mjs`) and `scripts/measure/wasm.sh` follow too: `CARGO_TARGET_DIR` when it is
//! set (a relative one is taken from the workspace root), `<workspace>/target` otherwise.
//! Nothing else decides it: not which program created `target/` first, nor the marker
//! files cargo leaves there.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const TARGET: &str = "wasm32-unknown-unknown";

fn main() {
    let manifest_dir =
        PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let workspace = manifest_dir
        .parent()
        .and_then(Path::parent)
        .expect("crates/urlkit-wasm-assets sits two levels below the workspace")
        .to_path_buf();
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").expect("OUT_DIR"));
    let destination = out_dir.join("urlkit_wasm.wasm");

    println!("cargo:rerun-if-env-changed=URLKIT_WASM_FILE");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_DIR");
    if let Some(prebuilt) = env::var_os("URLKIT_WASM_FILE") {
        let prebuilt = PathBuf::from(prebuilt);
        println!("cargo:rerun-if-changed={}", prebuilt.display());
        copy(&prebuilt, &destination);
        return;
    }

    for path in [
        "Cargo.toml",
        "Cargo.lock",
        "crates/urlkit/Cargo.toml",
        "crates/urlkit/src",
        "crates/urlkit-api/Cargo.toml",
        "crates/urlkit-api/src",
        "crates/urlkit-wasm/Cargo.toml",
        "crates/urlkit-wasm/src",
    ] {
        println!("cargo:rerun-if-changed={}", workspace.join(path).display());
    }

    ensure_target();

    let target_dir = wasm_target_dir(&workspace, env::var_os("CARGO_TARGET_DIR"));
    let cargo = env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .current_dir(&workspace)
        .args(["build", "--locked", "--package", "urlkit-wasm", "--lib"])
        .args(["--target", TARGET, "--profile", "wasm", "--target-dir"])
        .arg(&target_dir);
    // The outer build's settings are for the host build (and clippy wraps rustc): none of
    // them apply to the inner one.
    for variable in [
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_PRIMARY_PACKAGE",
    ] {
        command.env_remove(variable);
    }
    // Cargo reads a build script's stdout for its own instructions: the inner build's
    // messages belong on stderr.
    let status = command
        .stdout(std::io::stderr())
        .status()
        .unwrap_or_else(|e| {
            fail(&format!(
                "cannot run cargo to build the WebAssembly module: {e}"
            ))
        });
    if !status.success() {
        fail(&format!(
            "building crates/urlkit-wasm for {TARGET} failed ({status}); see the messages above"
        ));
    }
    copy(
        &target_dir
            .join(TARGET)
            .join("wasm")
            .join("urlkit_wasm.wasm"),
        &destination,
    );
}

/// `<target>/wasm`, where `<target>` is `CARGO_TARGET_DIR` (relative to the workspace root
/// when it is relative) or `<workspace>/target` when that is unset or empty.
fn wasm_target_dir(workspace: &Path, cargo_target_dir: Option<std::ffi::OsString>) -> PathBuf {
    cargo_target_dir
        .filter(|dir| !dir.is_empty())
        .map(|dir| workspace.join(dir))
        .unwrap_or_else(|| workspace.join("target"))
        .join("wasm")
}

/// Makes sure the standard library for the wasm target is installed: adds it with
/// `rustup` when it is not (installing toolchain parts on demand may be switched off).
fn ensure_target() {
    if target_installed() {
        return;
    }
    println!("cargo:warning=adding the {TARGET} target with rustup (needed for live mode)");
    let added = Command::new("rustup")
        .args(["target", "add", TARGET])
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    if !added || !target_installed() {
        fail(&format!(
            "the Rust standard library for {TARGET} is missing and `rustup target add {TARGET}` \
             did not install it; install it by hand (or set URLKIT_WASM_FILE to a prebuilt \
             urlkit_wasm.wasm) and build again"
        ));
    }
}

fn target_installed() -> bool {
    let rustc = env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    Command::new(rustc)
        .args(["--print", "target-libdir", "--target", TARGET])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
        .is_some_and(|dir| {
            fs::read_dir(dir).is_ok_and(|mut entries| {
                entries.any(|e| {
                    e.is_ok_and(|e| e.file_name().to_string_lossy().starts_with("libcore-"))
                })
            })
        })
}

fn copy(from: &Path, to: &Path) {
    if let Err(e) = fs::copy(from, to) {
        fail(&format!(
            "cannot copy {} to {}: {e}",
            from.display(),
            to.display()
        ));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    panic!("{message}");
}
