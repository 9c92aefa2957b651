pub mod diagnostics;
pub mod inspect;
