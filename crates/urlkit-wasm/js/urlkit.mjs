// urlkit in the browser (and Node): the Rust codec compiled to WebAssembly.
//
//   import * as urlkit from "./urlkit.mjs";
//   await urlkit.load("/assets/urlkit.wasm");          // URL, Response, bytes or Module
//   urlkit.encode("a b", { charset: "shift_jis" });     // {output, charset, diagnostics, ...}
//   urlkit.decode("%zz", { strict: true });             // {error: {code, message, offset}}
//   const d = urlkit.createDecoder({ binary: true });   // files: bytes in, bytes out
//   const part = d.push(chunk); const rest = d.finish();
//   urlkit.humanSize(1610612736);                        // "1536 MiB", as the server says
//   urlkit.resultName("report.csv", "decode");           // "report.decoded.csv"
//   urlkit.shownParts(inspected.whatwg);                 // the parts the server's page shows
//
// Options and results are the JSON of the HTTP API (POST /api/encode, /api/decode), so
// the results here are byte-identical to the server's. Strings go in and come out as
// UTF-8 (a lone surrogate in a string becomes U+FFFD). No dependencies.

let wasm = null;
const utf8 = new TextEncoder();
const text = new TextDecoder("utf-8", { ignoreBOM: true });

const OK = 0;

/** An error from the codec: `code` is a finding code (`malformed-escape`, …) or
 * `invalid-request`; `offset` (rejected input) or `field` (bad option) says where. */
export class UrlkitError extends Error {
  constructor(body) {
    const error = (body && body.error) || { code: "internal", message: String(body) };
    super(error.message);
    this.name = "UrlkitError";
    this.code = error.code;
    this.offset = error.offset;
    this.field = error.field;
    this.body = body;
  }
}

/**
 * Loads the module. `source`: a URL or string (fetched), a `Response`, an `ArrayBuffer`
 * or typed array with the module's bytes, or a compiled `WebAssembly.Module`. Without it,
 * `urlkit.wasm` next to this file is fetched (read, for a `file:` URL in Node). A relative
 * string is resolved against the page (or, in Node, this file). Resolves once the codec is
 * ready, or rejects when the module cannot be fetched or compiled; loading
 * again replaces the instance.
 */
export async function load(source) {
  if (source === undefined) source = new URL("./urlkit.wasm", import.meta.url);
  let instance;
  if (source instanceof WebAssembly.Module) {
    instance = await WebAssembly.instantiate(source, {});
  } else {
    if (typeof source === "string" || source instanceof URL) {
      const url = new URL(source, typeof location === "undefined" ? import.meta.url : location.href);
      // Node's fetch cannot read files.
      source = url.protocol === "file:" ? await (await import("node:fs/promises")).readFile(url) : await fetch(url);
    }
    if (typeof Response !== "undefined" && source instanceof Response) {
      if (!source.ok) throw new Error(`cannot load urlkit.wasm: HTTP ${source.status}`);
      source = await source.arrayBuffer();
    }
    ({ instance } = await WebAssembly.instantiate(source, {}));
  }
  wasm = guarded(instance.exports);
  warmUp();
  return { encode, decode, detect, createEncoder, createDecoder, encodeBytes, decodeBytes, humanSize, resultName, shownParts };
}

// A trap (a bug: the codec aborts rather than unwind) leaves the instance unusable, so it
// is dropped and the caller told to load again.
function guarded(exports) {
  const wrapped = { memory: exports.memory };
  for (const [name, value] of Object.entries(exports)) {
    if (typeof value !== "function") continue;
    wrapped[name] = (...args) => {
      try {
        return value(...args);
      } catch (e) {
        if (e instanceof WebAssembly.RuntimeError) {
          wasm = null;
          throw new Error(`urlkit: the codec failed (${e.message}); call load() again`, { cause: e });
        }
        throw e;
      }
    };
  }
  return wrapped;
}

// Browsers compile a module's functions lazily with a quick baseline compiler and
// optimise them once they run hot: a few small runs at load time make the first real
// input fast.
function warmUp() {
  const sample = "%E5%BC%95%E3%81%8D+a%20b%zz~".repeat(1024);
  for (let i = 0; i < 4; i++) {
    decode(sample);
    encode("引き a b", { set: "component" });
  }
}

/** Whether `load` has finished. */
export function isLoaded() {
  return wasm !== null;
}

function ready() {
  if (wasm === null) throw new Error("urlkit: call `await load(...)` first");
  return wasm;
}

function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return utf8.encode(String(value ?? ""));
}

function optionsOf(options) {
  if (typeof options === "string") return utf8.encode(options);
  const { input: _input, ...rest } = options || {};
  return utf8.encode(JSON.stringify(rest));
}

// Copies `bytes` into module memory for the duration of `run(ptr, len)`.
function withBytes(bytes, run) {
  const w = ready();
  const ptr = w.urlkit_alloc(bytes.length);
  try {
    new Uint8Array(w.memory.buffer, ptr, bytes.length).set(bytes);
    return run(ptr, bytes.length);
  } finally {
    w.urlkit_free(ptr, bytes.length);
  }
}

// Copies a string into module memory as UTF-8, without an intermediate array.
function withText(string, run) {
  const w = ready();
  const capacity = string.length * 3;
  const ptr = w.urlkit_alloc(capacity);
  try {
    const { written } = utf8.encodeInto(string, new Uint8Array(w.memory.buffer, ptr, capacity));
    return run(ptr, written);
  } finally {
    w.urlkit_free(ptr, capacity);
  }
}

function resultBytes() {
  const w = ready();
  const ptr = w.urlkit_result_ptr();
  const len = w.urlkit_result_len();
  return new Uint8Array(w.memory.buffer.slice(ptr, ptr + len));
}

function resultJson() {
  const w = ready();
  const ptr = w.urlkit_result_ptr();
  const len = w.urlkit_result_len();
  return JSON.parse(text.decode(new Uint8Array(w.memory.buffer, ptr, len)));
}

function whole(exportName, input, options) {
  const w = ready();
  const opts = optionsOf(options);
  const call = (ip, il) => withBytes(opts, (op, ol) => w[exportName](ip, il, op, ol));
  if (typeof input === "string") withText(input, call);
  else withBytes(bytesOf(input), call);
  return resultJson();
}

/**
 * Encodes `input` (a string, or UTF-8 bytes) with the options of `POST /api/encode`
 * (`charset`, `set`, `safe`, `unsafe`, `space_plus`, `lowercase`, `per_line`, `newline`,
 * `strict`). Returns `{output, charset, diagnostics, diagnostics_not_listed}`, or, when
 * strict mode rejects the input or an option is not understood, `{error: {code, message,
 * offset | field}}`: bad input never throws.
 */
export function encode(input, options = {}) {
  return whole("urlkit_encode", input, options);
}

/**
 * Decodes `input` with the options of `POST /api/decode` (`charset` including `"auto"`,
 * `plus_space`, `keep_whitespace`, `per_line`, `newline`, `strict`, `until_stable`).
 * Malformed escapes are kept and invalid sequences become U+FFFD, each listed in
 * `diagnostics`. Returns the same shapes as {@link encode}.
 */
export function decode(input, options = {}) {
  return whole("urlkit_decode", input, options);
}

/** Detects the charset of percent-encoded text: `{charset, confidence, reason, bom_length,
 * runners_up}`, as `urlkit detect --json`. */
export function detect(input) {
  const w = ready();
  const call = (ptr, len) => w.urlkit_detect(ptr, len);
  if (typeof input === "string") withText(input, call);
  else withBytes(bytesOf(input), call);
  return resultJson();
}

/** A streaming codec; see {@link createEncoder} and {@link createDecoder}. */
class Stream {
  constructor(exportName, options) {
    const w = ready();
    this.handle = withBytes(optionsOf({ ...options, binary: undefined }), (ptr, len) =>
      w[exportName](ptr, len, options && options.binary ? 1 : 0),
    );
    if (this.handle === 0) throw new UrlkitError(resultJson());
    this.result = null;
  }

  #step(status) {
    if (status !== OK) {
      const error = new UrlkitError(resultJson());
      this.free();
      throw error;
    }
    return resultBytes();
  }

  #live() {
    if (this.handle === 0) throw new Error("urlkit: this stream is finished");
    return ready();
  }

  /** Feeds the next chunk (bytes, or a string as UTF-8) and returns the output it
   * completes. Throws a {@link UrlkitError} when strict mode rejects the input. */
  push(chunk) {
    const w = this.#live();
    const bytes = bytesOf(chunk);
    return this.#step(withBytes(bytes, (ptr, len) => w.urlkit_stream_feed(this.handle, ptr, len)));
  }

  /** The charset and findings so far: `{charset, diagnostics, diagnostics_not_listed}`. */
  report() {
    if (this.handle === 0) return this.result;
    ready().urlkit_stream_report(this.handle);
    const { output: _output, ...report } = resultJson();
    return report;
  }

  /** Ends the input and returns the last output; afterwards `result` holds the
   * {@link report} and the stream's memory is released. */
  finish() {
    const w = this.#live();
    const last = this.#step(w.urlkit_stream_finish(this.handle));
    this.result = this.report();
    this.free();
    return last;
  }

  /** Releases the stream without finishing it (safe to call twice). */
  free() {
    if (this.handle !== 0) {
      if (this.result === null) this.result = this.report();
      ready().urlkit_stream_free(this.handle);
      this.handle = 0;
    }
  }
}

/**
 * A streaming encoder with the options of {@link encode}, plus `binary: true` to escape
 * bytes as they are (files). `push(chunk) -> Uint8Array`, `finish() -> Uint8Array`; the
 * concatenated output equals the whole input's, whatever the chunking.
 */
export function createEncoder(options = {}) {
  return new Stream("urlkit_encoder_new", options);
}

/**
 * A streaming decoder with the options of {@link decode} (not `until_stable`), plus
 * `binary: true` to return the decoded bytes as they are (files).
 */
export function createDecoder(options = {}) {
  return new Stream("urlkit_decoder_new", options);
}

function wholeBytes(stream, input) {
  const first = stream.push(input);
  const last = stream.finish();
  const output = new Uint8Array(first.length + last.length);
  output.set(first);
  output.set(last, first.length);
  return { output, ...stream.result };
}

/** Escapes bytes as they are (no charset step): `{output: Uint8Array, charset,
 * diagnostics, diagnostics_not_listed}`. */
export function encodeBytes(input, options = {}) {
  return wholeBytes(createEncoder({ ...options, binary: true }), bytesOf(input));
}

/** Decodes to raw bytes (no charset step): `{output: Uint8Array, …}` as
 * {@link encodeBytes}. */
export function decodeBytes(input, options = {}) {
  return wholeBytes(createDecoder({ ...options, binary: true }), bytesOf(input));
}

/** The text of the result buffer after a call that leaves text there; a status other than
 * OK throws the {@link UrlkitError} the module reported. */
function resultText(status) {
  if (status !== OK) throw new UrlkitError(resultJson());
  const w = ready();
  return text.decode(new Uint8Array(w.memory.buffer, w.urlkit_result_ptr(), w.urlkit_result_len()));
}

/**
 * A size as the server shows it, from the server's own Rust (`1536 MiB`, `1.5 KiB`,
 * `10 bytes`). `bytes` is a whole number from 0 to 2^53 (a bigint too); anything else
 * throws a {@link UrlkitError} with `code` `invalid-argument` and `field` `bytes`.
 */
export function humanSize(bytes) {
  const value = typeof bytes === "bigint" ? Number(bytes) : bytes;
  if (typeof value !== "number") {
    throw new UrlkitError({ error: { code: "invalid-argument", message: `argument \`bytes\`: not a number: ${String(bytes)}`, field: "bytes" } });
  }
  return resultText(ready().urlkit_human_size(value));
}

/**
 * The name the server gives the result of uploading a file named `name` and `op`
 * (`"encode"` or `"decode"`) it: `report.csv` → `report.decoded.csv`, without its path,
 * controls, invisible characters or leading dots, at most 200 bytes before the mark. An
 * `op` that is neither throws a {@link UrlkitError} with `field` `done`.
 */
export function resultName(name, op) {
  const done = op === "encode" ? 0 : op === "decode" ? 1 : -1;
  if (done < 0) {
    throw new UrlkitError({ error: { code: "invalid-argument", message: `argument \`done\`: op must be "encode" or "decode", not ${JSON.stringify(op)}`, field: "done" } });
  }
  const w = ready();
  return resultText(withText(String(name ?? ""), (ptr, len) => w.urlkit_result_name(ptr, len, done)));
}

/**
 * A URL's parts as the inspector shows them, by the server's own Rust (urlkit-api's
 * `ShownParts`): `view` is one view of a `POST /api/inspect` answer (`whatwg` or
 * `rfc3986`, as an object or its JSON). The answer has `href`, `scheme`, `user`,
 * `password`, `host`, `host_unicode`, `host_type`, `port`, `default_port`, `path`,
 * `segments`, `query`, `pairs`, `pairs_not_listed`, `fragment`, `fragment_decoded` and
 * `origin`, each null where the view has none. Anything that is not a view's report
 * throws a {@link UrlkitError} with `field` `view`.
 */
export function shownParts(view) {
  const json = typeof view === "string" ? view : JSON.stringify(view ?? null);
  const w = ready();
  return JSON.parse(resultText(withText(json, (ptr, len) => w.urlkit_shown_parts(ptr, len))));
}
