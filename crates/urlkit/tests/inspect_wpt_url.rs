//! WHATWG URL parsing against web-platform-tests' `urltestdata.json`, and the setters
//! against `setters_tests.json`, through `urlkit::inspect::whatwg`: every case must pass.

use serde_json::Value;
use urlkit::inspect::edit::Component;
use urlkit::inspect::whatwg::{self, UrlReport};
use urlkit::inspect::Url;
use urlkit_testdata::{conformance, url_api_differences};

/// The differences between a case's expected attributes and a report's.
fn differences(case: &Value, report: &UrlReport) -> Vec<String> {
    let json = serde_json::to_value(report).expect("a report serializes");
    url_api_differences(case, &json)
}

fn check(case: &Value) -> Result<(), String> {
    let input = case["input"].as_str().ok_or("no input")?;
    let base = match case["base"].as_str() {
        Some(b) => match Url::parse(b) {
            Ok(u) => Some(u),
            Err(_) if case["failure"] == true => return Ok(()),
            Err(e) => return Err(format!("base {b:?} does not parse: {e}")),
        },
        None => None,
    };
    let result = whatwg::report(input, base.as_ref());
    if case["failure"] == true {
        return match result {
            Ok(r) => Err(format!("expected failure, got {}", r.href)),
            Err(e) if e.position > input.len() => Err(format!("position past the end: {e}")),
            Err(_) => Ok(()),
        };
    }
    let report = result.map_err(|e| format!("failed: {e}"))?;
    let wrong = differences(case, &report);
    if !wrong.is_empty() {
        return Err(wrong.join("; "));
    }
    // The report's URL API attributes are the parser's own.
    let url = whatwg::parse(input, base.as_ref()).map_err(|e| e.to_string())?;
    if report.url_api() != url.url_api() {
        return Err(format!("{:?} != {:?}", report.url_api(), url.url_api()));
    }
    // The drawing starts with the href and marks every span.
    let drawing = report.diagram.as_deref().unwrap_or("");
    if report.href.len() <= whatwg::DRAWN_URL_LENGTH
        && drawing.lines().next() != Some(report.href.as_str())
    {
        return Err(format!("diagram does not start with the href: {drawing}"));
    }
    for span in &report.spans {
        let text = report.href.get(span.start..span.end);
        let expected = match span.component {
            "scheme" => Some(report.scheme.as_str()),
            "user" => Some(report.user.as_str()),
            "password" => Some(report.password.as_str()),
            "host" => report.host.as_deref(),
            "path" => Some(report.path.as_str()),
            "query" => report.query.as_deref(),
            "fragment" => report.fragment.as_deref(),
            _ => text,
        };
        if text != expected {
            return Err(format!("span {span:?} is {text:?}, not {expected:?}"));
        }
    }
    Ok(())
}

#[test]
fn every_urltestdata_case_passes() {
    let data = conformance("wpt/urltestdata.json");
    let cases: Vec<&Value> = data
        .as_array()
        .expect("array")
        .iter()
        .filter(|c| c.is_object())
        .collect();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            check(case)
                .err()
                .map(|why| format!("{} base {}: {why}", case["input"], case["base"]))
        })
        .collect();
    eprintln!(
        "urltestdata.json: {} cases, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(cases.len() > 850);
}

/// Every failure of `urltestdata.json` is explained: a component and a message, not the
/// catch-all.
#[test]
fn every_rejected_urltestdata_case_names_its_problem() {
    let data = conformance("wpt/urltestdata.json");
    let mut unexplained = Vec::new();
    let mut failures = 0;
    for case in data.as_array().expect("array").iter() {
        let Some(input) = case["input"].as_str() else {
            continue;
        };
        if case["failure"] != true {
            continue;
        }
        let base = case["base"].as_str().map(Url::parse);
        let base = match base {
            Some(Ok(b)) => Some(b),
            Some(Err(_)) => continue,
            None => None,
        };
        failures += 1;
        let e = whatwg::parse(input, base.as_ref()).expect_err(input);
        if e.component == "url" {
            unexplained.push(format!("{input:?}: {e}"));
        }
    }
    eprintln!(
        "{failures} rejected cases, {} unexplained",
        unexplained.len()
    );
    assert!(unexplained.is_empty(), "{unexplained:#?}");
}

/// The component of `setters_tests.json`'s attribute name.
fn setter(attribute: &str) -> Component {
    match attribute {
        // The URL API's `host` is host and port: `hostport` here; `host` is the hostname.
        "host" => Component::HostPort,
        other => Component::named(other).expect(other),
    }
}

#[test]
fn every_setters_tests_case_passes() {
    let data = conformance("wpt/setters_tests.json");
    let mut total = 0;
    let mut failures = Vec::new();
    for (attribute, cases) in data.as_object().expect("object") {
        let Some(cases) = cases.as_array() else {
            continue;
        };
        for case in cases {
            let Some(href) = case["href"].as_str() else {
                continue; // a comment
            };
            total += 1;
            let value = case["new_value"].as_str().expect("new_value");
            let mut url = Url::parse(href).expect(href);
            let result = url.set(setter(attribute), value);
            let report = whatwg::report_parsed(href, &url, Vec::new());
            assert_eq!(
                report.url_api(),
                url.url_api(),
                "{attribute} = {value:?} on {href:?}"
            );
            let wrong = differences(&case["expected"], &report);
            if !wrong.is_empty() {
                failures.push(format!(
                    "{attribute} = {value:?} on {href:?} ({result:?}): {}",
                    wrong.join("; ")
                ));
            }
            if let Err(e) = result {
                // A refusal says why, and leaves the URL as the standard does.
                if e.message.is_empty() || e.to_string().contains("refuses this") {
                    failures.push(format!("{attribute} = {value:?} on {href:?}: vague: {e}"));
                }
            }
        }
    }
    eprintln!(
        "setters_tests.json: {total} cases, {} failed",
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(total > 250);
}
