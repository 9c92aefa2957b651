// Measures live mode on a large file in Chromium: a generated file (default 200 MB) is
// decoded, then encoded, in the page, in chunks, and downloaded. Prints the time, the peak
// JavaScript heap (CDP Performance.getMetrics, sampled every 100 ms), the peak resident
// memory of the renderer processes (/proc, same interval) and the result size. The output
// itself lives in Blobs, which Chromium keeps in its browser process or on disk.
//
//   node measure-live.mjs [MEGABYTES]        (after `cargo build`; not part of `npm test`)

import { createWriteStream, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchBrowser, startServer } from "./tests/harness.js";

const megabytes = Number(process.argv[2] || 200);
const size = megabytes * 1000 * 1000;

/** Writes `size` bytes of percent-encoded text (UTF-8 and Latin-1 escapes, words). */
async function generate(path) {
  const unit = Buffer.from("caf%C3%A9%20au%20lait%2C%20%E5%BC%95%E3%81%8D%0A".repeat(4096));
  const out = createWriteStream(path);
  for (let written = 0; written < size; written += unit.length) {
    const piece = unit.subarray(0, Math.min(unit.length, size - written));
    if (!out.write(piece)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/** Resident memory (bytes) of the browser's renderer processes (the tab). */
function browserResident(serverPid) {
  const parent = new Map();
  const rss = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(fields[1]));
      rss.set(Number(name), Number(fields[21]) * 4096);
    } catch {
      // The process ended meanwhile.
    }
  }
  let total = 0;
  for (const [pid, bytes] of rss) {
    let p = parent.get(pid);
    while (p && p !== process.pid && p !== serverPid) p = parent.get(p);
    if (p !== process.pid || pid === serverPid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--type=renderer")) total += bytes;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

const input = join(tmpdir(), `urlkit-live-${process.pid}.txt`);
await generate(input);
const { child, url } = await startServer();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.goto(url + "/");
  const file = input;
  for (const op of ["decode", "encode"]) {
    await page.getByLabel("Operation").selectOption(op);
    await page.getByLabel("File", { exact: true }).setInputFiles(file);
    await page.locator("#file-result").evaluate((node) => node.replaceChildren());
    await cdp.send("HeapProfiler.collectGarbage");
    let peak = 0;
    let peakResident = 0;
    const sample = async () => {
      peakResident = Math.max(peakResident, browserResident(child.pid));
      const { metrics } = await cdp.send("Performance.getMetrics");
      const used = metrics.find((m) => m.name === "JSHeapUsedSize").value;
      peak = Math.max(peak, used);
    };
    const before = browserResident(child.pid);
    await sample();
    const sampler = setInterval(() => sample().catch(() => {}), 100);
    const started = Date.now();
    await page.getByRole("button", { name: "Process in the browser" }).click();
    const link = page.getByRole("link", { name: "Download the result" });
    await link.waitFor({ timeout: 600000 });
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    await sample();
    const [download] = await Promise.all([page.waitForEvent("download"), link.click()]);
    const result = await download.path();
    const inSize = statSync(file).size;
    const outSize = statSync(result).size;
    console.log(
      `${op} ${(inSize / 1e6).toFixed(0)} MB in the browser: ${seconds.toFixed(1)} s ` +
        `(${(inSize / 1e6 / seconds).toFixed(0)} MB/s), peak JS heap ${(peak / 1048576).toFixed(1)} MiB, ` +
        `renderer resident ${(before / 1048576).toFixed(0)} MiB before, ${(peakResident / 1048576).toFixed(0)} MiB at most, ` +
        `result ${(outSize / 1e6).toFixed(0)} MB`,
    );
  }
  await context.close();
} finally {
  await browser.close();
  child.kill("SIGTERM");
  rmSync(input, { force: true });
}
