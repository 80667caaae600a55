// The static build's service worker: it keeps the page, its modules, the
// WebAssembly solver and book.c4book in a cache, so that the page reloads with
// no network. Network first, so that a new build is picked up when online; the
// cache answers when the network does not.
const CACHE = "c4solver-static-v2";

// Everything the page loads on 7x6 (scripts/build-web writes these files). The
// every-size build (pkg-all/) is not fetched here: it is cached as any other
// reply once a size other than 7x6 has been picked online.
const FILES = [
  "./",
  "index.html",
  "style.css",
  "app.js",
  "board.js",
  "game.js",
  "client.js",
  "worker.js",
  "pkg/c4solver_wasm.js",
  "pkg/c4solver_wasm_bg.wasm",
  "book.c4book",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

// Older caches go; the open pages are served from now on, not after a reload.
self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    fetch(request)
      .then((reply) => {
        if (reply.ok) {
          const copy = reply.clone();
          event.waitUntil(caches.open(CACHE).then((cache) => cache.put(request, copy)));
        }
        return reply;
      })
      // The position is in the query: `/?pos=4455` is the page `./`.
      .catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => hit ?? Response.error())),
  );
});
