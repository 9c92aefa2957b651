// What the browser tests share: the server binary on a free port and Debian's Chromium.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, "..", "..");
export const shots = resolve(here, "..", "screenshots");
mkdirSync(shots, { recursive: true });

const binary = process.env.URLKIT_BIN || join(root, "target", "debug", "urlkit");
const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

/** Starts `urlkit serve` on a free port; resolves to {child, url}. */
export function startServer(args = []) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary, ["serve", "--addr", "127.0.0.1:0", ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let seen = "";
    let started = false;
    const timer = setTimeout(() => reject(new Error(`server did not start: ${seen}`)), 20000);
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const match = /serving on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match && !started) {
        started = true;
        clearTimeout(timer);
        resolvePromise({ child, url: match[1] });
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${seen}`)));
  });
}

/** Headless Chromium with nothing running in the background. */
export function launchBrowser() {
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** The server (started with `args`) and Chromium, for the tests of one file. */
export async function startAll(args = []) {
  const started = await startServer(args);
  return { server: started.child, base: started.url, browser: await launchBrowser() };
}

/** Stops what `startAll` started (either may be missing if it failed to start). */
export async function stopAll({ server, browser }) {
  if (browser) await browser.close();
  if (server) server.kill("SIGTERM");
}

/** The sizes and colour schemes every point of the page is tried at. */
export const LOOKS = {
  desktop: { viewport: { width: 1280, height: 800 }, colorScheme: "light" },
  "desktop-dark": { viewport: { width: 1280, height: 800 }, colorScheme: "dark" },
  phone: { viewport: { width: 390, height: 844 }, colorScheme: "light", isMobile: true, hasTouch: true },
  "phone-dark": { viewport: { width: 390, height: 844 }, colorScheme: "dark", isMobile: true, hasTouch: true },
};

/** The languages of the page. */
export const LANGUAGES = ["en", "hi", "cs", "fa"];

/**
 * A page of `base` in a new context (`options`: a look from LOOKS and any context option),
 * with console errors and page errors collected in `errors` unless `expected` matches them.
 */
export async function openPage(browser, base, options = {}, errors = [], expected = /$^/) {
  const { path = "/", ...contextOptions } = options;
  const context = await browser.newContext({ acceptDownloads: true, ...contextOptions });
  const page = await context.newPage();
  page.on("console", (message) => {
    if (message.type() === "error" && !expected.test(message.text())) errors.push(`${message.text()} (${page.url()})`);
  });
  page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  await page.goto(base + path);
  return { context, page };
}

/** Puts `text` in the input as a paste would (one input event), however long it is. */
export function paste(page, text) {
  return page.evaluate((value) => {
    const box = document.getElementById("input");
    box.value = value;
    box.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertFromPaste" }));
  }, text);
}

/** Waits until the page has answered the input as it is now (live mode or the server). */
export function answered(page, timeout = 60000) {
  return page.waitForFunction(() => window.__urlkitAnswers > 0, null, { timeout }).then(() => page.evaluate(() => {
    window.__urlkitAnswers = 0;
  }));
}

/** Counts the page's answers from now on (see `answered`). */
export function countAnswers(page) {
  return page.evaluate(() => {
    window.__urlkitAnswers = 0;
    document.addEventListener("urlkit:answered", () => {
      window.__urlkitAnswers += 1;
    });
  });
}

/**
 * A persistent-URL resolver on a free port over a new database in `dir`, with the user
 * alice (password "correct horse") maintaining /net/; resolves to {child, url}.
 */
export function startPurl(dir) {
  const db = `sqlite:${join(dir, "purl.db")}`;
  const run = (args, input) => {
    const done = spawnSync(binary, ["purl", "--db", db, ...args], { input, encoding: "utf8" });
    if (done.status !== 0) throw new Error(`urlkit purl ${args.join(" ")}: ${done.stderr}`);
  };
  run(["user", "add", "alice", "--password-stdin"], "correct horse\n");
  run(["domain", "add", "/net/", "--maintainer", "alice"]);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(binary, ["purl", "--db", db, "serve", "--addr", "127.0.0.1:0"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let seen = "";
    let started = false;
    const timer = setTimeout(() => reject(new Error(`resolver did not start: ${seen}`)), 20000);
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const match = /resolving on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match && !started) {
        started = true;
        clearTimeout(timer);
        resolvePromise({ child, url: match[1] });
      }
    });
    child.on("exit", (code) => reject(new Error(`resolver exited with ${code}: ${seen}`)));
  });
}
