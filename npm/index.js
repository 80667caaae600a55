// c4solver for browsers and bundlers: the .wasm and the 12-stone book are
// fetched next to this file (bundlers copy files named by `new URL(..., import.meta.url)`).
import { create, Solver } from "./solver.js";

export { Solver };

/** A 7x6 solver (see index.d.ts). */
export function createSolver(options) {
  return create(() => new URL("./pkg/c4solver_wasm_bg.wasm", import.meta.url), options);
}

/** The bytes of the 12-stone book (8 MB) shipped in this package, for `createSolver({ book })`. */
export async function fullBook() {
  const reply = await fetch(new URL("./book12.c4book", import.meta.url));
  if (!reply.ok) throw new Error(`book12.c4book: HTTP ${reply.status}`);
  return new Uint8Array(await reply.arrayBuffer());
}
