// The WebAssembly solver in a Web Worker: one engine of one board size (a 64 MB
// table; on 7x6 the 8-stone book inside the .wasm), answering client.js's
// requests one at a time with the JSON of `c4solver analyze --json`. client.js
// ends this worker when the page no longer needs the search it runs, or picks
// another size, and starts another; its first message, `start`, names the build
// (pkg/ for 7x6, pkg-all/ for every other size) and the size, and hands over what
// the previous worker already loaded (the compiled .wasm, the 12-stone book's
// bytes), so a new worker is ready in milliseconds. On 7x6 with no book given,
// it fetches book.c4book (the 12-stone book, 8 MB), answers from it when it has
// arrived, and sends its bytes to client.js; every answer is exact either way,
// only faster after.

// The glue of the build, started; the engine is made at the first question that
// needs it (listing the sizes does not), so that a bad size is refused with the
// command line's message on every request.
let ready = null;
let engine = null;
let config = { build: "pkg", size: "7x6", book: null };

/** Starts the build's glue, from `module` (a compiled .wasm) when given. */
async function start({ module, build }) {
  const glue = await import(`./${build}/c4solver_wasm.js`);
  await glue.default(module ? { module_or_path: module } : undefined);
  return glue;
}

/** The engine of the worker's size, made once (a bad size throws the command line's message each time). */
function engineOf(glue) {
  if (engine) return engine;
  const made = new glue.Engine(64, true, config.size);
  if (config.size === "7x6") {
    if (config.book) made.loadBook(new Uint8Array(config.book));
    else fetchBook(made);
  }
  engine = made;
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
    config = data;
    ready = start(data);
    return;
  }
  let glue;
  try {
    glue = await (ready ??= start(config));
  } catch (e) {
    self.postMessage({ id, error: `cannot start the solver: ${e}`, status: 0 });
    return;
  }
  try {
    if (op === "sizes") self.postMessage({ id, answer: glue.everySize() });
    else if (op === "bookDepth") self.postMessage({ id, answer: engineOf(glue).bookDepth() ?? null });
    else if (op === "analyze") self.postMessage({ id, answer: JSON.parse(engineOf(glue).analyze(moves, false, pv)) });
    else throw new Error(`unknown request ${op}`);
  } catch (e) {
    // The bindings throw the command line's message for a bad position or size.
    self.postMessage({ id, error: String(e.message ?? e), status: 400 });
  }
};
