// Reads positions (one move string a line) on stdin and prints, a line each, the
// WebAssembly solver's `analyze` JSON, or with --score its `score` JSON (or
// {"error": message}): what tests/wasm.rs compares with `c4solver analyze --json`
// and `c4solver --json`. The engine starts with the 8-stone book inside the .wasm
// (none with --no-book); --book FILE hands it FILE first, as the page does with
// book.c4book, and prints {"depth": D} or {"error": message} as the first line.
// --size WxH makes an engine of that board (PKG_DIR then the every-size build's,
// pkg-all/); a size refused prints {"error": message} alone. --list prints the
// build's sizes, {"built": [...], "every": [...]}, alone.
//   node tests/wasm/analyze.mjs PKG_DIR [--size WxH] [--no-book] [--score] [--book FILE] < positions
//   node tests/wasm/analyze.mjs PKG_DIR --list
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const pkg = resolve(args[0]);
const book = !args.includes("--no-book");
const scoreOnly = args.includes("--score");
const bookFile = args.includes("--book") ? args[args.indexOf("--book") + 1] : null;
const size = args.includes("--size") ? args[args.indexOf("--size") + 1] : undefined;
const glue = await import(pathToFileURL(join(pkg, "c4solver_wasm.js")).href);
glue.initSync({ module: readFileSync(join(pkg, "c4solver_wasm_bg.wasm")) });
if (args.includes("--list")) {
  process.stdout.write(JSON.stringify({ built: glue.builtSizes(), every: glue.everySize() }) + "\n");
  process.exit(0);
}
let engine;
try {
  engine = new glue.Engine(64, book, size);
} catch (e) {
  process.stdout.write(JSON.stringify({ error: String(e) }) + "\n");
  process.exit(0);
}
const out = [];
if (bookFile !== null) {
  try {
    out.push(JSON.stringify({ depth: engine.loadBook(readFileSync(bookFile)) }));
  } catch (e) {
    out.push(JSON.stringify({ error: String(e) }));
  }
}
const lines = readFileSync(0, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();
for (const moves of lines) {
  try {
    out.push(scoreOnly ? engine.score(moves, false) : engine.analyze(moves, false, true));
  } catch (e) {
    out.push(JSON.stringify({ error: String(e) }));
  }
}
process.stdout.write(out.join("\n") + "\n");
