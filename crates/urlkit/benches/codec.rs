//! Encode and decode throughput of urlkit against the `percent-encoding`, `urlencoding` and
//! `form_urlencoded` crates and a plain `memcpy` of the same bytes.
//!
//! Inputs are read at run time from `../shared/bench-data/` (next to the repository):
//! * `urls`: the URL lists, few escapes;
//! * `urls-escaped`: the same lists with every byte outside `A-Z a-z 0-9` escaped;
//! * `multilingual-escaped`: `multilingual.txt` encoded, nearly every byte an escape.
//!
//! Decoding is measured on all three, encoding (default `unreserved` set) on `urls` and
//! `multilingual`. Every implementation writes into a buffer reused across iterations
//! where its API allows it, so the figures compare the codecs, not the allocator. urlkit
//! keeps at most 10,000 findings, as the `urlkit` binary does (the escaped URL lists have
//! one control character per line); the rest are counted.

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC};
use std::path::PathBuf;
use urlkit::{Codec, DecodeOptions, EncodeOptions};

/// RFC 3986 unreserved: everything but `A-Z a-z 0-9 - . _ ~` is escaped.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/bench-data")
}

fn read(name: &str) -> Vec<u8> {
    let path = data_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The URL lists, one after the other.
fn urls() -> Vec<u8> {
    let mut all = Vec::new();
    for name in ["node_files.txt", "isaacs_files.txt", "kasztp.txt"] {
        all.extend_from_slice(&read(name));
    }
    all
}

/// `input` with every byte outside `A-Z a-z 0-9` written as `%XX`.
fn escape_non_alphanumeric(input: &[u8]) -> Vec<u8> {
    percent_encoding::percent_encode(input, NON_ALPHANUMERIC)
        .collect::<String>()
        .into_bytes()
}

/// `input` encoded with the default (unreserved) set.
fn escape_unreserved(input: &[u8]) -> Vec<u8> {
    percent_encoding::percent_encode(input, UNRESERVED)
        .collect::<String>()
        .into_bytes()
}

fn bench_decode(c: &mut Criterion, name: &str, input: &[u8]) {
    let text = std::str::from_utf8(input).expect("bench inputs are UTF-8");
    let mut group = c.benchmark_group(format!("decode/{name}"));
    group.throughput(Throughput::Bytes(input.len() as u64));
    let mut out: Vec<u8> = Vec::with_capacity(input.len());
    let options = DecodeOptions::default();
    group.bench_function(BenchmarkId::from_parameter("urlkit"), |b| {
        b.iter(|| {
            out.clear();
            let mut decoder = Codec::decoder(&options);
            let _ = decoder.feed(black_box(input), &mut out);
            let _ = decoder.finish(&mut out);
            black_box(out.len());
        })
    });
    group.bench_function(BenchmarkId::from_parameter("percent-encoding"), |b| {
        b.iter(|| {
            let decoded = percent_encoding::percent_decode(black_box(input)).decode_utf8_lossy();
            black_box(decoded.len());
        })
    });
    group.bench_function(BenchmarkId::from_parameter("urlencoding"), |b| {
        b.iter(|| {
            let decoded = urlencoding::decode(black_box(text)).map(|d| d.len());
            black_box(decoded.ok());
        })
    });
    group.bench_function(BenchmarkId::from_parameter("form_urlencoded"), |b| {
        b.iter(|| {
            let mut length = 0;
            for (name, value) in form_urlencoded::parse(black_box(input)) {
                length += name.len() + value.len();
            }
            black_box(length);
        })
    });
    let mut copy = vec![0u8; input.len()];
    group.bench_function(BenchmarkId::from_parameter("memcpy"), |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(input));
            black_box(copy.as_ptr());
        })
    });
    group.finish();
}

fn bench_encode(c: &mut Criterion, name: &str, input: &[u8]) {
    let text = std::str::from_utf8(input).expect("bench inputs are UTF-8");
    let mut group = c.benchmark_group(format!("encode/{name}"));
    group.throughput(Throughput::Bytes(input.len() as u64));
    let mut out: Vec<u8> = Vec::with_capacity(input.len() * 3);
    let options = EncodeOptions::default();
    group.bench_function(BenchmarkId::from_parameter("urlkit"), |b| {
        b.iter(|| {
            out.clear();
            let mut encoder = Codec::encoder(&options);
            let _ = encoder.feed(black_box(input), &mut out);
            let _ = encoder.finish(&mut out);
            black_box(out.len());
        })
    });
    let mut string = String::with_capacity(input.len() * 3);
    group.bench_function(BenchmarkId::from_parameter("percent-encoding"), |b| {
        b.iter(|| {
            string.clear();
            string.extend(percent_encoding::percent_encode(
                black_box(input),
                UNRESERVED,
            ));
            black_box(string.len());
        })
    });
    group.bench_function(BenchmarkId::from_parameter("urlencoding"), |b| {
        b.iter(|| {
            let encoded = urlencoding::encode(black_box(text));
            black_box(encoded.len());
        })
    });
    group.bench_function(BenchmarkId::from_parameter("form_urlencoded"), |b| {
        b.iter(|| {
            string.clear();
            string.extend(form_urlencoded::byte_serialize(black_box(input)));
            black_box(string.len());
        })
    });
    let mut copy = vec![0u8; input.len()];
    group.bench_function(BenchmarkId::from_parameter("memcpy"), |b| {
        b.iter(|| {
            copy.copy_from_slice(black_box(input));
            black_box(copy.as_ptr());
        })
    });
    group.finish();
}

fn codec(c: &mut Criterion) {
    let urls = urls();
    let multilingual = read("multilingual.txt");
    bench_decode(c, "urls", &urls);
    bench_decode(c, "urls-escaped", &escape_non_alphanumeric(&urls));
    bench_decode(c, "multilingual-escaped", &escape_unreserved(&multilingual));
    bench_encode(c, "urls", &urls);
    bench_encode(c, "multilingual", &multilingual);
}

criterion_group!(benches, codec);
criterion_main!(benches);
