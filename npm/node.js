// c4solver for Node (18 or later): the .wasm and the 12-stone book are read
// from this package's folder.
import { readFile } from "node:fs/promises";
import { create, Solver } from "./solver.js";

export { Solver };

/** A 7x6 solver (see index.d.ts). */
export function createSolver(options) {
  return create(() => readFile(new URL("./pkg/c4solver_wasm_bg.wasm", import.meta.url)), options);
}

/** The bytes of the 12-stone book (8 MB) shipped in this package, for `createSolver({ book })`. */
export async function fullBook() {
  return new Uint8Array(await readFile(new URL("./book12.c4book", import.meta.url)));
}
