// The types of the c4solver-wasm package (index.js for browsers and bundlers,
// node.js for Node: the same API).

/** The analysis of a position: the fields of `c4solver analyze --json`, in that order (docs/answer.md). */
export interface Answer {
  /** The moves played: columns 1-9, then a, b, c past the ninth (1-7 on 7x6). */
  moves: string;
  /** The position's score for the side to move (the best column's): positive wins, 0 draws, negative loses; the larger, the sooner the win. */
  score: number;
  /** One per column, left to right: the score of the position after that move, for the side that plays it; null for a full column. */
  scores: (number | null)[];
  /** The 1-based columns with the top score, left to right; empty on a full board. */
  best: number[];
  /** Whether every score in `scores` was read from the opening book, with no search. */
  book: boolean;
  /** Positions searched. */
  nodes: number;
  /** Microseconds taken. */
  time_us: number;
  /** A line of best play (columns), with `{ pv: true }` only. */
  pv?: string;
}

/** Options of `createSolver`. */
export interface SolverOptions {
  /**
   * The board size, "WxH" (such as "8x8"): one of `await sizes()`. Default
   * "7x6". Any other size loads the every-size .wasm first (once); a size
   * not built is refused with the command line's message.
   */
  size?: string;
  /**
   * The opening book. Left out: on 7x6 the 8-stone book inside the .wasm, on
   * other sizes none. Bytes of a `.c4book` file of the board's size (such as
   * `await fullBook()`, the 12-stone 7x6 book): that book. `false`: no book, the
   * search alone.
   */
  book?: Uint8Array | ArrayBuffer | false;
  /** The transposition table's size in megabytes, a whole number (not a string) at least 1. Default 64. */
  tableMb?: number;
}

/** A solver of one board size: one engine with its table and book, answering one call at a time. */
export declare class Solver {
  private constructor();
  /** The board size, "WxH" (such as "7x6"). */
  readonly size: string;
  /** The position after `moves` (columns 1-9 then a, b, c, such as "4455") analyzed. Throws an Error with the command line's message for a bad position. */
  analyze(moves: string, options?: { weak?: boolean; pv?: boolean }): Answer;
  /** The score of the position after `moves` (with `weak`, only its sign: 1, 0 or -1). */
  solve(moves: string, options?: { weak?: boolean }): number;
  /** One score per column as the online solver gives them, 100 for a full column. */
  scores(moves: string): number[];
  /** Answers from the book in `bytes` from now on and returns its depth; a bad file throws and the book in use is kept. */
  loadBook(bytes: Uint8Array | ArrayBuffer): number;
  /** Every position with at most this many stones is answered from the book; null without a book. */
  readonly bookDepth: number | null;
  /** Frees the engine's memory; every later call throws an Error saying the solver was freed. */
  free(): void;
}

/**
 * A solver of the board `options.size` (7x6 when left out), once its WebAssembly
 * module is loaded (once per page or process). `null` is taken as no options; a
 * bad option throws a TypeError or RangeError, a size not built an Error with the
 * command line's message.
 */
export declare function createSolver(options?: SolverOptions | null): Promise<Solver>;

/** The board sizes `createSolver` takes, "WxH": 7x6 and every size of the every-size build. */
export declare function sizes(): Promise<string[]>;

/** The bytes of the 12-stone 7x6 book (8 MB) shipped in this package. */
export declare function fullBook(): Promise<Uint8Array>;
