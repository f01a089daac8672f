"""The Stoppa deal checker page for players (no login): who wins a punto piccolo or the punto
grosso and why, and the stop phase replayed with its payments."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from .forms_stoppa import ContestForm, StopForm

MODES = ("piccolo", "grosso", "stop")


def stoppa_checker(request: HttpRequest) -> HttpResponse:
    """Type each player's cards (priority order), see the winner and why each other lost.

    Reads GET parameters so a result can be bookmarked or shared; an HTMX request gets the
    result fragment only.
    """
    mode = request.GET.get("mode")
    if mode not in MODES:
        mode = "piccolo"
    submitted = any(key.startswith("cards_") for key in request.GET)
    data = request.GET if submitted else None
    form = StopForm(data) if mode == "stop" else ContestForm(data)
    result = None
    if submitted:
        result = form.check() if mode == "stop" else form.check(mode)
    context = {"mode": mode, "form": form, "result": result, "submitted": submitted}
    status = 400 if submitted and result is None else 200
    if request.htmx:
        return render(request, "games/stoppa_checker.html#result", context, status=200)
    return render(request, "games/stoppa_checker.html", context, status=status)
