// What the browser tests share: the server binary on a free port and Debian's Chromium.

import { spawn } from "node:child_process";
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
