"""The cribbage checker page for players (no login): a hand and starter, or a pegging pile."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .forms import HandForm, PlayForm


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
