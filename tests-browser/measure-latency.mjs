// Measures live mode's keystroke-to-result latency in Chromium: a percent-encoded input of
// each size is put in the page, decoded, then a key is typed at its start, seven times;
// each time, the time from the key's `keydown` to the start of the frame after the first one
// that shows the new output (so the drawing of that one is included) is taken. Prints the median and the worst for each size, beside the browser's own
// cost of the same keystroke in a text box of that size with live mode off (the floor no
// page script can go under).
//
//   node measure-latency.mjs [KILOBYTES]...     (default 1 100 1024 2048; after `cargo build`)
//   URLKIT_BIN=/path/to/urlkit node measure-latency.mjs     (another build, e.g. an older one)
//
// Works with any version of the page that has #input, #output, #live and #decode-button.

import { launchBrowser, startServer } from "./tests/harness.js";

const sizes = (process.argv.length > 2 ? process.argv.slice(2) : ["1", "100", "1024", "2048"]).map(Number);
const KEYS = 7;

/** `bytes` of percent-encoded text on one line, as a pasted query string would be. */
function encoded(bytes) {
  const unit = "q=%E2%82%AC%20euro%2C%20caf%C3%A9&";
  return unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);
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
      document.addEventListener("keydown", (event) => window.keyTimes.push(event.timeStamp), { capture: true });
    },
    { text: encoded(size * 1024), live },
  );
  // Until the first answer is shown (live mode) and the page is idle.
  if (live) await page.waitForFunction(() => document.getElementById("output").value.startsWith("q=€ euro"), null, { timeout: 120000 });
  await page.waitForTimeout(500);
  const times = [];
  for (let k = 1; k <= KEYS; k++) {
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
    await page.waitForTimeout(150);
  }
  return times;
}

const { child, url } = await startServer([]);
const browser = await launchBrowser();
console.log(`keystroke to shown result in live mode, Chromium ${browser.version()}, ${KEYS} keystrokes each (ms)`);
console.log("size       median   worst   | browser alone: median   worst");
for (const size of sizes) {
  const rows = [];
  for (const live of [true, false]) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(url + "/");
    const times = await measure(page, size, live);
    rows.push(`${median(times).toFixed(0).padStart(7)} ${Math.max(...times).toFixed(0).padStart(7)}`);
    await context.close();
  }
  const label = size >= 1024 ? `${size / 1024} MB` : `${size} KB`;
  console.log(`${label.padEnd(9)} ${rows[0]}   |               ${rows[1]}`);
}
await browser.close();
child.kill();
