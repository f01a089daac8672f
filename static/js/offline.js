/* The private-link page at a table without Wi-Fi: a report made offline is kept on the phone
 * (localStorage, one per private link) and sent when the connection returns; the player is
 * told which state it is in. The server takes a resent report as the same report, so a
 * report sent twice (a resend after a lost answer) is still one version.
 *
 * The words come from the page (data-* attributes of this script's tag, translated there).
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var words = script ? script.dataset : {};
  var outboxKey = "pegboard:outbox:" + location.pathname;
  var sentKey = outboxKey + ":sent";
  var sending = false;

  function store() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function pending() {
    var s = store();
    if (!s) return null;
    try { return JSON.parse(s.getItem(outboxKey) || "null"); } catch (e) { return null; }
  }

  function statusBox() {
    var box = document.getElementById("offline-status");
    if (!box) {
      box = document.createElement("div");
      box.id = "offline-status";
      box.setAttribute("role", "status");
      var anchor = document.getElementById("player-live");
      if (anchor) anchor.parentNode.insertBefore(box, anchor);
      else document.body.prepend(box);
    }
    return box;
  }

  function show(kind, text) {
    var box = statusBox();
    box.className = "alert py-2 alert-" + kind;
    box.dataset.state = kind;
    box.textContent = text || "";
    box.hidden = !text;
  }

  function showState() {
    if (pending()) {
      show("warning", words.saved);
    } else if (!navigator.onLine) {
      show("secondary", words.offline);
    } else if (!afterSendShown) {
      // Online with nothing kept: no box, but the answer to a report just sent stays (an
      // "online" event may reach the page after it reloaded to show that answer).
      show("light", "");
    }
  }

  // Offline, the report goes to the phone instead of the network.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form.report-form") || navigator.onLine) return;
    var s = store();
    if (!s) return; // no storage: the browser says it is offline, as without this script
    event.preventDefault();
    var data = new URLSearchParams(new FormData(form));
    data.set("action", "report");
    s.setItem(outboxKey, JSON.stringify({
      url: form.getAttribute("action") || location.pathname,
      body: data.toString(),
    }));
    showState();
  });

  // Back online: send the kept report, then show what the server made of it.
  function flush() {
    var item = pending();
    if (!item || sending || !navigator.onLine) return;
    sending = true;
    show("info", words.sending);
    fetch(item.url, {
      method: "POST",
      body: item.body,
      credentials: "same-origin",
      redirect: "manual",
      headers: {"Content-Type": "application/x-www-form-urlencoded"},
    }).then(function (response) {
      // 502-504: the server could not take it just now (its database dropped the connection,
      // a restart): keep the report and send it again when the server says (Retry-After).
      if (response.status >= 502 && response.status <= 504) {
        sending = false;
        var wait = parseInt(response.headers.get("Retry-After") || "2", 10);
        show("warning", words.saved);
        setTimeout(flush, Math.min(Math.max(wait, 1), 60) * 1000);
        return;
      }
      // A redirect is the report taken; a page back is the report refused (already
      // confirmed by the TD, the event finished): either way the server has answered.
      store().removeItem(outboxKey);
      var taken = response.type === "opaqueredirect" || response.redirected;
      sessionStorage.setItem(sentKey, taken ? "sent" : "refused");
      location.replace(location.pathname);
    }, function () {
      sending = false; // the connection dropped again: keep it for the next "online"
      showState();
    });
  }

  var afterSendShown = false;

  function afterSend() {
    var was = sessionStorage.getItem(sentKey);
    if (!was) return false;
    sessionStorage.removeItem(sentKey);
    afterSendShown = true;
    show(was === "sent" ? "success" : "danger", was === "sent" ? words.sent : words.refused);
    return true;
  }

  // A report the service worker caught failing (the phone thought it was online) waits in
  // its cache: keep it with ours, then carry on as with any report kept offline.
  function adoptCaught() {
    if (!window.caches || !words.outbox) return Promise.resolve();
    var key = words.outbox + location.pathname;
    return caches.match(key).then(function (hit) {
      if (!hit) return;
      return hit.text().then(function (body) {
        var s = store();
        if (s && body) s.setItem(outboxKey, JSON.stringify({url: location.pathname, body: body}));
        return caches.keys().then(function (names) {
          return Promise.all(names.map(function (name) {
            return caches.open(name).then(function (cache) { return cache.delete(key); });
          }));
        });
      });
    }).catch(function () { /* no cache: nothing was caught */ });
  }

  window.addEventListener("online", function () { showState(); flush(); });
  window.addEventListener("offline", showState);

  if (!afterSend()) showState();
  adoptCaught().then(function () {
    if (pending()) showState();
    flush();
  });

  // The page and its files are kept by the service worker, so the page opens offline.
  if ("serviceWorker" in navigator && words.sw) {
    navigator.serviceWorker.register(words.sw, {scope: words.scope}).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      var keep = [location.pathname];
      document.querySelectorAll("script[src], link[rel=stylesheet][href], link[rel=manifest]")
        .forEach(function (el) { keep.push(el.src || el.href); });
      if (registration.active) registration.active.postMessage({keep: keep});
      document.documentElement.dataset.offlineReady = "1";
    }).catch(function () { /* no worker (private mode, http): the page still works online */ });
  }
})();
