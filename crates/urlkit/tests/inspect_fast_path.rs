//! The `--get` fast path against the full parse: `Template::render_input` reads the scheme,
//! host and port of plain URLs without the parser; on every input here it must give the
//! bytes (or the failure) that `whatwg::parse` and `Template::render` give.

use urlkit::inspect::template::Template;
use urlkit::inspect::whatwg;
use urlkit_testdata::Random;

/// Every placeholder the fast path serves.
const TEMPLATE: &str = "{scheme}|{host}|{port}|{:port}|{hostport}|{host:unicode}";

/// Fails naming the inputs (of `what`) on which the fast path and the full parse disagree;
/// returns how many inputs there were.
fn assert_agreement<'a>(what: &str, lines: impl IntoIterator<Item = &'a [u8]>) -> usize {
    let template = Template::parse(TEMPLATE).expect("template");
    let mut wrong = Vec::new();
    let mut count = 0;
    for line in lines {
        count += 1;
        let mut fast = Vec::new();
        let fast_result = template.render_input(line, None, &mut fast);
        let text = String::from_utf8_lossy(line);
        let mut full = Vec::new();
        let full_result = whatwg::parse(&text, None).map(|url| template.render(&url, &mut full));
        if fast_result.is_ok() != full_result.is_ok() || fast != full {
            wrong.push(format!(
                "{text:?}: fast {:?} {fast_result:?}, full {:?} {full_result:?}",
                String::from_utf8_lossy(&fast),
                String::from_utf8_lossy(&full)
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{what}: {} of {count}:\n{:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(40)]
    );
    count
}

/// URLs made of pieces at the edges of what the fast path takes: every scheme, separator,
/// host and port together, and every ending after a few of them.
fn combinations() -> Vec<Vec<u8>> {
    let schemes = [
        "http", "https", "HTTP", "hTtp", "ws", "wss", "ftp", "file", "File", "foo", "node",
        "mailto", "h-t+t.p", "1http", "",
    ];
    let separators = [
        "://", ":", ":/", ":///", "://\t", ":\\\\", ":/\\", ":\t//", "//",
    ];
    let hosts = [
        "example.com",
        "EXAMPLE.com",
        "a_b.c",
        "1.2.3.4",
        "1.2.3",
        "0x7f.1",
        "999.1.1.1",
        "1.2.3.4.",
        "xn--fsqu00a.xn--3lr804guic",
        "xn--a",
        "XN--a.b",
        "a.xn--",
        "a..b",
        ".",
        "",
        "localhost",
        "LOCALHOST",
        "a-",
        "-a",
        "a.b.1",
        "a.b.0x",
        "a.b.0xg",
        "a.1b",
        "例子",
        "a%41",
        "[::1]",
        "u@h",
        "u:p@h",
        "a b",
        "c:",
        "c|",
        "C",
        "a.b.09",
        "0x",
        "a.-",
        "_",
    ];
    let ports = [
        "",
        ":",
        ":80",
        ":443",
        ":21",
        ":0",
        ":65535",
        ":65536",
        ":080",
        ":99999",
        ":8a",
        ":00000000080",
        ":+1",
    ];
    let tails = [
        "", "/", "/p?q#f", "?x", "#y", "\\p", " ", "\t", "/a b", "\r",
    ];
    let mut out = Vec::new();
    for scheme in schemes {
        for sep in separators {
            for host in hosts {
                for port in ports {
                    out.push(format!("{scheme}{sep}{host}{port}/p").into_bytes());
                }
            }
        }
    }
    for scheme in ["http", "file", "foo"] {
        for host in hosts {
            for port in ["", ":80", ":8a"] {
                for tail in tails {
                    out.push(format!("{scheme}://{host}{port}{tail}").into_bytes());
                }
            }
        }
    }
    out
}

#[test]
fn the_fast_path_agrees_with_the_full_parse_on_generated_urls() {
    let inputs = combinations();
    assert_agreement("generated", inputs.iter().map(Vec::as_slice));
}

#[test]
fn the_fast_path_agrees_with_the_full_parse_on_random_urls() {
    let alphabet: &[u8] = b"abcxyzAZ09.-_:/\\?#@[]%+ \t\x00\xff";
    let mut random = Random::new(11);
    let mut inputs = Vec::new();
    for _ in 0..20_000 {
        let mut url = match random.below(4) {
            0 => b"http://".to_vec(),
            1 => b"https://a".to_vec(),
            2 => b"file://".to_vec(),
            _ => b"x:".to_vec(),
        };
        for _ in 0..random.below(16) {
            url.push(alphabet[random.below(alphabet.len() as u64) as usize]);
        }
        inputs.push(url);
    }
    assert_agreement("random", inputs.iter().map(Vec::as_slice));
}

/// The benchmark lists (`../shared/bench-data/` beside the repository, which are not to be
/// copied into it): the measured inputs must give the full parse's output. A plain clone
/// lists the test as ignored; `scripts/test.sh` runs it when the lists are there.
#[test]
#[ignore = "needs ../shared/bench-data beside the repository; scripts/test.sh runs it"]
fn the_fast_path_agrees_with_the_full_parse_on_the_benchmark_lists() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench-data/");
    let mut total = 0;
    for file in ["node_files.txt", "isaacs_files.txt", "kasztp.txt"] {
        let text = std::fs::read(format!("{dir}{file}"))
            .unwrap_or_else(|e| panic!("{dir}{file} cannot be read: {e}"));
        total += assert_agreement(file, text.split(|&b| b == b'\n'));
    }
    eprintln!("{total} benchmark URLs compared");
}
