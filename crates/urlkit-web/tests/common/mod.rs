//! What the connection tests share: a TLS client that trusts one certificate.

use std::net::SocketAddr;
use std::sync::Arc;
use tokio::net::TcpStream;

/// A TLS connection to `addr` as `localhost`, trusting the PEM certificate `cert_pem` and
/// offering the ALPN protocol `alpn`, handshake done.
pub async fn tls_connect(
    addr: SocketAddr,
    cert_pem: &str,
    alpn: &[u8],
) -> tokio_rustls::client::TlsStream<TcpStream> {
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls::pki_types::CertificateDer::pem_slice_iter(cert_pem.as_bytes()) {
        roots.add(cert.unwrap()).unwrap();
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![alpn.to_vec()];
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let tcp = TcpStream::connect(addr).await.unwrap();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    connector.connect(name, tcp).await.unwrap()
}
