// What the page shows through the module: humanSize, resultName and shownParts give the answers written
// out in vectors.json (`shown`), which the server's Rust is held to as well (urlkit-api's
// tests/shown.rs), and the raw exports refuse bad arguments as the others do.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { urlkit, wasmPath } from "./harness.mjs";

const { shown } = JSON.parse(readFileSync(new URL("./vectors.json", import.meta.url), "utf8"));

/** A name of the vectors: a string, or pieces that are a string or [text, times]. */
function nameOf(value) {
  if (typeof value === "string") return value;
  return value.map((piece) => (typeof piece === "string" ? piece : piece[0].repeat(piece[1]))).join("");
}

test("humanSize gives the vectors' sizes", () => {
  assert.ok(shown.sizes.length >= 10);
  for (const [bytes, expected] of shown.sizes) {
    assert.equal(urlkit.humanSize(bytes), expected, `${bytes} bytes`);
    assert.equal(urlkit.humanSize(BigInt(bytes)), expected, `${bytes}n bytes`);
  }
});

test("resultName gives the vectors' names", () => {
  assert.ok(shown.result_names.length >= 10);
  for (const c of shown.result_names) {
    const upload = nameOf(c.upload);
    assert.equal(urlkit.resultName(upload, c.op), nameOf(c.name), JSON.stringify(upload).slice(0, 60));
  }
  // A lone surrogate goes in as U+FFFD, which is kept.
  assert.equal(urlkit.resultName("a\ud800.txt", "encode"), "a\ufffd.encoded.txt");
});

test("shownParts gives the vectors' parts, from an object or its JSON", () => {
  assert.ok(shown.parts.length >= 3);
  for (const c of shown.parts) {
    assert.deepEqual(urlkit.shownParts(c.view), c.parts, c.about);
    assert.deepEqual(urlkit.shownParts(JSON.stringify(c.view)), c.parts, c.about);
  }
  for (const bad of [[1, 2], null, "not json", { host: 5 }, 7]) {
    assert.throws(() => urlkit.shownParts(bad), (e) => e.code === "invalid-argument" && e.field === "view", JSON.stringify(bad));
  }
});

test("bad arguments throw an invalid-argument error naming the argument", () => {
  for (const bad of [-1, 1.5, NaN, Infinity, 2 ** 53 + 2, "12", null]) {
    assert.throws(() => urlkit.humanSize(bad), (e) => e.code === "invalid-argument" && e.field === "bytes", String(bad));
  }
  for (const op of ["", "Encode", undefined, 0]) {
    assert.throws(() => urlkit.resultName("a.txt", op), (e) => e.code === "invalid-argument" && e.field === "done", String(op));
  }
});

test("the raw exports refuse what the module did not hand out", async () => {
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
  const w = instance.exports;
  const body = () => JSON.parse(new TextDecoder().decode(new Uint8Array(w.memory.buffer, w.urlkit_result_ptr(), w.urlkit_result_len())));
  assert.equal(w.urlkit_human_size(-0.5), 3);
  assert.equal(body().error.field, "bytes");
  assert.equal(w.urlkit_result_name(0, 4, 0), 3, "null name");
  assert.equal(body().error.field, "name");
  assert.equal(w.urlkit_result_name(8, 4, 1), 3, "unallocated memory");
  assert.equal(w.urlkit_result_name(0, 0, 7), 3, "done neither 0 nor 1");
  assert.equal(body().error.field, "done");
  const bytes = new Uint8Array([0x63, 0xe9, 0x2e, 0x74]);
  const ptr = w.urlkit_alloc(bytes.length);
  new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
  assert.equal(w.urlkit_result_name(ptr, bytes.length, 0), 3, "not UTF-8");
  assert.match(body().error.message, /not UTF-8/);
  assert.equal(w.urlkit_free(ptr, bytes.length), 0);
});
