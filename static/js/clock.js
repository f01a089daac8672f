// The round clock (tournaments/_clock_face.html): counts down to data-clock-ends. The server
// sends its own time with it (data-clock-now), so a device whose clock is wrong still shows
// the hall's time: the offset is taken when the element first appears (after every poll's
// swap too). At zero it shows data-clock-time ("Time") and tells the poll around it
// (event "clock-time") to ask the server at once.
// A static file (no inline script), so a strict Content-Security-Policy holds.
(function () {
  "use strict";

  function pad(n) { return n < 10 ? "0" + n : String(n); }

  function text(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + pad(m) + ":" + pad(s) : m + ":" + pad(s);
  }

  function tick() {
    var now = Date.now();
    var clocks = document.querySelectorAll("[data-clock-ends]");
    Array.prototype.forEach.call(clocks, function (el) {
      var ends = Date.parse(el.getAttribute("data-clock-ends"));
      if (el.clockOffset === undefined) {
        var server = Date.parse(el.getAttribute("data-clock-now"));
        el.clockOffset = isNaN(server) ? 0 : server - now;
      }
      if (isNaN(ends)) { return; }
      var left = Math.ceil((ends - (now + el.clockOffset)) / 1000);
      var shown = left > 0 ? text(left) : el.getAttribute("data-clock-time");
      if (el.textContent !== shown) { el.textContent = shown; }
      var face = el.closest(".round-clock");
      if (left <= 0 && !el.clockDone) {
        el.clockDone = true;
        if (face) { face.classList.add("clock-time"); }
        el.dispatchEvent(new CustomEvent("clock-time", { bubbles: true }));
      }
    });
  }

  tick();
  window.setInterval(tick, 250);
})();
