"""The "what I need" before each qualifying game: the event's side of :mod:`scoring.cut_line`.

Reads the field (the latest standings, withdrawn players left out), the games each player has
left, the match-point format, the ranking chain and the cut size, asks the pure function, and
words its verdict in the reader's language.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import pairing
from tournaments.models import Bracket, Event, Round, entry_name
from tournaments.tiebreakers import describe

from .cut_line import Line, MatchPoints, Need, Verdict, what_it_takes
from .models import Standing
from .selectors import snapshot_for_event

# Kinds of event whose qualifying ends in a cut to a playoff.
CUT_EVENTS = (Event.Kind.SANCTIONED, Event.Kind.CONSOLATION)


def has_cut_ahead(event: Event) -> bool:
    """Whether ``event`` is qualifying for a cut still to come: a kind that plays off, a
    sanctioned tournament or a consolation, running, with no bracket yet."""
    return (
        event.game_kind.playoffs
        and event.kind in CUT_EVENTS
        and event.status == Event.Status.RUNNING
        and not Bracket.objects.filter(event=event).exists()
    )


def field_lines(event: Event) -> list[Line]:
    """The field the cut will choose from, with the qualifying games each player has left:
    the games not drawn yet, and the player's game of the latest round while its table waits
    for a result. Three queries."""
    snapshot = snapshot_for_event(event.pk)
    if snapshot is None:
        return []
    released = list(
        Round.objects.filter(event=event, status=Round.Status.RELEASED).order_by("number")
    )
    to_draw = max(0, event.games_planned - len(released))
    waiting = event.game_kind.waiting(released[-1]) if released else set()
    rows = (
        Standing.objects.filter(event_id=event.pk, snapshot=snapshot, entry__withdrawn=False)
        .order_by("rank")
        .values_list(
            "entry_id", "game_points", "games_won", "entry__player__name", "entry__partner__name"
        )
    )
    return [
        Line(entry, points, won, to_draw + (entry in waiting), entry_name(name, partner))
        for entry, points, won, name, partner in rows
    ]


def match_points(event: Event) -> MatchPoints:
    fmt = event.match_point_format
    return MatchPoints(
        fmt.win, fmt.skunk, fmt.double_skunk, fmt.triple_skunk, fmt.forfeit_points, fmt.bye_points
    )


def cut_size(event: Event, entrants: int) -> int | None:
    """How many players the cut takes from ``entrants``: the event's setting, else one in
    four (None when no playoff can be cut from that field)."""
    try:
        return pairing.plan_playoff(entrants, event.qualifiers).qualifiers
    except pairing.PairingError:
        return None


def needs(event: Event, entry_ids: list[int] | None = None) -> dict[int, Verdict]:
    """What each player (of ``entry_ids``, or all) needs to make the cut; empty when the
    event has no cut ahead or nothing is left to play."""
    if not has_cut_ahead(event):
        return {}
    lines = field_lines(event)
    if not lines or all(line.games_left == 0 for line in lines):
        return {}
    cut = cut_size(event, len(lines))
    if cut is None:
        return {}
    return what_it_takes(
        lines, cut=cut, points=match_points(event), chain=event.ranking_chain, only=entry_ids
    )


def need_of(event: Event, entry_id: int) -> Verdict | None:
    """What one player needs to make the cut (None: nothing to say)."""
    return needs(event, [entry_id]).get(entry_id)


def _names(verdict: Verdict) -> str:
    names = ", ".join(verdict.level_with)
    if verdict.level_others:
        names = ngettext(
            "%(names)s and %(n)s other", "%(names)s and %(n)s others", verdict.level_others
        ) % {"names": names, "n": verdict.level_others}
    return names


def describe_need(verdict: Verdict) -> str:
    """The verdict in the reader's language: "A win puts you in." and the like."""
    n, k = verdict.wins, verdict.games_left
    if verdict.need == Need.IN:
        return _("You're in whatever happens.")
    if verdict.need == Need.OUT:
        return _("Out of reach: even winning every game left cannot make the cut.")
    if verdict.need == Need.WINS:
        if k == 1:
            return _("A win puts you in.")
        return ngettext(
            "%(n)s win from your last %(k)s games puts you in.",
            "%(n)s wins from your last %(k)s games put you in.",
            n,
        ) % {"n": n, "k": k}
    if verdict.need == Need.SKUNKS:
        if k == 1:
            return {
                1: _("You need a win and a skunk."),
                2: _("You need a win and a double skunk."),
                3: _("You need a win and a triple skunk."),
            }[verdict.skunk_level]
        return ngettext(
            "%(n)s skunk win from your last %(k)s games puts you in.",
            "%(n)s skunk wins from your last %(k)s games put you in.",
            n,
        ) % {"n": n, "k": k}
    if verdict.need == Need.TIEBREAK:
        values = {
            "names": _names(verdict),
            "tiebreak": describe(verdict.tiebreak) or _("a draw of lots"),
        }
        if verdict.skunk_level and k == 1:
            return {
                1: _(
                    "A win and a skunk puts you in unless you finish level with %(names)s: "
                    "then it comes down to %(tiebreak)s."
                ),
                2: _(
                    "A win and a double skunk puts you in unless you finish level with "
                    "%(names)s: then it comes down to %(tiebreak)s."
                ),
                3: _(
                    "A win and a triple skunk puts you in unless you finish level with "
                    "%(names)s: then it comes down to %(tiebreak)s."
                ),
            }[verdict.skunk_level] % values
        if verdict.skunk_level:
            return ngettext(
                "%(n)s skunk win puts you in unless you finish level with %(names)s: then it "
                "comes down to %(tiebreak)s.",
                "%(n)s skunk wins put you in unless you finish level with %(names)s: then it "
                "comes down to %(tiebreak)s.",
                n,
            ) % (values | {"n": n})
        if n == 0:
            return (
                _(
                    "You're in unless you finish level with %(names)s: then it comes down to "
                    "%(tiebreak)s."
                )
                % values
            )
        if k == 1:
            return (
                _(
                    "A win puts you in unless you finish level with %(names)s: then it comes "
                    "down to %(tiebreak)s."
                )
                % values
            )
        return ngettext(
            "%(n)s win puts you in unless you finish level with %(names)s: then it comes down "
            "to %(tiebreak)s.",
            "%(n)s wins put you in unless you finish level with %(names)s: then it comes down "
            "to %(tiebreak)s.",
            n,
        ) % (values | {"n": n})
    # Need.OPEN: possible, but the other tables decide.
    if verdict.skunk_level:
        return _("Only skunk wins keep you in the running, and the other tables decide.")
    if n == 0:
        return _("You're in the running: the other tables decide.")
    if k == 1:
        return _("A win keeps you in the running, and the other tables decide.")
    return ngettext(
        "You need %(n)s win from your last %(k)s games to stay in the running, and the other "
        "tables decide.",
        "You need %(n)s wins from your last %(k)s games to stay in the running, and the other "
        "tables decide.",
        n,
    ) % {"n": n, "k": k}
