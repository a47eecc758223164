// Keeps the page working offline once loaded: every file of web/dist/ is
// cached when the page is first opened, and served from the cache first.
// web/build.sh writes the build's hash into CACHE, so a new build
// replaces the old files.
const CACHE = "woundsim-BUILD";
const FILES = ["./", "index.html", "app.js", "gm.js", "worker.js", "style.css",
  "pkg/woundsim_web.js", "pkg/woundsim_web_bg.wasm"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  event.respondWith(caches.match(event.request, { ignoreSearch: true })
    .then((hit) => hit || fetch(event.request)));
});
