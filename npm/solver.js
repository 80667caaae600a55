// The API that index.js (browsers, bundlers) and node.js (Node) share over the
// wasm-bindgen bindings in pkg/: they differ only in how they fetch the .wasm
// and the 12-stone book.
import init, { Engine } from "./pkg/c4solver_wasm.js";

let started = null;

/** Starts the bindings once, from what `wasm()` gives (the .wasm's bytes, or its URL); a failed start is tried again next time. */
function start(wasm) {
  started ??= Promise.resolve()
    .then(wasm)
    .then((source) => init({ module_or_path: source }))
    .catch((e) => {
      started = null;
      throw e;
    });
  return started;
}

/** Runs `f`, turning what the bindings throw (the command line's message, as a string) into an Error. */
function call(f) {
  try {
    return f();
  } catch (e) {
    throw e instanceof Error ? e : new Error(String(e));
  }
}

function movesOf(moves) {
  if (typeof moves !== "string") {
    throw new TypeError(`moves must be a string of columns 1-7, such as "4455", not ${typeof moves}`);
  }
  return moves;
}

function bytesOf(book) {
  if (book instanceof Uint8Array) return book;
  if (book instanceof ArrayBuffer) return new Uint8Array(book);
  if (ArrayBuffer.isView(book)) return new Uint8Array(book.buffer, book.byteOffset, book.byteLength);
  throw new TypeError("book must be the bytes of a .c4book file (Uint8Array or ArrayBuffer)");
}

/** A 7x6 solver: one engine with its table and book, answering one call at a time. */
export class Solver {
  #engine;

  constructor(engine) {
    this.#engine = engine;
  }

  /** The analysis of `c4solver analyze --json`: score, every column's score, best columns, book, nodes, time_us, and pv with `{ pv: true }`. */
  analyze(moves, { weak = false, pv = false } = {}) {
    return JSON.parse(call(() => this.#engine.analyze(movesOf(moves), !!weak, !!pv)));
  }

  /** The position's score (with `{ weak: true }` only its sign). */
  solve(moves, { weak = false } = {}) {
    return JSON.parse(call(() => this.#engine.score(movesOf(moves), !!weak))).score;
  }

  /** One score per column as the online solver gives them, 100 for a full column. */
  scores(moves) {
    return JSON.parse(call(() => this.#engine.solve(movesOf(moves)))).score;
  }

  /** Answers from the book in `bytes` from now on; returns its depth. A bad file is refused and the book in use kept. */
  loadBook(bytes) {
    return call(() => this.#engine.loadBook(bytesOf(bytes)));
  }

  /** Every position with at most this many stones is answered from the book (null: no book). */
  get bookDepth() {
    return this.#engine.bookDepth() ?? null;
  }

  /** Frees the engine's memory (its table); the solver cannot be used after. */
  free() {
    this.#engine.free();
  }
}

/** A solver from the .wasm that `wasm()` gives, with the options of `createSolver`. */
export async function create(wasm, { book, tableMb = 64 } = {}) {
  if (!Number.isInteger(tableMb) || tableMb < 1) {
    throw new RangeError(`tableMb must be a whole number of megabytes, at least 1, not ${tableMb}`);
  }
  await start(wasm);
  const solver = new Solver(call(() => new Engine(tableMb, book !== false)));
  if (book !== undefined && book !== false) solver.loadBook(book);
  return solver;
}
