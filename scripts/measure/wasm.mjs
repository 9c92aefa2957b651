// Prints the live-mode figures: the module's size (raw, gzip) and the time to decode 1 MB
// in Node and in headless Chromium. Usage: node scripts/measure/wasm.mjs WASM_FILE
// (scripts/measure/wasm.sh builds the module and calls this).

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { bench } from "./wasm-bench.mjs";
import * as urlkit from "../../crates/urlkit-wasm/js/urlkit.mjs";
import { chromiumPath, page, runInChromium } from "../../crates/urlkit-wasm/js/test/chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const wasmFile = process.argv[2];
const wasm = readFileSync(wasmFile);

console.log(`module: ${wasmFile}`);
console.log(`size raw:  ${wasm.length} bytes (${(wasm.length / 1024).toFixed(0)} KiB)`);
console.log(`size gzip: ${gzipSync(wasm, { level: 9 }).length} bytes (gzip -9)`);
console.log(`node ${process.version}:`, JSON.stringify(await bench(urlkit, wasm)));

if (!chromiumPath) {
  console.log("chromium: not installed (apt-get install -y chromium), skipped");
} else {
  const files = {
    "/": ["text/html", page(`
      const { bench } = await import("/wasm-bench.mjs");
      return { agent: navigator.userAgent, ...(await bench(urlkit, wasm)) };
    `)],
    "/urlkit.mjs": ["text/javascript", readFileSync(path.join(root, "crates/urlkit-wasm/js/urlkit.mjs"))],
    "/wasm-bench.mjs": ["text/javascript", readFileSync(path.join(root, "scripts/measure/wasm-bench.mjs"))],
    "/urlkit.wasm": ["application/wasm", wasm],
  };
  const { agent, ...figures } = await runInChromium(files);
  const version = agent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? agent;
  console.log(`chromium (${version}):`, JSON.stringify(figures));
}
