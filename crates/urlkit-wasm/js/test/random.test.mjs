// Generated inputs, long enough to reach the native build's vectorised paths, give the
// same results through the WebAssembly module as through the native binary.

import { test } from "node:test";
import assert from "node:assert/strict";
import { nativeMany, urlkit } from "./harness.mjs";

function random(seed) {
  let state = seed >>> 0 || 1;
  return (n) => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
}

const HEX = "0123456789ABCDEFabcdef";
const PIECES = [
  () => "a", () => "Z", () => "~", () => " ", () => "+", () => "\t", () => "\r\n", () => "\n",
  () => "é", () => "引", () => "😀", () => "%", () => "%4", () => "%zz", () => "\u202E",
  (next) => `%${HEX[next(22)]}${HEX[next(22)]}`,
  (next) => `%${"89ABCDEF"[next(8)]}${HEX[next(16)]}`,
  (next) => "abcdefghijklmnopqrstuvwxyz0123456789-._".repeat(1 + next(4)),
  (next) => "%E5%BC%95%E3%81%8D".repeat(1 + next(8)),
];

function inputs(seed, count) {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    let s = "";
    const pieces = next(60);
    for (let i = 0; i < pieces; i++) s += PIECES[next(PIECES.length)](next);
    return s;
  });
}

const RUNS = [
  ["encode", {}],
  ["encode", { set: "component", lowercase: true }],
  ["encode", { set: "form" }],
  ["encode", { set: "iri" }],
  ["encode", { charset: "shift_jis", per_line: true }],
  ["encode", { charset: "windows-1252", set: "query" }],
  ["decode", {}],
  ["decode", { plus_space: true, per_line: true, newline: "crlf" }],
  ["decode", { keep_whitespace: true }],
  ["decode", { charset: "auto" }],
  ["decode", { charset: "gb18030" }],
  ["decode", { charset: "utf-16le" }],
  ["decode", { until_stable: true }],
];

for (const [index, [op, options]] of RUNS.entries()) {
  test(`generated inputs: ${op} ${JSON.stringify(options)}`, () => {
    const list = inputs(1000 + index, 150);
    assert.ok(list.some((s) => s.length > 256), "some inputs are long");
    const expected = nativeMany(op, list, options);
    if (op === "decode") assert.ok(expected.some((r) => r.diagnostics.length > 0), "some inputs have findings");
    list.forEach((input, i) => {
      assert.deepEqual(urlkit[op](input, options), expected[i], `input ${JSON.stringify(input)}`);
    });
  });
}
