//! What an operator sees: metrics in the Prometheus text format and the readiness check.

use reqwest::StatusCode;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use urlkit_web::store::{DirStore, ResultId};
use urlkit_web::{app, AppState};

async fn start(dir: &std::path::Path) -> (String, AppState) {
    let store = DirStore::open(dir).unwrap();
    let state = AppState::new(Arc::new(store), 1 << 20, Duration::from_secs(900), false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let router = app(state.clone());
    tokio::spawn(async move { axum::serve(listener, router).await });
    (format!("http://{addr}"), state)
}

/// The value of one sample of the metrics text, 0 when absent.
fn sample(text: &str, name_and_labels: &str) -> f64 {
    text.lines()
        .find_map(|line| line.strip_prefix(name_and_labels)?.strip_prefix(' '))
        .map_or(0.0, |v| v.parse().unwrap())
}

#[tokio::test]
async fn metrics_count_requests_bytes_and_results() {
    let dir = std::env::temp_dir().join(format!("urlkit-metrics-{}", ResultId::random().unwrap()));
    let (base, _) = start(&dir).await;
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let response = client
            .post(format!("{base}/api/encode"))
            .json(&serde_json::json!({"input": "a b"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::OK);
    }
    let form = reqwest::multipart::Form::new().text("op", "encode").part(
        "file",
        reqwest::multipart::Part::bytes(b"x y".to_vec()).file_name("a"),
    );
    let created: Value = client
        .post(format!("{base}/api/files"))
        .multipart(form)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let download = created["download"].as_str().unwrap();
    client
        .get(format!("{base}{download}"))
        .send()
        .await
        .unwrap();
    client
        .get(format!("{base}{download}"))
        .send()
        .await
        .unwrap();
    let response = client.get(format!("{base}/metrics")).send().await.unwrap();
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/openmetrics-text"));
    let text = response.text().await.unwrap();
    let requests = |labels: &str| sample(&text, &format!("urlkit_http_requests_total{{{labels}}}"));
    assert_eq!(
        requests(r#"route="/api/encode",method="POST",status="200""#),
        3.0,
        "{text}"
    );
    assert_eq!(
        requests(r#"route="/api/files/{id}",method="GET",status="200""#),
        1.0,
        "{text}"
    );
    assert_eq!(
        requests(r#"route="/api/files/{id}",method="GET",status="404""#),
        1.0,
        "{text}"
    );
    assert_eq!(sample(&text, "urlkit_results_stored_total"), 1.0);
    assert_eq!(sample(&text, "urlkit_results_claimed_total"), 1.0);
    assert!(sample(&text, "urlkit_http_request_body_bytes_total") >= 3.0 * 13.0);
    assert!(sample(&text, "urlkit_http_response_body_bytes_total") > 0.0);
    assert_eq!(
        sample(
            &text,
            r#"urlkit_http_request_duration_seconds_count{route="/api/encode"}"#
        ),
        3.0
    );
    // No result id anywhere: routes are patterns.
    assert!(!text.contains(created["id"].as_str().unwrap()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn readiness_fails_without_a_store_and_once_draining() {
    let dir = std::env::temp_dir().join(format!("urlkit-ready-{}", ResultId::random().unwrap()));
    let (base, state) = start(&dir).await;
    let ready = || async {
        let response = reqwest::get(format!("{base}/readyz")).await.unwrap();
        let status = response.status();
        (status, response.json::<Value>().await.unwrap())
    };
    let (status, body) = ready().await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::OK, Some("ready"))
    );
    std::fs::remove_dir_all(&dir).unwrap();
    let (status, body) = ready().await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(body["error"]["code"], "not-ready");
    std::fs::create_dir_all(&dir).unwrap();
    assert_eq!(ready().await.0, StatusCode::OK);
    state.start_draining();
    let (status, body) = ready().await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("shutting down"));
    // Liveness is another matter.
    let health = reqwest::get(format!("{base}/healthz")).await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    std::fs::remove_dir_all(&dir).unwrap();
}
