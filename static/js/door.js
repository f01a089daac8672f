// The money desk's door by keyboard. Each player's row (<li data-door-row>) is one Tab stop;
// ArrowUp/ArrowDown (Home, End) move between rows; a key pressed on a row presses that row's
// button whose data-key it is (1 paid, 2 unpaid, 3 waived, 4-9 the pools, 0 checked in: the
// keys are declared in treasury/door.py and said in the page's legend); ArrowLeft/ArrowRight
// reach the row's buttons one by one (Enter or space presses one, Escape goes back to the row).
// htmx swaps the row and puts the focus back on the element of the same id, so the next key
// acts on the same row; the row's forms queue their posts on the list (hx-sync), so quick keys
// land in order. Without this script every button is a plain form and a Tab stop.
(function () {
  function rowsOf(row) {
    var list = row.closest("[id=door]") || row.parentElement;
    return Array.prototype.slice.call(list.querySelectorAll("[data-door-row]"));
  }
  function buttonsOf(row) {
    return Array.prototype.slice.call(row.querySelectorAll("button"));
  }
  // The rows are the stops, their buttons are reached by the arrows.
  function prepare(root) {
    var rows = root.matches && root.matches("[data-door-row]") ? [root] : root.querySelectorAll("[data-door-row]");
    Array.prototype.forEach.call(rows, function (row) {
      row.setAttribute("tabindex", "0");
      buttonsOf(row).forEach(function (button) { button.setAttribute("tabindex", "-1"); });
    });
  }
  document.addEventListener("DOMContentLoaded", function () { prepare(document); });
  document.addEventListener("htmx:load", function (event) { prepare(event.detail.elt); });

  // A refused mark (400: the night closed meanwhile) still brings the row, with the reason
  // said in it: swap it in, where htmx would leave the old row and say nothing.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    var row = source && source.closest && source.closest("[data-door-row]");
    if (row && event.detail.xhr.status === 400) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var row = event.target.closest && event.target.closest("[data-door-row]");
    if (!row) { return; }
    var key = event.key;
    if (key === "ArrowDown" || key === "ArrowUp" || key === "Home" || key === "End") {
      var rows = rowsOf(row);
      var at = rows.indexOf(row);
      var to = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: rows.length - 1 }[key];
      event.preventDefault();
      if (rows[to]) { rows[to].focus(); }
      return;
    }
    if (key === "ArrowRight" || key === "ArrowLeft") {
      var buttons = buttonsOf(row);
      var here = buttons.indexOf(event.target);
      var next = key === "ArrowRight" ? here + 1 : (here === -1 ? buttons.length - 1 : here - 1);
      event.preventDefault();
      if (next < 0) { row.focus(); } else if (buttons[next]) { buttons[next].focus(); }
      return;
    }
    if (key === "Escape" && event.target !== row) {
      event.preventDefault();
      row.focus();
      return;
    }
    if (key.length !== 1) { return; }
    var button = row.querySelector('button[data-key="' + key.replace(/["\\]/g, "") + '"]');
    if (button) {
      event.preventDefault();
      // A row swapped in a moment ago is bound by htmx only once it settles (20 ms): bind its
      // form now, or a quick key would post it the old way and reload the page.
      if (window.htmx) { window.htmx.process(button.form); }
      button.click();
    }
  });
})();
