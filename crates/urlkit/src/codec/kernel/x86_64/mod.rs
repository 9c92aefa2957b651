//! x86-64 fast paths: 128-bit (SSE2 with SSSE3's byte shuffle), 256-bit (AVX2) and, for
//! decoding, 512-bit (AVX-512 with VBMI2's byte compress).

use super::Kernels;

mod avx2;
mod avx512;
mod ssse3;

/// The kernels this processor runs, slowest first.
pub(crate) fn available() -> Vec<&'static Kernels> {
    let mut all = Vec::new();
    if std::is_x86_feature_detected!("ssse3") {
        all.push(&ssse3::KERNELS);
    }
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("popcnt") {
        all.push(&avx2::KERNELS);
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vbmi")
            && std::is_x86_feature_detected!("avx512vbmi2")
        {
            all.push(&avx512::KERNELS);
        }
    }
    all
}
