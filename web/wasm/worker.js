// The WebAssembly solver in a Web Worker: one engine (a 64 MB table and the
// 8-stone book inside the .wasm) kept for the page's whole life, answering
// client.js's requests one at a time with the JSON of `c4solver analyze --json`.
// Once started it fetches book.c4book (the 12-stone book, 8 MB) and answers from
// it when it has arrived; every answer is exact either way, only faster after.
import init, { Engine } from "./pkg/c4solver_wasm.js";

const ready = init().then(() => new Engine(64, true));

// Runs between two requests (the worker does one thing at a time); a missing or
// bad file leaves the 8-stone book in place.
ready
  .then(async (engine) => {
    const reply = await fetch(new URL("book.c4book", self.location.href));
    if (!reply.ok) throw new Error(`HTTP ${reply.status}`);
    engine.loadBook(new Uint8Array(await reply.arrayBuffer()));
  })
  .catch((e) => console.warn(`book.c4book not loaded, the 8-stone book answers: ${e}`));

self.onmessage = async ({ data }) => {
  const { id, op, moves, pv } = data;
  let engine;
  try {
    engine = await ready;
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
