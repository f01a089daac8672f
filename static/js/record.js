// The hand-by-hand record on the player's page: progressive enhancement of plain selects.
// Without this file every card is a labelled <select> and "Add a deal" posts the form; with
// it each card is a button that opens one picker sheet (rank, then suit, or the other way
// round), which moves on to the next card by itself, and deals are added in place.
(function () {
  "use strict";
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = [["S", "♠"], ["H", "♥"], ["D", "♦"], ["C", "♣"]];
  var SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var picker = null; // the one sheet, made on first use
  var current = null; // the <select> being filled
  var chosen = { rank: "", suit: "" };

  function text(editor, key) { return editor.getAttribute("data-t-" + key) || key; }

  function cardText(value) { return value ? value.slice(0, -1) + (SYMBOL[value.slice(-1)] || value.slice(-1)) : "—"; }

  function labelOf(select) {
    var label = document.querySelector('label[for="' + select.id + '"]');
    return label ? label.textContent.trim() : select.name;
  }

  function refresh(select) {
    var button = select.nextElementSibling;
    if (!button || !button.classList.contains("card-btn")) { return; }
    var value = select.value;
    var editor = select.closest("[data-record-editor]");
    button.textContent = cardText(value);
    button.classList.toggle("is-empty", !value);
    button.classList.toggle("is-red", value.slice(-1) === "H" || value.slice(-1) === "D");
    button.setAttribute("aria-label", labelOf(select) + ": " + (value ? cardText(value) : text(editor, "empty")));
  }

  function enhance(root) {
    root.querySelectorAll("[data-record-editor] select.card-select:not([data-enhanced])").forEach(function (select) {
      if (select.closest("template")) { return; }
      select.setAttribute("data-enhanced", "");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "card-btn";
      button.setAttribute("aria-haspopup", "dialog");
      select.classList.add("d-none");
      select.after(button);
      button.addEventListener("click", function () { open(select); });
      refresh(select);
    });
  }

  function makePicker(editor) {
    var sheet = document.createElement("div");
    sheet.className = "card-picker";
    sheet.hidden = true;
    sheet.setAttribute("role", "dialog");
    sheet.setAttribute("aria-labelledby", "card-picker-title");
    var html = '<div class="picker-inner"><div class="d-flex align-items-center justify-content-between mb-1">' +
      '<p class="small fw-semibold mb-0" id="card-picker-title"></p>' +
      '<button type="button" class="btn btn-sm btn-outline-secondary" data-pick="clear"></button></div>' +
      '<div class="picker-quick" role="group" aria-label="" hidden></div>' +
      '<div class="picker-ranks" role="group" aria-label=""></div><div class="picker-suits" role="group" aria-label=""></div>' +
      '<button type="button" class="btn btn-success w-100" data-pick="done"></button></div>';
    sheet.innerHTML = html;
    sheet.querySelector('[data-pick="clear"]').textContent = text(editor, "clear");
    sheet.querySelector('[data-pick="done"]').textContent = text(editor, "done");
    var ranks = sheet.querySelector(".picker-ranks");
    var suits = sheet.querySelector(".picker-suits");
    ranks.setAttribute("aria-label", text(editor, "rank"));
    sheet.querySelector(".picker-quick").setAttribute("aria-label", text(editor, "hands"));
    suits.setAttribute("aria-label", text(editor, "suit"));
    RANKS.forEach(function (rank) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "btn btn-outline-secondary picker-rank";
      b.textContent = rank; b.setAttribute("data-rank", rank); b.setAttribute("aria-pressed", "false");
      ranks.appendChild(b);
    });
    SUITS.forEach(function (suit) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "btn btn-outline-secondary picker-suit" + (suit[0] === "H" || suit[0] === "D" ? " is-red" : "");
      b.textContent = suit[1]; b.setAttribute("data-suit", suit[0]); b.setAttribute("aria-pressed", "false");
      // The option group's label is the suit's name in the page's language.
      var group = document.querySelector('select.card-select option[value="A' + suit[0] + '"]');
      b.setAttribute("aria-label", group && group.parentElement.label ? group.parentElement.label : suit[1]);
      suits.appendChild(b);
    });
    sheet.addEventListener("click", function (event) {
      var b = event.target.closest("button");
      if (!b || !current) { return; }
      if (b.hasAttribute("data-card")) { set(current, b.getAttribute("data-card")); next(); return; }
      if (b.hasAttribute("data-rank")) { chosen.rank = b.getAttribute("data-rank"); }
      else if (b.hasAttribute("data-suit")) { chosen.suit = b.getAttribute("data-suit"); }
      else if (b.getAttribute("data-pick") === "clear") { set(current, ""); chosen = { rank: "", suit: "" }; }
      else if (b.getAttribute("data-pick") === "done") { close(); return; }
      pressed();
      if (chosen.rank && chosen.suit) {
        set(current, chosen.rank + chosen.suit);
        next();
      }
    });
    sheet.addEventListener("keydown", function (event) {
      if (event.key === "Escape") { event.preventDefault(); close(); }
    });
    document.body.appendChild(sheet);
    return sheet;
  }

  function pressed() {
    picker.querySelectorAll("[data-rank]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-rank") === chosen.rank)); });
    picker.querySelectorAll("[data-suit]").forEach(function (b) { b.setAttribute("aria-pressed", String(b.getAttribute("data-suit") === chosen.suit)); });
  }

  function set(select, value) {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    refresh(select);
  }

  function mark(select, on) {
    var button = select.nextElementSibling;
    if (button) { button.classList.toggle("is-current", on); }
  }

  function open(select) {
    var editor = select.closest("[data-record-editor]");
    if (!picker) { picker = makePicker(editor); }
    if (current) { mark(current, false); }
    current = select;
    mark(select, true);
    chosen = { rank: "", suit: "" };
    pressed();
    picker.querySelector("#card-picker-title").textContent = labelOf(select);
    quickPicks(select);
    picker.hidden = false;
    document.body.classList.add("picker-open");
    select.nextElementSibling.scrollIntoView({ block: "center", behavior: "instant" });
    // Keyboard users start where a tap would: the hands' cards in the pegging, else a rank.
    var first = picker.querySelector(".picker-quick:not([hidden]) button") ||
      picker.querySelector('[data-rank="' + (select.value ? select.value.slice(0, -1) : "A") + '"]');
    first.focus({ preventScroll: true });
  }

  function quickPicks(select) {
    // The pegging lays the cards of the two hands: offer those not laid yet, one tap each.
    var quick = picker.querySelector(".picker-quick");
    quick.textContent = "";
    var deal = select.closest("[data-deal]");
    if (!/-play_\d+$/.test(select.name) || !deal) { quick.hidden = true; return; }
    var laid = {};
    deal.querySelectorAll('select[name*="-play_"]').forEach(function (other) {
      if (other !== select && other.value) { laid[other.value] = true; }
    });
    deal.querySelectorAll('select[name*="-mine_"], select[name*="-theirs_"]').forEach(function (held) {
      if (!held.value || laid[held.value]) { return; }
      var b = document.createElement("button");
      b.type = "button";
      b.className = "btn btn-outline-secondary picker-card" + (/[HD]$/.test(held.value) ? " is-red" : "");
      b.textContent = cardText(held.value);
      b.setAttribute("data-card", held.value);
      b.setAttribute("aria-pressed", String(held.value === select.value));
      quick.appendChild(b);
    });
    quick.hidden = !quick.children.length;
  }

  function next() {
    // The next card of the same deal, in the order of the page; after the last one, close.
    var deal = current.closest("[data-deal]");
    var all = Array.prototype.slice.call(deal.querySelectorAll("select.card-select"));
    var following = all[all.indexOf(current) + 1];
    if (following) { open(following); } else { close(); }
  }

  function close() {
    if (!picker || !current) { return; }
    picker.hidden = true;
    document.body.classList.remove("picker-open");
    mark(current, false);
    var button = current.nextElementSibling;
    current = null;
    if (button) { button.focus(); }
  }

  function total(editor) { return editor.querySelector('input[name$="-TOTAL_FORMS"]'); }

  function addDeal(editor) {
    var template = editor.querySelector("#deal-template");
    var count = total(editor);
    var n = parseInt(count.value, 10) || 0;
    var html = template.innerHTML.replace(/__prefix__/g, String(n)).replace(/__num__/g, String(n + 1));
    var holder = document.createElement("div");
    holder.innerHTML = html;
    var deal = holder.firstElementChild;
    while (deal && !deal.matches("[data-deal]")) { deal = deal.nextElementSibling; }
    var deals = editor.querySelector("[data-deals]");
    var previous = deals.querySelector("[data-deal]:last-of-type");
    deals.appendChild(deal);
    count.value = String(n + 1);
    // The deal alternates: the other player deals the next one.
    var before = previous && previous.querySelector('input[type="radio"]:checked');
    if (before) {
      var other = deal.querySelector('input[type="radio"][value="' + (before.value === "me" ? "opponent" : "me") + '"]');
      if (other) { other.checked = true; }
    }
    enhance(deal);
    var legend = deal.querySelector("legend");
    legend.setAttribute("tabindex", "-1");
    legend.focus({ preventScroll: true });
    deal.scrollIntoView({ block: "start", behavior: "instant" });
  }

  function removeDeal(editor) {
    var deals = editor.querySelectorAll("[data-deals] [data-deal]");
    if (deals.length < 2) { return; }
    deals[deals.length - 1].remove();
    var count = total(editor);
    count.value = String(deals.length - 1);
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-add-deal], [data-remove-deal]");
    if (!button) { return; }
    var editor = button.closest("[data-record-editor]");
    if (!editor || !editor.querySelector("#deal-template")) { return; }
    event.preventDefault();
    if (button.hasAttribute("data-add-deal")) { addDeal(editor); } else { removeDeal(editor); }
  });
  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  document.addEventListener("htmx:load", function (event) { enhance(event.detail.elt); });
  // The player's page polls for the opponent's report and swaps the whole game card: a
  // record being typed in, or the picker open on a card, would be lost, so the page is kept
  // until the record is sent (the next poll after that brings the news). A poll that brings
  // nothing (204) swaps nothing and must leave the picker alone: closing it there shut the
  // picker every 4 seconds.
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (!event.detail.shouldSwap) { return; }
    var editor = event.detail.target && event.detail.target.querySelector("[data-record-editor]");
    var typing = editor && Array.prototype.some.call(
      editor.querySelectorAll("select.card-select, input.peg-points, .show-row input, textarea"),
      function (field) { return field.value !== "" && !field.closest("template"); });
    if (typing || current) { event.detail.shouldSwap = false; }
  });
})();
