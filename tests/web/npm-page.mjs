// Opens tests/npm/page.html in the system's headless Chromium, from the fresh
// project where tests/integration/npm.rs installed the packed npm package, served
// by a small static server here; prints what the page found as one JSON object.
//   node npm-page.mjs PROJECT_DIR BROWSER MOVES
import { chromium } from "playwright-core";
import { serveDir } from "./serve-dir.mjs";

const [dir, browserPath, moves] = process.argv.slice(2);
const server = await serveDir(dir);
const browser = await chromium.launch({ executablePath: browserPath, headless: true });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  const { port } = server.address();
  await page.goto(`http://127.0.0.1:${port}/page.html?pos=${encodeURIComponent(moves)}`);
  await page.waitForFunction(() => window.result !== undefined, null, { timeout: 60_000 });
  const result = await page.evaluate(() => window.result);
  process.stdout.write(JSON.stringify({ ...result, pageErrors: errors }) + "\n");
} finally {
  await browser.close();
  server.close();
}
