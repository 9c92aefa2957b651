// Streaming through the WebAssembly module: any chunking gives exactly the whole-input
// result (output bytes, charset and diagnostics), in text and binary mode, and strict mode
// stops a stream at the first rejected finding.

import { test } from "node:test";
import assert from "node:assert/strict";
import { urlkit } from "./harness.mjs";
import { expand } from "./vectors.mjs";

const utf8 = new TextEncoder();
const text = new TextDecoder("utf-8", { ignoreBOM: true });

// A small deterministic generator, so a failure can be replayed.
function random(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

function chunked(bytes, next) {
  const chunks = [];
  for (let i = 0; i < bytes.length; ) {
    const size = next(4) === 0 ? 0 : 1 + next(Math.min(bytes.length - i, 7));
    chunks.push(bytes.subarray(i, i + size));
    i += size;
  }
  return chunks;
}

function concat(parts) {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return all;
}

function streamed(create, options, bytes, next) {
  const stream = create(options);
  const parts = chunked(bytes, next).map((chunk) => stream.push(chunk));
  parts.push(stream.finish());
  return { output: concat(parts), ...stream.result };
}

const cases = expand((t, options) => urlkit.encode(t, options).output).filter(
  (c) => c.op !== "detect" && !c.options.until_stable && !c.options.strict,
);

test("random chunking equals the whole input, text mode", () => {
  const next = random(20261122);
  let compared = 0;
  for (const c of cases) {
    const whole = urlkit[c.op](c.input, c.options);
    if (whole.error) continue;
    const create = c.op === "encode" ? urlkit.createEncoder : urlkit.createDecoder;
    for (let round = 0; round < 5; round++) {
      const got = streamed(create, c.options, utf8.encode(c.input), next);
      assert.deepEqual({ ...got, output: text.decode(got.output) }, whole, `${c.name}, round ${round}`);
      compared++;
    }
  }
  assert.ok(compared > 500, `${compared} comparisons`);
});

test("random chunking equals the whole input, binary mode, and decode undoes encode", () => {
  const next = random(7);
  for (let round = 0; round < 50; round++) {
    const bytes = new Uint8Array(next(600));
    for (let i = 0; i < bytes.length; i++) bytes[i] = next(256);
    const options = round % 2 ? { set: "component", lowercase: true } : {};
    const whole = urlkit.encodeBytes(bytes, options);
    const got = streamed(urlkit.createEncoder, { ...options, binary: true }, bytes, next);
    assert.deepEqual(got, whole);
    const back = streamed(urlkit.createDecoder, { binary: true }, whole.output, next);
    assert.deepEqual(back.output, bytes);
    assert.deepEqual(urlkit.decodeBytes(whole.output).output, bytes);
  }
});

test("a large input streams in 64 KiB chunks with the whole result", () => {
  const piece = "%E5%BC%95%E3%81%8D%zz+a%20b%FF\n";
  const input = piece.repeat(40000);
  const whole = urlkit.decode(input, { per_line: true, plus_space: true });
  const got = streamed(urlkit.createDecoder, { per_line: true, plus_space: true }, utf8.encode(input), () => 65536);
  assert.equal(text.decode(got.output), whole.output);
  assert.deepEqual(got.diagnostics, whole.diagnostics);
  assert.equal(got.diagnostics_not_listed, whole.diagnostics_not_listed);
  assert.ok(whole.diagnostics_not_listed > 0, "more findings than are listed");
});

test("strict streams stop at the first rejected finding", () => {
  const stream = urlkit.createDecoder({ strict: true });
  assert.deepEqual(stream.push(utf8.encode("ab%4")), utf8.encode("ab"));
  assert.throws(
    () => stream.push(utf8.encode("g")),
    (e) => e instanceof urlkit.UrlkitError && e.code === "malformed-escape" && e.offset === 2,
  );
  assert.throws(() => stream.push(utf8.encode("x")), /finished/);
  const whole = urlkit.decode("ab%4g", { strict: true });
  assert.deepEqual(whole.error, { code: "malformed-escape", message: whole.error.message, offset: 2 });
});

test("streams refuse options they cannot honour, naming the field", () => {
  assert.throws(() => urlkit.createDecoder({ until_stable: true }), (e) => e.field === "until_stable");
  assert.throws(() => urlkit.createEncoder({ charset: "nope" }), (e) => e.field === "charset");
  assert.equal(urlkit.encode("x", { sett: "all" }).error.field, "sett");
});

test("strings and bytes are read as UTF-8", () => {
  assert.equal(urlkit.encode("é😀").output, "%C3%A9%F0%9F%98%80");
  assert.equal(urlkit.encode(utf8.encode("é")).output, "%C3%A9");
  assert.equal(urlkit.decode("%EF%BB%BFx").output, "\uFEFFx");
  const lone = urlkit.encode("a\uD800b");
  assert.equal(lone.output, "a%EF%BF%BDb");
});
