pub mod detect;
pub mod diagnostics;
