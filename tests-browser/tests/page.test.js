// The page people prefer: the direction always shown and switchable, entries glued by a
// removed line break caught, findings summarised, big inputs without lag, messages that
// say what to do, files that keep their names. Each point at desktop and phone sizes, in
// light and dark.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LOOKS, openPage, paste, shots, startAll, stopAll } from "./harness.js";

let server;
let base;
let browser;
const errors = [];
// Asked for on purpose: strict rejections, limits.
const expected = /Failed to load resource: the server responded with a status of 4(13|22)/;

const open = (look, options = {}) => openPage(browser, base, { ...LOOKS[look], ...options }, errors, expected);
const output = (page) => page.locator("#output").inputValue();
const waitOutput = (page, value) => page.waitForFunction((want) => document.getElementById("output").value === want, value);
const pressed = (page, id) => page.locator(`#${id}`).getAttribute("aria-pressed");
const noSideScroll = async (page, look) => {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= LOOKS[look].viewport.width, `no horizontal scrolling at ${look} (${width}px)`);
};

before(async () => {
  ({ server, base, browser } = await startAll(["--max-upload", "1MiB", "--ttl", "5m"]));
});

after(() => stopAll({ server, browser }));

for (const look of ["desktop", "phone-dark"]) {
  test(`percent-encoded input is decoded until a direction is chosen, and the page says so (${look})`, async () => {
    const { context, page } = await open(look);
    assert.equal(await pressed(page, "encode-button"), "false");
    assert.equal(await pressed(page, "decode-button"), "false");
    await page.getByLabel("Input", { exact: true }).fill("%E5%BC%95%E3%81%8D");
    await waitOutput(page, "引き");
    assert.equal(await pressed(page, "decode-button"), "true");
    assert.match(await page.locator("#direction-note").textContent(), /looks percent-encoded, so it was decoded/);
    await page.getByRole("button", { name: "Encode it instead" }).click();
    await waitOutput(page, "%25E5%25BC%2595%25E3%2581%258D");
    assert.equal(await pressed(page, "encode-button"), "true");
    assert.match(await page.locator("#direction-note").textContent(), /Encoding: text → percent-encoded/);
    // Chosen, the direction stays, whatever is typed.
    await page.getByLabel("Input", { exact: true }).fill("%41");
    await waitOutput(page, "%2541");
    await page.getByLabel("Input", { exact: true }).fill("a b");
    await waitOutput(page, "a%20b");
    assert.equal(await pressed(page, "encode-button"), "true");
    await noSideScroll(page, look);
    await page.screenshot({ path: join(shots, `direction-${look}.png`) });
    await context.close();
  });

  test(`swap puts the output in the input and reverses the direction (${look})`, async () => {
    const { context, page } = await open(look);
    await page.getByRole("button", { name: "Encode", exact: true }).click();
    await page.getByLabel("Input", { exact: true }).fill("café & crème\nnext");
    await waitOutput(page, "caf%C3%A9%20%26%20cr%C3%A8me%0Anext");
    await page.getByRole("button", { name: "Swap" }).click();
    // The output moves over and is decoded back.
    await page.waitForFunction(() => document.getElementById("input").value === "caf%C3%A9%20%26%20cr%C3%A8me%0Anext");
    await page.waitForFunction(() => document.getElementById("output").value.startsWith("café & crème"));
    assert.equal(await pressed(page, "decode-button"), "true");
    await context.close();
  });
}

test("entries joined by a removed line break: a finding with a one-click switch to per-line decoding", async () => {
  for (const look of ["desktop", "phone"]) {
    const { context, page } = await open(look);
    const two = "https://ru.wikipedia.org/wiki/%D0%98%D1%81%D1%82%D0%BE%D1%80%D0%B8%D1%8F\nhttps://ja.wikipedia.org/wiki/%E6%AD%B4%E5%8F%B2";
    await page.getByLabel("Input", { exact: true }).fill(two);
    await waitOutput(page, "https://ru.wikipedia.org/wiki/Историяhttps://ja.wikipedia.org/wiki/歴史");
    const findings = page.locator("#diagnostics");
    assert.match(await findings.textContent(), /entries-joined/);
    assert.match(await findings.textContent(), /several URLs joined together/);
    await page.screenshot({ path: join(shots, `entries-joined-${look}.png`) });
    await page.getByRole("button", { name: "Decode each line separately" }).first().click();
    await waitOutput(page, "https://ru.wikipedia.org/wiki/История\nhttps://ja.wikipedia.org/wiki/歴史\n");
    assert.equal(await page.locator("#decode_per_line").isChecked(), true);
    assert.doesNotMatch(await findings.textContent(), /entries-joined/);
    await context.close();
  }
  // Without JavaScript the same button posts the form.
  const { context, page } = await open("desktop", { javaScriptEnabled: false });
  await page.getByLabel("Input", { exact: true }).fill("a%20b\r\nhttp://x/%41");
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Decode", exact: true }).click()]);
  assert.equal(await output(page), "a bhttp://x/A");
  await Promise.all([page.waitForNavigation(), page.getByRole("button", { name: "Decode each line separately" }).first().click()]);
  assert.equal(await output(page), "a b\nhttp://x/A\n");
  await context.close();
});

/** 5 MB of lines, each with a malformed escape: more findings than any list keeps. */
function manyFindings() {
  const lines = [];
  let size = 0;
  for (let i = 0; size < 5_000_000; i++) {
    const line = `k${i}=%E2%82%AC%zz`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

for (const look of ["desktop", "phone"]) {
  test(`a 5 MB per-line decode is summarised: counts by code, the first 50 at their line and column, the rest on request (${look})`, async () => {
    const input = manyFindings();
    const lineCount = input.split("\n").length;
    const heights = {};
    let empty = 0;
    // Live mode at both sizes; the server and "show all" once, at desktop size.
    for (const live of look === "desktop" ? [true, false] : [true]) {
      const { context, page } = await open(look);
      empty = await page.evaluate(() => document.documentElement.scrollHeight);
      if (!live) await page.getByLabel("Live mode").uncheck();
      await page.getByLabel("Decode each line separately").check();
      await page.getByRole("button", { name: "Decode", exact: true }).click();
      await paste(page, input);
      if (!live) await page.getByRole("button", { name: "Decode", exact: true }).click();
      await page.waitForFunction(() => /malformed-escape/.test(document.querySelector("#diagnostics .counts")?.textContent || ""), null, { timeout: 120000 });
      const findings = page.locator("#diagnostics");
      assert.match(await findings.locator(".total").textContent(), new RegExp(`^${lineCount} findings$`));
      assert.match(await findings.locator(".counts").textContent(), new RegExp(`malformed-escape\\s*${lineCount}`));
      const items = findings.locator("ul.findings > li");
      assert.equal(await items.count(), 50);
      assert.match(await items.nth(2).textContent(), /line 3, column 13/);
      assert.match(await findings.textContent(), /more were counted but not listed/);
      heights[live ? "live" : "server"] = await page.evaluate(() => document.documentElement.scrollHeight);
      if (look === "desktop" && live) {
        await findings.getByRole("button", { name: `Show all ${lineCount}` }).click();
        await page.waitForFunction(() => document.querySelectorAll("#diagnostics ul.findings > li").length === 10000, null, { timeout: 60000 });
        const shown = await page.evaluate(() => document.documentElement.scrollHeight);
        assert.ok(shown < heights.live + 800, `the whole list scrolls in its box (${shown}px)`);
      }
      await noSideScroll(page, look);
      if (live) await page.screenshot({ path: join(shots, `findings-5mb-${look}.png`) });
      await context.close();
    }
    // Reported (the issue measured 343,323 px on a desktop and 826,363 px on a phone).
    const server = heights.server ? `, server ${heights.server} px` : "";
    console.log(`# page height after a 5 MB per-line decode, ${look}: live mode ${heights.live} px${server} (the page without findings: ${empty} px)`);
    for (const height of Object.values(heights)) assert.ok(height - empty < 1500, `${height}px against ${empty}px without findings`);
  });
}

for (const look of ["desktop", "phone-dark"]) {
  test(`a large input is edited a part at a time, and every edit, copy and finding takes the whole (${look})`, async () => {
    const { context, page } = await open(look);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    await page.getByRole("button", { name: "Decode", exact: true }).click();
    const line = "%E2%82%AC%20euro%0A";
    const count = 56000; // 1.0 MiB
    const big = line.repeat(count);
    const box = page.getByLabel("Input", { exact: true });
    const shown = () => page.evaluate(() => document.getElementById("input").value.length);
    await page.evaluate(() => {
      document.addEventListener("urlkit:answered", (event) => {
        window.lastAnswer = event.detail;
      });
    });
    await paste(page, big);
    await page.waitForFunction((length) => window.lastAnswer && window.lastAnswer.bytes === length, big.length, { timeout: 60000 });
    // The box holds a part (the end, where the caret was), and the bar says which.
    assert.ok((await shown()) <= 40000, `the box holds ${await shown()} characters`);
    const bar = page.locator("#input-part");
    assert.equal(await bar.isVisible(), true);
    const barText = async () => page.locator("#input-part-text").textContent();
    assert.match(await barText(), /^Large input \(1\.0 MiB\): the box holds characters [\d,]+–1,064,000 of 1,064,000; the rest is kept and used\. Ctrl\+A selects all of it\.$/);
    assert.equal(await page.getByRole("button", { name: "Later" }).isDisabled(), true);
    // Typed at the start of the whole input and at its end: the answer is the whole's.
    await box.press("Control+Home");
    assert.match(await barText(), /characters 1–/);
    await page.keyboard.type("%21");
    await waitOutput(page, "!" + "€ euro\n".repeat(count).slice(0, (await output(page)).length - 1));
    await box.press("Control+End");
    await page.keyboard.type("%3F");
    await page.waitForFunction((length) => window.lastAnswer && window.lastAnswer.bytes === length, big.length + 6, { timeout: 60000 });
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download" }).click()]);
    assert.equal(readFileSync(await download.path(), "utf8"), "!" + "€ euro\n".repeat(count) + "?");
    // The buttons and scrolling move the part; the input stays what it was.
    await page.getByRole("button", { name: "Start", exact: true }).click();
    assert.match(await barText(), /characters 1–/);
    await page.getByRole("button", { name: "Later" }).click();
    assert.doesNotMatch(await barText(), /characters 1–/);
    await page.getByRole("button", { name: "Start", exact: true }).click();
    // Scrolled to the end of the part (once the page has drawn it, as a reader would).
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await page.evaluate(() => {
      const input = document.getElementById("input");
      input.scrollTop = input.scrollHeight;
    });
    await page.waitForFunction(() => !/characters 1–/.test(document.getElementById("input-part-text").textContent));
    // What is in view after the move is text of the whole input at the place the bar names.
    const part = await page.evaluate(() => [document.getElementById("input-part-text").textContent, document.getElementById("input").value]);
    const from = Number(/characters ([\d,]+)–/.exec(part[0])[1].replaceAll(",", "")) - 1;
    assert.equal(part[1], ("%21" + big + "%3F").slice(from, from + part[1].length));
    // Ctrl+A selects all of it: copied whole, and typing replaces the whole input.
    await box.press("Control+A");
    await box.press("Control+C");
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), "%21" + big + "%3F");
    await page.keyboard.type("%41");
    await waitOutput(page, "A");
    assert.equal(await page.locator("#input").inputValue(), "%41");
    assert.equal(await bar.isHidden(), true);
    // A finding far into a large input: "show in input" brings its part and selects it.
    await paste(page, line.repeat(count / 2) + "%zz" + line.repeat(count / 2));
    await page.getByRole("button", { name: /byte 532,?000/ }).first().click();
    assert.match(await barText(), /characters 5\d\d,\d\d\d–5\d\d,\d\d\d of 1,064,003/);
    assert.equal(await page.evaluate(() => {
      const input = document.getElementById("input");
      return input.value.slice(input.selectionStart, input.selectionEnd);
    }), "%zz");
    await noSideScroll(page, look);
    await page.screenshot({ path: join(shots, `large-input-${look}.png`) });
    await context.close();
  });
}

test("a large input in live mode is answered in a worker, a piece at a time, and a newer input wins", async () => {
  const { context, page } = await open("desktop");
  const big = "%E2%82%AC%20euro%0A".repeat(Math.ceil((3 * 1024 * 1024) / 19));
  // Every message the live worker sends, with what the output box held when it came (the
  // listener is the worker's first, so it runs before the page's own).
  await page.addInitScript(() => {
    const NativeWorker = window.Worker;
    window.workerMessages = [];
    window.Worker = class extends NativeWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener("message", (event) => {
          const m = event.data;
          if (m && (m.type === "progress" || m.type === "result")) {
            window.workerMessages.push({ type: m.type, done: m.done, total: m.total, shown: document.getElementById("output").value.length });
          }
        });
      }
    };
  });
  await page.reload();
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.evaluate(() => {
    window.lastAnswer = null;
    document.addEventListener("urlkit:answered", (event) => {
      window.lastAnswer = event.detail;
    });
  });
  // The text box's own layout of 3 MB is the browser's: done before live mode starts.
  await page.getByLabel("Live mode").uncheck();
  await paste(page, big);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.getByLabel("Live mode").check();
  // The worker answers a piece at a time, and the start of the output is on show before
  // its first piece arrives.
  await page.waitForFunction(() => window.workerMessages.some((m) => m.type === "progress"), null, { timeout: 30000 });
  const first = await page.evaluate(() => window.workerMessages.find((m) => m.type === "progress"));
  assert.ok(first.done < first.total, `the first piece is a part: ${JSON.stringify(first)}`);
  assert.ok(first.shown > 0, "the start of the output shows before the worker's first piece");
  // Typing meanwhile: the answer is for the newest input.
  await page.getByLabel("Input", { exact: true }).press("End");
  await page.keyboard.type("%21");
  await page.waitForFunction((length) => window.lastAnswer && window.lastAnswer.bytes === length, big.length + 3, { timeout: 60000 });
  assert.equal(await page.locator("#progress").isHidden(), true);
  assert.ok(page.workers().length >= 1, "a worker did the work");
  // The box shows the start, and says so; Download gives all of it.
  assert.match(await page.locator("#output-note").textContent(), /Showing the start of the output \(8\.8 KiB of 1\.4 MiB\)/);
  const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download" }).click()]);
  const all = readFileSync(await download.path(), "utf8");
  assert.equal(all, "€ euro\n".repeat(big.length / 19) + "!");
  await context.close();
});

test("live mode draws a short input's answer with the keystroke, and the start of a long one's at once", async () => {
  const { context, page } = await open("desktop");
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.evaluate(async () => {
    const app = await import(document.querySelector('script[type="module"]').src);
    await app.loadLive();
    // The inputs handed to the worker.
    window.sentToWorker = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
      if (message && message.type === "run") window.sentToWorker.push(message.input);
      return post.call(this, message, ...rest);
    };
  });
  // Short: answered in this thread, so with the keystroke's own frame.
  await page.getByLabel("Input", { exact: true }).fill("caf%C3%A9%20%E2%82%AC");
  await waitOutput(page, "café €");
  const sent = () => page.evaluate(() => window.sentToWorker.filter((input) => input.length > 0).map((input) => input.slice(0, 20)));
  assert.deepEqual(await sent(), [], "a short input is not sent to the worker");
  // Long (200 KB): the start of the answer is in the output box before the input event's
  // task ends; the worker then gives the whole answer, which begins the same way.
  const long = "%E2%82%AC%20euro%0A".repeat(11000);
  const shownAtOnce = await page.evaluate((value) => {
    const box = document.getElementById("input");
    box.value = value;
    box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertFromPaste" }));
    return document.getElementById("output").value;
  }, long);
  assert.ok(shownAtOnce.length > 1000 && "€ euro\n".repeat(11000).startsWith(shownAtOnce), `the start at once: ${shownAtOnce.slice(0, 40)}…`);
  await page.waitForFunction(() => !document.getElementById("output-note").hidden);
  assert.deepEqual(await sent(), [long.slice(0, 20)], "the whole long input goes to the worker");
  assert.match(await page.locator("#output-note").textContent(), /Showing the start of the output \(8\.8 KiB of 96\.7 KiB\)/);
  // Strict mode waits for the whole answer: a rejection further on must not show a start.
  await page.locator("#strict").check();
  await page.getByLabel("Input", { exact: true }).fill("");
  await waitOutput(page, "");
  const strictStart = await page.evaluate((value) => {
    const box = document.getElementById("input");
    box.value = value;
    box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertFromPaste" }));
    return document.getElementById("output").value;
  }, long + "%zz");
  assert.equal(strictStart, "", "no start shown in strict mode");
  await page.waitForFunction(() => document.getElementById("diagnostics").textContent.includes("rejected"));
  assert.equal(await output(page), "");
  await context.close();
});

test("messages say what happened and what to do", async () => {
  const { context, page } = await open("desktop");
  // Strict mode: rejected, where, and how to go on; never "kept as it is".
  await page.locator("#codec-form").getByLabel("Strict mode").check();
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.getByLabel("Input", { exact: true }).fill("ok\nab%zz");
  await page.waitForFunction(() => /Strict mode rejected/.test(document.getElementById("diagnostics").textContent));
  const said = await page.locator("#diagnostics").textContent();
  assert.match(said, /rejected the input at line 2, column 3 \(byte 5\): a % not followed by two hex digits \(malformed-escape\)/);
  assert.match(said, /turn off Strict mode/);
  assert.doesNotMatch(said, /kept as it is/);
  await page.getByRole("button", { name: "Show this position in the input" }).click();
  assert.deepEqual(await page.evaluate(() => [document.getElementById("input").selectionStart, document.activeElement.id]), [5, "input"]);
  await page.screenshot({ path: join(shots, "strict-message.png") });
  // Over the server's limit for text: the limit, Files and live mode named, whatever the
  // server said (a 413 is answered before the body is read, in any wording).
  await page.locator("#codec-form").getByLabel("Strict mode").uncheck();
  await page.getByLabel("Live mode").uncheck();
  await page.route("**/api/decode", (route) => route.fulfill({ status: 413, contentType: "application/json", body: JSON.stringify({ error: { code: "too-large", message: "Failed to buffer the request body" } }) }));
  await page.getByRole("button", { name: "Decode", exact: true }).click();
  await page.waitForFunction(() => /larger than the server takes/.test(document.getElementById("diagnostics").textContent));
  await page.unroute("**/api/decode");
  const limit = await page.locator("#diagnostics").textContent();
  assert.match(limit, /\(16 MiB\)/);
  assert.match(limit, /Files/);
  assert.match(limit, /Live mode/);
  assert.doesNotMatch(limit, /^too-large/);
  // A file over the upload limit.
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "big.bin", mimeType: "application/octet-stream", buffer: Buffer.alloc(1024 * 1024 + 10, 0x61) });
  await page.getByRole("button", { name: "Upload and process" }).click();
  await page.waitForFunction(() => /upload limit/.test(document.getElementById("file-result").textContent));
  const file = await page.locator("#file-result").textContent();
  assert.match(file, /\(1 MiB\)/);
  assert.match(file, /Turn on Live mode/);
  await context.close();
});

/** Uploads (live mode off) or processes (on) a file through the page; gives the download. */
async function throughFiles(page, live, file, choices) {
  const box = page.getByLabel("Live mode");
  if (live) await box.check();
  else await box.uncheck();
  const form = page.locator("#file-form");
  await form.getByLabel("Operation").selectOption(choices.op);
  await form.getByLabel("Character set").selectOption(choices.charset ?? "");
  await form.getByLabel("Each line separately").setChecked(Boolean(choices.perLine));
  if (choices.set) await form.getByLabel("Encode set").selectOption(choices.set);
  await page.getByLabel("File", { exact: true }).setInputFiles(file);
  await page.locator("#file-result").evaluate((node) => node.replaceChildren());
  await page.locator("#upload").click();
  const link = page.getByRole("link", { name: "Download the result" });
  await link.waitFor();
  const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

for (const look of ["desktop-dark", "phone"]) {
  test(`files keep their name with a suffix and take a charset and an encode set, live or on the server (${look})`, async () => {
    const { context, page } = await open(look);
    const cyrillic = { name: "report.csv", mimeType: "text/csv", buffer: Buffer.from("id,%C0%E2%EE%F1\n1,%EF%F0%E8") };
    const unicode = { name: "заметки (1).txt", mimeType: "text/plain", buffer: Buffer.from("it's a test") };
    for (const live of [false, true]) {
      const decoded = await throughFiles(page, live, cyrillic, { op: "decode", charset: "windows-1251", perLine: true });
      assert.equal(decoded.name, "report.decoded.csv", `live ${live}`);
      assert.equal(decoded.bytes.toString("utf8"), "id,Авос\n1,при\n");
      const bytes = await throughFiles(page, live, cyrillic, { op: "decode" });
      assert.deepEqual([...bytes.bytes.subarray(3, 7)], [0xc0, 0xe2, 0xee, 0xf1], "without a charset, bytes as they are");
      const encoded = await throughFiles(page, live, unicode, { op: "encode", set: "component" });
      assert.equal(encoded.name, "заметки (1).encoded.txt", `live ${live}`);
      assert.equal(encoded.bytes.toString("utf8"), "it's%20a%20test");
    }
    await page.screenshot({ path: join(shots, `files-${look}.png`) });
    await context.close();
  });
}

test("a download's name is made safe for Content-Disposition", async () => {
  const { context, page } = await open("desktop");
  const form = {
    op: "decode",
    // A browser sends `"` as %22; the path and the quotes go, and so would control characters.
    file: { name: 'a/b\\..\\"evil"name.tar.gz', mimeType: "application/octet-stream", buffer: Buffer.from("x%20y") },
  };
  const created = await page.request.post(base + "/api/files", { multipart: form });
  assert.equal(created.status(), 201);
  const body = await created.json();
  assert.equal(body.name, "evilname.tar.decoded.gz");
  const got = await page.request.get(base + body.download);
  assert.equal(got.headers()["content-disposition"], "attachment; filename=\"evilname.tar.decoded.gz\"; filename*=UTF-8''evilname.tar.decoded.gz");
  assert.equal(await got.text(), "x y");
  const unicode = await page.request.post(base + "/api/files", { multipart: { ...form, file: { ...form.file, name: "отчёт.txt" } } });
  const named = await page.request.get(base + (await unicode.json()).download);
  assert.equal(named.headers()["content-disposition"], "attachment; filename=\"_____.decoded.txt\"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82.decoded.txt");
  await context.close();
});

test("no console errors on the page", () => {
  assert.deepEqual(errors, []);
});
