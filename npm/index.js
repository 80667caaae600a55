// c4solver-wasm for browsers and bundlers: the .wasm files and the 12-stone book
// are fetched next to this file (bundlers copy files named by
// `new URL(..., import.meta.url)`); the every-size .wasm only for another size.
import { create, sizes as sizesOf, Solver } from "./solver.js";

export { Solver };

const WASM = {
  small: () => new URL("./pkg/c4solver_wasm_bg.wasm", import.meta.url),
  all: () => new URL("./pkg-all/c4solver_wasm_bg.wasm", import.meta.url),
};

/** A solver of the board `size` (default 7x6; see index.d.ts). */
export function createSolver(options) {
  return create((build) => WASM[build](), options);
}

/** The board sizes `createSolver` takes, "WxH". */
export function sizes() {
  return sizesOf((build) => WASM[build]());
}

/** The bytes of the 12-stone 7x6 book (8 MB) shipped in this package, for `createSolver({ book })`. */
export async function fullBook() {
  const reply = await fetch(new URL("./book12.c4book", import.meta.url));
  if (!reply.ok) throw new Error(`book12.c4book: HTTP ${reply.status}`);
  return new Uint8Array(await reply.arrayBuffer());
}
