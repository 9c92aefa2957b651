// Measures live mode's keystroke-to-result latency in Chromium: a percent-encoded input of
// each size is put in the page, decoded, then a key is typed at its start, seven times;
// each time, the time from the key's `keydown` to the start of the frame after the first one
// that shows the new output (so the drawing of that one is included) is taken, and the time
// to the page's `urlkit:answered` event (the whole answer, findings included, is in). Prints
// the median and the worst for each size, beside the browser's own cost of the same
// keystroke with live mode off (the text box's own work: for a large input, that of the
// part the box holds; the floor no live answer can go under).
//
//   node measure-latency.mjs [--lines] [KILOBYTES]...   (default 1 100 1024 2048; after `cargo build`)
//   URLKIT_BIN=/path/to/urlkit node measure-latency.mjs     (another build, e.g. an older one)
//
// The input is one long line (a pasted query string), or with --lines lines of 100
// characters (a pasted log of URLs). Works with any version of the page that has #input,
// #output, #live and #decode-button.

import { launchBrowser, startServer } from "./tests/harness.js";

const args = process.argv.slice(2);
const lines = args.includes("--lines");
const given = args.filter((a) => a !== "--lines");
const sizes = (given.length ? given : ["1", "100", "1024", "2048"]).map(Number);
const KEYS = 7;

/** `bytes` of percent-encoded text: one line, or lines of 100 characters with --lines. */
function encoded(bytes) {
  const unit = "q=%E2%82%AC%20euro%2C%20caf%C3%A9&";
  if (!lines) return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
  const line = unit.repeat(4).slice(0, 99) + "\n";
  return line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(page, size, live) {
  await page.evaluate(
    async ({ text, live }) => {
      const box = document.getElementById("live");
      if (box.checked !== live) box.click();
      document.getElementById("decode-button").click();
      const input = document.getElementById("input");
      input.value = text;
      input.dispatchEvent(new Event("input", { bubbles: true }));
      input.focus();
      input.setSelectionRange(0, 0);
      window.keyTimes = [];
      window.answerTimes = [];
      document.addEventListener("keydown", (event) => window.keyTimes.push(event.timeStamp), { capture: true });
      document.addEventListener("urlkit:answered", () => window.answerTimes.push(performance.now()));
    },
    { text: encoded(size * 1024), live },
  );
  // To the start of the whole input (a page that edits a large input a part at a time holds
  // its end in the box after the paste).
  await page.keyboard.press("Control+Home");
  await page.evaluate(() => {
    window.keyTimes = [];
  });
  // Until the first answer is shown (live mode) and the page is idle.
  if (live) await page.waitForFunction(() => document.getElementById("output").value.startsWith("q=€ euro"), null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const times = [];
  const answers = [];
  for (let k = 1; k <= KEYS; k++) {
    await page.evaluate(() => {
      window.answerTimes = [];
    });
    const seen = page.evaluate(
      ({ k, live }) =>
        new Promise((resolve) => {
          const want = "x".repeat(k) + "q=";
          const check = () => {
            const shown = live ? document.getElementById("output").value.startsWith(want) : document.getElementById("input").value.startsWith(want);
            // The frame after the one the change is first seen in: that one has been drawn.
            if (shown && window.keyTimes.length >= k) requestAnimationFrame(() => resolve(performance.now() - window.keyTimes[k - 1]));
            else requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }),
      { k, live },
    );
    await page.keyboard.type("x");
    times.push(await seen);
    if (live) {
      await page.waitForFunction(() => window.answerTimes.length > 0, null, { timeout: 120000 });
      answers.push(await page.evaluate((k) => window.answerTimes[0] - window.keyTimes[k - 1], k));
    }
    await page.waitForTimeout(150);
  }
  return { times, answers };
}

const { child, url } = await startServer([]);
const browser = await launchBrowser();
console.log(`keystroke to result in live mode, ${lines ? "lines of 100 characters" : "one line"}, Chromium ${browser.version()}, ${KEYS} keystrokes each (ms)`);
console.log("          output shown     | whole answer     | browser alone");
console.log("size       median   worst  |  median   worst  |  median   worst");
const pair = (values) => `${median(values).toFixed(0).padStart(7)} ${Math.max(...values).toFixed(0).padStart(7)}`;
for (const size of sizes) {
  const rows = [];
  for (const live of [true, false]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url + "/");
    const { times, answers } = await measure(page, size, live);
    rows.push(pair(times));
    if (live) rows.push(pair(answers));
    await context.close();
  }
  const label = size >= 1024 ? `${size / 1024} MB` : `${size} KB`;
  console.log(`${label.padEnd(9)} ${rows.join("  | ")}`);
}
await browser.close();
child.kill();
