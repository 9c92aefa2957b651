// The module's raw exports called as a careless or hostile caller would call them: the
// result buffer fed back as input, null pointers, addresses outside memory, lengths past a
// buffer, unknown and freed stream handles. Every such call is refused with status 3
// (invalid-argument) or handled by copying; none traps or reads memory it should not.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { wasmPath } from "./harness.mjs";

const OK = 0;
const REJECTED = 1;
const INVALID_REQUEST = 2;
const INVALID_ARGUMENT = 3;

const utf8 = new TextEncoder();
const text = new TextDecoder();
const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), {});
const w = instance.exports;

function result() {
  const ptr = w.urlkit_result_ptr();
  return new Uint8Array(w.memory.buffer.slice(ptr, ptr + w.urlkit_result_len()));
}

function resultJson() {
  return JSON.parse(text.decode(result()));
}

/** Copies `bytes` (or a string's UTF-8) into a fresh buffer: `[ptr, len]`. */
function buffer(value) {
  const bytes = typeof value === "string" ? utf8.encode(value) : value;
  const ptr = w.urlkit_alloc(bytes.length);
  new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
  return [ptr, bytes.length];
}

function free([ptr, len]) {
  assert.equal(w.urlkit_free(ptr, len), OK);
}

test("one stream's output fed in place to another decodes as if copied", () => {
  const options = buffer("{}");
  const first = w.urlkit_decoder_new(...options, 1);
  const second = w.urlkit_decoder_new(...options, 1);
  assert.ok(first !== 0 && second !== 0);
  const decoded = [];
  for (const chunk of ["%2541%25", "42%25", "43"]) {
    const input = buffer(chunk);
    assert.equal(w.urlkit_stream_feed(first, ...input), OK);
    free(input);
    assert.equal(w.urlkit_stream_feed(second, w.urlkit_result_ptr(), w.urlkit_result_len()), OK);
    decoded.push(...result());
  }
  assert.equal(w.urlkit_stream_finish(first), OK);
  assert.equal(w.urlkit_stream_feed(second, w.urlkit_result_ptr(), w.urlkit_result_len()), OK);
  decoded.push(...result());
  assert.equal(w.urlkit_stream_finish(second), OK);
  decoded.push(...result());
  assert.equal(text.decode(new Uint8Array(decoded)), "ABC");
  assert.equal(w.urlkit_stream_free(first), OK);
  assert.equal(w.urlkit_stream_free(second), OK);
  free(options);
});

test("the result buffer is accepted as the input of a whole-input call", () => {
  const input = buffer("%2541");
  const options = buffer("{}");
  assert.equal(w.urlkit_decode(...input, ...options), OK);
  const first = resultJson().output;
  assert.equal(first, "%41");
  // Point at the output inside the response JSON and decode it again, in place.
  const at = text.decode(result()).indexOf("%41");
  assert.equal(w.urlkit_decode(w.urlkit_result_ptr() + at, 3, ...options), OK);
  assert.equal(resultJson().output, "A");
  free(input);
  free(options);
});

test("null, out-of-memory and past-the-end arguments are refused", () => {
  const options = buffer("{}");
  const input = buffer("%41%42");
  const memoryEnd = w.memory.buffer.byteLength;
  const cases = [
    ["null input", () => w.urlkit_encode(0, 4, ...options), "input"],
    ["null options", () => w.urlkit_decode(...input, 0, 2), "options"],
    ["beyond memory", () => w.urlkit_decode(memoryEnd + 64, 8, ...options), "input"],
    ["wrapping around", () => w.urlkit_decode(0xffff_fff0, 0x20, ...options), "input"],
    ["past the buffer", () => w.urlkit_decode(input[0], input[1] + 1, ...options), "input"],
    ["unallocated memory", () => w.urlkit_detect(8, 4), "input"],
    ["stream chunk at null", () => w.urlkit_stream_feed(w.urlkit_decoder_new(...options, 0), 0, 3), "chunk"],
    ["stream options at null", () => (w.urlkit_encoder_new(0, 2, 0) === 0 ? INVALID_ARGUMENT : OK), "options"],
  ];
  for (const [what, call, field] of cases) {
    assert.equal(call(), INVALID_ARGUMENT, what);
    const body = resultJson();
    assert.equal(body.error.code, "invalid-argument", what);
    assert.equal(body.error.field, field, what);
  }
  // Zero-length arguments need no memory at all.
  assert.equal(w.urlkit_encode(0, 0, 0, 0), OK);
  assert.equal(resultJson().output, "");
  free(input);
  free(options);
});

test("unknown, zero and freed stream handles are refused", () => {
  const chunk = buffer("%41");
  for (const handle of [12345, 0xffff_ffff, 0]) {
    assert.equal(w.urlkit_stream_feed(handle, ...chunk), INVALID_ARGUMENT, `feed ${handle}`);
    assert.match(resultJson().error.message, /not a live stream handle/);
    assert.equal(w.urlkit_stream_finish(handle), INVALID_ARGUMENT);
    assert.equal(w.urlkit_stream_report(handle), INVALID_ARGUMENT);
  }
  assert.equal(w.urlkit_stream_free(0), OK, "0 is ignored");
  const options = buffer("{}");
  const handle = w.urlkit_encoder_new(...options, 0);
  assert.equal(w.urlkit_stream_free(handle), OK);
  assert.equal(w.urlkit_stream_feed(handle, ...chunk), INVALID_ARGUMENT, "after free");
  assert.equal(w.urlkit_stream_free(handle), INVALID_ARGUMENT, "freed twice");
  free(chunk);
  free(options);
});

test("free takes only live buffers, exactly", () => {
  const ptr = w.urlkit_alloc(16);
  assert.equal(w.urlkit_free(ptr, 15), INVALID_ARGUMENT);
  assert.equal(w.urlkit_free(ptr + 1, 15), INVALID_ARGUMENT);
  assert.equal(w.urlkit_free(ptr, 16), OK);
  assert.equal(w.urlkit_free(ptr, 16), INVALID_ARGUMENT, "freed twice");
  assert.equal(w.urlkit_free(0, 4), INVALID_ARGUMENT);
  // The freed buffer is no longer an acceptable input.
  const options = buffer("{}");
  assert.equal(w.urlkit_encode(ptr, 4, ...options), INVALID_ARGUMENT);
  free(options);
});

test("ordinary calls still answer as before", () => {
  const options = buffer('{"strict": true}');
  const input = buffer("ab%zz");
  assert.equal(w.urlkit_decode(...input, ...options), REJECTED);
  assert.equal(resultJson().error.offset, 2);
  const bad = buffer('{"charset": "nope"}');
  assert.equal(w.urlkit_decode(...input, ...bad), INVALID_REQUEST);
  assert.equal(resultJson().error.field, "charset");
  for (const b of [options, input, bad]) free(b);
});
