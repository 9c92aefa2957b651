// What the page shows the way the server shows it: sizes and result names come from one
// definition in Rust (urlkit-api's `shown`), which the page gets as attributes rendered by
// the server or through the WebAssembly module. Where both show one, the page's answer is
// held equal to the server's; where only the page shows one (an output's size), to the
// answers written out in the shared vectors, which the server's Rust is tested against.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { answered, countAnswers, openPage, paste, root, shots, startAll, stopAll } from "./harness.js";

const LIMIT = 1610612736;
const { shown } = JSON.parse(readFileSync(join(root, "crates/urlkit-wasm/js/test/vectors.json"), "utf8"));

let server;
let base;
let browser;
const errors = [];
// Asked for on purpose: the limits.
const expected = /Failed to load resource: the server responded with a status of 413/;

before(async () => {
  ({ server, base, browser } = await startAll(["--max-upload", String(LIMIT), "--ttl", "5m"]));
});

after(() => stopAll({ server, browser }));

const open = (options = {}) => openPage(browser, base, { viewport: { width: 1280, height: 800 }, ...options }, errors, expected);

/** A name of the vectors: a string, or pieces that are a string or [text, times]. */
const nameOf = (value) => (typeof value === "string" ? value : value.map((p) => (typeof p === "string" ? p : p[0].repeat(p[1]))).join(""));

/** The page without JavaScript answering a form over the upload limit: `POST /files` that
 * announces more than the server takes, refused before a byte of it is read. */
function serverPageForTooLargeFile() {
  return new Promise((resolve, reject) => {
    const url = new URL("/files", base);
    const req = request(url, {
      method: "POST",
      headers: {
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(LIMIT + 128 * 1024 * 1024),
      },
    });
    req.on("response", (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => {
        body += chunk;
      });
      response.on("end", () => {
        resolve({ status: response.statusCode, body });
        req.destroy();
      });
    });
    req.on("error", reject);
    req.flushHeaders();
  });
}

test("the upload limit reads the same from the server's page and the page's script", async () => {
  const answer = await serverPageForTooLargeFile();
  assert.equal(answer.status, 413);
  // The message in the page's error box (the catalog for the script holds it too, unfilled).
  const said = /<p>The file is larger than the upload limit \(([^)]*)\)/.exec(answer.body);
  assert.ok(said, "the server's page names the limit");
  const { context, page } = await open();
  await page.getByLabel("Live mode").uncheck();
  await page.route("**/api/files", (route) => route.fulfill({ status: 413, contentType: "application/json", body: JSON.stringify({ error: { code: "too-large", message: "too large" } }) }));
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "a.bin", mimeType: "application/octet-stream", buffer: Buffer.from("x") });
  await page.getByRole("button", { name: "Upload and process" }).click();
  await page.waitForFunction(() => /upload limit/.test(document.getElementById("file-result").textContent));
  const script = /larger than the upload limit \(([^)]*)\)/.exec(await page.locator("#file-result").textContent());
  assert.equal(script[1], said[1]);
  assert.equal(script[1], "1536 MiB");
  await context.close();
});

test("the page's module gives the sizes the server's Rust is tested against", async () => {
  const { context, page } = await open();
  const sizes = await page.evaluate(async (bytes) => {
    const app = await import(document.querySelector('script[type="module"]').src);
    const codec = await app.loadLive();
    return bytes.map((n) => codec.humanSize(n));
  }, shown.sizes.map(([n]) => n));
  assert.deepEqual(sizes, shown.sizes.map(([, text]) => text));
  await context.close();
});

test("a long output's note gives its sizes as the server would, with live mode on and off", async () => {
  // 1,572,864 bytes: the server says `1536 KiB` (a script of its own said `1.5 MiB`).
  const input = "a".repeat(1572864);
  assert.deepEqual(shown.sizes.find(([n]) => n === input.length), [input.length, "1536 KiB"]);
  const { context, page } = await open();
  // Live mode off from the start (the choice is remembered): the module is not loaded
  // until the note needs it.
  await page.getByLabel("Live mode").uncheck();
  await page.reload();
  assert.equal(await page.evaluate(() => performance.getEntriesByType("resource").some((r) => r.name.includes("urlkit.wasm"))), false, "no module yet");
  await countAnswers(page);
  for (const live of [false, true]) {
    await page.getByLabel("Live mode").setChecked(live);
    await page.evaluate(() => {
      document.getElementById("output-note").hidden = true;
    });
    await paste(page, input);
    // The note is read once the click's own run has answered: live mode streams a large
    // input, and the note shows each piece's sizes until the whole is done. The count
    // starts in the click's task, so no earlier run's answer (live mode's, of the paste)
    // is taken for it; a newer run keeps the older ones from answering.
    await page.evaluate(() => {
      window.__urlkitAnswers = 0;
      document.getElementById("encode-button").click();
    });
    await answered(page);
    await page.waitForFunction(() => !document.getElementById("output-note").hidden, null, { timeout: 60000 });
    const note = await page.locator("#output-note").textContent();
    assert.match(note, /\(32 KiB of 1536 KiB\)/, `live ${live}: ${note}`);
  }
  await context.close();
});

test("result names are the server's, live or uploaded: a 300-byte name, a right-to-left override", async () => {
  const { context, page } = await open();
  const uploads = [
    "a".repeat(296) + ".txt",
    "é".repeat(300) + ".txt",
    "invoice\u202efdp.exe",
    "заметки (1).txt",
  ];
  for (const upload of uploads) {
    const names = [];
    for (const live of [false, true]) {
      await page.getByLabel("Live mode").setChecked(live);
      await page.locator("#file-form").getByLabel("Operation").selectOption("decode");
      await page.getByLabel("File", { exact: true }).setInputFiles({ name: upload, mimeType: "text/plain", buffer: Buffer.from("a%20b") });
      await page.locator("#file-result").evaluate((node) => node.replaceChildren());
      await page.locator("#upload").click();
      const link = page.getByRole("link", { name: "Download the result" });
      await link.waitFor();
      names.push({ shown: await page.locator("#file-result .name").textContent(), download: await link.getAttribute("download") });
    }
    const [server, live] = names;
    assert.equal(live.shown, server.shown, `${upload.slice(0, 20)}…: the page names it as the server does`);
    assert.equal(server.shown, `(${server.download})`);
    assert.equal(live.shown, `(${live.download})`);
    const vector = shown.result_names.find((c) => nameOf(c.upload) === upload && c.op === "decode");
    if (vector) assert.equal(server.download, nameOf(vector.name));
  }
  await page.screenshot({ path: join(shots, "shown-names.png") });
  await context.close();
});

test("no console errors", () => {
  assert.deepEqual(errors, []);
});
