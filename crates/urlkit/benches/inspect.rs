//! The WHATWG view on the URL lists in `../shared/bench-data/` (read at run time): ada's
//! parse alone, `--get '{host}'` through the fast path (`Template::render_input`), and a
//! template that needs the full parse.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use urlkit::inspect::template::Template;
use urlkit::inspect::Url;

const FILES: &[&str] = &["node_files.txt", "isaacs_files.txt", "kasztp.txt"];

fn lines() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/bench-data/");
    FILES
        .iter()
        .flat_map(|f| {
            let text = std::fs::read_to_string(format!("{dir}{f}"))
                .unwrap_or_else(|e| panic!("{dir}{f}: {e}"));
            text.lines().map(str::to_owned).collect::<Vec<_>>()
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let urls = lines();
    let mut group = c.benchmark_group("inspect");
    group.throughput(Throughput::Elements(urls.len() as u64));
    group.sample_size(20);
    group.bench_function("url_parse", |b| {
        b.iter(|| {
            for u in &urls {
                let _ = black_box(Url::parse_quiet(black_box(u), None));
            }
        })
    });
    for (name, format) in [
        ("get_host", "{host}"),
        ("get_several", "{scheme} {host} {port} {path} {query:q}"),
    ] {
        let template = Template::parse(format).expect("template");
        let mut out = Vec::with_capacity(1 << 16);
        group.bench_function(name, |b| {
            b.iter(|| {
                for u in &urls {
                    let _ = template.render_input(u.as_bytes(), None, &mut out);
                    out.push(b'\n');
                    if out.len() > 1 << 15 {
                        black_box(&out);
                        out.clear();
                    }
                }
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
