// Pegboard's few behaviours, in a static file so a strict Content-Security-Policy holds.
(function () {
  // Popovers (e.g. why a rank is tied) on the page and in every fragment htmx swaps in.
  function popovers(root) {
    root.querySelectorAll('[data-bs-toggle="popover"]').forEach(function (el) {
      bootstrap.Popover.getOrCreateInstance(el);
    });
  }
  document.addEventListener("DOMContentLoaded", function () { popovers(document); });
  document.addEventListener("htmx:load", function (event) { popovers(event.detail.elt); });
  // <select data-submit-on-change>: the language menu submits itself.
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-submit-on-change]")) { event.target.form.submit(); }
  });
  // <button data-confirm="Question?">: ask before the form is sent (destructive actions).
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) { event.preventDefault(); }
  });
  // <input type="file" data-max-bytes="N" data-too-large="message">: a file over the limit is
  // refused beside the field before it is sent (the server's 413 would cut the upload short).
  document.addEventListener("change", function (event) {
    var input = event.target;
    if (!input.matches || !input.matches("input[type=file][data-max-bytes]")) { return; }
    var limit = parseInt(input.getAttribute("data-max-bytes"), 10);
    var big = Array.prototype.some.call(input.files || [], function (f) { return f.size > limit; });
    input.setCustomValidity(big ? input.getAttribute("data-too-large") : "");
    if (big) { input.reportValidity(); }
  });
  // <button data-print>: print the page.
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-print]");
    if (button) { event.preventDefault(); window.print(); }
  });
})();
