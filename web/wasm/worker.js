// The WebAssembly solver in a Web Worker: one engine (a 64 MB table and the
// 8-stone book inside the .wasm), answering client.js's requests one at a time
// with the JSON of `c4solver analyze --json`. client.js ends this worker when the
// page no longer needs the search it runs, and starts another; its first message,
// `start`, hands over what the previous worker already loaded (the compiled
// .wasm, the 12-stone book's bytes), so a new worker is ready in milliseconds.
// With no book given, it fetches book.c4book (the 12-stone book, 8 MB), answers
// from it when it has arrived, and sends its bytes to client.js; every answer is
// exact either way, only faster after.
import init, { Engine } from "./pkg/c4solver_wasm.js";

let ready = null;

/** Starts the engine, from `module` (a compiled .wasm) and `book` (bytes) when given. */
async function start(module, book) {
  await init(module ? { module_or_path: module } : undefined);
  const engine = new Engine(64, true);
  if (book) engine.loadBook(new Uint8Array(book));
  else fetchBook(engine);
  return engine;
}

// Runs between two requests (the worker does one thing at a time); a missing or
// bad file leaves the 8-stone book in place.
async function fetchBook(engine) {
  try {
    const reply = await fetch(new URL("book.c4book", self.location.href));
    if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
    const bytes = await reply.arrayBuffer();
    engine.loadBook(new Uint8Array(bytes));
    // The engine keeps its own copy: the bytes go to client.js for the next worker.
    self.postMessage({ book: bytes }, [bytes]);
  } catch (e) {
    console.warn(`book.c4book not loaded, the 8-stone book answers: ${e}`);
  }
}

self.onmessage = async ({ data }) => {
  const { id, op, moves, pv } = data;
  if (op === "start") {
    ready = start(data.module, data.book);
    return;
  }
  let engine;
  try {
    engine = await (ready ??= start());
  } catch (e) {
    self.postMessage({ id, error: `cannot start the solver: ${e}`, status: 0 });
    return;
  }
  try {
    if (op === "bookDepth") self.postMessage({ id, answer: engine.bookDepth() ?? null });
    else if (op === "analyze") self.postMessage({ id, answer: JSON.parse(engine.analyze(moves, false, pv)) });
    else throw new Error(`unknown request ${op}`);
  } catch (e) {
    // The bindings throw the command line's message for a bad position.
    self.postMessage({ id, error: String(e.message ?? e), status: 400 });
  }
};
