// The page with JavaScript. With Live mode on it answers as you type, running the codec
// compiled to WebAssembly in the browser (text and files never leave the machine); with it
// off, the buttons ask the JSON API. Without this script every form still works as a
// plain post rendered by the server.

const $ = (id) => document.getElementById(id);

/** A rejection by the codec (strict mode, bad option): code, message, byte offset. */
class CodecError extends Error {
  constructor(code, message, offset) {
    super(message);
    this.code = code;
    this.offset = offset;
  }
}

let liveModule = null;

/** The in-browser codec (`urlkit.mjs` and `urlkit.wasm`), loaded on first use only. */
export function loadLive() {
  if (liveModule === null) {
    const meta = document.querySelector('meta[name="urlkit-module"]');
    liveModule = import(meta.content).then(async (module) => {
      await module.load(meta.dataset.wasm);
      return module;
    });
    liveModule.catch(() => {
      liveModule = null;
    });
  }
  return liveModule;
}

/** Whether live mode is on: the codec runs in the browser and nothing is sent. */
function liveMode() {
  const box = document.getElementById("live");
  return Boolean(box && box.checked);
}

/**
 * The one place the page calls the codec. `op` is "encode" or "decode"; `options` uses
 * the field names of the JSON API. Resolves to {output, charset, diagnostics, ...};
 * rejects with a CodecError. In live mode the WebAssembly codec answers (the same
 * library code as the server's API, so the same shapes); otherwise `/api/{op}`.
 */
export async function runCodec(op, input, options) {
  if (liveMode()) {
    const live = await loadLive();
    const result = op === "encode" ? live.encode(input, options) : live.decode(input, options);
    if (result.error) throw new CodecError(result.error.code, result.error.message, result.error.offset);
    return result;
  }
  const response = await fetch(`/api/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input, ...options }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (body && body.error) || { code: "http-" + response.status, message: response.statusText };
    throw new CodecError(error.code, error.message, error.offset);
  }
  return body;
}

const checked = (id) => $(id).checked;
const text = (id) => $(id).value;

/** The options of the form for `op`, named as the API names them. */
function optionsFor(op) {
  const charset = text("charset");
  const common = { newline: text("newline"), strict: checked("strict") };
  if (op === "encode") {
    return {
      ...common,
      charset: charset === "auto" ? "utf-8" : charset,
      set: text("set"),
      safe: text("safe"),
      unsafe: text("unsafe"),
      space_plus: checked("space_plus"),
      lowercase: checked("lowercase"),
      per_line: checked("encode_per_line"),
    };
  }
  return {
    ...common,
    charset,
    plus_space: checked("plus_space"),
    keep_whitespace: checked("keep_whitespace"),
    until_stable: checked("until_stable"),
    per_line: checked("decode_per_line"),
  };
}

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

/** The UTF-16 index in `value` of byte `offset` of its UTF-8 form. */
function indexOfByte(value, offset) {
  let bytes = 0;
  let index = 0;
  for (const ch of value) {
    if (bytes >= offset) break;
    const cp = ch.codePointAt(0);
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    index += ch.length;
  }
  return index;
}

function showFindings(container, diagnostics, notListed, input) {
  clear(container);
  if (!diagnostics || diagnostics.length === 0) {
    container.append(el("p", { class: "quiet" }, "No findings."));
    return;
  }
  const list = el("ul", { class: "findings" });
  for (const d of diagnostics) {
    const at = el("button", { type: "button", class: "pos", title: "Show this position in the input" }, `byte ${d.offset}`);
    if (input) {
      at.addEventListener("click", () => {
        const box = $("input");
        const start = indexOfByte(box.value, d.offset);
        box.focus();
        box.setSelectionRange(start, Math.min(box.value.length, start + 3));
      });
    }
    list.append(el("li", null, at, " ", el("code", null, d.code), " ", d.message));
  }
  if (notListed > 0) list.append(el("li", null, `… and ${notListed} more`));
  container.append(list);
}

function showError(container, error) {
  clear(container);
  const where = typeof error.offset === "number" ? ` (byte ${error.offset})` : "";
  container.append(el("p", { class: "error", role: "alert" }, el("strong", null, error.code || "error"), `: ${error.message}${where}`));
}

let currentOp = "encode";
let sequence = 0;
// The exact output: a textarea turns CRLF into LF, so copy and download use this.
let lastOutput = "";

/**
 * The other readings `auto` weighed, each a button that decodes in that charset: when
 * the detector is unsure, the right reading is one click away.
 */
function showAlternatives(detected) {
  const others = (detected && detected.runners_up) || [];
  const select = $("charset");
  const offered = others.filter((c) => c.confidence >= 0.01 && select && [...select.options].some((o) => o.value === c.charset));
  if (offered.length === 0) return;
  const status = $("status");
  status.append(" · Other readings: ");
  offered.forEach((c, i) => {
    if (i > 0) status.append(", ");
    const button = el("button", { type: "button", class: "link" }, `${c.charset} (${Math.round(c.confidence * 100)}%)`);
    button.addEventListener("click", () => {
      select.value = c.charset;
      run("decode");
    });
    status.append(button);
  });
}

async function run(op) {
  currentOp = op;
  $("codec-form").dataset.op = op;
  $("encode-button").setAttribute("aria-pressed", String(op === "encode"));
  $("decode-button").setAttribute("aria-pressed", String(op === "decode"));
  const input = text("input");
  const mine = ++sequence;
  const notes = [];
  if (op === "encode" && text("charset") === "auto") notes.push("auto-detect applies to decoding; encoded as UTF-8");
  try {
    const result = await runCodec(op, input, optionsFor(op));
    if (mine !== sequence) return;
    lastOutput = result.output;
    $("output").value = result.output;
    if (result.detected) {
      const d = result.detected;
      notes.unshift(`Detected ${d.charset} (confidence ${Math.round(d.confidence * 100)}%, ${d.reason})`);
    } else if (result.charset) {
      notes.unshift(`Character set: ${result.charset}`);
    }
    if (result.layers) notes.push(`${result.layers.length} layer(s) peeled`);
    $("status").textContent = notes.join(" · ");
    showAlternatives(result.detected);
    showFindings($("diagnostics"), result.diagnostics, result.diagnostics_not_listed, input);
  } catch (error) {
    if (mine !== sequence) return;
    lastOutput = "";
    $("output").value = "";
    $("status").textContent = op === "encode" ? "Not encoded" : "Not decoded";
    showError($("diagnostics"), error instanceof CodecError ? error : { code: "network", message: String(error.message || error) });
  }
}

let timer = 0;
function schedule() {
  if (!checked("live")) return;
  clearTimeout(timer);
  timer = setTimeout(() => run(currentOp), 150);
}

const LIVE_KEY = "urlkit.live";

/** Hints and labels that say where the work happens. */
function showLiveMode() {
  const live = checked("live");
  $("live-hint").textContent = live ? "runs in your browser: nothing is sent" : "the server answers when you press a button";
  $("upload").textContent = live ? "Process in the browser" : "Upload and process";
  $("file-live-note").hidden = !live;
}

function setupCodec() {
  const form = $("codec-form");
  try {
    const saved = localStorage.getItem(LIVE_KEY);
    if (saved === "on" || saved === "off") $("live").checked = saved === "on";
  } catch {
    // No storage: keep the page's default.
  }
  showLiveMode();
  lastOutput = text("output");
  currentOp = form.dataset.op === "decode" ? "decode" : "encode";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const op = event.submitter && event.submitter.value === "decode" ? "decode" : event.submitter && event.submitter.value === "encode" ? "encode" : currentOp;
    run(op);
  });
  form.addEventListener("input", schedule);
  form.addEventListener("change", (event) => {
    if (event.target.id !== "live") schedule();
    else {
      showLiveMode();
      try {
        localStorage.setItem(LIVE_KEY, checked("live") ? "on" : "off");
      } catch {
        // Storage may be disabled; the choice then lasts until the page is left.
      }
      if (checked("live")) run(currentOp);
    }
  });
  $("copy").addEventListener("click", async () => {
    const status = $("copy-status");
    try {
      await navigator.clipboard.writeText(lastOutput);
      status.textContent = "Copied";
    } catch {
      $("output").select();
      status.textContent = "Selected: press Ctrl+C to copy";
    }
    setTimeout(() => { status.textContent = ""; }, 2000);
  });
  $("download").addEventListener("click", () => {
    const blob = new Blob([lastOutput], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: `urlkit-${currentOp}d.txt` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
}

function showValue(value) {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    if (value.length === 0) return el("span", { class: "quiet" }, "none");
    return el("ol", null, ...value.map((item) => el("li", null, showValue(item))));
  }
  if (typeof value === "object") {
    const body = el("tbody");
    for (const [k, v] of Object.entries(value)) {
      if (v === null) continue;
      body.append(el("tr", null, el("th", { scope: "row" }, k), el("td", null, showValue(v))));
    }
    return el("table", { class: "kv" }, body);
  }
  return el("code", null, String(value));
}

function setupInspect() {
  const form = $("inspect-form");
  const out = $("inspect-result");
  const inspect = async () => {
    const url = text("url");
    const base = text("base").trim();
    const response = await fetch("/api/inspect", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(base ? { url, base } : { url }),
    });
    const body = await response.json().catch(() => null);
    if (!response.ok || !body) {
      showError(out, (body && body.error) || { code: "http-" + response.status, message: response.statusText });
      return;
    }
    clear(out);
    if (body.resolved) out.append(el("p", null, "Resolved (RFC 3986 §5.2): ", el("code", null, body.resolved)));
    out.append(el("h3", null, "WHATWG URL Standard (browsers)"));
    out.append(body.whatwg ? showValue(body.whatwg) : el("p", { class: "error" }, `byte ${body.whatwg_error.position}: ${body.whatwg_error.message}`));
    out.append(el("h3", null, "RFC 3986 generic syntax"));
    out.append(body.rfc3986 ? showValue(body.rfc3986) : el("p", { class: "error" }, `byte ${body.rfc3986_error.position}: ${body.rfc3986_error.message}`));
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    inspect().catch((error) => showError(out, { code: "network", message: String(error.message || error) }));
  });
}

/** Bytes read from a file per step in live mode. */
const FILE_CHUNK = 1024 * 1024;
/** Output gathered in JavaScript before it is handed to a Blob (kept out of the JS heap). */
const BLOB_BATCH = 16 * 1024 * 1024;

/**
 * Encodes or decodes `file` in the browser with the streaming codec, a chunk at a time, so
 * a file of any size runs in bounded memory. Resolves to {blob, result}; a strict
 * rejection rejects with a CodecError.
 */
export async function processFileLocally(file, op, options, progress) {
  const live = await loadLive();
  const codec = op === "encode" ? live.createEncoder({ ...options, binary: true }) : live.createDecoder({ ...options, binary: true });
  const blobs = [];
  let pending = [];
  let pendingSize = 0;
  const keep = (bytes) => {
    if (bytes.length === 0) return;
    pending.push(bytes);
    pendingSize += bytes.length;
    if (pendingSize >= BLOB_BATCH) {
      blobs.push(new Blob(pending));
      pending = [];
      pendingSize = 0;
    }
  };
  try {
    for (let at = 0; at < file.size; at += FILE_CHUNK) {
      const chunk = new Uint8Array(await file.slice(at, at + FILE_CHUNK).arrayBuffer());
      keep(codec.push(chunk));
      if (progress) progress(Math.min(file.size, at + FILE_CHUNK), file.size);
    }
    keep(codec.finish());
  } catch (error) {
    codec.free();
    if (error && error.body && error.body.error) {
      const e = error.body.error;
      throw new CodecError(e.code, e.message, e.offset);
    }
    throw error;
  }
  blobs.push(new Blob(pending));
  return { blob: new Blob(blobs, { type: "application/octet-stream" }), result: codec.result };
}

let fileUrl = null;

async function processInBrowser(form, out) {
  const file = $("file").files[0];
  if (!file) {
    showError(out, { code: "no-file", message: "choose a file first" });
    return;
  }
  const op = $("file-op").value === "decode" ? "decode" : "encode";
  const options = { per_line: checked("file-per-line") };
  if (op === "decode") options.plus_space = checked("file-plus-space");
  const status = el("p", { class: "quiet" }, "Processing in the browser…");
  clear(out);
  out.append(status);
  const started = performance.now();
  const { blob, result } = await processFileLocally(file, op, options, (done, total) => {
    status.textContent = `Processing in the browser… ${Math.floor((done / Math.max(total, 1)) * 100)}%`;
  });
  const seconds = (performance.now() - started) / 1000;
  if (fileUrl) URL.revokeObjectURL(fileUrl);
  fileUrl = URL.createObjectURL(blob);
  clear(out);
  const name = `${file.name}.${op}d`;
  const link = el("a", { class: "download", href: fileUrl, download: name }, "Download the result");
  out.append(el("p", null, `Result ready (${blob.size} bytes, ${seconds.toFixed(1)} s in the browser; nothing was uploaded). `, link));
  const findings = el("div");
  showFindings(findings, result && result.diagnostics, result && result.diagnostics_not_listed, null);
  out.append(findings);
}

function setupFiles() {
  const form = $("file-form");
  const out = $("file-result");
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (liveMode()) {
      try {
        await processInBrowser(form, out);
      } catch (error) {
        showError(out, error instanceof CodecError ? error : { code: "error", message: String(error.message || error) });
      }
      return;
    }
    clear(out);
    out.append(el("p", { class: "quiet" }, "Processing…"));
    try {
      const response = await fetch("/api/files", { method: "POST", body: new FormData(form) });
      const body = await response.json().catch(() => null);
      if (!response.ok || !body) {
        showError(out, (body && body.error) || { code: "http-" + response.status, message: response.statusText });
        return;
      }
      clear(out);
      const link = el("a", { class: "download", href: body.download, download: "" }, "Download the result");
      const ready = el("p", null, `Result ready (${body.size} bytes). `, link, ` — it can be downloaded once, until ${new Date(body.expires_at).toLocaleString()}.`);
      link.addEventListener("click", () => {
        setTimeout(() => {
          ready.replaceWith(el("p", { class: "quiet" }, `Downloaded (${body.size} bytes): the result is now deleted from the server.`));
        }, 0);
      });
      out.append(ready);
      const findings = el("div");
      showFindings(findings, body.diagnostics, body.diagnostics_not_listed, null);
      out.append(findings);
    } catch (error) {
      showError(out, { code: "network", message: String(error.message || error) });
    }
  });
}

for (const node of document.querySelectorAll(".js-only")) node.hidden = false;
setupCodec();
setupInspect();
setupFiles();
