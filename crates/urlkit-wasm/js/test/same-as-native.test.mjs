// The WebAssembly module gives exactly what the native binary gives (`--json`): the same
// output, charset and diagnostics (codes, offsets and messages), and the same rejections.

import { test } from "node:test";
import assert from "node:assert/strict";
import { native, wasm } from "./harness.mjs";
import { expand } from "./vectors.mjs";

const cases = expand((text, options) => native("encode", text, options).output);

test("the vectors cover every kind of case", () => {
  const ops = new Set(cases.map((c) => c.op));
  assert.deepEqual([...ops].sort(), ["decode", "detect", "encode"]);
  assert.ok(cases.length > 150, `${cases.length} cases`);
});

for (const c of cases) {
  test(`same as native: ${c.name}`, () => {
    const expected = native(c.op, c.input, c.options);
    const actual = wasm(c.op, c.input, c.options);
    if (expected.usage !== undefined) {
      assert.ok(actual.usage !== undefined, `native refused the options (${expected.usage}); wasm gave ${JSON.stringify(actual)}`);
      return;
    }
    assert.deepEqual(actual, expected);
    assert.equal(JSON.stringify(sorted(actual)), JSON.stringify(sorted(expected)));
  });
}

// Keys in a fixed order, so the JSON text itself can be compared.
function sorted(value) {
  if (Array.isArray(value)) return value.map(sorted);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted(value[k])]));
  }
  return value;
}
