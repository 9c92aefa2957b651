fn main() {
    let raw = std::fs::read("/tmp/1mb.txt").unwrap();
    let raw = &raw[..raw.len() - 1];
    for (name, charset) in [
        (
            "utf-8",
            urlkit::CharsetChoice::Fixed(urlkit::Charset::UTF_8),
        ),
        ("auto", urlkit::CharsetChoice::Auto),
    ] {
        let opts = urlkit::DecodeOptions {
            charset,
            ..Default::default()
        };
        let _ = urlkit::decode(raw, &opts);
        let n = 20;
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(urlkit::decode(raw, &opts));
        }
        println!(
            "{name}: {:.3} ms",
            t.elapsed().as_secs_f64() * 1000.0 / n as f64
        );
    }
}
