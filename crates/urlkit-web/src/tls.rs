//! HTTPS with rustls: certificates from PEM files, or a self-signed one for local use.

use anyhow::Context;
use axum_server::tls_rustls::RustlsConfig;
use std::path::PathBuf;

/// How the server speaks.
#[derive(Clone, Debug, Default)]
pub enum TlsMode {
    /// Plain HTTP.
    #[default]
    Off,
    /// TLS with this certificate chain and private key (PEM files).
    Pem {
        /// The certificate chain.
        cert: PathBuf,
        /// The private key.
        key: PathBuf,
    },
    /// TLS with a certificate made at start-up for `localhost`, `127.0.0.1` and `::1`.
    SelfSigned,
}

impl TlsMode {
    /// Whether this mode serves TLS.
    pub fn is_on(&self) -> bool {
        !matches!(self, TlsMode::Off)
    }
}

/// The rustls configuration for `mode`, or `None` for plain HTTP. Unreadable or invalid
/// PEM files are an error naming the file.
pub async fn config(mode: &TlsMode) -> anyhow::Result<Option<RustlsConfig>> {
    // Exactly one provider is compiled in; installing it twice is harmless.
    let _ = rustls::crypto::ring::default_provider().install_default();
    match mode {
        TlsMode::Off => Ok(None),
        TlsMode::Pem { cert, key } => {
            let cert_pem = std::fs::read(cert)
                .with_context(|| format!("cannot read the certificate {}", cert.display()))?;
            let key_pem = std::fs::read(key)
                .with_context(|| format!("cannot read the private key {}", key.display()))?;
            let config = RustlsConfig::from_pem(cert_pem, key_pem)
                .await
                .context("the certificate or private key is not valid PEM")?;
            Ok(Some(config))
        }
        TlsMode::SelfSigned => {
            let (cert, key) = self_signed()?;
            let config = RustlsConfig::from_pem(cert.into_bytes(), key.into_bytes())
                .await
                .context("cannot use the self-signed certificate")?;
            Ok(Some(config))
        }
    }
}

/// A fresh self-signed certificate and its private key, both PEM, for `localhost`,
/// `127.0.0.1` and `::1`.
pub fn self_signed() -> anyhow::Result<(String, String)> {
    let names = vec![
        "localhost".to_string(),
        "127.0.0.1".to_string(),
        "::1".to_string(),
    ];
    let certified = rcgen::generate_simple_self_signed(names)
        .context("cannot make a self-signed certificate")?;
    Ok((certified.cert.pem(), certified.key_pair.serialize_pem()))
}
