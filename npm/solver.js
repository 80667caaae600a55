// The API that index.js (browsers, bundlers) and node.js (Node) share over the
// wasm-bindgen bindings: pkg/ holds the 7x6 engine (small, loaded first), pkg-all/
// every size (loaded only for another size). index.js and node.js differ only in
// how they fetch a .wasm and the 12-stone book.
import * as small from "./pkg/c4solver_wasm.js";

/** The two builds: each glue module, started once from what `wasm(build)` gives. */
const builds = {
  small: { glue: () => Promise.resolve(small), started: null },
  all: { glue: () => import("./pkg-all/c4solver_wasm.js"), started: null },
};

/** Starts the glue of `build` once, from the .wasm that `wasm(build)` gives (its bytes or its URL); a failed start is tried again next time. */
function start(name, wasm) {
  const build = builds[name];
  build.started ??= build
    .glue()
    .then(async (glue) => {
      await glue.default({ module_or_path: await wasm(name) });
      return glue;
    })
    .catch((e) => {
      build.started = null;
      throw e;
    });
  return build.started;
}

/** Runs `f`, turning what the bindings throw (the command line's message, as a string) into an Error. */
function call(f) {
  try {
    return f();
  } catch (e) {
    throw e instanceof Error ? e : new Error(String(e));
  }
}

/** What `value` is, for a message: `the string "64"`, `null`, `object`. */
function described(value) {
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  if (value === null) return "null";
  if (typeof value === "number") return String(value);
  return typeof value;
}

function movesOf(moves) {
  if (typeof moves !== "string") {
    throw new TypeError(`moves must be a string of columns, such as "4455", not ${described(moves)}`);
  }
  return moves;
}

function bytesOf(book) {
  if (book instanceof Uint8Array) return book;
  if (book instanceof ArrayBuffer) return new Uint8Array(book);
  if (ArrayBuffer.isView(book)) return new Uint8Array(book.buffer, book.byteOffset, book.byteLength);
  throw new TypeError(`book must be the bytes of a .c4book file (Uint8Array or ArrayBuffer) or false, not ${described(book)}`);
}

/** A solver of one board size: one engine with its table and book, answering one call at a time. */
export class Solver {
  #engine;

  constructor(engine) {
    this.#engine = engine;
  }

  /** The engine, or a clear error once `free()` has returned its memory. */
  get #live() {
    if (this.#engine === null) throw new Error("this solver was freed (solver.free()): create another with createSolver()");
    return this.#engine;
  }

  /** The board size, "WxH" (such as "7x6"). */
  get size() {
    return this.#live.size;
  }

  /** The analysis of `c4solver analyze --json`: score, every column's score, best columns, book, nodes, time_us, and pv with `{ pv: true }`. */
  analyze(moves, { weak = false, pv = false } = {}) {
    const engine = this.#live;
    return JSON.parse(call(() => engine.analyze(movesOf(moves), !!weak, !!pv)));
  }

  /** The position's score (with `{ weak: true }` only its sign). */
  solve(moves, { weak = false } = {}) {
    const engine = this.#live;
    return JSON.parse(call(() => engine.score(movesOf(moves), !!weak))).score;
  }

  /** One score per column as the online solver gives them, 100 for a full column. */
  scores(moves) {
    const engine = this.#live;
    return JSON.parse(call(() => engine.solve(movesOf(moves)))).score;
  }

  /** Answers from the book in `bytes` (of this board size) from now on; returns its depth. A bad file is refused and the book in use kept. */
  loadBook(bytes) {
    const engine = this.#live;
    return call(() => engine.loadBook(bytesOf(bytes)));
  }

  /** Every position with at most this many stones is answered from the book (null: no book). */
  get bookDepth() {
    return this.#live.bookDepth() ?? null;
  }

  /** Frees the engine's memory (its table); every later call throws. Freeing twice does nothing. */
  free() {
    this.#engine?.free();
    this.#engine = null;
  }
}

/** The options of `createSolver`, checked: `null` and `undefined` are the defaults. */
function optionsOf(options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`createSolver takes an options object ({ size, book, tableMb }), not ${described(options)}`);
  }
  return options;
}

/** A solver from the .wasm that `wasm(build)` gives ("small": 7x6, "all": every size), with the options of `createSolver`. */
export async function create(wasm, options) {
  const { size = "7x6", book, tableMb = 64 } = optionsOf(options);
  if (!Number.isInteger(tableMb) || tableMb < 1) {
    throw new RangeError(`tableMb must be a whole number of megabytes, at least 1, not ${described(tableMb)}`);
  }
  if (typeof size !== "string") {
    throw new TypeError(`size must be a string such as "8x8", not ${described(size)}`);
  }
  if (book !== undefined && book !== false) bytesOf(book);
  // The 7x6 build checks the size, with the command line's message for a bad one.
  const first = await start("small", wasm);
  const glue = call(() => first.checkSize(size)) ? first : await start("all", wasm);
  const solver = new Solver(call(() => new glue.Engine(tableMb, book !== false, size)));
  if (book !== undefined && book !== false) {
    try {
      solver.loadBook(book);
    } catch (e) {
      solver.free();
      throw e;
    }
  }
  return solver;
}

/** The board sizes `createSolver` takes, "WxH": 7x6 and every size of the every-size build. */
export async function sizes(wasm) {
  return (await start("small", wasm)).everySize();
}
