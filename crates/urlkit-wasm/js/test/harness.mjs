// Finds and loads what the tests compare: the built WebAssembly module and the native
// `urlkit` binary. Both are built by `cargo build --workspace` (scripts/test.sh does it);
// URLKIT_WASM and URLKIT_BIN override where they are looked for. The module's place follows
// the rule of crates/urlkit-wasm-assets/build.rs: `<target>/wasm/…`, where <target> is
// CARGO_TARGET_DIR (relative to the repository root) or `target`.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";
import * as urlkit from "../urlkit.mjs";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(root, process.env.CARGO_TARGET_DIR) : path.join(root, "target");

export const wasmPath =
  process.env.URLKIT_WASM || path.join(targetDir, "wasm/wasm32-unknown-unknown/wasm/urlkit_wasm.wasm");
export const binaryPath = process.env.URLKIT_BIN || path.join(targetDir, "debug/urlkit");

for (const [what, file] of [["WebAssembly module", wasmPath], ["urlkit binary", binaryPath]]) {
  if (!existsSync(file)) {
    throw new Error(`${what} not found at ${file}: run \`cargo build --workspace\` first (scripts/test.sh does)`);
  }
}

await urlkit.load(readFileSync(wasmPath));
export { urlkit };

const FLAGS = {
  charset: "--charset",
  set: "--set",
  safe: "--safe",
  unsafe: "--unsafe",
  newline: "--newline",
  space_plus: "--space-plus",
  lowercase: "--lowercase",
  per_line: "--per-line",
  strict: "--strict",
  plus_space: "--plus-space",
  keep_whitespace: "--keep-whitespace",
  until_stable: "--until-stable",
};

function flags(options) {
  const args = [];
  for (const [key, value] of Object.entries(options)) {
    const flag = FLAGS[key];
    if (!flag) throw new Error(`no flag for option ${key}`);
    if (value === true) args.push(flag);
    else if (value !== false) args.push(`${flag}=${value}`);
  }
  return args;
}

/** Runs the native binary on one case and gives the result in the JSON shape of the API:
 * the response object, `{error: {...}}` for a rejection (exit 1), or `{usage: message}`
 * for options it refuses (exit 2). */
export function native(op, input, options = {}) {
  const args = [op, "--json", ...flags(options), "--", input];
  const run = spawnSync(binaryPath, args, { encoding: "utf8" });
  if (run.status === 0) {
    const lines = run.stdout.split("\n").filter((l) => l !== "");
    if (lines.length !== 1) throw new Error(`expected one JSON line, got ${JSON.stringify(run.stdout)}`);
    return JSON.parse(lines[0]);
  }
  if (run.status === 1) {
    const m = /^urlkit: error: byte (\d+): (.*) \(([a-z-]+)\)\n$/s.exec(run.stderr);
    if (!m) throw new Error(`unexpected rejection message ${JSON.stringify(run.stderr)}`);
    return { error: { code: m[3], message: m[2], offset: Number(m[1]) } };
  }
  if (run.status === 2) return { usage: run.stderr.trim() };
  throw new Error(`urlkit ${args.join(" ")} failed: ${run.status} ${run.stderr}`);
}

/** Runs the native binary once on many inputs (one entry each) with the same options and
 * gives one response object per input. Options must not be strict. */
export function nativeMany(op, inputs, options = {}) {
  const run = spawnSync(binaryPath, [op, "--json", ...flags(options), "--", ...inputs], {
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`urlkit ${op} failed: ${run.status} ${run.stderr}`);
  const lines = run.stdout.split("\n").filter((l) => l !== "");
  if (lines.length !== inputs.length) throw new Error(`expected ${inputs.length} JSON lines, got ${lines.length}`);
  return lines.map((l) => JSON.parse(l));
}

/** The same case through the WebAssembly module, in the same shape. */
export function wasm(op, input, options = {}) {
  const result = op === "detect" ? urlkit.detect(input) : urlkit[op](input, options);
  if (result.error && result.error.code === "invalid-request") return { usage: result.error.message };
  return result;
}
