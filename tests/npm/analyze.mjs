// Run from a fresh project where the packed `c4solver-wasm` npm package is installed
// (tests/integration/npm.rs copies it there): reads positions (one move string a
// line) on stdin and prints, a line each, the package's analysis with its line of
// best play, or {"error": message, "name": the error's class} for a bad one.
// The solver has the 8-stone book inside; --full gives it the package's 12-stone
// book, --no-book none; --size WxH makes it a solver of that board. The first
// line is {"bookDepth": D, "size": its board}.
//   node analyze.mjs [--full | --no-book] [--size WxH] < positions
import { readFileSync } from "node:fs";
import { createSolver, fullBook } from "c4solver-wasm";

const args = process.argv.slice(2);
const book = args.includes("--full") ? await fullBook() : args.includes("--no-book") ? false : undefined;
const size = args.includes("--size") ? args[args.indexOf("--size") + 1] : undefined;
const solver = await createSolver({ book, size });
const out = [JSON.stringify({ bookDepth: solver.bookDepth, size: solver.size })];
const lines = readFileSync(0, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();
for (const moves of lines) {
  try {
    out.push(JSON.stringify(solver.analyze(moves, { pv: true })));
  } catch (e) {
    out.push(JSON.stringify({ error: e.message, name: e.constructor.name }));
  }
}
process.stdout.write(out.join("\n") + "\n");
