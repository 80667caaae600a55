// Times the WebAssembly solver in headless Chromium: each file's positions solved
// one after another by one Engine (one thread, a 64 MB table kept between
// positions, as `c4solver --threads 1` does), inside a page of the static build.
// Prints one JSON line per file: positions, nodes, the sum of the per-position
// times and the wall time of the loop. Scores are checked against the files.
//   node bench.mjs URL BROWSER BOOK(0|1) FILE...
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";

const [base, browserPath, book, ...files] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: browserPath, headless: true });
try {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  for (const file of files) {
    // One position a line; an empty line is the empty board.
    const lines = readFileSync(file, "utf8").split("\n");
    if (lines.at(-1) === "") lines.pop();
    const result = await page.evaluate(
      async ({ lines, book }) => {
        const glue = await import(new URL("pkg/c4solver_wasm.js", location.href).href);
        await glue.default();
        const engine = new glue.Engine(64, book);
        let nodes = 0, sum = 0, wrong = [];
        const start = performance.now();
        for (const line of lines) {
          const [moves, expected] = line.trim().split(/\s+/);
          const a = JSON.parse(engine.score(moves, false));
          nodes += a.nodes;
          sum += a.time_us;
          if (expected !== undefined && a.score !== Number(expected)) wrong.push(moves);
        }
        const wall = performance.now() - start;
        engine.free();
        return { positions: lines.length, nodes, time_us_sum: sum, wall_ms: wall, wrong };
      },
      { lines, book: book === "1" },
    );
    console.log(JSON.stringify({ file, ...result }));
  }
} finally {
  await browser.close();
}
