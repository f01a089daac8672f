{% autoescape off %}/* Pegboard's service worker for the private-link pages (/k/...): they open offline.
 *
 * Pages: from the network, kept in the cache as they come; offline, the kept copy.
 * Static files: the same, network first, the kept copy offline.
 * HTMX polls of a page: offline, "nothing changed" (204), so the page stays as it is.
 * Reports (POST): offline.js keeps a report made while the phone knows it is offline. One
 * that fails while the phone believes it is online (Wi-Fi without internet) is kept here,
 * under OUTBOX + the page's path, and the page is shown again from the cache; offline.js
 * finds the report there and sends it when the connection returns.
 */
const CACHE = "pegboard-k-v1";
const STATIC = "{{ static_prefix|escapejs }}";
const OUTBOX = "{{ outbox|escapejs }}";

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
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    const copy = request.clone();
    // Kept, then "see other" the page, as the server would: its GET comes from the cache.
    // Only a report is kept (a confirmation or a dispute needs the opponent's state now).
    event.respondWith(fetch(request).catch(() => copy.text().then((body) => {
      const action = new URLSearchParams(body).get("action") || "report";
      const keep = action !== "report" ? Promise.resolve() : caches.open(CACHE)
        .then((cache) => cache.put(OUTBOX + url.pathname, new Response(body)));
      return keep.then(() => Response.redirect(url.href, 303));
    })));
    return;
  }
  if (request.method !== "GET") return;
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
