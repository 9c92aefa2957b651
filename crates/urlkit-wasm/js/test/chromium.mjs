// Runs a page in headless Chromium and returns what the page posts to `/result`.
// The page and the files it loads are served from 127.0.0.1 by a throwaway server.

import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";

/** The Chromium binary, or null when none is installed. */
export const chromiumPath = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p)) ?? null;

/**
 * Serves `files` (`{"/path": [contentType, body, extraHeaders?]}`, with "/" the page),
 * opens the page in headless Chromium and resolves with the JSON the page POSTs to
 * `/result` (rejects if it posts `{error}` or nothing within `timeoutMs`).
 */
export async function runInChromium(files, timeoutMs = 60000) {
  if (!chromiumPath) throw new Error("chromium is not installed (apt-get install -y chromium)");
  const profile = mkdtempSync(path.join(os.tmpdir(), "urlkit-chromium-"));
  let browser = null;
  let server = null;
  try {
    const result = await new Promise((resolve, reject) => {
      server = http.createServer((req, res) => {
        if (req.method === "POST" && req.url === "/result") {
          const parts = [];
          req.on("data", (d) => parts.push(d));
          req.on("end", () => {
            res.end();
            resolve(JSON.parse(Buffer.concat(parts).toString("utf8")));
          });
          return;
        }
        const file = files[req.url];
        if (!file) {
          res.writeHead(404).end();
          return;
        }
        res.writeHead(200, { "content-type": file[0], ...(file[2] || {}) }).end(file[1]);
      });
      server.listen(0, "127.0.0.1", () => {
        const url = `http://127.0.0.1:${server.address().port}/`;
        const args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--no-first-run", `--user-data-dir=${profile}`, url];
        // Its own process group, so that its helper processes end with it.
        browser = spawn(chromiumPath, args, { stdio: "ignore", detached: true });
        browser.on("error", reject);
      });
      setTimeout(() => reject(new Error(`chromium did not report within ${timeoutMs} ms`)), timeoutMs).unref();
    });
    if (result && result.error) throw new Error(`in chromium: ${result.error}`);
    return result;
  } finally {
    server?.close();
    if (browser && browser.exitCode === null) {
      const exited = new Promise((r) => browser.once("exit", r));
      try {
        process.kill(-browser.pid, "SIGTERM");
      } catch {
        browser.kill();
      }
      await exited;
    }
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** A page that runs `body` (module code with `urlkit` loaded) and posts what it returns. */
export function page(body) {
  return `<!doctype html><meta charset="utf-8"><title>urlkit</title>
<script type="module">
import * as urlkit from "/urlkit.mjs";
const post = (value) => fetch("/result", { method: "POST", body: JSON.stringify(value) });
try {
  const wasm = await (await fetch("/urlkit.wasm")).arrayBuffer();
  post(await (async () => { ${body} })());
} catch (e) { post({ error: String((e && e.stack) || e) }); }
</script>`;
}
