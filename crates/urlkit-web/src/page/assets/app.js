// The page with JavaScript. With Live mode on it answers as you type, running the codec
// compiled to WebAssembly in a worker (text and files never leave the machine); with it
// off, the buttons ask the JSON API. Without this script every form still works as a
// plain post rendered by the server, in the same words: the messages come from the
// server's catalog for the page's language (the `messages` element).

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------
// Messages

const messages = (() => {
  try {
    return JSON.parse($("messages").textContent);
  } catch {
    return {};
  }
})();
const lang = document.documentElement.lang || "en";
const plurals = new Intl.PluralRules(lang);

function fill(pattern, args) {
  return pattern.replace(/\{\$([a-z-]+)\}/g, (hole, name) => (args && name in args ? String(args[name]) : hole));
}

/** The message `id` of the page's language, with `args` in its holes. */
function t(id, args) {
  const pattern = messages[id];
  if (pattern === undefined) return id;
  if (typeof pattern === "string") return fill(pattern, args);
  const forms = pattern;
  const form = forms[plurals.select(Number(args && args[forms.$plural]))] ?? forms.other;
  return fill(form, args);
}

/** What a finding code means, in the page's language. */
function meaning(code) {
  return messages[`code-${code}`] ?? code;
}

// What the server defines once and the page shows the same way: the limits as it names
// them, the URL's components and how many findings come first are attributes of the page
// (rendered by the server); sizes and result names come from the WebAssembly module, which
// runs the server's own Rust for them (`humanSize`, `resultName` of urlkit.mjs).
const pageData = document.body.dataset;

// ---------------------------------------------------------------------------------------
// DOM helpers

function clear(element) {
  while (element.firstChild) element.removeChild(element.firstChild);
}

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes || {})) {
    if (v === null || v === undefined) continue;
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

const checked = (id) => $(id).checked;
const text = (id) => $(id).value;

// ---------------------------------------------------------------------------------------
// The codec: in a worker (live mode) or the server

/** A rejection by the codec (strict mode, bad option, a limit): code, message, offset. */
class CodecError extends Error {
  constructor(code, message, offset, field, status) {
    super(message);
    this.code = code;
    this.offset = offset;
    this.field = field;
    this.status = status;
  }

  static of(body, status) {
    const error = (body && body.error) || { code: `http-${status}`, message: String(status) };
    return new CodecError(error.code, error.message, error.offset, error.field, status);
  }
}

let liveModule = null;
/** The codec in this thread once it has loaded (null until then, or without live mode). */
let pageCodec = null;

/**
 * The codec in this thread (`urlkit.mjs` and `urlkit.wasm`), for files and for live mode's
 * short inputs; loaded on first use.
 */
export function loadLive() {
  if (liveModule === null) {
    const meta = document.querySelector('meta[name="urlkit-module"]');
    liveModule = import(meta.content).then(async (module) => {
      await module.load(meta.dataset.wasm);
      pageCodec = module;
      return module;
    });
    liveModule.catch(() => {
      liveModule = null;
    });
  }
  return liveModule;
}

/**
 * Calls `show` with `counts` (numbers of bytes) as the server writes sizes (`1536 MiB`), by
 * the module: at once when it has loaded, else once it has (it is loaded for this, also
 * with live mode off). When it cannot load, `show` gets plain byte counts (`1610612736
 * bytes`, as the server writes a size under 1 KiB).
 */
function withSizes(counts, show) {
  if (pageCodec) {
    show(counts.map((n) => pageCodec.humanSize(n)));
    return;
  }
  loadLive().then(
    (module) => show(counts.map((n) => module.humanSize(n))),
    () => show(counts.map((n) => `${n} bytes`)),
  );
}

/**
 * Live mode answers inputs up to this many characters in the page's own thread, within the
 * keystroke's task (the codec needs about a millisecond for them), so the answer is drawn in
 * the same frame as the keystroke. Longer inputs go to the worker; the start of their answer,
 * the part the output box shows, is worked out here from this many leading characters.
 */
const ANSWERED_HERE_UP_TO = 128 * 1024;

/**
 * Live mode's worker: one request at a time is current; a newer one makes the worker drop
 * the older (before it starts, or between the pieces of a large input), and its promise
 * resolves to `{stale: true}`.
 */
class LiveWorker {
  constructor() {
    const meta = document.querySelector('meta[name="urlkit-module"]');
    this.worker = new Worker(meta.dataset.worker, { type: "module" });
    this.next = 1;
    this.pending = new Map();
    this.ready = new Promise((resolve, reject) => {
      this.worker.addEventListener("message", (event) => {
        const m = event.data;
        if (m.type === "ready") resolve();
        else if (m.type === "failed") reject(new Error(m.message));
        else this.receive(m);
      });
      this.worker.addEventListener("error", (event) => reject(new Error(event.message || "worker failed")));
    });
    this.worker.postMessage({
      type: "init",
      module: new URL(meta.content, location.href).href,
      wasm: new URL(meta.dataset.wasm, location.href).href,
    });
  }

  receive(m) {
    const request = this.pending.get(m.id);
    if (!request) return;
    if (m.type === "progress") {
      request.parts.push(m.output);
      if (request.onProgress) request.onProgress(request.parts, m.done, m.total);
      return;
    }
    this.pending.delete(m.id);
    const result = m.result;
    if (result.streamed) {
      request.parts.push(result.output);
      result.output = request.parts.join("");
      delete result.streamed;
    }
    request.resolve(result);
  }

  /** Resolves every pending request to `{stale: true}`; false when there was none. */
  dropPending() {
    if (this.pending.size === 0) return false;
    for (const request of this.pending.values()) request.resolve({ stale: true });
    this.pending.clear();
    return true;
  }

  /** Drops every request: their promises resolve to `{stale: true}` and the worker stops. */
  cancel() {
    if (this.dropPending()) this.worker.postMessage({ type: "cancel" });
  }

  run(op, input, options, onProgress) {
    const id = this.next++;
    this.dropPending();
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onProgress, parts: [] });
      this.worker.postMessage({ type: "run", id, op, input, options });
    });
  }
}

let liveWorker = null;

function worker() {
  if (liveWorker === null) liveWorker = new LiveWorker();
  return liveWorker;
}

/** Whether live mode is on: the codec runs in the browser and nothing is sent. */
function liveMode() {
  const box = $("live");
  return Boolean(box && box.checked);
}

/**
 * The one place the page calls the codec. `op` is "encode" or "decode"; `options` uses
 * the field names of the JSON API. Resolves to the API's answer {output, charset,
 * diagnostics, diagnostic_counts, ...}, or `{stale: true}` when a newer request overtook
 * it in live mode; rejects with a CodecError. In live mode the WebAssembly codec answers in
 * a worker (the same library code as the server's API, so the same shapes); otherwise
 * `/api/{op}`.
 */
export async function runCodec(op, input, options, onProgress) {
  if (liveMode() && pageCodec && input.length <= ANSWERED_HERE_UP_TO) {
    if (liveWorker) liveWorker.cancel();
    const result = op === "encode" ? pageCodec.encode(input, options) : pageCodec.decode(input, options);
    if (result.error) throw CodecError.of(result, 422);
    return result;
  }
  if (liveMode()) {
    const live = worker();
    await live.ready.catch((error) => {
      liveWorker = null;
      throw new CodecError("live-failed", String(error.message || error));
    });
    const result = await live.run(op, input, options, onProgress);
    if (result.error) throw CodecError.of(result, 422);
    return result;
  }
  const response = await fetch(`/api/${op}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ input, ...options }),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw CodecError.of(body, response.status);
  return body;
}

// ---------------------------------------------------------------------------------------
// Direction

/** `auto` until the reader chooses: then percent-encoded input is decoded. */
let direction = "auto";
let currentOp = "encode";

/** Whether `input` looks percent-encoded: it has an escape and only printable ASCII. */
export function looksEncoded(input) {
  return /%[0-9A-Fa-f]{2}/.test(input) && !/[^\x20-\x7E\t\r\n]/.test(input);
}

function effectiveOp(input) {
  if (direction !== "auto") return direction;
  return looksEncoded(input) ? "decode" : "encode";
}

/** What the direction's controls show now, so that a keystroke that changes none of it
 * changes nothing on the page (each change costs the browser a new layout). */
let directionShown = "";

function showDirection(op) {
  currentOp = op;
  const empty = inputLength() === 0;
  const key = `${direction} ${op} ${empty}`;
  if (key === directionShown) return;
  directionShown = key;
  const form = $("codec-form");
  form.dataset.op = direction === "auto" ? "auto" : op;
  form.dataset.running = op;
  // Nothing to go by yet: neither direction is shown as taken.
  const shown = direction === "auto" && empty ? null : op;
  $("encode-button").setAttribute("aria-pressed", String(shown === "encode"));
  $("decode-button").setAttribute("aria-pressed", String(shown === "decode"));
  $("input-kind").textContent = t(op === "decode" ? "kind-encoded" : "kind-text");
  $("output-kind").textContent = t(op === "decode" ? "kind-text" : "kind-encoded");
  const note = $("direction-note");
  clear(note);
  if (direction !== "auto") {
    note.append(t(op === "decode" ? "direction-decode" : "direction-encode"));
    return;
  }
  if (empty) {
    note.append(t("direction-auto"));
    return;
  }
  const other = op === "decode" ? "encode" : "decode";
  const instead = el("button", { type: "button", class: "link", id: "direction-instead" }, t(other === "encode" ? "encode-instead" : "decode-instead"));
  instead.addEventListener("click", () => choose(other));
  note.append(t(op === "decode" ? "direction-auto-decoded" : "direction-auto-encoded"), " ", instead);
}

function choose(op) {
  direction = op;
  run();
}

// ---------------------------------------------------------------------------------------
// Results

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

/** The UTF-16 index in `value` of byte `offset` of its UTF-8 form. */
function indexOfByte(value, offset) {
  let bytes = 0;
  let index = 0;
  for (const ch of value) {
    if (bytes >= offset) break;
    bytes += utf8Width(ch.codePointAt(0));
    index += ch.length;
  }
  return index;
}

/** How many bytes code point `cp` takes in UTF-8 (a lone surrogate: those of U+FFFD). */
function utf8Width(cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/** Line and column (counted from 1, the column in characters) of byte `offset` of `value`. */
function lineAndColumn(value, offset) {
  const index = indexOfByte(value, offset);
  const before = value.slice(0, index);
  const lineStart = before.lastIndexOf("\n") + 1;
  return { line: before.split("\n").length, column: [...before.slice(lineStart)].length + 1 };
}

function selectInInput(offset) {
  revealInInput(indexOfByte(inputText(), offset), 3);
}

/** How many findings are listed before "show all" (the server's number, from the page). */
const FIRST_FINDINGS = Number(pageData.firstFindings);
/** Findings added to the list per frame after "show all". */
const FINDINGS_BATCH = 1000;

function explained(code, message) {
  if (messages["library-language"] === lang) return el("span", { class: "what" }, message);
  return [el("span", { class: "what" }, meaning(code)), " ", el("span", { class: "detail", lang: "en", dir: "ltr" }, message)];
}

function findingItem(d, clickable) {
  const where = d.line ? t("at-line", { line: d.line, column: d.column }) : t("at-byte", { offset: d.offset });
  const pos = clickable ? el("button", { type: "button", class: "pos", title: t("show-in-input") }, where) : el("span", { class: "pos" }, where);
  if (clickable) pos.addEventListener("click", () => selectInInput(d.offset));
  return el("li", null, pos, " ", el("code", { class: "code" }, d.code), " ", explained(d.code, d.message));
}

/**
 * The findings summary: counts by code, the first 50 (each position a button that shows
 * it in the input when `clickable`), "show all" for the rest, what was only counted, and
 * for entries joined by a removed line break a button that decodes each line separately.
 */
function showFindings(container, result, clickable) {
  clear(container);
  const list = (result && result.diagnostics) || [];
  const notListed = (result && result.diagnostics_not_listed) || 0;
  if (list.length === 0 && notListed === 0) {
    container.append(el("p", { class: "quiet" }, t("findings-none")));
    return;
  }
  const total = list.length + notListed;
  const counts = (result && result.diagnostic_counts) || [];
  container.append(
    el("div", { class: "findings-head" }, el("h3", { class: "findings-title" }, t("findings-title")), " ", el("span", { class: "total" }, t("findings-total", { count: total }))),
    el("ul", { class: "counts" }, counts.map((c) => el("li", null, el("code", { class: "code" }, c.code), " ", el("span", { class: "n" }, c.count)))),
  );
  if (clickable && counts.some((c) => c.code === "entries-joined")) {
    const action = el("button", { type: "button", class: "secondary", id: "per-line-action" }, t("per-line-action"));
    action.addEventListener("click", () => {
      $("decode_per_line").checked = true;
      direction = "decode";
      run();
    });
    container.append(el("div", { class: "offer", id: "per-line-offer" }, el("p", null, t("per-line-offer")), action));
  }
  const ul = el("ul", { class: "findings" }, list.slice(0, FIRST_FINDINGS).map((d) => findingItem(d, clickable)));
  container.append(ul);
  if (list.length > FIRST_FINDINGS) {
    const more = el("button", { type: "button", class: "secondary show-all" }, t("findings-show-all", { count: total }));
    const note = el("p", { class: "quiet" }, t("findings-first", { shown: FIRST_FINDINGS }), " ", more);
    more.addEventListener("click", () => {
      more.remove();
      ul.classList.add("scroll");
      let at = FIRST_FINDINGS;
      const batch = () => {
        const end = Math.min(list.length, at + FINDINGS_BATCH);
        const items = document.createDocumentFragment();
        for (; at < end; at++) items.append(findingItem(list[at], clickable));
        ul.append(items);
        if (at < list.length) requestAnimationFrame(batch);
      };
      batch();
    });
    container.append(note);
  }
  if (notListed > 0) container.append(el("p", { class: "quiet" }, t("findings-not-listed", { count: notListed })));
}

/** An error as the page says it: what happened and what to do next. */
function showError(container, error, input, limitKind) {
  clear(container);
  const box = el("div", { class: "error", role: "alert" });
  const detail = el("p", { class: "detail", lang: "en", dir: "ltr" }, el("code", { class: "code" }, error.code || "error"), " ", error.message || "");
  if (error.code === "too-large") {
    const limit = limitKind === "file" ? pageData.uploadLimitShown : pageData.textLimitShown;
    box.append(el("p", null, t(limitKind === "file" ? "error-too-large-file" : "error-too-large-text", { limit })), detail);
  } else if (typeof error.offset === "number" && error.status !== 400) {
    const problem = `${meaning(error.code)} (${error.code})`;
    const multiline = typeof input === "string" && input.includes("\n");
    const where = multiline ? { ...lineAndColumn(input, error.offset), offset: error.offset } : { offset: error.offset };
    const said = t(multiline ? "error-rejected-line" : "error-rejected", { ...where, problem });
    const show = typeof input === "string" ? el("button", { type: "button", class: "link" }, t("show-in-input")) : null;
    if (show) show.addEventListener("click", () => selectInInput(error.offset));
    box.append(el("p", null, said, " ", show), el("p", null, t("error-rejected-next")), detail);
  } else if (error.field) {
    box.append(el("p", null, t("error-invalid-request", { field: error.field, message: error.message })));
  } else if (error.code === "busy" || error.code === "store-full") {
    box.append(el("p", null, t(`error-${error.code}`)), detail);
  } else if (error.code === "network") {
    box.append(el("p", null, t("error-network", { message: error.message })));
  } else if (error.code === "live-failed") {
    box.append(el("p", null, t("error-live-failed", { message: error.message })));
  } else {
    box.append(el("p", null, el("code", { class: "code" }, error.code || "error"), " ", error.message || ""));
  }
  container.append(box);
}

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
  status.append(` · ${t("status-other-readings")} `);
  offered.forEach((c, i) => {
    if (i > 0) status.append(", ");
    const button = el("button", { type: "button", class: "link" }, `${c.charset} (${Math.round(c.confidence * 100)}%)`);
    button.addEventListener("click", () => {
      select.value = c.charset;
      direction = "decode";
      run();
    });
    status.append(button);
  });
}

let sequence = 0;
// The exact output: a textarea turns CRLF into LF, so copy, download and swap use this.
let lastOutput = "";

/**
 * How much of the output the output box shows: a browser lays out all of a text box's text
 * on every change, which for a megabyte takes it longer than a keystroke should. Copy,
 * Download and Swap take all of the output.
 */
const SHOWN_CHARS = 32 * 1024;
const SHOWN_LINES = 1000;

/** UTF-8 length of `text`, without encoding it (a lone surrogate counts as U+FFFD). */
function utf8Length(text) {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i);
    bytes += utf8Width(cp);
    if (cp > 0xffff) i++;
  }
  return bytes;
}

/**
 * Shows `output` in the output box, or its start with a note when it is long. With
 * `partial`, `output` is only the start of the answer: the note is left for the whole.
 */
function showOutput(output, { partial = false } = {}) {
  let end = Math.min(output.length, SHOWN_CHARS);
  for (let at = output.indexOf("\n"), lines = 1; at !== -1 && at < end; at = output.indexOf("\n", at + 1), lines++) {
    if (lines === SHOWN_LINES) {
      end = at + 1;
      break;
    }
  }
  const box = $("output");
  const shown = output.slice(0, end);
  if (box.value !== shown) box.value = shown;
  if (partial) return;
  const note = $("output-note");
  const drawn = ++outputNotes;
  if (end === output.length) {
    note.hidden = true;
    return;
  }
  withSizes([utf8Length(shown), utf8Length(output)], ([part, total]) => {
    if (drawn !== outputNotes) return;
    note.textContent = t("output-shown", { shown: part, total });
    note.hidden = false;
  });
}
// Counts the notes asked for, so a size that comes late does not overwrite a newer note.
let outputNotes = 0;
// When the input that is being answered changed (for the latency a reader feels).
let inputAt = 0;

function showProgress(done, total) {
  const box = $("progress");
  if (total === null) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const percent = total ? Math.floor((done / total) * 100) : 0;
  $("progress-bar").value = percent;
  $("progress-text").textContent = total ? t("status-working", { percent }) : t("status-working-whole");
}

/**
 * The start of a long input's answer, worked out in this thread from its first
 * {@link ANSWERED_HERE_UP_TO} characters while the worker answers the whole: the codec
 * streams, so this is exactly how the whole answer begins. Null where the start cannot tell
 * (strict mode may reject a later byte; `auto` and `until_stable` look at all of the input)
 * or before the codec has loaded here.
 */
function startOfAnswer(op, input, options) {
  if (!pageCodec || options.strict || options.charset === "auto" || options.until_stable) return null;
  let end = ANSWERED_HERE_UP_TO;
  const last = input.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  const stream = op === "encode" ? pageCodec.createEncoder(options) : pageCodec.createDecoder(options);
  try {
    return new TextDecoder().decode(stream.push(input.slice(0, end)), { stream: true });
  } catch {
    return null;
  } finally {
    stream.free();
  }
}

/** Runs the codec on the input in the chosen (or guessed) direction and shows the answer. */
async function run() {
  const input = inputText();
  const op = effectiveOp(input);
  showDirection(op);
  const mine = ++sequence;
  const started = inputAt || performance.now();
  inputAt = 0;
  const notes = [];
  if (op === "encode" && text("charset") === "auto") notes.push(t("status-auto-encode"));
  let frame = 0;
  const progress = (parts, done, total) => {
    if (mine !== sequence || frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (mine !== sequence) return;
      showOutput(parts.join(""));
      showProgress(done, total);
    });
  };
  const slow = setTimeout(() => {
    if (mine === sequence) showProgress(0, 0);
  }, 300);
  const options = optionsFor(op);
  if (liveMode() && input.length > ANSWERED_HERE_UP_TO) {
    const start = startOfAnswer(op, input, options);
    if (start !== null) showOutput(start, { partial: true });
  }
  try {
    const result = await runCodec(op, input, options, progress);
    if (result.stale || mine !== sequence) return;
    lastOutput = result.output;
    showOutput(result.output);
    if (result.detected) {
      const d = result.detected;
      notes.unshift(t("status-detected", { charset: d.charset, confidence: Math.round(d.confidence * 100), reason: d.reason }));
    } else if (result.charset) {
      notes.unshift(t("status-charset", { charset: result.charset }));
    }
    if (result.layers) notes.push(t("status-layers", { count: result.layers.length }));
    $("status").textContent = notes.join(" · ");
    showAlternatives(result.detected);
    showFindings($("diagnostics"), result, true);
  } catch (error) {
    if (mine !== sequence) return;
    lastOutput = "";
    showOutput("");
    $("status").textContent = t(op === "encode" ? "status-not-encoded" : "status-not-decoded");
    showError($("diagnostics"), error instanceof CodecError ? error : { code: "network", message: String(error.message || error) }, input, "text");
  } finally {
    clearTimeout(slow);
    if (mine === sequence) {
      if (frame) cancelAnimationFrame(frame);
      showProgress(0, null);
      document.dispatchEvent(new CustomEvent("urlkit:answered", { detail: { op, bytes: input.length, ms: performance.now() - started } }));
    }
  }
}

// ---------------------------------------------------------------------------------------
// Large inputs

/** Inputs longer than this many characters are edited a part at a time. */
const PART_FROM = 32 * 1024;
/** A large input is shown whole again once it is this short. */
const WHOLE_UP_TO = 16 * 1024;
/** How many characters of a large input the text box holds. */
const PART = 16 * 1024;

/**
 * A text box lays out all of its text again on every keystroke: at 1 MB that alone costs
 * Chromium 130–300 ms. So the input box holds at most a {@link PART}-character part of a
 * large input and the rest is kept here, before and after it. The codec, Copy, Swap, the
 * findings and a change of language always take the whole (`inputText`). Scrolling to the
 * end or the start of the box moves the part on, the bar under the box moves it to the
 * start, the end, or a step either way, and Ctrl+Home / Ctrl+End go to the whole input's
 * ends. What selects everything in the box (Ctrl+A) selects the whole input: typing,
 * pasting, deleting, copying or cutting then takes all of it. A value set by a script (an
 * `input` event with no `beforeinput` before it) is taken as the whole input.
 */
const inputParts = { active: false, before: "", after: "", edited: false, replacingAll: false, shifting: false };

/** The whole input: the text box's part with what is kept before and after it. */
function inputText() {
  const value = $("input").value;
  return inputParts.active ? inputParts.before + value + inputParts.after : value;
}

/** The whole input's length, without joining its parts. */
function inputLength() {
  const length = $("input").value.length;
  return inputParts.active ? inputParts.before.length + length + inputParts.after.length : length;
}

/** `index` moved back to the start of its line when one starts within 2,048 characters,
 * and never between the two halves of a surrogate pair. */
function partBoundary(whole, index) {
  if (index <= 0 || index >= whole.length) return Math.max(0, Math.min(index, whole.length));
  const line = whole.lastIndexOf("\n", index - 1);
  if (line >= 0 && index - line <= 2048) return line + 1;
  const before = whole.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index;
}

/**
 * Puts `whole` in the input box: whole when it is short, else the part that starts near
 * `start`. `selection` (indexes of the whole) is kept where it falls in what is shown.
 */
function showInput(whole, start, selection) {
  const box = $("input");
  if (whole.length < PART_FROM) {
    inputParts.active = false;
    inputParts.before = inputParts.after = "";
    box.value = whole;
    if (selection) box.setSelectionRange(selection[0], selection[1]);
    showInputPart();
    return;
  }
  const from = partBoundary(whole, Math.max(0, Math.min(start, whole.length - PART)));
  const to = Math.max(from + 1, partBoundary(whole, Math.min(whole.length, from + PART)));
  inputParts.active = true;
  ignoreInputScroll();
  inputParts.before = whole.slice(0, from);
  inputParts.after = whole.slice(to);
  box.value = whole.slice(from, to);
  if (selection) {
    const inPart = (index) => Math.max(0, Math.min(to - from, index - from));
    box.setSelectionRange(inPart(selection[0]), inPart(selection[1]));
  }
  showInputPart();
}

/** The scrolling that a new part and its selection cause (reported a frame later) does
 * not move the part again. */
function ignoreInputScroll() {
  inputParts.shifting = true;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      inputParts.shifting = false;
    }),
  );
}

/** Replaces the whole input with `value`, the caret at its end. */
function setInput(value) {
  showInput(value, value.length - PART, [value.length, value.length]);
}

/** The bar under the input box that says which part it holds (hidden for a whole input). */
function showInputPart() {
  const bar = $("input-part");
  if (!inputParts.active) {
    bar.hidden = true;
    return;
  }
  const from = inputParts.before.length;
  const length = inputLength();
  const number = (n) => n.toLocaleString(lang);
  const to = from + $("input").value.length;
  const drawn = ++inputPartNotes;
  withSizes([length], ([size]) => {
    if (drawn !== inputPartNotes) return;
    $("input-part-text").textContent = t("input-part", { size, from: number(from + 1), to: number(to), length: number(length) });
  });
  $("input-part-start").disabled = $("input-part-earlier").disabled = from === 0;
  $("input-part-later").disabled = $("input-part-end").disabled = inputParts.after === "";
  bar.hidden = false;
}

// Counts the bars drawn, so a size that comes late does not overwrite a newer bar.
let inputPartNotes = 0;

/** Moves the part the box holds to start near `start`, keeping the selection. */
function moveInputPart(start) {
  const box = $("input");
  const offset = inputParts.before.length;
  const selection = [offset + box.selectionStart, offset + box.selectionEnd];
  showInput(inputText(), start, selection);
}

/** Shows the whole input's character `index` in the box, selecting `length` characters. */
function revealInInput(index, length) {
  const box = $("input");
  if (inputParts.active) {
    const from = inputParts.before.length;
    if (index < from || index + length > from + box.value.length) moveInputPart(index - PART / 2);
  }
  const at = index - inputParts.before.length;
  box.focus();
  box.setSelectionRange(at, Math.min(box.value.length, at + length));
  // Scrolled to about where the selection is (the box does not do it for a selection set by
  // a script), by its share of the text.
  if (box.value.length > 0) {
    ignoreInputScroll();
    box.scrollTop = Math.max(0, (at / box.value.length) * box.scrollHeight - box.clientHeight / 2);
  }
}

/** After an edit: a large input goes into parts, a short one is shown whole, a big paste
 * into the part is split again around the caret. */
function fitInput() {
  const box = $("input");
  const edited = inputParts.edited;
  const replacingAll = inputParts.replacingAll;
  inputParts.edited = inputParts.replacingAll = false;
  if (inputParts.active && (!edited || replacingAll)) {
    inputParts.active = false;
    inputParts.before = inputParts.after = "";
  }
  if (!inputParts.active) {
    if (box.value.length >= PART_FROM) {
      const caret = box.selectionEnd;
      showInput(box.value, caret - PART / 2, [caret, caret]);
    } else showInputPart();
    return;
  }
  const length = inputLength();
  if (length <= WHOLE_UP_TO || box.value.length > 2 * PART || box.value.length < PART / 8) moveInputPart(inputParts.before.length + box.selectionEnd - PART / 2);
  else showInputPart();
}

function setupInputParts() {
  const box = $("input");
  const allSelected = () => inputParts.active && box.value.length > 0 && box.selectionStart === 0 && box.selectionEnd === box.value.length;
  box.addEventListener("beforeinput", () => {
    inputParts.edited = true;
    inputParts.replacingAll = allSelected();
  });
  // Everything in the box selected: the clipboard gets the whole input.
  const copyAll = (event, cut) => {
    if (!allSelected() || !event.clipboardData) return;
    event.preventDefault();
    event.clipboardData.setData("text/plain", inputText());
    if (cut) {
      setInput("");
      box.dispatchEvent(new Event("input", { bubbles: true }));
    }
  };
  box.addEventListener("copy", (event) => copyAll(event, false));
  box.addEventListener("cut", (event) => copyAll(event, true));
  box.addEventListener("keydown", (event) => {
    if (!inputParts.active || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    if (event.key === "Home" && inputParts.before !== "") {
      event.preventDefault();
      showInput(inputText(), 0, [0, 0]);
      box.scrollTop = 0;
    } else if (event.key === "End" && inputParts.after !== "") {
      event.preventDefault();
      const whole = inputLength();
      showInput(inputText(), whole, [whole, whole]);
      box.scrollTop = box.scrollHeight;
    }
  });
  // Scrolling to either end of the part moves it on by half, keeping what was in view.
  box.addEventListener("scroll", () => {
    if (!inputParts.active || inputParts.shifting) return;
    const atEnd = box.scrollTop + box.clientHeight >= box.scrollHeight - 2;
    const atStart = box.scrollTop <= 0;
    if (!(atEnd && inputParts.after !== "") && !(atStart && inputParts.before !== "")) return;
    const from = inputParts.before.length;
    const shown = box.value.length;
    const top = box.scrollTop;
    const height = box.scrollHeight;
    moveInputPart(atEnd ? from + PART / 2 : from - PART / 2);
    const moved = inputParts.before.length - from;
    // Where the text that was in view now is, by its share of the box's height.
    box.scrollTop = Math.max(1, Math.min(box.scrollHeight - box.clientHeight - 3, top - (moved / shown) * height));
  });
  const moves = { "input-part-start": () => 0, "input-part-earlier": () => inputParts.before.length - PART, "input-part-later": () => inputParts.before.length + PART, "input-part-end": () => inputLength() };
  for (const [id, start] of Object.entries(moves)) {
    $(id).addEventListener("click", () => {
      moveInputPart(start());
      box.scrollTop = id === "input-part-end" ? box.scrollHeight : 0;
    });
  }
}

// ---------------------------------------------------------------------------------------
// The codec form

const LIVE_KEY = "urlkit.live";
const CARRY_KEY = "urlkit.carry";

/** Hints and labels that say where the work happens. */
function showLiveMode() {
  const live = checked("live");
  $("live-hint").textContent = t(live ? "live-hint-on" : "live-hint-off");
  $("upload").textContent = t(live ? "process-in-browser" : "upload");
  $("file-live-note").hidden = !live;
}

function copyOutput() {
  const status = $("copy-status");
  navigator.clipboard.writeText(lastOutput).then(
    () => {
      status.textContent = t("copied");
    },
    () => {
      $("output").select();
      status.textContent = t("copy-select");
    },
  );
  setTimeout(() => {
    status.textContent = "";
  }, 2000);
}

function swap() {
  const output = lastOutput;
  const op = effectiveOp(inputText());
  setInput(output);
  direction = op === "encode" ? "decode" : "encode";
  run();
}

/** Ctrl+Shift (⌘⇧ on a Mac) with E, D, X or C, by key position so every layout works. */
const SHORTCUTS = {
  KeyE: () => choose("encode"),
  KeyD: () => choose("decode"),
  KeyX: swap,
  KeyC: copyOutput,
};

function setupShortcuts() {
  const mac = /Mac|iPhone|iPad/.test(navigator.platform || "");
  if (mac) for (const key of document.querySelectorAll("kbd[data-mod]")) key.textContent = "⌘";
  document.addEventListener("keydown", (event) => {
    const action = SHORTCUTS[event.code];
    if (!action || !event.shiftKey || event.altKey || !(mac ? event.metaKey : event.ctrlKey)) return;
    event.preventDefault();
    action();
  });
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
  // Live mode's short inputs are answered in this thread: its codec loads now, beside the
  // worker's (until it has, the worker answers everything).
  if (checked("live")) loadLive().catch(() => {});
  lastOutput = text("output");
  direction = ["encode", "decode"].includes(form.dataset.op) ? form.dataset.op : "auto";
  // Text carried over a change of language.
  try {
    const carried = JSON.parse(sessionStorage.getItem(CARRY_KEY) || "null");
    sessionStorage.removeItem(CARRY_KEY);
    if (carried && inputLength() === 0) {
      setInput(carried.input);
      direction = carried.direction;
      if (carried.input) run();
    }
  } catch {
    // Nothing carried.
  }
  showDirection(effectiveOp(inputText()));
  for (const link of document.querySelectorAll(".languages a")) {
    link.addEventListener("click", () => {
      try {
        sessionStorage.setItem(CARRY_KEY, JSON.stringify({ input: inputText(), direction }));
      } catch {
        // The text stays behind.
      }
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const value = event.submitter && event.submitter.value;
    if (value === "swap") swap();
    else if (value === "encode" || value === "decode") choose(value);
    else run();
  });
  // Answered within the keystroke's task, so a short input's answer is drawn with it.
  setupInputParts();
  $("input").addEventListener("input", () => {
    if (!inputAt) inputAt = performance.now();
    fitInput();
    if (!checked("live")) {
      if (direction === "auto") showDirection(effectiveOp(inputText()));
      return;
    }
    run();
  });
  form.addEventListener("change", (event) => {
    if (event.target.id === "input") return;
    if (event.target.id !== "live") {
      if (checked("live")) run();
      return;
    }
    showLiveMode();
    if (checked("live")) loadLive().catch(() => {});
    try {
      localStorage.setItem(LIVE_KEY, checked("live") ? "on" : "off");
    } catch {
      // Storage may be disabled; the choice then lasts until the page is left.
    }
    if (checked("live")) run();
  });
  form.addEventListener("input", (event) => {
    if (event.target.id !== "input" && event.target.tagName === "INPUT" && event.target.type !== "checkbox" && checked("live")) run();
  });
  $("copy").addEventListener("click", copyOutput);
  $("download").addEventListener("click", () => {
    const blob = new Blob([lastOutput], { type: "text/plain;charset=utf-8" });
    const url = URL.createObjectURL(blob);
    const link = el("a", { href: url, download: `urlkit-${currentOp}d.txt` });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  });
  setupShortcuts();
}

// ---------------------------------------------------------------------------------------
// The inspector

/** The URL's components in reading order, as the server lists them. */
const COMPONENTS = (pageData.components || "").split(" ").filter(Boolean);

const code = (value) => el("code", { dir: "ltr" }, value);
const quiet = (value) => el("span", { class: "quiet" }, value);

/**
 * The components as a table in reading order; the query's pairs as a table, each with a
 * button that removes it. `p` is a view's parts as the module's `shownParts` gives them
 * (urlkit-api's `ShownParts`, the rule the server's page renders by): the script reads
 * them as they are and works out none itself.
 */
function partsTable(p, editable) {
  const body = el("tbody");
  const row = (label, cls, ...value) => body.append(el("tr", { class: cls }, el("th", { scope: "row" }, label), el("td", null, ...value)));
  const none = () => quiet(t("none"));
  if (p.href !== null) row(t("field-href"), "href", code(p.href));
  for (const name of COMPONENTS) {
    const label = t(`part-${name}`);
    const cls = `part-${name}`;
    if (name === "host" && p.host !== null) {
      row(label, cls, code(p.host),
        p.host_unicode !== null && p.host_unicode !== p.host ? [" ", el("span", { class: "aside" }, t("host-unicode"), " ", code(p.host_unicode))] : null,
        p.host_type !== null ? [" ", el("span", { class: "aside" }, `${t("host-type")}: `, code(p.host_type))] : null);
    } else if (name === "port") {
      row(label, cls, p.port !== null ? code(p.port) : p.default_port !== null ? quiet(t("port-default", { port: p.default_port })) : none());
    } else if (name === "path" && p.path !== null) {
      row(label, cls, code(p.path), p.segments.length > 1 ? el("ol", { class: "segments", dir: "ltr" }, p.segments.map((s) => el("li", null, el("code", null, s)))) : null);
    } else if (name === "query" && p.query !== null) {
      const pairs = p.pairs.length === 0 ? null : el("table", { class: "pairs" },
        el("thead", null, el("tr", null, el("th", { scope: "col" }, t("query-name")), el("th", { scope: "col" }, t("query-value")), editable ? el("th", null) : null)),
        el("tbody", null, p.pairs.map(([n, v]) => {
          let remove = null;
          if (editable && n !== "") {
            remove = el("button", { type: "button", class: "link remove-pair" }, t("remove-pair"));
            remove.addEventListener("click", () => edit({ trim_query: [n] }));
          }
          return el("tr", null, el("td", null, code(n)), el("td", null, code(v)), editable ? el("td", null, remove) : null);
        })));
      row(label, cls, code(p.query), pairs, p.pairs_not_listed ? el("p", { class: "quiet" }, t("query-not-listed", { count: p.pairs_not_listed })) : null);
    } else if (name === "fragment" && p.fragment !== null) {
      row(label, cls, code(p.fragment), p.fragment_decoded !== null && p.fragment_decoded !== p.fragment ? [" ", el("span", { class: "aside" }, t("fragment-decoded"), " ", code(p.fragment_decoded))] : null);
    } else {
      const value = p[name];
      row(label, cls, value !== null && value !== undefined ? code(value) : none());
    }
  }
  if (p.origin !== null) row(t("field-origin"), "origin", code(p.origin));
  return el("table", { class: "parts" }, body);
}

/** The URL drawn with its parts marked (each part's text over its name), from `spans`. */
function drawing(view) {
  const href = view.href;
  const spans = Array.isArray(view.spans) ? [...view.spans].sort((a, b) => a.start - b.start) : [];
  if (!href || spans.length === 0) return null;
  const bytes = new TextEncoder().encode(href);
  const text8 = new TextDecoder();
  const slice = (from, to) => text8.decode(bytes.subarray(from, to));
  const line = el("div", { class: "drawn-url", dir: "ltr" });
  let at = 0;
  spans.forEach((s, i) => {
    if (at === null || s.start < at || s.end > bytes.length || s.start >= s.end) {
      at = null;
      return;
    }
    if (s.start > at) line.append(el("span", { class: "sep" }, slice(at, s.start)));
    const lower = i % 2 === 1 ? " lower" : "";
    line.append(el("span", { class: `mark mark-${s.component}${lower}` }, el("span", { class: "text" }, slice(s.start, s.end)), el("span", { class: "label", dir: "auto" }, t(`part-${s.component}`))));
    at = s.end;
  });
  if (at === null) return null;
  if (at < bytes.length) line.append(el("span", { class: "sep" }, slice(at, bytes.length)));
  return el("figure", { class: "drawn" }, el("figcaption", null, t("drawn-url")), line);
}

/** The warnings as a list that wraps on a phone. */
function warningsList(view) {
  const list = view.warnings || [];
  const out = [el("h4", null, t("warnings"))];
  if (list.length === 0) {
    out.push(el("p", { class: "quiet" }, t("warnings-none")));
    return out;
  }
  out.push(el("ul", { class: "warnings" }, list.map((w) => el("li", null, el("span", { class: "pos" }, t("at-byte", { offset: w.offset })), " ", el("code", { class: "code" }, w.code), " ", explained(w.code, w.message)))));
  if (view.warnings_not_listed) out.push(el("p", { class: "quiet" }, t("warnings-not-listed", { count: view.warnings_not_listed })));
  return out;
}

function problem(p) {
  return el("p", { class: "error" }, t("parse-failed", { position: p.position, message: p.message }));
}

/** Shows an answer of `POST /api/inspect`; each view's parts come from `codec`, the module's `shownParts`. */
function showInspected(out, body, note, codec) {
  clear(out);
  if (note) out.append(note);
  if (body.resolved) out.append(el("p", { class: "resolved" }, `${t("resolved")}: `, code(body.resolved)));
  out.append(el("h3", null, t("view-whatwg")));
  if (body.whatwg) out.append(drawing(body.whatwg) || "", partsTable(codec.shownParts(body.whatwg), true), ...warningsList(body.whatwg));
  else if (body.whatwg_error) out.append(problem(body.whatwg_error));
  const generic = el("details", { class: "generic" }, el("summary", null, t("view-rfc3986")));
  if (body.rfc3986) generic.append(partsTable(codec.shownParts(body.rfc3986), false));
  else if (body.rfc3986_error) generic.append(problem(body.rfc3986_error));
  out.append(generic);
}

/** Whether an error says that the server's inspector takes no edits at all. */
function editsUnknown(error) {
  return /unknown field `(set|clear|append_query|trim_query|sort_query)`/.test(error.message || "");
}

async function askInspect(request) {
  const response = await fetch("/api/inspect", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const body = await response.json().catch(() => null);
  if (!response.ok || !body) throw CodecError.of(body, response.status);
  return body;
}

/** Inspects the URL, after `edits` (the fields of `POST /api/inspect`); an edited URL replaces the one in the box. */
async function inspectWith(edits) {
  const out = $("inspect-result");
  const url = text("url");
  const base = text("base").trim();
  const request = { url, ...(base ? { base } : {}), ...edits };
  // The module shows each view's parts by the server's rule; it loads while the server answers.
  const codec = loadLive();
  codec.catch(() => {});
  let note = null;
  let body;
  try {
    body = await askInspect(request);
  } catch (error) {
    if (!(error instanceof CodecError) || !edits || !editsUnknown(error)) throw error;
    note = el("p", { class: "note", role: "status" }, t("edit-unavailable"));
    body = await askInspect({ url, ...(base ? { base } : {}) });
  }
  if (edits && !note && body.whatwg && body.whatwg.href) $("url").value = body.whatwg.href;
  showInspected(out, body, note, await codec);
}

function edit(edits) {
  const out = $("inspect-result");
  inspectWith(edits).catch((error) => {
    if (error instanceof CodecError && error.code === "edit-refused") {
      clear(out);
      out.append(el("div", { class: "error", role: "alert" }, el("p", null, t("edit-refused", { field: error.field || "", message: error.message }))));
      return;
    }
    showError(out, error instanceof CodecError ? error : { code: "network", message: String(error.message || error) }, null, "text");
  });
}

function setupInspect() {
  const form = $("inspect-form");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const op = event.submitter && event.submitter.value;
    const component = text("edit-component");
    if (op === "inspect-set") edit({ set: { [component]: text("edit-value") } });
    else if (op === "inspect-clear") edit({ clear: [component] });
    else if (op === "inspect-query") {
      const edits = {};
      if (text("edit-append").trim()) edits.append_query = [text("edit-append").trim()];
      if (text("edit-trim").trim()) edits.trim_query = [text("edit-trim").trim()];
      if (checked("edit-sort")) edits.sort_query = true;
      edit(edits);
    } else edit(null);
  });
}

// ---------------------------------------------------------------------------------------
// Files

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
  const binary = !options.charset;
  const codec = op === "encode" ? live.createEncoder({ ...options, binary }) : live.createDecoder({ ...options, binary });
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
    if (error && error.body && error.body.error) throw CodecError.of(error.body, 422);
    throw error;
  }
  blobs.push(new Blob(pending));
  return { blob: new Blob(blobs, { type: "application/octet-stream" }), result: codec.result };
}

/** The file form's options, named as the API names them. */
function fileOptions(op) {
  const options = { per_line: checked("file-per-line"), strict: checked("file-strict") };
  const charset = text("file-charset");
  if (charset && !(op === "encode" && charset === "auto")) options.charset = charset;
  if (op === "decode") options.plus_space = checked("file-plus-space");
  else options.set = text("file-set");
  return options;
}

let fileUrl = null;

async function processInBrowser(out) {
  const file = $("file").files[0];
  if (!file) {
    clear(out);
    out.append(el("p", { class: "error", role: "alert" }, t("error-no-file")));
    return;
  }
  const op = $("file-op").value === "decode" ? "decode" : "encode";
  const status = el("p", { class: "quiet" }, t("file-processing-local", { percent: 0 }));
  clear(out);
  out.append(status);
  const started = performance.now();
  const { blob, result } = await processFileLocally(file, op, fileOptions(op), (done, total) => {
    status.textContent = t("file-processing-local", { percent: Math.floor((done / Math.max(total, 1)) * 100) });
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (fileUrl) URL.revokeObjectURL(fileUrl);
  fileUrl = URL.createObjectURL(blob);
  clear(out);
  // The name the server would give it, by the server's own rule (in the module).
  const name = (await loadLive()).resultName(file.name, op);
  const link = el("a", { class: "download", href: fileUrl, download: name }, t("file-download"), " ", el("span", { class: "name", dir: "ltr" }, `(${name})`));
  out.append(el("p", null, t("file-ready-local", { size: blob.size, seconds }), " ", link));
  const findings = el("div", { class: "findings-box" });
  showFindings(findings, result, false);
  out.append(findings);
}

async function uploadToServer(form, out) {
  clear(out);
  out.append(el("p", { class: "quiet" }, t("file-processing")));
  const response = await fetch(`/api/files`, { method: "POST", body: new FormData(form) });
  const body = await response.json().catch(() => null);
  if (!response.ok || !body) {
    showError(out, CodecError.of(body, response.status), null, "file");
    return;
  }
  clear(out);
  const name = body.name || "";
  const link = el("a", { class: "download", href: body.download, download: name }, t("file-download"), " ", el("span", { class: "name", dir: "ltr" }, `(${name})`));
  const ready = el("p", null, t("file-ready", { size: body.size }), " ", link, " ", t("file-once", { expires: new Date(body.expires_at).toLocaleString(lang) }));
  link.addEventListener("click", () => {
    setTimeout(() => {
      ready.replaceWith(el("p", { class: "quiet" }, t("file-downloaded", { size: body.size })));
    }, 0);
  });
  out.append(ready);
  const findings = el("div", { class: "findings-box" });
  showFindings(findings, body, false);
  out.append(findings);
}

function setupFiles() {
  const form = $("file-form");
  const out = $("file-result");
  const showFileOptions = () => {
    const decode = $("file-op").value === "decode";
    $("file-set").disabled = decode;
    $("file-plus-space").disabled = !decode;
  };
  $("file-op").addEventListener("change", showFileOptions);
  showFileOptions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      if (liveMode()) await processInBrowser(out);
      else await uploadToServer(form, out);
    } catch (error) {
      showError(out, error instanceof CodecError ? error : { code: "network", message: String(error.message || error) }, null, "file");
    }
  });
}

for (const node of document.querySelectorAll(".js-only")) node.hidden = false;
setupCodec();
setupInspect();
setupFiles();
