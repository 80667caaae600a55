// Opens tests/npm/page.html in the system's headless Chromium, from the fresh
// project where tests/integration/npm.rs installed the packed npm package, served
// by a small static server here; prints what the page found as one JSON object.
//   node npm-page.mjs PROJECT_DIR BROWSER MOVES
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";

const [dir, browserPath, moves] = process.argv.slice(2);
const types = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm" };
const server = createServer(async (request, reply) => {
  const path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
  try {
    const body = await readFile(join(dir, path));
    reply.writeHead(200, { "content-type": types[extname(path)] ?? "application/octet-stream" });
    reply.end(body);
  } catch {
    reply.writeHead(404).end();
  }
});
await new Promise((ready) => server.listen(0, "127.0.0.1", ready));
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
