// The projector (scoring/projector.html): pages through every row of the list it shows, as
// many rows a page as the screen holds, a new page every data-seconds; the polls that refresh
// the list keep the page it is on. The control strip hides itself while nobody moves.
// A static file (no inline script), so a strict Content-Security-Policy holds.
(function () {
  "use strict";
  var body = document.body;
  var main = document.querySelector("[data-pager]");
  var status = document.querySelector("[data-pager-status]");
  var pause = document.querySelector("[data-pager-pause]");
  var seconds = Math.max(1, parseInt(body.getAttribute("data-seconds"), 10) || 10);
  var state = { page: 0, pages: 1, perPage: 0, paused: false };

  function items() {
    var selector = main && main.getAttribute("data-pager");
    return selector ? Array.prototype.slice.call(document.querySelectorAll(selector)) : [];
  }

  // Show page state.page of the rows; hidden rows stay in the page (a poll swaps them all).
  function show(all) {
    var start = state.page * state.perPage;
    var end = start + state.perPage;
    all.forEach(function (item, i) {
      var outside = i < start || i >= end;
      if (item.hidden !== outside) { item.hidden = outside; }
    });
    if (status) {
      status.textContent = all.length && state.pages > 1
        ? status.getAttribute("data-label")
            .replace("%(page)s", state.page + 1).replace("%(pages)s", state.pages)
        : "";
    }
    body.setAttribute("data-page", String(state.page + 1));
    body.setAttribute("data-pages", String(state.pages));
  }

  // How many rows fit: measured on the first row, from its top to the bottom of the main area.
  function layout() {
    var all = items();
    if (!all.length) { state.page = 0; state.pages = 1; show(all); return; }
    var first = all[0];
    var list = first.parentElement;
    first.hidden = false;
    list.style.gridTemplateRows = "";
    list.style.gridAutoFlow = "";
    var style = window.getComputedStyle(list);
    var grid = style.display === "grid";
    var columns = grid ? parseInt(style.getPropertyValue("--columns"), 10) || 1 : 1;
    var gap = grid ? parseFloat(style.rowGap) || 0 : 0;
    var box = first.getBoundingClientRect();
    var room = main.getBoundingClientRect().bottom - box.top - 2;
    var rows = Math.max(1, Math.floor((room + gap) / (box.height + gap)));
    if (grid) {
      // Alphabetical down each column, then the next column: the order a hall reads.
      list.style.gridTemplateRows = "repeat(" + rows + ", auto)";
      list.style.gridAutoFlow = "column";
    }
    state.perPage = rows * columns;
    state.pages = Math.max(1, Math.ceil(all.length / state.perPage));
    state.page = Math.min(state.page, state.pages - 1);
    show(all);
  }

  function turn() {
    main.classList.remove("pager-turn");
    void main.offsetWidth; // restart the fade (none with prefers-reduced-motion)
    main.classList.add("pager-turn");
  }

  function go(step) {
    if (state.pages < 2) { return; }
    state.page = (state.page + step + state.pages) % state.pages;
    show(items());
    turn();
  }

  function setPaused(paused) {
    state.paused = paused;
    if (pause) { pause.setAttribute("aria-pressed", paused ? "true" : "false"); }
  }

  if (main) {
    layout();
    // A poll swapped the rows in: page them again before the browser paints them all (a
    // MutationObserver runs before the next paint, whatever htmx's events do).
    new MutationObserver(function (records) {
      if (records.some(function (r) { return r.addedNodes.length; })) { layout(); }
    }).observe(main, { childList: true, subtree: true });
    window.addEventListener("resize", layout);
    window.setInterval(function () { if (!state.paused) { go(1); } }, seconds * 1000);
  }
  if (pause) {
    pause.addEventListener("click", function () { setPaused(!state.paused); });
  }
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) { return; }
    if (event.key === "ArrowRight" || event.key === "PageDown") { go(1); }
    else if (event.key === "ArrowLeft" || event.key === "PageUp") { go(-1); }
    else if (event.key === "p") { setPaused(!state.paused); }
  });

  // The control strip: hidden a few seconds after the last move, key or tap.
  var idle = 0;
  function wake() {
    body.classList.remove("controls-idle");
    window.clearTimeout(idle);
    idle = window.setTimeout(function () { body.classList.add("controls-idle"); }, 4000);
  }
  ["mousemove", "keydown", "touchstart", "focusin"].forEach(function (name) {
    document.addEventListener(name, wake, { passive: true });
  });
  wake();

  // For tests and a hand at the keyboard: the state, the next page, pause.
  window.pegboardProjector = { state: state, next: function () { go(1); }, layout: layout, pause: setPaused };
})();
