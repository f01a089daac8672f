"""The TD's club pages: the club, its directors and defaults, a new event, an event's
settings, the club's players. Everything a club needs without the Django admin.

A post that is refused shows the page again with the error beside its field (HTTP 400);
one that succeeds redirects. The ranking-chain editor's buttons (up, down, add, remove)
show the form again with the chain edited, saving nothing until the TD saves.
"""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.errors import ServiceError

from . import kinds, selectors, services
from .forms import (
    ClubDefaultsForm,
    ClubForm,
    EventForm,
    MergeForm,
    RenameForm,
    UserForm,
    chain_needs_review,
    chain_rows,
    edit_chain,
    rebound_event_form,
)
from .forms.clock import ClockRuleForm

PLAYERS_SHOWN = 100  # the players page lists this many; "find" narrows a long list


def _club_page(request: HttpRequest, club, *, status: int = 200, **forms) -> HttpResponse:
    chains = forms.pop("chains", {})
    context = {
        "club": club,
        "club_form": forms.get("club_form")
        or ClubForm(initial={"name": club.name, "city": club.city}),
        "director_form": forms.get("director_form") or UserForm(),
        "defaults_form": forms.get("defaults_form")
        or ClubDefaultsForm(
            club=club, initial={"match_point_format": club.default_match_point_format_id}
        ),
        "clock_form": forms.get("clock_form")
        or ClockRuleForm(initial={"game_minutes": club.game_minutes, "at_time": club.at_time}),
        "directors": club.directors.order_by("username"),
        "chains": [
            {
                "game": kind,
                "own": not (club.default_chains or {}).get(kind.key),
                "error": chains.get(kind.key, (None, ""))[1],
                **chain_rows(
                    kind.key, chains.get(kind.key, (None,))[0] or list(club.default_chain(kind.key))
                ),
            }
            for kind in kinds.all_kinds()
        ],
        "events": club.events.order_by("-date", "name")[:20],
        "event_templates": club.event_templates.order_by("name", "pk"),
        "from_template_form": forms.get("from_template_form"),
        "next_week": datetime.date.today() + datetime.timedelta(days=7),
    }
    return render(request, "tournaments/td_club.html", context, status=status)


@login_required
def td_club(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club: its name and city, its TDs, its defaults for new events, its events."""
    club = selectors.directed_club(request.user, club_id)
    if request.method != "POST":
        return _club_page(request, club)
    form = ClubForm(request.POST)
    if form.save(club) is None:
        return _club_page(request, club, status=400, club_form=form)
    messages.success(request, _("Club saved."))
    return redirect("td-club", club_id=club.pk)


@login_required
@require_POST
def td_club_directors(request: HttpRequest, club_id: int) -> HttpResponse:
    """Add a TD (an existing user, by username or email) or remove one (never the last)."""
    club = selectors.directed_club(request.user, club_id)
    if "remove" in request.POST:
        try:
            services.remove_director(club, int(request.POST["remove"]))
        except (ServiceError, ValueError) as exc:
            messages.error(request, getattr(exc, "message", _("No such user.")))
            return _club_page(request, club, status=400)
        messages.success(request, _("Tournament director removed."))
        return redirect("td-club", club_id=club.pk)
    form = UserForm(request.POST)
    user = form.run(lambda: services.add_director(club, form.cleaned_data["who"]))
    if user is None:
        return _club_page(request, club, status=400, director_form=form)
    messages.success(
        request, _("%(user)s is now a tournament director of the club.") % {"user": user}
    )
    return redirect("td-club", club_id=club.pk)


@login_required
@require_POST
def td_club_defaults(request: HttpRequest, club_id: int) -> HttpResponse:
    """The match-point format new events start from."""
    club = selectors.directed_club(request.user, club_id)
    form = ClubDefaultsForm(request.POST, club=club)
    if form.save(club) is None:
        return _club_page(request, club, status=400, defaults_form=form)
    messages.success(request, _("Defaults saved."))
    return redirect("td-club", club_id=club.pk)


@login_required
@require_POST
def td_club_chain(request: HttpRequest, club_id: int, game: str) -> HttpResponse:
    """One button of the club's default ranking chain for ``game``: each saves at once."""
    club = selectors.directed_club(request.user, club_id)
    op = request.POST.get("chain_op", "")
    keys = [] if op == "reset" else request.POST.getlist("tiebreakers")
    keys = edit_chain(keys, op, request.POST.get("chain_add", ""))
    try:
        services.set_club_chain(club, game, keys)
    except ServiceError as exc:
        return _club_page(request, club, status=400, chains={game: (keys, exc.message)})
    messages.success(request, _("Ranking chain for new events saved."))
    return redirect("td-club", club_id=club.pk)


def _event_form_page(request, *, club, event, form, status=200, note="") -> HttpResponse:
    for name in ("game", "kind"):
        if not form.fields[name].disabled:
            form.fields[name].widget.attrs["hx-post"] = request.path
    return render(
        request,
        "tournaments/td_event_form.html",
        {"club": club, "event": event, "form": form, "note": note},
        status=status,
    )


def _event_form_view(request: HttpRequest, club, event=None) -> HttpResponse:
    """The new-event wizard and the settings page share one form and one flow."""
    if request.method != "POST":
        form = EventForm(initial=EventForm.initial_for(club, event), club=club, event=event)
        return _event_form_page(request, club=club, event=event, form=form)
    if request.POST.get("chain_op"):  # a button of the chain editor: show, do not save
        form = rebound_event_form(request.POST, club=club, event=event)
        return _event_form_page(request, club=club, event=event, form=form)
    if chain_needs_review(request.POST, event=event):
        form = rebound_event_form(request.POST, club=club, event=event)
        note = _("The game changed: the ranking chain is now that game's. Check it and save again.")
        return _event_form_page(request, club=club, event=event, form=form, status=400, note=note)
    form = EventForm(request.POST, club=club, event=event)
    saved = form.create() if event is None else form.update()
    if saved is None:
        status = 200 if request.htmx else 400
        return _event_form_page(request, club=club, event=event, form=form, status=status)
    messages.success(request, _("Event created.") if event is None else _("Settings saved."))
    return redirect("td-event", event_id=saved.pk)


@login_required
def td_event_new(request: HttpRequest, club_id: int) -> HttpResponse:
    """A new event of the club: name, date, game, kind, games, target, formats, chain, seed."""
    club = selectors.directed_club(request.user, club_id)
    return _event_form_view(request, club)


@login_required
def td_event_settings(request: HttpRequest, event_id: int) -> HttpResponse:
    """The event's settings, the wizard's form again; what can no longer change is disabled
    with the reason."""
    event = selectors.directed_event(request.user, event_id)
    return _event_form_view(request, event.club, event)


# --- The club's players --------------------------------------------------------------------------


def _players_page(request, club, *, status=200, merge_form=None, rename=None) -> HttpResponse:
    find = request.GET.get("find", "").strip()[:120]
    managed = selectors.club_managed_players(club)
    players = (
        selectors.find_club_players(club, find, limit=PLAYERS_SHOWN, among=managed)
        if find
        else list(managed[:PLAYERS_SHOWN])
    )
    context = {
        "club": club,
        "find": find,
        "players": players,
        "rename": rename,  # (player id, bound form) of a refused rename
        "merge_form": merge_form or MergeForm(club=club),
    }
    return render(request, "tournaments/td_players.html", context, status=status)


@login_required
def td_players(request: HttpRequest, club_id: int) -> HttpResponse:
    """The club's players: find, rename, merge two records of one person."""
    club = selectors.directed_club(request.user, club_id)
    return _players_page(request, club)


@login_required
@require_POST
def td_player_rename(request: HttpRequest, club_id: int, player_id: int) -> HttpResponse:
    """Correct a player's name."""
    club = selectors.directed_club(request.user, club_id)
    player = selectors.club_player(club, player_id)
    form = RenameForm(request.POST)
    renamed = form.save(club, player)
    if renamed is None:
        return _players_page(request, club, status=400, rename=(player.pk, form))
    messages.success(request, _("Renamed: %(name)s.") % {"name": renamed.name})
    return redirect("td-players", club_id=club.pk)


@login_required
@require_POST
def td_player_merge(request: HttpRequest, club_id: int) -> HttpResponse:
    """Merge one player record into another (entries and history follow the kept one)."""
    club = selectors.directed_club(request.user, club_id)
    form = MergeForm(request.POST, club=club)
    kept = form.save(club)
    if kept is None:
        return _players_page(request, club, status=400, merge_form=form)
    messages.success(request, _("Merged into %(name)s.") % {"name": kept.name})
    return redirect("td-players", club_id=club.pk)
