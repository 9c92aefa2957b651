//! The page over real HTTP on 127.0.0.1, as a browser without JavaScript gets it: its
//! language, the codec form's directions and swap, findings summarised, messages that say
//! what to do, and the names and charsets of files.

use reqwest::header::{ACCEPT_LANGUAGE, CONTENT_LANGUAGE, COOKIE, SET_COOKIE, VARY};
use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use std::sync::Arc;
use std::time::Duration;
use urlkit_web::api::content_disposition;
use urlkit_web::store::{DirStore, ResultId};
use urlkit_web::{app, AppState};

async fn start() -> String {
    let dir =
        std::env::temp_dir().join(format!("urlkit-page-test-{}", ResultId::random().unwrap()));
    let store = Arc::new(DirStore::open(&dir).unwrap());
    let state = AppState::new(store, 1 << 20, Duration::from_secs(60), false);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app(state)).await });
    format!("http://{addr}")
}

async fn post_form(base: &str, query: &str, fields: &[(&str, &str)]) -> (StatusCode, String) {
    let response = reqwest::Client::new()
        .post(format!("{base}/{query}"))
        .form(fields)
        .send()
        .await
        .unwrap();
    (response.status(), response.text().await.unwrap())
}

/// The text between `<textarea id="output"…>` and `</textarea>`.
fn output(page: &str) -> &str {
    let start = page.find("id=\"output\"").unwrap();
    let open = start + page[start..].find('>').unwrap() + 1;
    &page[open..open + page[open..].find("</textarea>").unwrap()]
}

#[tokio::test]
async fn the_language_follows_accept_language_and_the_switch_is_remembered() {
    let base = start().await;
    let client = reqwest::Client::new();
    for (accept, lang, dir, word) in [
        ("cs-CZ,cs;q=0.9,en;q=0.8", "cs", "ltr", "Dekódovat"),
        ("hi-IN", "hi", "ltr", "डिकोड"),
        ("fa-IR,fa;q=0.9", "fa", "rtl", "رمزگشایی"),
        ("de-DE", "en", "ltr", "Decode"),
    ] {
        let response = client
            .get(format!("{base}/"))
            .header(ACCEPT_LANGUAGE, accept)
            .send()
            .await
            .unwrap();
        assert_eq!(response.headers()[CONTENT_LANGUAGE], lang);
        assert!(response.headers()[VARY]
            .to_str()
            .unwrap()
            .contains("accept-language"));
        assert!(response.headers().get(SET_COOKIE).is_none());
        let page = response.text().await.unwrap();
        assert!(
            page.contains(&format!("<html lang=\"{lang}\" dir=\"{dir}\">")),
            "{accept}"
        );
        assert!(page.contains(word), "{accept}: {word}");
        // The switch names every language in itself and marks this one.
        assert!(page.contains(&format!(
            "hreflang=\"{lang}\" lang=\"{lang}\" dir=\"{dir}\" aria-current=\"true\""
        )));
    }
    // Choosing with the switch sets a cookie that later requests are answered by.
    let chosen = client
        .get(format!("{base}/?lang=fa"))
        .header(ACCEPT_LANGUAGE, "cs")
        .send()
        .await
        .unwrap();
    let cookie = chosen.headers()[SET_COOKIE].to_str().unwrap().to_string();
    assert!(
        cookie.starts_with("urlkit-lang=fa; Path=/; Max-Age=31536000; SameSite=Lax"),
        "{cookie}"
    );
    let later = client
        .get(format!("{base}/"))
        .header(ACCEPT_LANGUAGE, "cs")
        .header(COOKIE, "other=1; urlkit-lang=fa")
        .send()
        .await
        .unwrap();
    assert_eq!(later.headers()[CONTENT_LANGUAGE], "fa");
    // Inputs, outputs and codes stay left to right on the right-to-left page.
    let page = later.text().await.unwrap();
    for id in ["input", "output", "url", "charset"] {
        assert!(
            page.contains(&format!("id=\"{id}\" dir=\"ltr\""))
                || page.contains(&format!("id=\"{id}\" name=\"{id}\" dir=\"ltr\"")),
            "{id}"
        );
    }
}

#[tokio::test]
async fn without_javascript_the_page_answers_in_its_language() {
    let base = start().await;
    let (status, page) = post_form(
        &base,
        "?lang=cs",
        &[
            ("input", "a%zz\r\n%41"),
            ("op", "decode"),
            ("decode_per_line", "on"),
            ("charset", "UTF-8"),
        ],
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(output(&page), "a%zz\nA\n");
    assert!(page.contains("Znaková sada: UTF-8"), "status line in Czech");
    assert!(page.contains("1 nález"), "the count in Czech");
    assert!(
        page.contains("řádek 1, sloupec 2"),
        "line and column in Czech"
    );
    assert!(
        page.contains("znak % bez dvou šestnáctkových číslic"),
        "the code explained in Czech"
    );
    assert!(
        page.contains("<code class=\"code\">malformed-escape</code>"),
        "the code as it is"
    );
    assert!(
        page.contains("aria-pressed=\"true\">Dekódovat"),
        "the direction shown"
    );
}

#[tokio::test]
async fn without_javascript_swap_decodes_the_last_output() {
    let base = start().await;
    let (_, encoded) = post_form(&base, "", &[("input", "a b&c"), ("op", "encode")]).await;
    assert_eq!(output(&encoded), "a%20b%26c");
    let (_, swapped) = post_form(
        &base,
        "",
        &[
            ("input", "a b&c"),
            ("output", "a%20b%26c"),
            ("direction", "encode"),
            ("op", "swap"),
        ],
    )
    .await;
    assert!(
        swapped.contains(">a%20b%26c</textarea>"),
        "the output became the input"
    );
    assert_eq!(output(&swapped), "a b&amp;c");
    assert!(swapped.contains("aria-pressed=\"true\">Decode"));
}

#[tokio::test]
async fn findings_are_summarised_and_their_list_is_bounded() {
    let base = start().await;
    let input: String = (0..3000).map(|i| format!("k{i}=%zz\n")).collect();
    let (_, page) = post_form(
        &base,
        "",
        &[
            ("input", &input),
            ("op", "decode"),
            ("decode_per_line", "on"),
        ],
    )
    .await;
    assert!(page.contains("3000 findings"));
    assert!(
        page.contains("<code class=\"code\">malformed-escape</code> <span class=\"n\">3000</span>")
    );
    assert!(page.contains("The first 50 are listed here."));
    assert!(page.contains("Show all 3000"));
    assert!(
        page.contains("2000 more were counted but not listed."),
        "at most 1,000 on the page"
    );
    assert_eq!(page.matches("<li><span class=\"pos\">").count(), 1000);
    assert!(page.contains("line 3, column 4"));
}

#[tokio::test]
async fn messages_say_what_to_do() {
    let base = start().await;
    let (status, page) = post_form(
        &base,
        "",
        &[("input", "ok%zz"), ("op", "decode"), ("strict", "on")],
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(page.contains("Strict mode rejected the input at byte 2: a % not followed by two hex digits (malformed-escape)."));
    assert!(page.contains("turn off Strict mode"));
    assert!(
        !page.contains("kept as it is"),
        "a rejected input was not repaired"
    );
    // Over the text limit: the limit and the ways around it.
    let big = "a".repeat(17 << 20);
    let (status, page) = post_form(&base, "", &[("input", &big), ("op", "encode")]).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        page.contains("larger than the server takes for text (16 MiB)"),
        "names the limit"
    );
    assert!(page.contains("Use Files below"));
    // A file over the upload limit.
    let form = Form::new().text("op", "encode").part(
        "file",
        Part::bytes(vec![b'a'; (1 << 20) + 1]).file_name("big.txt"),
    );
    let response = reqwest::Client::new()
        .post(format!("{base}/files"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let page = response.text().await.unwrap();
    assert!(page.contains("larger than the upload limit (1 MiB)"));
    assert!(page.contains("Turn on Live mode"));
}

#[tokio::test]
async fn a_file_is_decoded_in_a_charset_and_downloads_under_its_name() {
    let base = start().await;
    let form = Form::new()
        .text("op", "decode")
        .text("charset", "windows-1251")
        .text("per_line", "on")
        .part(
            "file",
            Part::bytes(b"%C0%E2%EE%F1\n".to_vec()).file_name("report.csv"),
        );
    let response = reqwest::Client::new()
        .post(format!("{base}/api/files"))
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["name"], "report.decoded.csv");
    let download = reqwest::get(format!("{base}{}", body["download"].as_str().unwrap()))
        .await
        .unwrap();
    assert_eq!(
        download.headers()["content-disposition"],
        "attachment; filename=\"report.decoded.csv\"; filename*=UTF-8''report.decoded.csv"
    );
    assert_eq!(download.text().await.unwrap(), "Авос\n");
}

#[test]
fn content_disposition_has_an_ascii_name_and_the_utf8_one() {
    assert_eq!(
        content_disposition("отчёт 1.decoded.csv"),
        "attachment; filename=\"_____ 1.decoded.csv\"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82%201.decoded.csv"
    );
}

/// The blocks of the third-party notices, one per license text: the lines naming the
/// crates that use it, then the text.
fn notice_blocks(notices: &str) -> Vec<&str> {
    notices.split(&"-".repeat(80)).skip(1).collect()
}

/// The block that names `krate` among its users and holds every one of `words`.
fn notice_of<'a>(blocks: &[&'a str], krate: &str, words: &[&str]) -> Option<&'a str> {
    let user = format!("\n* {krate} ");
    blocks
        .iter()
        .find(|block| block.contains(&user) && words.iter().all(|w| block.contains(w)))
        .copied()
}

#[tokio::test]
async fn licenses_names_the_crates_with_their_license_texts() {
    let base = start().await;
    let client = reqwest::Client::new();
    let response = client.get(format!("{base}/licenses")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()["content-type"],
        "text/plain; charset=utf-8"
    );
    assert_eq!(response.headers()["cache-control"], "public, max-age=86400");
    let notices = response.text().await.unwrap();
    // Each crate is listed with its version and license expression.
    for krate in [
        "ada-url",
        "encoding_rs",
        "chardetng",
        "axum",
        "tokio",
        "pyo3",
    ] {
        let line = notices
            .lines()
            .find(|l| l.starts_with(&format!("* {krate} ")) && l.contains(": "))
            .unwrap_or_else(|| panic!("{krate} is not in the list of crates"));
        assert!(
            line.contains("MIT") || line.contains("Apache-2.0"),
            "{line}"
        );
    }
    // And with the text of its license, not only the license's name: ada's own copyright
    // (ada-url bundles ada's C++), encoding_rs's and the MIT and Apache texts of axum.
    let blocks = notice_blocks(&notices);
    let mit = "Permission is hereby granted, free of charge";
    let apache = "TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION";
    assert!(
        notice_of(
            &blocks,
            "ada-url",
            &[mit, "Yagiz Nizipli and Daniel Lemire"]
        )
        .is_some(),
        "ada's MIT license with its copyright"
    );
    assert!(notice_of(&blocks, "arrow-buffer", &[apache]).is_some());
    assert!(notice_of(&blocks, "encoding_rs", &[mit, "Mozilla Foundation"]).is_some());
    assert!(notice_of(&blocks, "axum", &[mit]).is_some());
    assert!(
        notices.contains("tl::expected"),
        "the C++ bundled in ada-url named"
    );

    // Large text goes out compressed when the client takes gzip.
    let compressed = client
        .get(format!("{base}/licenses"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(compressed.headers()["content-encoding"], "gzip");
    assert!(compressed.bytes().await.unwrap().len() < notices.len() / 2);

    // Every language's page links to it from its footer.
    for accept in ["en", "cs", "hi", "fa"] {
        let page = client
            .get(format!("{base}/"))
            .header(ACCEPT_LANGUAGE, accept)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        let footer = &page[page.find("<footer>").unwrap()..];
        assert!(footer.contains("<a href=\"/licenses\">"), "{accept}");
    }
}
