// The solver client of the static build (scripts/build-web puts it in place of
// ../client.js): the same functions, answered by the WebAssembly solver in a Web
// Worker (worker.js), so that a long search never freezes the page.

/** An answer the solver refused, with its message (a bad position: the command line's). */
export class SolverError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

// Offline reloads: the service worker (sw.js) keeps the build's files in a cache.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker
    .register(new URL("./sw.js", import.meta.url))
    .catch((e) => console.warn(`no offline copy of the page: ${e}`));
}

// The .wasm, compiled once for every worker this page starts: while it downloads
// when the server sends it as application/wasm, after otherwise.
const wasmUrl = new URL("./pkg/c4solver_wasm_bg.wasm", import.meta.url);
const wasmModule = WebAssembly.compileStreaming(fetch(wasmUrl)).catch(() =>
  fetch(wasmUrl)
    .then((reply) => (reply.ok ? reply.arrayBuffer() : Promise.reject(new Error(`HTTP ${reply.status}`))))
    .then((bytes) => WebAssembly.compile(bytes)),
);

let worker = null;
// The 12-stone book's bytes, once a worker has fetched them: the next worker starts with them.
let book = null;
let next = 1;
// The call the worker is answering, and those waiting for it (one at a time, so
// that a call the page gave up on never reaches the worker).
let running = null;
const queue = [];

/** The worker, started on first use or after the previous one was ended. */
function solver() {
  if (worker) return worker;
  const started = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker = started;
  // The first message: what the previous workers loaded. Requests wait behind it.
  worker.ready = wasmModule
    .catch(() => undefined)
    .then((module) => started.postMessage({ op: "start", module, book }));
  worker.onmessage = ({ data }) => {
    if (data.book) {
      book = data.book;
      return;
    }
    const call = running;
    if (!call || call.id !== data.id) return;
    finish(call);
    if (data.error !== undefined) call.reject(new SolverError(data.error, data.status));
    else call.resolve(data.answer);
  };
  worker.onerror = (event) => {
    const why = new SolverError(`the solver stopped: ${event.message || "cannot load it"}`, 0);
    const failed = [running, ...queue.splice(0)].filter(Boolean);
    running = null;
    stop();
    for (const call of failed) call.reject(why);
  };
  return worker;
}

/** Ends the worker (and the search it runs): the next call starts another. */
function stop() {
  worker?.terminate();
  worker = null;
}

/** The call is over: the next one waiting goes to the worker. */
function finish(call) {
  call.signal?.removeEventListener("abort", call.onAbort);
  if (running === call) running = null;
  const i = queue.indexOf(call);
  if (i >= 0) queue.splice(i, 1);
  pump();
}

function pump() {
  if (running || queue.length === 0) return;
  const call = queue.shift();
  running = call;
  const w = solver();
  w.ready.then(() => {
    if (running === call && worker === w) w.postMessage({ id: call.id, ...call.request });
  });
}

/**
 * Sends `request` to the worker after the calls before it. When `signal`
 * aborts, the call fails with its reason; if the worker was answering it, the
 * worker is ended, so that the next call does not wait for a search no one needs.
 */
function ask(request, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const call = { id: next++, request, resolve, reject, signal };
    call.onAbort = () => {
      if (running === call) stop();
      finish(call);
      reject(signal.reason);
    };
    signal?.addEventListener("abort", call.onAbort, { once: true });
    queue.push(call);
    pump();
  });
}

/**
 * Every column's score of `moves` (the fields of `c4solver analyze --json`:
 * scores, best, score, pv with `pv`, nodes, time_us, book). An abort of
 * `signal` rejects it with the signal's reason and ends the search at once.
 */
export function analyze(moves, { pv = false, signal } = {}) {
  return ask({ op: "analyze", moves, pv }, signal);
}

/**
 * The depth of the book the solver answers from: 8 while the 12-stone book
 * (book.c4book) is on its way, 12 once it has arrived. The WebAssembly build
 * only; the page does not need it.
 */
export function bookDepth() {
  return ask({ op: "bookDepth" });
}

/** The board's size, `{width, height}`: the WebAssembly build is 7x6. */
export async function boardSize() {
  return { width: 7, height: 6 };
}
