// Live mode's worker: the codec (urlkit.mjs and its WebAssembly module) runs here, off the
// page's thread, so typing never waits for it.
//
// In:  {type: "init", module, wasm}                       the URLs of urlkit.mjs and urlkit.wasm
//      {type: "run", id, op, input, options}             op: "encode" | "decode"
//      {type: "cancel"}                                  drop all work (ids start at 1)
// Out: {type: "ready"} | {type: "failed", message}
//      {type: "progress", id, output, done, total}       a large input, a piece at a time
//      {type: "result", id, result}                      the API's answer (or {error})
//
// Only the newest request is worked on: a request that a newer one overtook is dropped
// before it starts, and a large one stops between pieces.

/** Inputs up to this many bytes are answered whole; larger ones stream, a piece at a time. */
const WHOLE_UP_TO = 1024 * 1024;
/** Bytes per piece of a streamed input. */
const PIECE = 256 * 1024;

let urlkit = null;
let ready = null;
let newest = 0;
/** The newest request not yet started, and whether it is about to be. */
let waiting = null;
let scheduled = false;

self.onmessage = (event) => {
  const message = event.data;
  if (message.type === "init") {
    ready = start(message).then(
      () => self.postMessage({ type: "ready" }),
      (error) => {
        self.postMessage({ type: "failed", message: String((error && error.message) || error) });
        throw error;
      },
    );
    return;
  }
  if (message.type === "cancel") {
    // The page answered a newer input itself: nothing here is wanted any more.
    newest = 0;
    waiting = null;
    return;
  }
  if (message.type === "run") {
    newest = message.id;
    waiting = message;
    if (scheduled) return;
    scheduled = true;
    // Requests already queued behind this one are read first; only the newest runs.
    yieldToMessages()
      .then(() => ready)
      .then(() => {
        scheduled = false;
        const next = waiting;
        waiting = null;
        return next && run(next);
      })
      .catch(() => {
        scheduled = false;
      });
  }
};

async function start({ module, wasm }) {
  urlkit = await import(module);
  await urlkit.load(wasm);
}

/** Lets messages that arrived meanwhile (a newer request) be seen. */
function yieldToMessages() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = resolve;
    channel.port2.postMessage(null);
  });
}

const utf8 = new TextEncoder();

async function run({ id, op, input, options }) {
  if (id !== newest) return;
  const bytes = input.length * 3 <= WHOLE_UP_TO ? null : utf8.encode(input);
  if (bytes === null || bytes.length <= WHOLE_UP_TO || options.until_stable) {
    const result = op === "encode" ? urlkit.encode(bytes || input, options) : urlkit.decode(bytes || input, options);
    self.postMessage({ type: "result", id, result });
    return;
  }
  // A large input: a piece at a time, its output sent as it comes, so the page shows
  // progress and a newer request stops this one. The pieces give the whole input's answer.
  const stream = op === "encode" ? urlkit.createEncoder(options) : urlkit.createDecoder(options);
  const text = new TextDecoder("utf-8", { ignoreBOM: true });
  try {
    for (let at = 0; at < bytes.length; at += PIECE) {
      const piece = stream.push(bytes.subarray(at, at + PIECE));
      self.postMessage({ type: "progress", id, output: text.decode(piece, { stream: true }), done: Math.min(at + PIECE, bytes.length), total: bytes.length });
      await yieldToMessages();
      if (id !== newest) {
        stream.free();
        return;
      }
    }
    const last = text.decode(stream.finish());
    self.postMessage({ type: "result", id, result: { output: last, streamed: true, ...stream.result } });
  } catch (error) {
    stream.free();
    self.postMessage({ type: "result", id, result: (error && error.body) || { error: { code: "internal", message: String(error) } } });
  }
}
