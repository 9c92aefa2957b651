// The shared vectors through the WebAssembly module in headless Chromium give exactly
// what the native binary gives. Skipped when Chromium is not installed.

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { native, root, wasmPath } from "./harness.mjs";
import { chromiumPath, page, runInChromium } from "./chromium.mjs";
import { expand } from "./vectors.mjs";
import path from "node:path";

test("in Chromium, every vector gives the native result", { skip: !chromiumPath && "chromium not installed" }, async () => {
  const cases = expand((text, options) => native("encode", text, options).output);
  const files = {
    "/": ["text/html", page(`
      await urlkit.load(wasm);
      const cases = await (await fetch("/cases.json")).json();
      return cases.map((c) => c.op === "detect" ? urlkit.detect(c.input) : urlkit[c.op](c.input, c.options));
    `)],
    "/urlkit.mjs": ["text/javascript", readFileSync(path.join(root, "crates/urlkit-wasm/js/urlkit.mjs"))],
    "/urlkit.wasm": ["application/wasm", readFileSync(wasmPath)],
    "/cases.json": ["application/json", JSON.stringify(cases)],
  };
  const results = await runInChromium(files);
  assert.equal(results.length, cases.length);
  cases.forEach((c, i) => {
    const expected = native(c.op, c.input, c.options);
    const actual = results[i];
    if (expected.usage !== undefined) {
      assert.equal(actual.error?.code, "invalid-request", c.name);
    } else {
      assert.deepEqual(actual, expected, c.name);
    }
  });
});
