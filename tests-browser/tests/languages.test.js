// The page in English, Hindi, Czech and Persian: chosen from the browser's language,
// switched and remembered, right to left in Persian with inputs, outputs and codes left to
// right, and without JavaScript too. A screenshot per language, size and colour scheme.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { LANGUAGES, LOOKS, openPage, paste, shots, startAll, stopAll } from "./harness.js";

let server;
let base;
let browser;
const errors = [];
const locales = { en: "en-US", hi: "hi-IN", cs: "cs-CZ", fa: "fa-IR" };
const dirs = { en: "ltr", hi: "ltr", cs: "ltr", fa: "rtl" };

before(async () => {
  ({ server, base, browser } = await startAll(["--max-upload", "1MiB"]));
});

after(() => stopAll({ server, browser }));

/** The page's own catalog, as its script reads it. */
const catalog = (page) => page.evaluate(() => JSON.parse(document.getElementById("messages").textContent));

for (const lang of LANGUAGES) {
  test(`the page in ${lang}: chosen from the browser's language, every look`, async () => {
    let english = null;
    for (const look of Object.keys(LOOKS)) {
      const { context, page } = await openPage(browser, base, { ...LOOKS[look], locale: locales[lang] }, errors);
      assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
      assert.equal(await page.evaluate(() => document.documentElement.dir), dirs[lang]);
      const t = await catalog(page);
      if (english === null) {
        const en = await openPage(browser, base, { path: "/?lang=en" }, errors);
        english = await catalog(en.page);
        await en.context.close();
      }
      // Nothing left in English: no English sentence of the catalog shows on another page.
      if (lang !== "en") {
        // The page's own words: not the names of sets and charsets, nor code.
        const shown = await page.evaluate(() => {
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          const words = [];
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            if (!node.parentElement.closest("select, code, kbd, textarea, script, [hidden]")) words.push(node.textContent);
          }
          return words.join(" ");
        });
        for (const [id, text] of Object.entries(english)) {
          // Code samples (`name=value`) stay as they are.
          if (typeof text !== "string" || text === t[id] || text.length < 8 || /[=*]/.test(text) || /-html$|^code-|^ref-/.test(id)) continue;
          const word = new RegExp(`(^|[^\\p{L}])${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\p{L}])`, "u");
          assert.ok(!word.test(shown), `${lang}: "${text}" (${id}) is shown untranslated`);
        }
      }
      // Work in that language: decode with findings, in live mode.
      await page.getByLabel(t.input, { exact: true }).fill("%E0%A4%A8%E0%A4%AE%E0%A4%B8%E0%A5%8D%E0%A4%A4%E0%A5%87%20%D8%B3%D9%84%D8%A7%D9%85%zz");
      await page.waitForFunction(() => document.getElementById("output").value === "नमस्ते سلام%zz");
      assert.equal(await page.locator("#decode-button").getAttribute("aria-pressed"), "true");
      assert.equal(await page.locator("#direction-note").textContent(), `${t["direction-auto-decoded"]} ${t["encode-instead"]}`);
      const findings = await page.locator("#diagnostics").textContent();
      assert.ok(findings.includes(t["findings-title"]), findings);
      assert.ok(findings.includes("malformed-escape"), findings);
      assert.ok(findings.includes(lang === "en" ? "kept as it is" : t["code-malformed-escape"]), findings);
      // Inputs, outputs and codes stay left to right.
      const directions = await page.evaluate(() => ({
        body: getComputedStyle(document.body).direction,
        input: getComputedStyle(document.getElementById("input")).direction,
        output: getComputedStyle(document.getElementById("output")).direction,
        code: getComputedStyle(document.querySelector("#diagnostics code.code")).direction,
        url: getComputedStyle(document.getElementById("url")).direction,
      }));
      assert.deepEqual(directions, { body: dirs[lang], input: "ltr", output: "ltr", code: "ltr", url: "ltr" });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(width <= LOOKS[look].viewport.width, `${lang} ${look}: no horizontal scrolling (${width}px)`);
      await page.screenshot({ path: join(shots, `lang-${lang}-${look}.png`) });
      if (look === "desktop") await page.screenshot({ path: join(shots, `lang-${lang}-full.png`), fullPage: true });
      // A large input: the bar that says which part the box holds, in that language.
      await paste(page, "%D8%B3%D9%84%D8%A7%D9%85%0A".repeat(2000));
      const bar = await page.locator("#input-part-text").textContent();
      assert.ok(bar.startsWith(t["input-part"].split("{$")[0]), `${lang}: ${bar}`);
      for (const id of ["input-part-start", "input-part-earlier", "input-part-later", "input-part-end"]) {
        assert.equal(await page.locator(`#${id}`).textContent(), t[id]);
      }
      const widthLarge = await page.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(widthLarge <= LOOKS[look].viewport.width, `${lang} ${look}: no horizontal scrolling with a large input (${widthLarge}px)`);
      if (look === "desktop" || look === "phone-dark") await page.screenshot({ path: join(shots, `lang-${lang}-${look}-large-input.png`) });
      await context.close();
    }
  });

  test(`the page in ${lang} without JavaScript`, async () => {
    const { context, page } = await openPage(browser, base, { locale: locales[lang], javaScriptEnabled: false }, errors);
    const t = await catalog(page);
    await page.getByLabel(t.input, { exact: true }).fill("%41%zz");
    await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: t.decode, exact: true }).click()]);
    assert.equal(await page.locator("#output").inputValue(), "A%zz");
    assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
    assert.ok((await page.locator("#status").textContent()).includes("UTF-8"));
    assert.ok((await page.locator("#diagnostics").textContent()).includes(t["findings-title"]));
    assert.equal(await page.locator("#decode-button").getAttribute("aria-pressed"), "true");
    await page.screenshot({ path: join(shots, `no-js-${lang}.png`) });
    await context.close();
  });
}

test("the language switch is visible, carries the text over and is remembered", async () => {
  const { context, page } = await openPage(browser, base, { ...LOOKS.phone, locale: "en-GB" }, errors);
  const languages = page.getByRole("navigation", { name: "Language" });
  assert.deepEqual(await languages.getByRole("link").allTextContents(), ["English", "हिन्दी", "Čeština", "فارسی"]);
  assert.equal(await languages.getByRole("link", { name: "English" }).getAttribute("aria-current"), "true");
  await page.getByLabel("Input", { exact: true }).fill("a b");
  await page.waitForFunction(() => document.getElementById("output").value === "a%20b");
  await Promise.all([page.waitForNavigation(), languages.getByRole("link", { name: "Čeština" }).click()]);
  assert.equal(await page.evaluate(() => document.documentElement.lang), "cs");
  // What was being worked on is still there.
  await page.waitForFunction(() => document.getElementById("output").value === "a%20b");
  assert.equal(await page.getByLabel("Vstup", { exact: true }).inputValue(), "a b");
  // Remembered, whatever the browser's language says.
  await page.goto(base + "/");
  assert.equal(await page.evaluate(() => document.documentElement.lang), "cs");
  assert.equal(await page.getByRole("navigation", { name: "Jazyk" }).getByRole("link", { name: "Čeština" }).getAttribute("aria-current"), "true");
  await context.close();
});

test("no console errors in any language", () => {
  assert.deepEqual(errors, []);
});
