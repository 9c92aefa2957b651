// The web tool in a real browser: Debian's Chromium driven by playwright-core.
// Starts `urlkit serve` on a free port, then drives the page with and without JavaScript.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { shots, startAll, stopAll } from "./harness.js";

let server;
let base;
let browser;
const consoleErrors = [];

// A 4xx that the page asked for on purpose (strict-mode rejection) is logged by Chromium as
// a failed resource; every other console error fails the run.
const expectedStatus = /Failed to load resource: the server responded with a status of 4(13|22)/;

async function newPage(options = {}) {
  const context = await browser.newContext({ acceptDownloads: true, ...options });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" && !expectedStatus.test(message.text())) {
      consoleErrors.push(`${message.text()} (${page.url()})`);
    }
  });
  page.on("pageerror", (error) => consoleErrors.push(`page error: ${error.message}`));
  await page.goto(base + "/");
  return { context, page };
}

/** The output as the Download button saves it (byte for byte, CRLF kept). */
async function downloaded(page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download" }).click(),
  ]);
  return readFileSync(await download.path(), "utf8");
}

before(async () => {
  ({ server, base, browser } = await startAll(["--max-upload", "1MiB", "--ttl", "5m"]));
});

after(() => stopAll({ server, browser }));

test("encodes and decodes through the page", async () => {
  const { context, page } = await newPage();
  const input = page.getByLabel("Input", { exact: true });
  const output = page.getByLabel("Output", { exact: true });
  await input.fill("a b&c/ç");
  await page.getByRole("button", { name: "Encode", exact: true }).click();
  await assert.doesNotReject(output.page().waitForFunction(() => document.getElementById("output").value === "a%20b%26c%2F%C3%A7"));
  await input.fill("%E5%BC%95%E3%81%8D");
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.waitForFunction(() => document.getElementById("output").value === "引き");
  assert.match(await page.locator("#status").textContent(), /UTF-8/);
  await page.screenshot({ path: join(shots, "decode.png"), fullPage: false });
  await context.close();
});

test("answers as you type in live mode", async () => {
  const { context, page } = await newPage();
  assert.equal(await page.getByLabel("Live mode").isChecked(), true);
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.getByLabel("Input", { exact: true }).pressSequentially("%41%42%zz", { delay: 20 });
  await page.waitForFunction(() => document.getElementById("output").value === "AB%zz");
  const findings = await page.locator("#diagnostics").textContent();
  assert.match(findings, /byte 6/);
  assert.match(findings, /malformed-escape/);
  await context.close();
});

test("every option reaches the codec", async () => {
  const { context, page } = await newPage();
  const input = page.getByLabel("Input", { exact: true });
  const value = () => page.locator("#output").inputValue();
  const settle = async (expected) => {
    const shown = expected.replace(/\r\n/g, "\n");
    await page.waitForFunction((want) => document.getElementById("output").value === want, shown);
    if (expected === shown) return;
    // Same text on screen either way: wait until the saved bytes carry the new separator.
    let saved = "";
    for (let tries = 0; tries < 20 && saved !== expected; tries++) {
      saved = await downloaded(page);
      if (saved !== expected) await page.waitForTimeout(100);
    }
    assert.equal(saved, expected);
  };

  await page.locator("#codec-form").getByLabel("Character set").selectOption("Shift_JIS");
  await input.fill("ラーメン");
  await page.getByRole("button", { name: "Encode", exact: true }).click();
  await settle("%83%89%81%5B%83%81%83%93");

  await page.locator("#codec-form").getByLabel("Character set").selectOption("auto");
  await input.fill("%83%89%81%5B%83%81%83%93");
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await settle("ラーメン");
  assert.match(await page.locator("#status").textContent(), /Detected Shift_JIS/);

  await page.locator("#codec-form").getByLabel("Character set").selectOption("UTF-8");
  await page.locator("#codec-form").getByLabel("Encode set").selectOption("component");
  await page.getByLabel("Encode each line separately").check();
  await input.fill("it's (ok)\na b");
  await page.getByRole("button", { name: "Encode", exact: true }).click();
  await settle("it's%20(ok)\na%20b\n");

  await page.getByLabel("Line separator").selectOption("crlf");
  await settle("it's%20(ok)\r\na%20b\r\n");
  await page.getByLabel("Space as +").check();
  await settle("it's+(ok)\r\na+b\r\n");

  await page.getByLabel("+ as space", { exact: true }).check();
  await page.getByLabel("Decode each line separately").check();
  await input.fill("a+b\nc%20d");
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await settle("a b\r\nc d\r\n");

  await page.getByLabel("Decode each line separately").uncheck();
  await page.getByLabel("Decode until stable").check();
  await input.fill("%2520");
  await settle(" ");
  assert.match(await page.locator("#status").textContent(), /1 layer/);

  await page.getByLabel("Decode until stable").uncheck();
  await page.locator("#codec-form").getByLabel("Strict mode").check();
  await input.fill("ok%zz");
  await page.waitForFunction(() => /malformed-escape/.test(document.getElementById("diagnostics").textContent));
  assert.equal(await value(), "");
  assert.match(await page.locator("#diagnostics").textContent(), /byte 2/);
  await page.screenshot({ path: join(shots, "strict.png"), fullPage: true });
  await context.close();
});

test("copy and download the output", async () => {
  const { context, page } = await newPage();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  await page.getByLabel("Input", { exact: true }).fill("x y");
  await page.getByRole("button", { name: "Encode", exact: true }).click();
  await page.waitForFunction(() => document.getElementById("output").value === "x%20y");
  await page.getByRole("button", { name: "Copy" }).click();
  await page.waitForFunction(() => document.getElementById("copy-status").textContent !== "");
  assert.equal(await downloaded(page), "x%20y");
  await context.close();
});

test("a file is processed and its result downloads once", async () => {
  const { context, page } = await newPage();
  await page.getByLabel("Live mode").uncheck();
  await page.getByLabel("Operation").selectOption("decode");
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name: "query.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("caf%C3%A9%20au%20lait"),
  });
  await page.getByRole("button", { name: "Upload and process" }).click();
  const link = page.getByRole("link", { name: "Download the result" });
  await link.waitFor();
  const href = await link.getAttribute("href");
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  assert.equal(readFileSync(await download.path(), "utf8"), "café au lait");
  await page.screenshot({ path: join(shots, "file.png"), fullPage: false });
  const again = await page.request.get(base + href);
  assert.equal(again.status(), 404);
  assert.equal((await again.json()).error.code, "not-found");
  await context.close();
});

test("an oversized file gets a clear error", async () => {
  const { context, page } = await newPage();
  await page.getByLabel("Live mode").uncheck();
  await page.getByLabel("File", { exact: true }).setInputFiles({
    name: "big.bin",
    mimeType: "application/octet-stream",
    buffer: Buffer.alloc(1024 * 1024 + 10, 0x61),
  });
  await page.getByRole("button", { name: "Upload and process" }).click();
  await page.locator("#file-result .error").waitFor();
  assert.match(await page.locator("#file-result").textContent(), /too-large/);
  await context.close();
});

test("inspects a URL", async () => {
  const { context, page } = await newPage();
  await page.getByLabel("URL", { exact: true }).fill("http://例子.卷筒纸/a?x=1&x=2#top");
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.locator("#inspect-result table").first().waitFor();
  const text = await page.locator("#inspect-result").textContent();
  assert.match(text, /xn--fsqu00a\.xn--3lr804guic/);
  await page.getByLabel("Base URL (optional)").fill("http://a/b/c/d;p?q");
  await page.getByLabel("URL", { exact: true }).fill("../g");
  await page.getByRole("button", { name: "Inspect" }).click();
  await page.waitForFunction(() => /http:\/\/a\/b\/g/.test(document.getElementById("inspect-result").textContent));
  await page.locator("#inspect").screenshot({ path: join(shots, "inspect.png") });
  await context.close();
});

test("the keyboard alone is enough", async () => {
  const { context, page } = await newPage();
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
  const output = () => page.locator("#output").inputValue();
  await page.getByLabel("Input", { exact: true }).focus();
  await page.keyboard.type("a&b");
  await page.keyboard.press("Control+Shift+E");
  await page.waitForFunction(() => document.getElementById("output").value === "a%26b");
  assert.equal(await page.locator("#encode-button").getAttribute("aria-pressed"), "true");
  // Swap comes right after the input: output to input, the direction reversed.
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "swap");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("input").value === "a%26b" && document.getElementById("output").value === "a&b");
  assert.equal(await page.locator("#decode-button").getAttribute("aria-pressed"), "true");
  // The direction switch is just before the input.
  await page.getByLabel("Input", { exact: true }).focus();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  assert.equal(await page.evaluate(() => document.activeElement.id), "encode-button");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.getElementById("output").value === "a%2526b");
  await page.keyboard.press("Control+Shift+X");
  await page.waitForFunction(() => document.getElementById("output").value === "a%26b");
  await page.keyboard.press("Control+Shift+D");
  await page.keyboard.press("Control+Shift+C");
  await page.waitForFunction(() => document.getElementById("copy-status").textContent !== "");
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), await output());
  await context.close();
});

test("reads on a phone in dark mode", async () => {
  const { context, page } = await newPage({ viewport: { width: 390, height: 844 }, colorScheme: "dark", isMobile: true });
  await page.getByLabel("Input", { exact: true }).fill("%F0%9F%98%80 ok");
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.waitForFunction(() => document.getElementById("output").value === "😀ok");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no horizontal scrolling (${width}px)`);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.equal(background, "rgb(21, 23, 26)");
  await page.screenshot({ path: join(shots, "phone-dark.png"), fullPage: false });
  await page.locator("#reference").screenshot({ path: join(shots, "reference-dark.png") });
  await context.close();
});

test("works with JavaScript disabled", async () => {
  const { context, page } = await newPage({ javaScriptEnabled: false });
  assert.equal(await page.getByLabel("Live mode").isVisible(), false);
  assert.equal(await page.getByRole("button", { name: "Copy" }).isVisible(), false);
  await page.getByLabel("Input", { exact: true }).fill("%E5%BC%95%zz");
  await page.locator("#codec-form").getByLabel("Character set").selectOption("auto");
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Decode", exact: true }).click()]);
  assert.equal(await page.locator("#output").inputValue(), "引%zz");
  assert.match(await page.locator("#diagnostics").textContent(), /byte 9/);
  assert.match(await page.locator("#status").textContent(), /Detected UTF-8/);
  assert.equal(await page.locator("#codec-form").getByLabel("Character set").inputValue(), "auto");
  await page.screenshot({ path: join(shots, "no-js.png"), fullPage: false });

  await page.getByLabel("Input", { exact: true }).fill("a b");
  await page.getByLabel("Encode each line separately").check();
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Encode", exact: true }).click()]);
  assert.equal(await page.locator("#output").inputValue(), "a%20b\n");

  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "x.txt", mimeType: "text/plain", buffer: Buffer.from("1 + 1") });
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Upload and process" }).click()]);
  const href = await page.getByRole("link", { name: "Download the result" }).getAttribute("href");
  const first = await page.request.get(base + href);
  assert.equal(await first.text(), "1%20%2B%201");
  assert.equal((await page.request.get(base + href)).status(), 404);
  await context.close();
});

test("no console errors", () => {
  assert.deepEqual(consoleErrors, []);
});
