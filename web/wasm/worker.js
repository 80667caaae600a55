// The WebAssembly solver in a Web Worker: one engine (a 64 MB table and the
// built-in book) kept for the page's whole life, answering client.js's requests
// one at a time with the JSON of `c4solver analyze --json`.
import init, { Engine } from "./pkg/c4solver_wasm.js";

const ready = init().then(() => new Engine(64, true));

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
    if (op !== "analyze") throw new Error(`unknown request ${op}`);
    self.postMessage({ id, answer: JSON.parse(engine.analyze(moves, false, pv)) });
  } catch (e) {
    // The bindings throw the command line's message for a bad position.
    self.postMessage({ id, error: String(e.message ?? e), status: 400 });
  }
};
