// c4solver-wasm for Node (18 or later): the .wasm files and the 12-stone book are
// read from this package's folder; the every-size .wasm only for another size.
import { readFile } from "node:fs/promises";
import { create, sizes as sizesOf, Solver } from "./solver.js";

export { Solver };

const WASM = {
  small: () => readFile(new URL("./pkg/c4solver_wasm_bg.wasm", import.meta.url)),
  all: () => readFile(new URL("./pkg-all/c4solver_wasm_bg.wasm", import.meta.url)),
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
  return new Uint8Array(await readFile(new URL("./book12.c4book", import.meta.url)));
}
