//! HTTPS with rustls: certificates from PEM files, or a self-signed one for local use.

use anyhow::Context;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::path::PathBuf;
use std::sync::Arc;

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

/// The rustls configuration for `mode` (HTTP/2 and HTTP/1.1 offered by ALPN), or `None`
/// for plain HTTP. Unreadable or invalid PEM files are an error naming the file.
pub async fn config(mode: &TlsMode) -> anyhow::Result<Option<Arc<rustls::ServerConfig>>> {
    let (cert_pem, key_pem, source) = match mode {
        TlsMode::Off => return Ok(None),
        TlsMode::Pem { cert, key } => {
            let cert_pem = std::fs::read(cert)
                .with_context(|| format!("cannot read the certificate {}", cert.display()))?;
            let key_pem = std::fs::read(key)
                .with_context(|| format!("cannot read the private key {}", key.display()))?;
            (
                cert_pem,
                key_pem,
                format!("{} and {}", cert.display(), key.display()),
            )
        }
        TlsMode::SelfSigned => {
            let (cert, key) = self_signed()?;
            (
                cert.into_bytes(),
                key.into_bytes(),
                "the self-signed certificate".into(),
            )
        }
    };
    let chain = CertificateDer::pem_slice_iter(&cert_pem)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("the certificate in {source} is not valid PEM"))?;
    anyhow::ensure!(!chain.is_empty(), "no certificate in {source}");
    let key = PrivateKeyDer::from_pem_slice(&key_pem)
        .with_context(|| format!("the private key in {source} is not valid PEM"))?;
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .context("cannot set up TLS")?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .with_context(|| format!("cannot use {source}"))?;
    config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
    Ok(Some(Arc::new(config)))
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
