{% autoescape off %}/* Pegboard's service worker for the private-link pages (/k/...): they open offline.
 *
 * Pages: from the network, kept in the cache as they come; offline, the kept copy.
 * Static files: the same, network first, the kept copy offline.
 * HTMX polls of a page: offline, "nothing changed" (204), so the page stays as it is.
 * Reports (POST) are never touched here: static/js/offline.js keeps them on the phone.
 */
const CACHE = "pegboard-k-v1";
const STATIC = "{{ static_prefix|escapejs }}";

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("pegboard-k-") && name !== CACHE)
          .map((name) => caches.delete(name))))
      .then(() => self.clients.claim()));
});

// The page asks to keep itself and its files (its first load came before this worker).
self.addEventListener("message", (event) => {
  const urls = (event.data && event.data.keep) || [];
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(
    urls.map((url) => cache.add(new Request(url, {credentials: "same-origin"})).catch(() => null)))));
});

function fromCache(request) {
  return caches.match(request, {ignoreVary: true});
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC)) {
    // Network first (a file changed in development keeps its name); the kept copy offline.
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(request, copy));
      }
      return response;
    }).catch(() => fromCache(request).then((hit) => hit || Response.error())));
    return;
  }
  if (request.headers.get("HX-Request")) {
    event.respondWith(fetch(request).catch(() => new Response(null, {status: 204})));
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) {
        const copy = response.clone();
        caches.open(CACHE).then((cache) => cache.put(url.pathname, copy));
      }
      return response;
    }).catch(() => caches.match(url.pathname, {ignoreVary: true}).then(
      (hit) => hit || Response.error())));
  }
});
{% endautoescape %}
