"""The cribbage checker page for players (no login): a hand and starter, or a pegging pile."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games.cribbage import Card, DiscardAdvice
from games.cribbage.cards import RANK_LABELS

from .forms import DEALT_SLOTS, DiscardForm, HandForm, PlayForm


def cribbage_checker(request: HttpRequest) -> HttpResponse:
    """Score a hand or a pegging pile with every combination listed.

    Reads GET parameters so a result can be bookmarked or shared; an HTMX request gets the
    result fragment only.
    """
    mode = "play" if request.GET.get("mode") == "play" else "hand"
    submitted = any(k in request.GET for k in ("hand", "pile"))
    hand_form = HandForm(request.GET if submitted and mode == "hand" else None)
    play_form = PlayForm(request.GET if submitted and mode == "play" else None)
    form = play_form if mode == "play" else hand_form
    score = form.score() if submitted else None
    context = {
        "mode": mode,
        "hand_form": hand_form,
        "play_form": play_form,
        "form": form,
        "score": score,
        "submitted": submitted,
    }
    status = 400 if submitted and score is None else 200
    if request.htmx:
        return render(request, "games/cribbage_checker.html#result", context, status=200)
    return render(request, "games/cribbage_checker.html", context, status=status)


def cribbage_discard(request: HttpRequest) -> HttpResponse:
    """The discard advisor: every discard of the cards dealt, best first (GET, bookmarkable;
    an HTMX request gets the result fragment only)."""
    submitted = any(f"card_{i}" in request.GET for i in DEALT_SLOTS)
    form = DiscardForm(request.GET if submitted else None)
    advice = form.advise() if submitted else None
    context = {
        "form": form,
        "advice": advice,
        "rows": _advice_rows(advice) if advice is not None else [],
        "submitted": submitted,
    }
    status = 400 if submitted and advice is None else 200
    if request.htmx:
        return render(request, "games/cribbage_discard.html#result", context, status=200)
    return render(request, "games/cribbage_discard.html", context, status=status)


_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _card_chips(cards: tuple[Card, ...]) -> list[dict[str, Any]]:
    """Cards as people write them (5♥), red or black."""
    return [
        {"label": RANK_LABELS[card.rank] + _SYMBOLS[card.suit], "red": card.suit in "HD"}
        for card in cards
    ]


def _advice_rows(advice: DiscardAdvice) -> list[dict[str, Any]]:
    """One row per discard, best first, with what the page shows."""
    best = advice.best.net
    return [
        {
            "rank": rank,
            "discard": _card_chips(option.discard),
            "keep": _card_chips(option.keep),
            "net": option.net,
            "behind": best - option.net,
            "hand_mean": option.hand_mean,
            "hand_min": option.hand_min,
            "hand_max": option.hand_max,
            "good": option.hand_good_chance * 100,
            "crib_mean": option.crib_mean,
        }
        for rank, option in enumerate(advice.options, start=1)
    ]
