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

/** The size the static build answers when none is asked: the 7x6 engine's, the page's first load. */
export const DEFAULT_SIZE = "7x6";

/** The folder of the build that holds `size`: pkg/ for 7x6 (small), pkg-all/ for every other size. */
function buildOf(size) {
  return size === DEFAULT_SIZE ? "pkg" : "pkg-all";
}

// Each .wasm, compiled once for every worker this page starts: while it downloads
// when the server sends it as application/wasm, after otherwise. The 7x6 one at
// once (the page's first question); the every-size one only when a worker needs it.
const compiled = new Map();
function wasmModule(build) {
  if (!compiled.has(build)) {
    const url = new URL(`./${build}/c4solver_wasm_bg.wasm`, import.meta.url);
    compiled.set(
      build,
      WebAssembly.compileStreaming(fetch(url)).catch(() =>
        fetch(url)
          .then((reply) => (reply.ok ? reply.arrayBuffer() : Promise.reject(new Error(`HTTP ${reply.status}`))))
          .then((bytes) => WebAssembly.compile(bytes)),
      ),
    );
  }
  return compiled.get(build);
}
wasmModule(buildOf(DEFAULT_SIZE));

let worker = null;
// The 12-stone 7x6 book's bytes, once a worker has fetched them: the next 7x6 worker starts with them.
let book = null;
// The size of the last call: the worker that answers `sizes()`.
let current = DEFAULT_SIZE;
let next = 1;
// The call the worker is answering, and those waiting for it (one at a time, so
// that a call the page gave up on never reaches the worker).
let running = null;
const queue = [];

/**
 * The worker of board `size`, started on first use, after the previous one was
 * ended, or when the size changes (the worker of the other size is ended).
 */
function solver(size) {
  if (worker && worker.size === size) return worker;
  stop();
  const started = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker = started;
  worker.size = size;
  const build = buildOf(size);
  // The first message: what the previous workers loaded. Requests wait behind it.
  worker.ready = wasmModule(build)
    .catch(() => undefined)
    .then((module) => started.postMessage({ op: "start", module, build, size, book: build === "pkg" ? book : null }));
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
  const w = solver(call.request.size);
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
 * Every column's score of `moves` on the board `size` ("8x8"; 7x6 by default):
 * the fields of `c4solver analyze --json` (scores, best, score, pv with `pv`,
 * nodes, time_us, book). An abort of `signal` rejects it with the signal's
 * reason and ends the search at once. A size other than 7x6 is answered by a
 * worker of the every-size build; a size not built is refused with the command
 * line's message.
 */
export function analyze(moves, { pv = false, size = DEFAULT_SIZE, signal } = {}) {
  current = size;
  return ask({ op: "analyze", moves, pv, size }, signal);
}

/**
 * The depth of the book the solver answers from: 8 while the 12-stone book
 * (book.c4book) is on its way, 12 once it has arrived. The WebAssembly build
 * only; the page does not need it.
 */
export function bookDepth() {
  return ask({ op: "bookDepth", size: current });
}

/**
 * The board sizes the page offers, as the server's `GET /sizes` gives them:
 * `{sizes: ["4x4", ...], default: "7x6"}`, every size of the every-size build
 * (pkg-all/), listed by the 7x6 engine without loading that build.
 */
export async function sizes() {
  return { sizes: await ask({ op: "sizes", size: current }), default: DEFAULT_SIZE };
}
