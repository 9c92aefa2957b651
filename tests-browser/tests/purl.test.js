// The persistent-URL resolver's page in Chromium, with JavaScript off as well as on (the
// page has no script): log in, create a partial record with a preview, follow it, edit it,
// read the history and restore, at desktop and phone sizes, in each language.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LANGUAGES, LOOKS, launchBrowser, shots, startPurl } from "./harness.js";

let resolver;
let base;
let browser;
let dir;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "urlkit-purl-page-"));
  ({ child: resolver, url: base } = await startPurl(dir));
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (resolver) resolver.kill("SIGTERM");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function logIn(page) {
  await page.goto(`${base}/-/login`);
  await page.getByLabel("User name").fill("alice");
  await page.getByLabel("Password").fill("correct horse");
  await page.getByRole("button", { name: "Log in" }).click();
  await page.waitForURL(`${base}/-/`);
}

for (const [look, javaScript] of [["desktop", true], ["phone", false]]) {
  test(`a maintainer creates, previews, follows, edits and restores a record (${look}, JavaScript ${javaScript ? "on" : "off"})`, async () => {
    const context = await browser.newContext({ ...LOOKS[look], javaScriptEnabled: javaScript });
    const page = await context.newPage();
    const name = `/net/${look}/`;
    await logIn(page);
    assert.match(await page.locator("header").textContent(), /Logged in as alice/);
    await page.getByRole("link", { name: "New record" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Type", { exact: true }).selectOption("partial");
    await page.getByLabel("Target URL", { exact: true }).fill("https://books.example/shelf/");
    await page.getByLabel("Request path to try").fill(`${name}vol%201/page?n=2`);
    await page.getByRole("button", { name: "Preview" }).click();
    assert.match(await page.locator(".preview").textContent(), /Location: https:\/\/books\.example\/shelf\/vol%201\/page\?n=2/);
    await page.screenshot({ path: join(shots, `purl-preview-${look}.png`), fullPage: true });
    await page.getByLabel("Reason for the change").fill("first shelf");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\/-\/info\/net\/.*\?saved=1$/);
    assert.match(await page.locator("main").textContent(), /Saved as version 1/);

    // The record works for anyone: a request gets the redirect.
    const answer = await fetch(`${base}${name}a/b?c=d`, { redirect: "manual" });
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get("location"), "https://books.example/shelf/a/b?c=d");

    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByLabel("Target URL", { exact: true }).fill("https://library.example/");
    await page.getByLabel("Reason for the change").fill("moved");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(/\?saved=2$/);
    const history = page.locator(".history");
    assert.match(await history.textContent(), /https:\/\/books\.example\/shelf\/\s*→\s*https:\/\/library\.example\//);
    assert.match(await history.textContent(), /moved/);
    await page.screenshot({ path: join(shots, `purl-history-${look}.png`), fullPage: true });
    await page.getByRole("button", { name: "Restore version 1" }).click();
    await page.waitForURL(/\?saved=3$/);
    const back = await fetch(`${base}${name}x`, { redirect: "manual" });
    assert.equal(back.headers.get("location"), "https://books.example/shelf/x");
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= LOOKS[look].viewport.width, `no horizontal scrolling at ${look} (${width}px)`);
    await context.close();
  });
}

test("the page is in each of the tool's languages, right to left where the language is", async () => {
  const context = await browser.newContext(LOOKS.desktop);
  const page = await context.newPage();
  for (const lang of LANGUAGES) {
    await page.goto(`${base}/-/?lang=${lang}`);
    assert.equal(await page.getAttribute("html", "lang"), lang);
    assert.equal(await page.getAttribute("html", "dir"), lang === "fa" ? "rtl" : "ltr");
    await page.screenshot({ path: join(shots, `purl-home-${lang}.png`) });
  }
  await page.goto(`${base}/-/?lang=cs`);
  assert.match(await page.locator("h1").textContent(), /Trvalé adresy URL/);
  await context.close();
});
