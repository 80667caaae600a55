// Reads positions (one move string a line) on stdin and prints, a line each, the
// WebAssembly solver's `analyze` JSON, or with --score its `score` JSON (or
// {"error": message}): what tests/wasm.rs compares with `c4solver analyze --json`
// and `c4solver --json`.
//   node tests/wasm/analyze.mjs PKG_DIR [--no-book] [--score] < positions
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const pkg = resolve(process.argv[2]);
const book = !process.argv.includes("--no-book");
const scoreOnly = process.argv.includes("--score");
const glue = await import(pathToFileURL(join(pkg, "c4solver_wasm.js")).href);
glue.initSync({ module: readFileSync(join(pkg, "c4solver_wasm_bg.wasm")) });
const engine = new glue.Engine(64, book);
const lines = readFileSync(0, "utf8").split("\n");
if (lines.at(-1) === "") lines.pop();
const out = [];
for (const moves of lines) {
  try {
    out.push(scoreOnly ? engine.score(moves, false) : engine.analyze(moves, false, true));
  } catch (e) {
    out.push(JSON.stringify({ error: String(e) }));
  }
}
process.stdout.write(out.join("\n") + "\n");
