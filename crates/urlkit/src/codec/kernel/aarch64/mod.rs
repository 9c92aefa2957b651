//! aarch64 fast paths: NEON (Advanced SIMD), which every aarch64 processor has.

use super::Kernels;

mod neon;

/// The kernels this processor runs, slowest first.
pub(crate) fn available() -> Vec<&'static Kernels> {
    let mut all = Vec::new();
    if std::arch::is_aarch64_feature_detected!("neon") {
        all.push(&neon::KERNELS);
    }
    all
}
