// A static server of one folder on a free loopback port, for the drivers here
// (drive.mjs, npm-page.mjs).
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { extname, join, normalize } from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
};

/** Serves the folder `dir` on a free loopback port; a path ending in / gets its index.html. */
export async function serveDir(dir) {
  const server = createServer(async (request, reply) => {
    let path = normalize(decodeURIComponent(new URL(request.url, "http://x").pathname));
    if (path.endsWith("/")) path += "index.html";
    try {
      const body = await readFile(join(dir, path));
      reply.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" });
      reply.end(body);
    } catch {
      reply.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  return server;
}
