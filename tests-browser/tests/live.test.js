// Live mode in a real browser: the codec compiled to WebAssembly answers in the page, gives
// exactly what the server's API gives, processes files locally, and sends nothing.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shots, startAll, stopAll } from "./harness.js";
import * as urlkit from "../../crates/urlkit-wasm/js/urlkit.mjs";
import { expand } from "../../crates/urlkit-wasm/js/test/vectors.mjs";

let server;
let base;
let browser;
const consoleErrors = [];

// Strict-mode rejections asked of the API on purpose show up as failed resources.
const expectedStatus = /Failed to load resource: the server responded with a status of 4(00|22)/;

async function newPage() {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" && !expectedStatus.test(message.text())) {
      consoleErrors.push(`${message.text()} (${page.url()})`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(`page error: ${error.message}`));
  // Every request from the first: the page loads its codec as it starts.
  const seen = recordRequests(page);
  await page.goto(base + "/");
  return { context, page, seen };
}

before(async () => {
  ({ server, base, browser } = await startAll(["--max-upload", "1MiB", "--ttl", "5m"]));
  // The module the server embeds, loaded in Node too: it writes the encoded texts the
  // shared vectors decode.
  await urlkit.load(new Uint8Array(await (await fetch(base + "/assets/urlkit.wasm")).arrayBuffer()));
});

after(() => stopAll({ server, browser }));

/** Runs `cases` through the page's own `runCodec`, with live mode on or off. */
function throughPage(page, cases, live) {
  return page.evaluate(
    async ({ cases, live }) => {
      const app = await import(document.querySelector('script[type="module"]').src);
      document.getElementById("live").checked = live;
      const answers = [];
      for (const c of cases) {
        try {
          answers.push(await app.runCodec(c.op, c.input, c.options));
        } catch (error) {
          answers.push({ error: { code: error.code, message: error.message, offset: error.offset } });
        }
      }
      return answers;
    },
    { cases, live },
  );
}

test("live mode and the API give the same answers for the shared vectors", async () => {
  const cases = expand((text, options) => urlkit.encode(text, options).output).filter((c) => c.op !== "detect");
  const { context, page } = await newPage();
  const live = await throughPage(page, cases, true);
  const api = await throughPage(page, cases, false);
  assert.ok(cases.length > 100, `${cases.length} cases`);
  const kinds = new Set(cases.flatMap((c) => Object.keys(c.options)));
  for (const option of ["set", "charset", "per_line", "strict", "until_stable", "newline"]) assert.ok(kinds.has(option), option);
  for (let i = 0; i < cases.length; i++) {
    assert.deepEqual(live[i], api[i], cases[i].name);
  }
  assert.ok(live.some((a) => a.error && a.error.offset !== undefined), "a strict rejection");
  assert.ok(live.some((a) => a.diagnostics && a.diagnostics.some((d) => d.code === "malformed-escape")));
  assert.ok(live.some((a) => a.detected), "an auto-detection");
  await context.close();
});

test("live mode shows what the server shows", async () => {
  const { context, page } = await newPage();
  const shown = async () => ({
    output: await page.locator("#output").inputValue(),
    status: await page.locator("#status").textContent(),
    findings: await page.locator("#diagnostics").textContent(),
  });
  const results = {};
  for (const live of [true, false]) {
    const box = page.getByLabel("Live mode");
    if (live) await box.check();
    else await box.uncheck();
    await page.locator("#codec-form").getByLabel("Character set").selectOption("auto");
    await page.getByLabel("Input", { exact: true }).fill("%83%89%81%5B%83%81%83%93%zz");
    await page.locator("#output").evaluate((node) => {
      node.value = "";
    });
    await page.getByRole("button", { name: "Decode", exact: true }).click();
    await page.waitForFunction(() => document.getElementById("output").value !== "");
    results[live ? "live" : "server"] = await shown();
    if (live) await page.screenshot({ path: join(shots, "live-decode.png"), fullPage: false });
  }
  assert.equal(results.live.output, "ラーメン%zz");
  assert.match(results.live.status, /Detected Shift_JIS/);
  assert.match(results.live.findings, /malformed-escape/);
  assert.deepEqual(results.live, results.server);
  await context.close();
});

/** Every request the page makes, with its body. */
function recordRequests(page) {
  const seen = [];
  page.on("request", (request) => {
    seen.push({ method: request.method(), url: request.url(), body: request.postDataBuffer() });
  });
  return seen;
}

test("in live mode no request carries the input", async () => {
  const { context, page, seen } = await newPage();
  const typed = "SECRETtyped%E5%BC%95";
  const fileText = "SECRETfile%20contents%zz";
  assert.equal(await page.getByLabel("Live mode").isChecked(), true);
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.getByLabel("Input", { exact: true }).pressSequentially(typed, { delay: 10 });
  await page.waitForFunction(() => document.getElementById("output").value === "SECRETtyped引");
  await page.locator("#codec-form").getByLabel("Character set").selectOption("windows-1251");
  await page.locator("#codec-form").getByLabel("Strict mode").check();
  await page.waitForFunction(() => /windows-1251/.test(document.getElementById("status").textContent));
  await page.getByLabel("Operation").selectOption("decode");
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name: "secret.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(fileText),
  });
  await page.getByRole("button", { name: "Process in the browser" }).click();
  const link = page.getByRole("link", { name: "Download the result" });
  await link.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  assert.equal(readFileSync(await download.path(), "utf8"), "SECRETfile contents%zz");
  await page.screenshot({ path: join(shots, "live-file.png"), fullPage: true });

  assert.ok(seen.some((r) => r.url.includes("/assets/urlkit.wasm")), "the module was fetched");
  for (const request of seen) {
    const where = `${request.method} ${request.url}`;
    assert.notEqual(request.method, "POST", where);
    assert.ok(!new URL(request.url).pathname.startsWith("/api/"), where);
    for (const secret of ["SECRET", "%E5%BC%95", "contents"]) {
      assert.ok(!decodeURIComponent(request.url).includes(secret) && !request.url.includes(secret), where);
      assert.ok(!request.body || !request.body.includes(secret), where);
    }
  }
  await context.close();
});

test("a file round trip in live mode", async () => {
  const { context, page } = await newPage();
  // 2.5 MiB of every byte value, so chunks of 1 MiB split escapes on both sides.
  const original = Buffer.alloc(2.5 * 1024 * 1024);
  for (let i = 0; i < original.length; i++) original[i] = (i * 7919 + (i >> 11)) & 0xff;
  const unreserved = /[A-Za-z0-9\-._~]/;
  let expected = "";
  for (const byte of original) {
    const ch = String.fromCharCode(byte);
    expected += unreserved.test(ch) ? ch : "%" + byte.toString(16).toUpperCase().padStart(2, "0");
  }

  const run = async (op, buffer) => {
    await page.getByLabel("Operation").selectOption(op);
    await page.getByLabel("File", { exact: true }).setInputFiles({ name: `in.${op}`, mimeType: "application/octet-stream", buffer });
    await page.locator("#file-result").evaluate((node) => node.replaceChildren());
    await page.getByRole("button", { name: "Process in the browser" }).click();
    const link = page.getByRole("link", { name: "Download the result" });
    await link.waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    return readFileSync(await download.path());
  };
  const encoded = await run("encode", original);
  assert.equal(encoded.length, Buffer.byteLength(expected));
  assert.ok(encoded.equals(Buffer.from(expected)), "encoded as the unreserved set says");
  const decoded = await run("decode", encoded);
  assert.ok(decoded.equals(original), "decoded back to the original bytes");
  assert.match(await page.locator("#file-result").textContent(), /nothing was uploaded/);
  await context.close();
});

test("decoding 1 MB in live mode", async () => {
  const { context, page } = await newPage();
  const timings = await page.evaluate(async () => {
    const app = await import(document.querySelector('script[type="module"]').src);
    await app.loadLive();
    const input = "%E5%BC%95%E3%81%8D%20abc%2F".repeat(Math.ceil((1024 * 1024) / 27)).slice(0, 1024 * 1024);
    const times = [];
    for (let i = 0; i < 7; i++) {
      const started = performance.now();
      const result = await app.runCodec("decode", input, { charset: "utf-8" });
      times.push(performance.now() - started);
      if (!result.output.startsWith("引き abc/")) throw new Error("wrong output");
    }
    return times;
  });
  timings.sort((a, b) => a - b);
  // Reported, not asserted: tests do not time.
  console.log(`# decode 1 MiB in live mode: median ${timings[3].toFixed(1)} ms, best ${timings[0].toFixed(1)} ms`);
  await context.close();
});

test("the live mode choice is remembered", async () => {
  const { context, page } = await newPage();
  await page.getByLabel("Live mode").uncheck();
  assert.equal(await page.getByRole("button", { name: "Upload and process" }).isVisible(), true);
  await page.reload();
  assert.equal(await page.getByLabel("Live mode").isChecked(), false);
  await page.getByLabel("Live mode").check();
  await page.reload();
  assert.equal(await page.getByLabel("Live mode").isChecked(), true);
  assert.equal(await page.getByRole("button", { name: "Process in the browser" }).isVisible(), true);
  await context.close();
});

test("no console errors in live mode", () => {
  assert.deepEqual(consoleErrors, []);
});
