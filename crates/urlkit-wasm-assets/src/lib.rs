//! The live-mode assets, embedded at build time for the web server to serve:
//! the urlkit codec compiled to WebAssembly and the ES module that loads it.
//!
//! `build.rs` compiles `crates/urlkit-wasm` for `wasm32-unknown-unknown` with the `wasm`
//! profile (adding the target with `rustup` when its standard library is missing). Set
//! `URLKIT_WASM_FILE` to a prebuilt module to skip that step.

/// The WebAssembly module (`application/wasm`).
pub static URLKIT_WASM: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/urlkit_wasm.wasm"));

/// The ES module that loads it (`text/javascript`): `load`, `encode`, `decode`, `detect`,
/// `createEncoder`, `createDecoder`.
pub static URLKIT_MJS: &str = include_str!("../../urlkit-wasm/js/urlkit.mjs");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_module_is_webassembly() {
        assert_eq!(&URLKIT_WASM[..4], b"\0asm");
        assert!(URLKIT_MJS.contains("export async function load"));
    }
}
