// The live-mode timing, run the same way in Node and in a browser page: decode 1 MB of
// percent-encoded text through the WebAssembly module, as the page's live mode does
// (string in, JSON result out), and stream 16 MB through the binary decoder.

export async function bench(urlkit, wasmBytes) {
  const t0 = performance.now();
  await urlkit.load(wasmBytes);
  const loadMs = performance.now() - t0;

  // 1 MB (2^20 bytes) of percent-encoded text: Japanese and ASCII, a query string's mix.
  const piece = urlkit.encode("q=引き割り納豆&lang=ja&page=2 ラーメン 東京 ", { set: "component" }).output;
  let input = piece.repeat(Math.ceil((1 << 20) / piece.length)).slice(0, 1 << 20);
  input = input.slice(0, input.lastIndexOf("%") > input.length - 3 ? input.lastIndexOf("%") : input.length);

  const first = time(() => urlkit.decode(input));
  const runs = [];
  for (let i = 0; i < 15; i++) runs.push(time(() => urlkit.decode(input)));
  runs.sort((a, b) => a - b);

  const auto = [];
  for (let i = 0; i < 5; i++) auto.push(time(() => urlkit.decode(input, { charset: "auto" })));
  auto.sort((a, b) => a - b);

  const utf8 = new TextEncoder();
  const big = utf8.encode(input);
  const streamMs = time(() => {
    const d = urlkit.createDecoder({ binary: true });
    for (let i = 0; i < 16; i++) d.push(big);
    d.finish();
  });

  return {
    input_bytes: input.length,
    output_chars: urlkit.decode(input).output.length,
    load_ms: round(loadMs),
    decode_1mb_first_ms: round(first),
    decode_1mb_median_ms: round(runs[runs.length >> 1]),
    decode_1mb_best_ms: round(runs[0]),
    decode_1mb_auto_median_ms: round(auto[auto.length >> 1]),
    stream_binary_mb_per_s: round((16 * big.length) / (1 << 20) / (streamMs / 1000)),
  };
}

function time(f) {
  const t = performance.now();
  f();
  return performance.now() - t;
}

function round(x) {
  return Math.round(x * 100) / 100;
}
