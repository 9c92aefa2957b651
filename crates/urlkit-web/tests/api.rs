//! The server driven over real HTTP on 127.0.0.1: API shapes, errors, the one-time
//! download, limits, expiry, headers and the OpenAPI document.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use urlkit_web::store::{DirStore, ResultId, ResultStore};
use urlkit_web::{app, AppState};

struct Server {
    base: String,
    dir: PathBuf,
    store: Arc<DirStore>,
    client: reqwest::Client,
}

impl Server {
    async fn start(max_upload: u64, ttl: Duration) -> Server {
        let dir =
            std::env::temp_dir().join(format!("urlkit-web-test-{}", ResultId::random().unwrap()));
        let store = Arc::new(DirStore::open(&dir).unwrap());
        let state = AppState::new(store.clone(), max_upload, ttl, false);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app(state)).await });
        Server {
            base: format!("http://{addr}"),
            dir,
            store,
            client: reqwest::Client::new(),
        }
    }

    async fn default() -> Server {
        Server::start(100 << 20, Duration::from_secs(900)).await
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    async fn post_json(&self, path: &str, body: Value) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url(path))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, response.json().await.unwrap())
    }

    async fn upload(&self, form: Form) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.url("/api/files"))
            .multipart(form)
            .send()
            .await
            .unwrap();
        let status = response.status();
        (status, response.json().await.unwrap())
    }

    fn files_left(&self) -> usize {
        std::fs::read_dir(&self.dir).unwrap().count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn file_form(op: &str, bytes: Vec<u8>) -> Form {
    Form::new()
        .text("op", op.to_string())
        .part("file", Part::bytes(bytes).file_name("input.txt"))
}

/// A request the codec could not understand: `invalid-request` naming the field, as the
/// WebAssembly module answers the same request.
fn assert_invalid(body: &Value, field: &str) {
    assert_error(body, "invalid-request");
    assert_eq!(body["error"]["field"], field, "{body}");
}

fn assert_error(body: &Value, code: &str) {
    assert_eq!(body["error"]["code"], code, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
}

#[tokio::test]
async fn encode_answers_output_charset_and_diagnostics() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json("/api/encode", json!({"input": "a b&c", "set": "component"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["output"], "a%20b%26c");
    assert_eq!(body["charset"], "UTF-8");
    assert_eq!(body["diagnostics"], json!([]));

    let (_, body) = server
        .post_json(
            "/api/encode",
            json!({"input": "ラーメン", "charset": "sjis"}),
        )
        .await;
    assert_eq!(body["output"], "%83%89%81%5B%83%81%83%93");
    assert_eq!(body["charset"], "Shift_JIS");

    let (_, body) = server
        .post_json(
            "/api/encode",
            json!({"input": "a b\nc d", "set": "form", "per_line": true, "newline": "crlf"}),
        )
        .await;
    assert_eq!(body["output"], "a+b\r\nc+d\r\n");
}

#[tokio::test]
async fn unencodable_character_is_a_reference_or_a_strict_rejection() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json("/api/encode", json!({"input": "a引", "charset": "latin1"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["output"], "a%26%2324341%3B");
    assert_eq!(body["diagnostics"][0]["code"], "unencodable-character");
    assert_eq!(body["diagnostics"][0]["offset"], 1);

    let (status, body) = server
        .post_json(
            "/api/encode",
            json!({"input": "a引", "charset": "latin1", "strict": true}),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_error(&body, "unencodable-character");
    assert_eq!(body["error"]["offset"], 1);
}

#[tokio::test]
async fn decode_reports_findings_with_offsets_and_detection() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json("/api/decode", json!({"input": "100%zz"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["output"], "100%zz");
    assert_eq!(body["diagnostics"][0]["code"], "malformed-escape");
    assert_eq!(body["diagnostics"][0]["offset"], 3);

    let (_, body) = server
        .post_json(
            "/api/decode",
            json!({"input": "%83%89%81%5B%83%81%83%93", "charset": "auto"}),
        )
        .await;
    assert_eq!(body["output"], "ラーメン");
    assert_eq!(body["charset"], "Shift_JIS");
    assert_eq!(body["detected"]["charset"], "Shift_JIS");

    let (_, body) = server
        .post_json(
            "/api/decode",
            json!({"input": "a+b%2Bc", "plus_space": true}),
        )
        .await;
    assert_eq!(body["output"], "a b+c");

    let (_, body) = server
        .post_json(
            "/api/decode",
            json!({"input": "%2520", "until_stable": true}),
        )
        .await;
    assert_eq!(body["output"], " ");
    assert_eq!(body["layers"], json!(["%20"]), "{body}");
    assert_eq!(body["diagnostics"][0]["code"], "multiple-layers");
}

#[tokio::test]
async fn strict_decode_is_422_with_the_diagnostic() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json("/api/decode", json!({"input": "ok%zz", "strict": true}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_error(&body, "malformed-escape");
    assert_eq!(body["error"]["offset"], 2);

    let (status, body) = server
        .post_json("/api/decode", json!({"input": "%FF", "strict": true}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_error(&body, "invalid-sequence");
}

#[tokio::test]
async fn bad_requests_are_4xx_json_errors() {
    let server = Server::default().await;
    let send = |body: &'static str, content_type: &'static str| {
        server
            .client
            .post(server.url("/api/decode"))
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    let response = send("{\"input\":", "application/json").await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_error(&response.json().await.unwrap(), "bad-json");

    let response = send("{\"input\": 5}", "application/json").await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_invalid(&response.json().await.unwrap(), "input");

    let response = send(
        "{\"input\": \"x\", \"charst\": \"utf-8\"}",
        "application/json",
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_invalid(&response.json().await.unwrap(), "charst");

    let response = send("{\"input\": \"x\"}", "text/plain").await.unwrap();
    assert_eq!(response.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_error(&response.json().await.unwrap(), "content-type");

    let (status, body) = server
        .post_json("/api/decode", json!({"input": "x", "charset": "klingon"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_invalid(&body, "charset");

    let (status, body) = server
        .post_json("/api/encode", json!({"input": "x", "charset": "auto"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_invalid(&body, "charset");

    let (status, body) = server
        .post_json("/api/encode", json!({"input": "x", "set": "nope"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_invalid(&body, "set");

    let (status, body) = server
        .post_json("/api/encode", json!({"input": "x", "safe": "é"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_invalid(&body, "safe");

    let response = server
        .client
        .get(server.url("/api/nothing"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    assert_error(&response.json().await.unwrap(), "not-found");

    let response = server
        .client
        .get(server.url("/api/decode"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_error(&response.json().await.unwrap(), "method-not-allowed");
}

#[tokio::test]
async fn text_bodies_over_the_limit_are_413() {
    let server = Server::default().await;
    let input = "a".repeat(urlkit_web::limits::TEXT_LIMIT + 10);
    let response = server
        .client
        .post(server.url("/api/encode"))
        .json(&json!({ "input": input }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_error(&response.json().await.unwrap(), "too-large");
}

#[tokio::test]
async fn inspect_and_resolve_answer_both_views() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json(
            "/api/inspect",
            json!({"url": "http://例子.卷筒纸/a?x=1&x=2#top"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["whatwg"]["host"], "xn--fsqu00a.xn--3lr804guic");
    assert_eq!(
        body["whatwg"]["query_pairs"],
        json!([["x", "1"], ["x", "2"]])
    );
    assert!(body["rfc3986"].is_null());
    assert!(body["rfc3986_error"]["position"].is_number());

    let (_, body) = server
        .post_json(
            "/api/inspect",
            json!({"url": "ldap://[2001:db8::7]/c=GB?objectClass?one"}),
        )
        .await;
    assert_eq!(body["rfc3986"]["host"], "[2001:db8::7]");
    assert_eq!(body["rfc3986"]["query"], "objectClass?one");

    let (_, body) = server
        .post_json(
            "/api/inspect",
            json!({"url": "../g", "base": "http://a/b/c/d;p?q"}),
        )
        .await;
    assert_eq!(body["resolved"], "http://a/b/g");
    assert_eq!(body["whatwg"]["href"], "http://a/b/g");

    let (status, body) = server
        .post_json("/api/inspect", json!({"url": "x", "base": "not a url"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, "bad-base");

    let (status, body) = server
        .post_json(
            "/api/resolve",
            json!({"base": "http://a/b/c/d;p?q", "reference": "g;x?y#s"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["resolved"], "http://a/b/c/g;x?y#s");

    let (status, body) = server
        .post_json("/api/resolve", json!({"base": "b/c", "reference": "g"}))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_error(&body, "bad-base");
}

#[tokio::test]
async fn a_file_result_downloads_once() {
    let server = Server::default().await;
    let (status, body) = server
        .upload(file_form("encode", "a b/ç\n".as_bytes().to_vec()))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let id = body["id"].as_str().unwrap();
    assert_eq!(id.len(), 32);
    // The download keeps the upload's name, marked with what was done.
    assert_eq!(body["name"], "input.encoded.txt");
    assert_eq!(
        body["download"],
        format!("/api/files/{id}?name=input.encoded.txt")
    );
    assert!(body["expires_at"].as_str().unwrap().ends_with('Z'));
    // Only the result is kept, never the upload.
    assert_eq!(server.files_left(), 1);

    let url = server.url(body["download"].as_str().unwrap());
    let head = server.client.head(&url).send().await.unwrap();
    assert_eq!(
        head.status(),
        StatusCode::METHOD_NOT_ALLOWED,
        "HEAD does not use it up"
    );
    let response = server.client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .starts_with("attachment"));
    assert_eq!(response.text().await.unwrap(), "a%20b%2F%C3%A7%0A");
    assert_eq!(server.files_left(), 0);

    let again = server.client.get(&url).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
    assert_error(&again.json().await.unwrap(), "not-found");
}

#[tokio::test]
async fn twenty_concurrent_downloads_give_exactly_one_result() {
    let server = Server::default().await;
    let (_, body) = server
        .upload(file_form("decode", b"%41%42%43".to_vec()))
        .await;
    let url = server.url(body["download"].as_str().unwrap());
    let attempts = (0..20).map(|_| {
        let client = server.client.clone();
        let url = url.clone();
        tokio::spawn(async move {
            let response = client.get(&url).send().await.unwrap();
            let status = response.status();
            (status, response.bytes().await.unwrap())
        })
    });
    let mut ok = Vec::new();
    for attempt in attempts {
        let (status, bytes) = attempt.await.unwrap();
        match status {
            StatusCode::OK => ok.push(bytes),
            StatusCode::NOT_FOUND | StatusCode::GONE => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(ok.len(), 1);
    assert_eq!(&ok[0][..], b"ABC");
    assert_eq!(server.files_left(), 0);
}

#[tokio::test]
async fn large_files_stream_through_the_codec() {
    let server = Server::default().await;
    let input: Vec<u8> = (0..6 * 1024 * 1024u32).map(|i| (i % 251) as u8).collect();
    let (status, body) = server.upload(file_form("encode", input.clone())).await;
    assert_eq!(status, StatusCode::CREATED);
    let url = server.url(body["download"].as_str().unwrap());
    let encoded = server
        .client
        .get(&url)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let options = urlkit::EncodeOptions {
        binary: true,
        ..urlkit::EncodeOptions::default()
    };
    assert_eq!(encoded.len() as u64, body["size"].as_u64().unwrap());
    assert!(encoded[..] == urlkit::encode(&input, &options).output[..]);
}

#[tokio::test]
async fn uploads_over_the_limit_are_413_and_nothing_is_kept() {
    let server = Server::start(1024, Duration::from_secs(900)).await;
    let (status, body) = server.upload(file_form("encode", vec![b'x'; 4096])).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_error(&body, "too-large");
    assert_eq!(server.files_left(), 0);

    let (status, _) = server.upload(file_form("encode", vec![b'x'; 1024])).await;
    assert_eq!(status, StatusCode::CREATED);
}

#[tokio::test]
async fn bad_upload_forms_are_400_and_nothing_is_kept() {
    let server = Server::default().await;
    let form = Form::new().part("file", Part::bytes(b"abc".to_vec()));
    let (status, body) = server.upload(form).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, "missing-op");

    let (status, body) = server.upload(Form::new().text("op", "encode")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, "missing-file");

    let form = Form::new()
        .text("op", "rot13")
        .part("file", Part::bytes(b"a".to_vec()));
    let (status, body) = server.upload(form).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, "bad-op");

    let form = file_form("encode", b"a".to_vec()).text("set", "component");
    let (status, body) = server.upload(form).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_error(&body, "field-after-file");

    let form = Form::new()
        .text("op", "decode")
        .text("strict", "true")
        .part("file", Part::bytes(b"ok%zz".to_vec()));
    let (status, body) = server.upload(form).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_error(&body, "malformed-escape");

    let response = server
        .client
        .post(server.url("/api/files"))
        .header("content-type", "multipart/form-data; boundary=x")
        .body("garbage")
        .send()
        .await
        .unwrap();
    assert!(response.status().is_client_error());
    assert_error(&response.json().await.unwrap(), "bad-multipart");

    let response = server
        .client
        .post(server.url("/api/files"))
        .json(&json!({"op": "encode"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_error(&response.json().await.unwrap(), "content-type");
    assert_eq!(server.files_left(), 0);
}

#[tokio::test]
async fn unfetched_results_expire() {
    let server = Server::start(1 << 20, Duration::from_secs(1)).await;
    let (_, first) = server.upload(file_form("encode", b"a".to_vec())).await;
    let (_, second) = server.upload(file_form("encode", b"b".to_vec())).await;
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let url = server.url(first["download"].as_str().unwrap());
    let response = server.client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
    // The other one is removed by the sweep without anyone asking for it.
    assert_eq!(server.store.sweep(Duration::from_secs(1)).await.unwrap(), 1);
    assert_eq!(server.files_left(), 0);
    let url = server.url(second["download"].as_str().unwrap());
    let response = server.client.get(&url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn leftovers_are_removed_at_start_up() {
    let dir = std::env::temp_dir().join(format!("urlkit-web-left-{}", ResultId::random().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    let id = ResultId::random().unwrap();
    std::fs::write(dir.join(format!("{id}.ready")), b"old").unwrap();
    std::fs::write(dir.join(format!("{id}.pending")), b"old").unwrap();
    std::fs::write(dir.join("keep-me.txt"), b"not ours").unwrap();
    DirStore::open(&dir).unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, vec![std::ffi::OsString::from("keep-me.txt")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn ids_that_are_not_ids_are_404() {
    let server = Server::default().await;
    for id in [
        "..%2F..%2Fetc%2Fpasswd",
        "ABC",
        "0123456789abcdef0123456789abcdeg",
    ] {
        let response = server
            .client
            .get(server.url(&format!("/api/files/{id}")))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{id}");
    }
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let server = Server::default().await;
    for path in ["/", "/healthz", "/api/openapi.json", "/nothing"] {
        let response = server.client.get(server.url(path)).send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("default-src 'none'"), "{path}: {csp}");
        assert!(
            csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
            "{csp}"
        );
        assert!(!csp.contains("http"), "no other origin: {csp}");
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["referrer-policy"], "no-referrer");
        assert!(
            headers.get("strict-transport-security").is_none(),
            "HSTS only under TLS"
        );
    }
    let page = server
        .client
        .get(server.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        !page.contains(" style=") && !page.contains("<style"),
        "no inline style"
    );
    assert!(!page.contains("<script>"), "no inline script");
    for handler in [
        "onclick=",
        "onload=",
        "onchange=",
        "oninput=",
        "onsubmit=",
        "javascript:",
    ] {
        assert!(!page.contains(handler), "no inline handler {handler}");
    }
    let script = page
        .split("src=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .unwrap()
        .to_string();
    let response = server.client.get(server.url(&script)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("max-age=31536000"));
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/javascript"));
}

#[tokio::test]
async fn hsts_is_sent_under_tls() {
    let dir = std::env::temp_dir().join(format!("urlkit-web-tls-{}", ResultId::random().unwrap()));
    let store = Arc::new(DirStore::open(&dir).unwrap());
    let state = AppState::new(store, 1024, Duration::from_secs(60), true);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app(state)).await });
    let response = reqwest::get(format!("http://{addr}/healthz"))
        .await
        .unwrap();
    assert!(response.headers()["strict-transport-security"]
        .to_str()
        .unwrap()
        .contains("max-age="));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn tls_configurations_load() {
    let (cert, key) = urlkit_web::tls::self_signed().unwrap();
    assert!(cert.starts_with("-----BEGIN CERTIFICATE-----"));
    assert!(urlkit_web::tls::config(&urlkit_web::TlsMode::SelfSigned)
        .await
        .unwrap()
        .is_some());
    let dir = std::env::temp_dir().join(format!("urlkit-web-pem-{}", ResultId::random().unwrap()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("cert.pem"), cert).unwrap();
    std::fs::write(dir.join("key.pem"), key).unwrap();
    let mode = urlkit_web::TlsMode::Pem {
        cert: dir.join("cert.pem"),
        key: dir.join("key.pem"),
    };
    assert!(urlkit_web::tls::config(&mode).await.unwrap().is_some());
    let missing = urlkit_web::TlsMode::Pem {
        cert: dir.join("nope.pem"),
        key: dir.join("key.pem"),
    };
    let error = urlkit_web::tls::config(&missing).await.unwrap_err();
    assert!(format!("{error:#}").contains("nope.pem"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn openapi_matches_the_routes() {
    let server = Server::default().await;
    let doc: Value = server
        .client
        .get(server.url("/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let paths = doc["paths"].as_object().unwrap();
    let mut documented: Vec<(String, String)> = Vec::new();
    for (path, operations) in paths {
        for method in operations.as_object().unwrap().keys() {
            documented.push((method.to_uppercase(), path.clone()));
        }
    }
    documented.sort();
    let expected: Vec<(String, String)> = [
        ("GET", "/api/files/{id}"),
        ("GET", "/api/openapi.json"),
        ("GET", "/healthz"),
        ("GET", "/metrics"),
        ("GET", "/readyz"),
        ("POST", "/api/decode"),
        ("POST", "/api/encode"),
        ("POST", "/api/files"),
        ("POST", "/api/inspect"),
        ("POST", "/api/resolve"),
    ]
    .iter()
    .map(|(m, p)| (m.to_string(), p.to_string()))
    .collect();
    assert_eq!(documented, expected);

    // Each documented operation reaches a handler; every other method on its path is 405.
    for (method, path) in &documented {
        let concrete = path.replace("{id}", "00000000000000000000000000000000");
        let url = server.url(&concrete);
        let response = server
            .client
            .request(method.parse().unwrap(), &url)
            .send()
            .await
            .unwrap();
        assert_ne!(
            response.status(),
            StatusCode::METHOD_NOT_ALLOWED,
            "{method} {path}"
        );
        let body: Value = response.json().await.unwrap_or(Value::Null);
        assert!(
            !body["error"]["message"]
                .as_str()
                .unwrap_or("")
                .contains("no such page or API route"),
            "{method} {path} is documented but not routed"
        );
        for other in ["GET", "POST", "PUT", "DELETE"] {
            let on_path = documented.iter().any(|(m, p)| m == other && p == path);
            if on_path {
                continue;
            }
            let response = server
                .client
                .request(other.parse().unwrap(), &url)
                .send()
                .await
                .unwrap();
            assert_eq!(
                response.status(),
                StatusCode::METHOD_NOT_ALLOWED,
                "{other} {path} is routed but not documented"
            );
        }
    }
}

#[tokio::test]
async fn the_page_works_as_plain_form_posts() {
    let server = Server::default().await;
    let response = server
        .client
        .post(server.url("/"))
        .form(&[
            ("op", "decode"),
            ("input", "%E5%BC%95%zz"),
            ("charset", "auto"),
        ])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let page = response.text().await.unwrap();
    assert!(page.contains(">引%zz</textarea>"), "output rendered");
    assert!(page.contains("malformed-escape"));
    assert!(page.contains("Detected UTF-8"));

    let response = server
        .client
        .post(server.url("/"))
        .form(&[
            ("op", "encode"),
            ("input", "<a b>"),
            ("encode_per_line", "on"),
        ])
        .send()
        .await
        .unwrap();
    let page = response.text().await.unwrap();
    assert!(page.contains("%3Ca%20b%3E"));
    assert!(
        page.contains("&lt;a b&gt;</textarea>"),
        "input kept and escaped"
    );
    assert!(page.contains("id=\"encode_per_line\" name=\"encode_per_line\" checked"));

    let response = server
        .client
        .post(server.url("/"))
        .form(&[("op", "decode"), ("input", "%zz"), ("strict", "on")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(response.text().await.unwrap().contains("malformed-escape"));

    let response = server
        .client
        .post(server.url("/"))
        .form(&[
            ("op", "inspect"),
            ("url", "https://user:pw@example.com:8080/p?q=1"),
        ])
        .send()
        .await
        .unwrap();
    let page = response.text().await.unwrap();
    assert!(page.contains("WHATWG URL Standard"));
    assert!(page.contains("example.com"));

    let response = server
        .client
        .post(server.url("/"))
        .header("content-type", "application/json")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert_error(&response.json().await.unwrap(), "bad-form");

    // A form of more fields than the page has is refused as it is read, empty ones too.
    let limit = urlkit_web::page::MAX_FORM_FIELDS;
    for body in [
        format!("op=decode&input=%41{}", "&x=".repeat(limit)),
        format!("op=decode{}", "&e".repeat(2_000_000)),
    ] {
        let response = server
            .client
            .post(server.url("/"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let body: Value = response.json().await.unwrap();
        assert_error(&body, "bad-form");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("more than {limit} fields")),
            "{message}"
        );
    }
    let response = server
        .client
        .post(server.url("/"))
        .form(&[("op", "decode"), ("input", "%41")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);

    let form = Form::new()
        .text("op", "decode")
        .part("file", Part::bytes(b"%41".to_vec()).file_name("a.txt"));
    let response = server
        .client
        .post(server.url("/files"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let page = response.text().await.unwrap();
    let link = page.split("href=\"/api/files/").nth(1).unwrap();
    let id = &link[..32];
    let response = server
        .client
        .get(server.url(&format!("/api/files/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.text().await.unwrap(), "A");
}

#[tokio::test]
async fn hostile_bodies_never_get_a_server_error() {
    let server = Server::default().await;
    // The same bodies on every run.
    let mut random = urlkit_testdata::Random::new(0x2545_f491_4f6c_dd1d);
    let mut next = move || random.next_u64();
    let pieces = [
        "%", "%z", "%FF", "%E5%BC", "+", "\\ud800", "\\u0000", "\"", "{", "}", "[", "]", ":", ",",
        "\\", "\n", "é", "引", "null", "true", "1e999", "-0", "auto", "utf-32be", "x",
    ];
    let fields = [
        "input",
        "charset",
        "set",
        "safe",
        "unsafe",
        "plus_space",
        "per_line",
        "newline",
        "strict",
        "until_stable",
        "space_plus",
        "url",
        "base",
        "reference",
    ];
    for round in 0..300 {
        let mut body = String::from("{");
        for i in 0..(next() % 5) {
            if i > 0 {
                body.push(',');
            }
            let field = fields[(next() % fields.len() as u64) as usize];
            body.push_str(&format!("\"{field}\":"));
            match next() % 3 {
                0 => body.push_str(if next() % 2 == 0 { "true" } else { "7" }),
                _ => {
                    body.push('"');
                    for _ in 0..(next() % 12) {
                        body.push_str(pieces[(next() % pieces.len() as u64) as usize]);
                    }
                    body.push('"');
                }
            }
        }
        if next() % 4 != 0 {
            body.push('}');
        }
        let route = [
            "/api/encode",
            "/api/decode",
            "/api/inspect",
            "/api/resolve",
            "/",
        ][round % 5];
        let content_type = if route == "/" {
            "application/x-www-form-urlencoded"
        } else {
            "application/json"
        };
        let response = server
            .client
            .post(server.url(route))
            .header("content-type", content_type)
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert!(
            !response.status().is_server_error(),
            "{route} {body:?} → {}",
            response.status()
        );
    }
}

#[tokio::test]
async fn openapi_describes_the_library_shapes() {
    let server = Server::default().await;
    let doc: Value = server
        .client
        .get(server.url("/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let schemas = &doc["components"]["schemas"];
    // A schema's properties, its parts' (`allOf`) and the schemas it refers to included;
    // and the ones it requires.
    fn collect(
        schemas: &Value,
        schema: &Value,
        keys: &mut Vec<String>,
        required: &mut Vec<String>,
    ) {
        if let Some(reference) = schema["$ref"].as_str() {
            let name = reference.trim_start_matches("#/components/schemas/");
            collect(schemas, &schemas[name], keys, required);
        }
        for part in schema["allOf"].as_array().into_iter().flatten() {
            collect(schemas, part, keys, required);
        }
        if let Some(properties) = schema["properties"].as_object() {
            keys.extend(properties.keys().cloned());
        }
        for name in schema["required"].as_array().into_iter().flatten() {
            required.extend(name.as_str().map(String::from));
        }
    }
    let fields = |name: &str| -> (Vec<String>, Vec<String>) {
        let (mut keys, mut required) = (Vec::new(), Vec::new());
        collect(schemas, &schemas[name], &mut keys, &mut required);
        assert!(!keys.is_empty(), "no schema {name}");
        keys.sort();
        (keys, required)
    };
    let properties = |name: &str| fields(name).0;
    // Every field an answer can carry is documented.
    let documented = properties("CodecResponse");
    for (path, body) in [
        (
            "/api/decode",
            json!({"input": "%83%89%zz", "charset": "auto"}),
        ),
        (
            "/api/decode",
            json!({"input": "%2520", "until_stable": true}),
        ),
        ("/api/encode", json!({"input": "a b"})),
    ] {
        let (status, answer) = server.post_json(path, body).await;
        assert_eq!(status, StatusCode::OK);
        for key in answer.as_object().unwrap().keys() {
            assert!(documented.contains(key), "{key} is not documented");
        }
    }
    // Every documented request field is one the library accepts, and only `input` is
    // required.
    for (schema, path) in [
        ("EncodeRequest", "/api/encode"),
        ("DecodeRequest", "/api/decode"),
    ] {
        assert_eq!(fields(schema).1, ["input"], "{schema}");
        assert!(
            !properties(schema).contains(&"binary".to_string()),
            "{schema}"
        );
        for field in properties(schema) {
            // `input` is required; every other field may be null (absent).
            let mut body = json!({ "input": "x" });
            if field != "input" {
                body[field.as_str()] = serde_json::Value::Null;
            }
            let (status, answer) = server.post_json(path, body).await;
            assert_eq!(status, StatusCode::OK, "{schema}.{field}: {answer}");
        }
    }
}

#[tokio::test]
async fn live_mode_module_is_served_as_webassembly() {
    let server = Server::default().await;
    let page = server
        .client
        .get(server.url("/"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let attribute = |name: &str| {
        let start = page.find(name).unwrap_or_else(|| panic!("no {name}")) + name.len() + 2;
        page[start..start + page[start..].find('"').unwrap()].to_string()
    };
    let module = attribute("name=\"urlkit-module\" content");
    let wasm = attribute("data-wasm");
    assert!(module.starts_with("/assets/urlkit.mjs?v="), "{module}");
    assert!(wasm.starts_with("/assets/urlkit.wasm?v="), "{wasm}");
    for (path, content_type, start) in [
        (&wasm, "application/wasm", &b"\0asm"[..]),
        (&module, "text/javascript; charset=utf-8", &b"//"[..]),
    ] {
        let response = server.client.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], content_type);
        assert!(response.headers()["cache-control"]
            .to_str()
            .unwrap()
            .contains("immutable"));
        let body = response.bytes().await.unwrap();
        assert!(body.starts_with(start), "{path}");
    }
}

#[tokio::test]
async fn inspect_edits_the_url_and_names_what_it_refuses() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json(
            "/api/inspect",
            json!({
                "url": "http://a.example:8080/p?utm_source=x&b=2&a=1#top",
                "set": {"scheme": "https", "hostname": "例子.卷筒纸", "port": ""},
                "clear": ["fragment"],
                "append_query": ["c=3 4"],
                "trim_query": ["utm_*"],
                "sort_query": true
            }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let view = &body["whatwg"];
    assert_eq!(
        view["href"],
        "https://xn--fsqu00a.xn--3lr804guic/p?a=1&b=2&c=3+4"
    );
    assert_eq!(view["host_unicode"], "例子.卷筒纸");
    assert_eq!(
        view["query_pairs"],
        json!([["a", "1"], ["b", "2"], ["c", "3 4"]])
    );
    assert!(view["diagram"]
        .as_str()
        .unwrap()
        .starts_with(view["href"].as_str().unwrap()));
    assert_eq!(
        view["spans"][0],
        json!({"component": "scheme", "start": 0, "end": 5})
    );
    assert_eq!(body["rfc3986"]["query"], "a=1&b=2&c=3+4");

    for (request, code, field) in [
        (
            json!({"url": "http://a/", "set": {"port": "99999"}}),
            "edit-refused",
            "set.port",
        ),
        (
            json!({"url": "http://a/", "set": {"protocol": "mailto"}}),
            "edit-refused",
            "set.protocol",
        ),
        (
            json!({"url": "http://a/", "clear": ["host"]}),
            "edit-refused",
            "clear",
        ),
        (
            json!({"url": "http://a/", "set": {"colour": "x"}}),
            "invalid-request",
            "set.colour",
        ),
        (
            json!({"url": "nope", "set": {"port": "1"}}),
            "bad-url",
            "url",
        ),
        (json!({"url": "x", "base": "not a url"}), "bad-base", "base"),
    ] {
        let (status, body) = server.post_json("/api/inspect", request.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{request}: {body}");
        assert_error(&body, code);
        assert_eq!(body["error"]["field"], field, "{request}: {body}");
    }
}

/// The largest answers the inspector can be asked for stay bounded: lists are capped and
/// counted, long URLs are not drawn, and a request carries at most 64 KiB of text.
#[tokio::test]
async fn inspect_answers_have_a_bounded_size() {
    let server = Server::default().await;
    let (status, body) = server
        .post_json(
            "/api/inspect",
            json!({"url": format!("http://h/?{}", "a=1&".repeat(16_000))}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        body["whatwg"]["query_pairs"].as_array().unwrap().len(),
        1000
    );
    // 16,000 pairs: the empty piece after the last `&` is no pair (URL Standard §5.1).
    assert_eq!(body["whatwg"]["query_pairs_not_listed"], 15_000);
    assert_eq!(body["rfc3986"]["query_pairs_not_listed"], 15_000);
    assert!(body["whatwg"]["diagram"].is_null());

    let (status, body) = server
        .post_json("/api/inspect", json!({"url": "x".repeat(70_000)}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(body["error"]["field"], "url", "{body}");

    // The worst shapes within the bound: controls (escaped six-fold in JSON, encoded
    // three-fold in the URL) in the path, the query and an edit's value.
    let controls = "\u{1}".repeat(32_000);
    let worst = [
        json!({"url": format!("http://h/{controls}")}),
        json!({"url": format!("http://h/?{}", "\u{1}=\u{1}&".repeat(10_000))}),
        json!({"url": "http://h/", "set": {"path": controls.clone(), "query": controls.clone()}}),
    ];
    for request in worst {
        let response = server
            .client
            .post(server.url("/api/inspect"))
            .json(&request)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let size = response.bytes().await.unwrap().len();
        assert!(size < 2_000_000, "{size} bytes");
        let page = server
            .client
            .post(server.url("/"))
            .form(&[("op", "inspect"), ("url", request["url"].as_str().unwrap())])
            .send()
            .await
            .unwrap();
        let size = page.bytes().await.unwrap().len();
        assert!(size < 3_000_000, "page: {size} bytes");
    }
}

/// A request with more edits than the inspector takes is refused while it is read, naming
/// the list that holds the most: a long list costs no more than reading it, and is never
/// checked pair against pair.
#[tokio::test]
async fn inspect_refuses_too_many_edits_while_reading_them() {
    let server = Server::default().await;
    let many_keys: serde_json::Map<String, Value> = (0..40_000)
        .map(|i| (format!("k{i}"), Value::from("v")))
        .collect();
    let many_names: Vec<String> = (0..200).map(|i| format!("name{i}")).collect();
    for (request, field) in [
        (json!({"url": "http://a/", "set": many_keys}), "set"),
        (json!({"url": "http://a/", "clear": many_names}), "clear"),
        (
            json!({"url": "http://a/", "append_query": many_names}),
            "append_query",
        ),
        (
            json!({"url": "http://a/", "trim_query": many_names}),
            "trim_query",
        ),
    ] {
        let (status, body) = server.post_json("/api/inspect", request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}: {body}");
        assert_eq!(body["error"]["field"], field, "{body}");
        let message = body["error"]["message"].as_str().unwrap();
        assert!(
            message.contains("more than 100 edits"),
            "{field}: {message}"
        );
    }
    // Within each list's bound but over the request's: the list with the most is named.
    let (status, body) = server
        .post_json(
            "/api/inspect",
            json!({"url": "http://a/", "clear": many_names[..40], "trim_query": many_names[..70]}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["field"], "trim_query", "{body}");
}

/// `/api/resolve` takes as much text as the inspector, and names the longer field past it.
#[tokio::test]
async fn resolve_refuses_text_beyond_the_inspectors_bound() {
    let server = Server::default().await;
    let long_path = format!("http://h/{}", "p/".repeat(40_000));
    for (request, field) in [
        (json!({"base": long_path, "reference": "x"}), "base"),
        (
            json!({"base": "http://h/", "reference": long_path}),
            "reference",
        ),
    ] {
        let (status, body) = server.post_json("/api/resolve", request).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{field}: {body}");
        assert_eq!(body["error"]["field"], field, "{body}");
    }
    let (status, body) = server
        .post_json(
            "/api/resolve",
            json!({"base": "http://h/a/b", "reference": "../c"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
}
