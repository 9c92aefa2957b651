// Prints the live-mode figures: the module's size (raw, gzip) and the time to decode 1 MB
// in Node and in headless Chromium. Usage: node scripts/wasm-measure.mjs WASM_FILE
// (scripts/wasm-measure.sh builds the module and calls this).

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const wasmFile = process.argv[2];
const wasm = readFileSync(wasmFile);

console.log(`module: ${wasmFile}`);
console.log(`size raw:  ${wasm.length} bytes (${(wasm.length / 1024).toFixed(0)} KiB)`);
console.log(`size gzip: ${gzipSync(wasm, { level: 9 }).length} bytes (gzip -9)`);

const { bench } = await import("./wasm-bench.mjs");
const urlkit = await import("../crates/urlkit-wasm/js/urlkit.mjs");
console.log(`node ${process.version}:`, JSON.stringify(await bench(urlkit, wasm)));

const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find(existsSync);
if (!chromium) {
  console.log("chromium: not installed (apt-get install -y chromium), skipped");
  process.exit(0);
}

const page = `<!doctype html><meta charset="utf-8"><title>urlkit wasm bench</title>
<script type="module">
import * as urlkit from "/urlkit.mjs";
import { bench } from "/wasm-bench.mjs";
const post = (body) => fetch("/result", { method: "POST", body });
try {
  const bytes = await (await fetch("/urlkit.wasm")).arrayBuffer();
  post(JSON.stringify({ agent: navigator.userAgent, ...(await bench(urlkit, bytes)) }));
} catch (e) { post(JSON.stringify({ error: String(e && e.stack || e) })); }
</script>`;
const files = {
  "/": ["text/html", page],
  "/urlkit.mjs": ["text/javascript", readFileSync(path.join(root, "crates/urlkit-wasm/js/urlkit.mjs"))],
  "/wasm-bench.mjs": ["text/javascript", readFileSync(path.join(root, "scripts/wasm-bench.mjs"))],
  "/urlkit.wasm": ["application/wasm", wasm],
};

let browser;
const profile = mkdtempSync(path.join(os.tmpdir(), "urlkit-chromium-"));
const result = await new Promise((resolve, reject) => {
  const server = http.createServer((req, res) => {
    if (req.method === "POST" && req.url === "/result") {
      let body = "";
      req.on("data", (d) => (body += d));
      req.on("end", () => {
        res.end();
        server.close();
        resolve(JSON.parse(body));
      });
      return;
    }
    const file = files[req.url];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  server.listen(0, "127.0.0.1", () => {
    const url = `http://127.0.0.1:${server.address().port}/`;
    browser = spawn(
      chromium,
      ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--no-first-run", `--user-data-dir=${profile}`, url],
      { stdio: "ignore" },
    );
    browser.on("error", reject);
  });
  setTimeout(() => reject(new Error("chromium did not report within 60 s")), 60000).unref();
});
browser.kill();
await new Promise((r) => browser.once("exit", r));
rmSync(profile, { recursive: true, force: true });
if (result.error) throw new Error(`in chromium: ${result.error}`);
const { agent, ...figures } = result;
console.log(`chromium (${agent.match(/(HeadlessChrome|Chrome)\/[\d.]+/)?.[0] ?? agent}):`, JSON.stringify(figures));
