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

let worker = null;
let next = 1;
const pending = new Map();

/** The worker, started on first use; a crash fails every call in flight. */
function solver() {
  if (worker) return worker;
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const call = pending.get(data.id);
    if (!call) return;
    pending.delete(data.id);
    if (data.error !== undefined) call.reject(new SolverError(data.error, data.status));
    else call.resolve(data.answer);
  };
  worker.onerror = (event) => {
    const why = `the solver stopped: ${event.message || "cannot load it"}`;
    for (const call of pending.values()) call.reject(new SolverError(why, 0));
    pending.clear();
    worker = null;
  };
  return worker;
}

function ask(request) {
  return new Promise((resolve, reject) => {
    const id = next++;
    pending.set(id, { resolve, reject });
    solver().postMessage({ id, ...request });
  });
}

/**
 * Every column's score of `moves` (the fields of `c4solver analyze --json`:
 * scores, best, score, pv with `pv`, nodes, time_us, book).
 */
export function analyze(moves, { pv = false } = {}) {
  return ask({ op: "analyze", moves, pv });
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
