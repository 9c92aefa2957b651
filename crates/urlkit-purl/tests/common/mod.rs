//! A resolver for the tests: a real SQLite database file in a directory of its own, two
//! domains (`/net/` kept by alice, `/org/` by root), tokens, and the server on a loopback
//! port.
#![allow(dead_code)]

mod values;
pub use values::name;

use reqwest::redirect::Policy;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::path::PathBuf;
use urlkit_purl::registry::Registry;
use urlkit_purl::server::{serve_on, PurlConfig, PurlState};
use urlkit_purl::store::Store;

pub struct Resolver {
    pub addr: SocketAddr,
    pub state: PurlState,
    /// A token with write rights on `/net/`.
    pub net_token: String,
    /// An administrator's token.
    pub admin_token: String,
    pub client: reqwest::Client,
    pub dir: PathBuf,
}

impl Drop for Resolver {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

pub async fn start(test: &str) -> Resolver {
    let dir = std::env::temp_dir().join(format!("urlkit-purl-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let store = Store::open(&format!("sqlite:{}", dir.join("purl.db").display()))
        .await
        .unwrap();
    let (net_token, admin_token) = values::owners(&store).await;
    let registry = Registry::load(store).await.unwrap();
    let state = PurlState::new(registry, 300, false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    // As `urlkit purl serve` serves: resolutions answered on the connection's task.
    let served = state.clone();
    tokio::spawn(async move {
        serve_on(
            &served,
            &PurlConfig::default(),
            listener,
            std::future::pending(),
        )
        .await;
    });
    let client = reqwest::Client::builder()
        .redirect(Policy::none())
        .timeout(std::time::Duration::from_secs(10))
        .build()
        .unwrap();
    Resolver {
        addr,
        state,
        net_token,
        admin_token,
        client,
        dir,
    }
}

impl Resolver {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub async fn put(
        &self,
        token: &str,
        path: &str,
        body: Value,
        precondition: (&str, &str),
    ) -> reqwest::Response {
        self.client
            .put(self.url(&format!("/-/api/purls{path}")))
            .bearer_auth(token)
            .header(precondition.0, precondition.1)
            .json(&body)
            .send()
            .await
            .unwrap()
    }

    pub async fn create(&self, path: &str, body: Value) -> reqwest::Response {
        self.put(&self.net_token, path, body, ("If-None-Match", "*"))
            .await
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client.get(self.url(path)).send().await.unwrap()
    }

    /// The JSON of a `GET` of `path` asking for JSON (an info view: `/x?info`).
    pub async fn get_json(&self, path: &str) -> Value {
        self.client
            .get(self.url(path))
            .header("Accept", "application/json")
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap()
    }

    /// The status line and headers of a request sent byte for byte (a client library
    /// would normalize the path first).
    pub fn raw(&self, path: &str) -> String {
        let mut stream = std::net::TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(10)))
            .unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: purl.test\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        answer
    }
}
