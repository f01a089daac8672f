"""Reads for the playoff: the bracket, its sections and places, the cut's preview and its
draw of lots (re-exported by :mod:`tournaments.selectors`)."""

from __future__ import annotations

from collections import Counter

from django.utils.translation import gettext_lazy as _lazy

from .models import (
    Bracket,
    Entry,
    Event,
    PlayoffMatch,
    entry_names,
)


def event_bracket(event: Event) -> Bracket | None:
    """The event's playoff, if it has one."""
    return Bracket.objects.filter(event=event).select_related("champion__player").first()


SECTION_ORDER = ["main", "third_place", "consolation", "losers", "final", "reset"]
SECTION_LABELS = {
    "main": _lazy("Playoff"),
    "third_place": _lazy("Third-place match"),
    "consolation": _lazy("Consolation bracket"),
    "losers": _lazy("Losers' bracket"),
    "final": _lazy("Grand final"),
    "reset": _lazy("Grand final, second match"),
}


def bracket_sections(bracket: Bracket) -> list[dict]:
    """The bracket for a page: sections in order, each a list of rounds of matches, every
    match with its players, and the final places (best first) with the players' names."""
    matches = list(
        PlayoffMatch.objects.filter(bracket=bracket)
        .select_related(
            "seat_a__player",
            "seat_a__partner",
            "seat_b__player",
            "seat_b__partner",
            "winner__player",
            "winner__partner",
        )
        .prefetch_related("games")
        .order_by("position")
    )
    sections: dict[str, dict[int, list[PlayoffMatch]]] = {}
    for m in matches:
        sections.setdefault(m.section, {}).setdefault(m.round, []).append(m)
    out = []
    for name in sorted(sections, key=lambda n: SECTION_ORDER.index(n) if n in SECTION_ORDER else 9):
        rounds = sections[name]
        out.append(
            {
                "name": name,
                "label": SECTION_LABELS.get(name, name),
                "rounds": [
                    {"number": r, "matches": rounds[r], "label": _round_label(name, r, rounds)}
                    for r in sorted(rounds)
                ],
            }
        )
    return out


def _round_label(section: str, number: int, rounds: dict) -> str:
    from django.utils.translation import gettext as _

    if section == "main":
        left = max(rounds) - number
        if left == 0:
            return _("Final")
        if left == 1:
            return _("Semifinals")
        if left == 2:
            return _("Quarterfinals")
    if section == "third_place":
        return _("Third place")
    if section == "final":
        return _("Grand final")
    if section == "reset":
        return _("Grand final, second match")
    return _("Round %(n)s") % {"n": number}


def bracket_places(bracket: Bracket) -> list[tuple[str, Entry]]:
    """Final places known so far, best first: ("1", entry), ..., ("3=", entry) when shared."""
    ids = {int(pk): place for pk, place in (bracket.places or {}).items()}
    shared = Counter(ids.values())
    entries = Entry.objects.filter(pk__in=ids).select_related("player")
    rows = sorted(entries, key=lambda e: (ids[e.pk], e.name))
    return [(f"{ids[e.pk]}=" if shared[ids[e.pk]] > 1 else str(ids[e.pk]), e) for e in rows]


def cut_preview(event: Event, qualifiers: int | None = None) -> dict | None:
    """Who the cut to the playoff would take now, for the TD's playoff page before the cut:
    ``qualifiers`` (default: the event's cut size, else one in four), the byes, and the
    ranking's top rows down to the cut line and the players tied on it (``tied``: the draw
    of lots at the cut decides among them). None before any qualifying game, or when no
    playoff can be cut from the field.

    It asks the one ranking (``hooks.current_ranking``: the standings brought up to date),
    as the cut itself does, so the preview is the cut.
    """
    from . import hooks, pairing

    if not event.rounds.exists():
        return None
    ranking = [row for row in hooks.current_ranking(event.pk) if not row.withdrawn]
    try:
        plan = pairing.plan_playoff(len(ranking), qualifiers or event.qualifiers)
    except pairing.PairingError:
        return None
    if len(ranking) < plan.qualifiers:
        return None
    line = ranking[plan.qualifiers - 1].rank
    shown = [row for row in ranking if row.rank <= line]
    tied_at_line = sum(1 for row in shown if row.rank == line) > 1 and len(shown) > plan.qualifiers
    names_of = entry_names(Entry.objects.filter(pk__in=[row.entry_id for row in shown]))
    return {
        "qualifiers": plan.qualifiers,
        "byes": plan.byes,
        "entrants": len(ranking),
        "rows": [
            {
                "rank": row.rank,
                "name": names_of.get(row.entry_id, ""),
                "tied": tied_at_line and row.rank == line,
                "through": row.rank < line or not (tied_at_line and row.rank == line),
            }
            for row in shown
        ],
    }


def ready_matches(bracket: Bracket) -> list[PlayoffMatch]:
    """Matches with both players known and still to be decided, in playing order."""
    return [
        m
        for m in PlayoffMatch.objects.filter(
            bracket=bracket, decided=False, seat_a__isnull=False, seat_b__isnull=False
        )
        .select_related("seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner")
        .order_by("position")
    ]


def cut_lots(bracket: Bracket) -> list[dict]:
    """The draws of lots that settled ties at the cut, with the players' names: each group
    (its rank, whether it straddled the line) and who drew which lot, qualified or not."""
    if not bracket.cut_lots:
        return []
    ids = [item["entry"] for draw in bracket.cut_lots for item in draw["entries"]]
    names = entry_names(Entry.objects.filter(pk__in=ids))
    return [
        {
            "rank": draw["rank"],
            "straddles": draw["straddles"],
            "entries": [item | {"name": names.get(item["entry"], "?")} for item in draw["entries"]],
        }
        for draw in bracket.cut_lots
    ]
