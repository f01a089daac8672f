"""The event itself: its format, ranking chain, publication, finish; match-point formats."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks, kinds
from tournaments.models import Bracket, Club, Event, MatchPointFormat

from ..error_codes import TournamentsError
from ._common import locked_event
from .clubs import check_chain, check_format

# Kinds of event that end in (or are) a playoff bracket: only for games that have playoffs.
PLAYOFF_KINDS = frozenset({Event.Kind.SANCTIONED, Event.Kind.PLAYOFF_ONLY, Event.Kind.INTERNET})
MAX_SEED = 2**63 - 1


def _check_format(
    *, kind: str, pairing: str, meetings_per_opponent: int, games_planned: int, drawn: int
) -> None:
    """The format rules an event's kind, pairing and number of games must keep."""
    if kind not in Event.Kind.values:
        raise ServiceError(TournamentsError.BAD_KIND, _("Unknown kind of event."), field="kind")
    if pairing not in Event.Pairing.values:
        raise ServiceError(
            TournamentsError.BAD_PAIRING, _("Unknown pairing method."), field="pairing"
        )
    if meetings_per_opponent not in (1, 2):
        raise ServiceError(
            TournamentsError.BAD_MEETING_LIMIT,
            _("Players meet once or twice per event."),
            field="meetings_per_opponent",
        )
    if not max(1, drawn) <= games_planned <= 40:
        raise ServiceError(
            TournamentsError.BAD_GAMES_PLANNED,
            _("The number of games must be between %(low)s and 40.") % {"low": max(1, drawn)},
            field="games_planned",
        )


@transaction.atomic
def set_event_format(
    event: Event,
    *,
    kind: str,
    pairing: str,
    meetings_per_opponent: int,
    games_planned: int,
    confirmation: str = "",
) -> Event:
    """Set the kind of event, the pairing method, games per opponent and the number of games;
    and, when given, how the players' reports are confirmed (:class:`Event.Confirmation`)."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    _check_format(
        kind=kind,
        pairing=pairing,
        meetings_per_opponent=meetings_per_opponent,
        games_planned=games_planned,
        drawn=event.rounds.count(),
    )
    if confirmation and confirmation not in Event.Confirmation.values:
        raise ServiceError(
            TournamentsError.BAD_CONFIRMATION,
            _("Unknown way to confirm reports."),
            field="confirmation",
        )
    event.kind, event.pairing = kind, pairing
    event.meetings_per_opponent, event.games_planned = meetings_per_opponent, games_planned
    event.confirmation = confirmation or event.confirmation
    event.save(
        update_fields=["kind", "pairing", "meetings_per_opponent", "games_planned", "confirmation"]
    )
    return event


@transaction.atomic
def finish_event(event: Event) -> Event:
    """Close the event once every drawn game is complete."""
    event = locked_event(event)
    kind = event.game_kind
    last = event.rounds.order_by("-number").first()
    if last is not None and last.is_draft:
        raise ServiceError(
            TournamentsError.PREVIOUS_GAME_DRAFT,
            str(kind.messages.previous_draft) % {"n": last.number},
        )
    if last is not None and kind.open_tables(last):
        raise ServiceError(
            TournamentsError.PREVIOUS_GAME_OPEN, _("Some tables still have no result.")
        )
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    hooks.results_changed(event.pk)
    hooks.event_season_changed(event.pk)  # a night counts for its season once finished
    return event


@transaction.atomic
def set_standings_published(event: Event, published: bool) -> Event:
    """Show or hide the standings on the public pages (the TD always sees them)."""
    event = locked_event(event)
    event.standings_published = published
    event.save(update_fields=["standings_published"])
    return event


@transaction.atomic
def set_ranking_chain(event: Event, keys: list[str]) -> Event:
    """Set the event's tiebreakers, in order (those its game kind allows), and re-rank."""
    event = locked_event(event)
    try:
        event.tiebreakers = list(
            event.game_kind.validate_chain(k.strip() for k in keys if k.strip())
        )
    except ValueError as exc:
        raise ServiceError(
            TournamentsError.BAD_RANKING_CHAIN, str(exc), field="tiebreakers"
        ) from None
    event.save(update_fields=["tiebreakers"])
    hooks.results_changed(event.pk)
    return event


@transaction.atomic
def copy_format(fmt, *, club=None):
    """A new, editable format with the same points as ``fmt`` (code gets a -copy suffix)."""
    base = f"{fmt.code}-copy"[:36]
    code, n = base, 1
    while MatchPointFormat.objects.filter(code=code).exists():
        n += 1
        code = f"{base}-{n}"
    return MatchPointFormat.objects.create(
        code=code,
        name=(_("%(name)s (copy)") % {"name": fmt.display_name})[:100],
        club=club or fmt.club,
        win=fmt.win,
        skunk=fmt.skunk,
        double_skunk=fmt.double_skunk,
        triple_skunk=fmt.triple_skunk,
        triple_skunk_wins_match=fmt.triple_skunk_wins_match,
        forfeit_points=fmt.forfeit_points,
        forfeit_spread=fmt.forfeit_spread,
        bye_points=fmt.bye_points,
        bye_spread=fmt.bye_spread,
    )


def _check_basics(
    *, name: str, date, game: str, kind: str, target: int, seed: int | None
) -> tuple[str, kinds.GameKind]:
    """The rules every event's name, date, game, target and seed keep; the clean name and the
    game's kind."""
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(
            TournamentsError.NAME_REQUIRED, _("An event needs a name."), field="name"
        )
    if len(name) > 120:
        raise ServiceError(
            TournamentsError.NAME_TOO_LONG, _("At most 120 characters."), field="name"
        )
    if not isinstance(date, datetime.date):
        raise ServiceError(
            TournamentsError.DATE_REQUIRED, _("An event needs a date."), field="date"
        )
    try:
        game_kind = kinds.get(game)
    except KeyError:
        raise ServiceError(TournamentsError.BAD_GAME, _("Unknown game."), field="game") from None
    if kind in PLAYOFF_KINDS and not game_kind.playoffs:
        raise ServiceError(
            TournamentsError.NO_PLAYOFFS,
            _("%(game)s has no playoffs: choose a club night or a round robin.")
            % {"game": game_kind.label},
            field="kind",
        )
    if target not in Event.Target.values:
        raise ServiceError(
            TournamentsError.BAD_TARGET, _("A game is played to 121 or 61."), field="target"
        )
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ServiceError(
            TournamentsError.BAD_SEED,
            _("The seed is a whole number from 0 to %(max)s.") % {"max": MAX_SEED},
            field="seed",
        )
    return name, game_kind


def _check_entrants(entrants: str) -> None:
    if entrants not in Event.Entrants.values:
        raise ServiceError(
            TournamentsError.BAD_ENTRANTS,
            _("Unknown rule for who is an entrant."),
            field="entrants",
        )


def _check_language(language: str) -> None:
    if language and language not in dict(settings.LANGUAGES):
        raise ServiceError(TournamentsError.BAD_LANGUAGE, _("Unknown language."), field="language")


def _stored_chain(game_kind: kinds.GameKind, chain: list[str]) -> list[str]:
    # The game's own chain is stored as empty, so the event follows the game if it changes.
    return [] if tuple(chain) == tuple(game_kind.default_chain) else chain


@transaction.atomic
def create_event(
    club: Club,
    *,
    name: str,
    date: datetime.date,
    game: str = "cribbage",
    kind: str = Event.Kind.CLUB_NIGHT,
    pairing: str = Event.Pairing.QUALIFYING,
    meetings_per_opponent: int = 1,
    games_planned: int = 9,
    target: int = Event.Target.FULL,
    muggins: bool = False,
    match_point_format: MatchPointFormat | int | None = None,
    tiebreakers: list[str] | tuple[str, ...] | None = None,
    seed: int | None = None,
    confirmation: str = Event.Confirmation.OWN_KEYS,
    entrants: str = Event.Entrants.PLAYED,
    language: str = "",
    seed_by_rating: bool = False,
    qualifiers: int | None = None,
) -> Event:
    """A new event of ``club``, a draft ready for entries and its first draw.

    The match-point format and the ranking chain default to the club's (else the first
    built-in format and the game's own chain); the seed to a fresh random one.
    """
    name, game_kind = _check_basics(
        name=name, date=date, game=game, kind=kind, target=target, seed=seed
    )
    _check_format(
        kind=kind,
        pairing=pairing,
        meetings_per_opponent=meetings_per_opponent,
        games_planned=games_planned,
        drawn=0,
    )
    if match_point_format is None:
        match_point_format = club.default_match_point_format or (
            MatchPointFormat.objects.filter(builtin=True).order_by("pk").first()
        )
    fmt = check_format(club, match_point_format, field="match_point_format")
    chain = (
        list(club.default_chain(game)) if tiebreakers is None else check_chain(game, tiebreakers)
    )
    if confirmation not in Event.Confirmation.values:
        raise ServiceError(
            TournamentsError.BAD_CONFIRMATION,
            _("Unknown way to confirm reports."),
            field="confirmation",
        )
    _check_entrants(entrants)
    _check_language(language)
    _check_qualifiers(qualifiers)
    event = Event(
        club=club,
        name=name,
        date=date,
        game=game,
        kind=kind,
        pairing=pairing,
        meetings_per_opponent=meetings_per_opponent,
        games_planned=games_planned,
        target=target,
        muggins=muggins,
        match_point_format=fmt,
        tiebreakers=_stored_chain(game_kind, chain),
        confirmation=confirmation,
        entrants=entrants,
        language=language,
        seed_by_rating=bool(seed_by_rating),
        qualifiers=qualifiers,
    )
    if seed is not None:
        event.seed = seed
    event.save()
    return event


def _check_qualifiers(qualifiers: int | None) -> None:
    """A cut size, if set, takes at least two players (a playoff needs two)."""
    if qualifiers is not None and not 2 <= qualifiers <= MAX_QUALIFIERS:
        raise ServiceError(
            TournamentsError.BAD_QUALIFIERS,
            _("The cut takes from 2 to %(max)s players (empty: one in four).")
            % {"max": MAX_QUALIFIERS},
            field="qualifiers",
        )


MAX_QUALIFIERS = 4_096


# The settings a draw or a result depends on: changing them afterwards would make the games
# already played mean something else (or the draws irreproducible).
DRAW_BOUND_SETTINGS = ("game", "kind", "target", "muggins", "match_point_format", "seed")
SETTINGS = (
    "name",
    "date",
    "game",
    "kind",
    "pairing",
    "meetings_per_opponent",
    "games_planned",
    "target",
    "muggins",
    "match_point_format",
    "tiebreakers",
    "seed",
    "confirmation",
    "entrants",
    "language",
    "seed_by_rating",
    "qualifiers",
)


def settings_locks(event: Event) -> dict[str, str]:
    """The settings that can no longer change, each with the reason in words."""
    if event.status == Event.Status.FINISHED:
        why = _("The event has finished: its settings are kept as it was played.")
        return dict.fromkeys(SETTINGS, why)
    locks: dict[str, str] = {}
    if event.rounds.exists():
        why = _(
            "Fixed once the first round is drawn: the draws and results already made depend on it."
        )
        locks.update(dict.fromkeys(DRAW_BOUND_SETTINGS, why))
    elif Bracket.objects.filter(event=event).exists():
        locks["kind"] = locks["game"] = _("Fixed once the playoff bracket is drawn.")
    return locks


def _current(event: Event, field: str):
    if field == "match_point_format":
        return event.match_point_format_id
    if field == "tiebreakers":
        return list(event.ranking_chain)  # as the form shows it: the game's own, spelled out
    return getattr(event, field)


@transaction.atomic
def update_event_settings(event: Event, **values) -> Event:
    """Change the event's settings (the same ones :func:`create_event` takes).

    A setting that :func:`settings_locks` holds must keep its value (ServiceError
    ``setting_locked`` names it); the format goes through :func:`set_event_format`. A
    changed ranking chain re-ranks the standings.
    """
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise TypeError(f"Unknown settings: {sorted(unknown)}")
    current = {field: _current(event, field) for field in SETTINGS}
    fmt = values.get("match_point_format", event.match_point_format_id)
    values = current | values
    values["match_point_format"] = fmt.pk if isinstance(fmt, MatchPointFormat) else fmt
    values["tiebreakers"] = [k.strip() for k in values["tiebreakers"] or [] if k.strip()]
    for field, why in settings_locks(event).items():
        if values[field] != current[field]:
            raise ServiceError(TournamentsError.SETTING_LOCKED, why, field=field)
    name, game_kind = _check_basics(
        name=values["name"],
        date=values["date"],
        game=values["game"],
        kind=values["kind"],
        target=values["target"],
        seed=values["seed"],
    )
    chain = check_chain(values["game"], values["tiebreakers"] or [])
    new_format = check_format(event.club, values["match_point_format"], field="match_point_format")
    event = set_event_format(
        event,
        kind=values["kind"],
        pairing=values["pairing"],
        meetings_per_opponent=values["meetings_per_opponent"],
        games_planned=values["games_planned"],
        confirmation=values["confirmation"],
    )
    _check_entrants(values["entrants"])
    _check_language(values["language"] or "")
    if (values["language"] or "") != event.language:
        # The public pages read an event's language through the cache (core.middleware).
        event_id = event.pk
        transaction.on_commit(lambda: cache.delete(f"event-language:{event_id}"), robust=True)
    event.language = values["language"] or ""
    rerank = tuple(_stored_chain(game_kind, chain)) != tuple(event.tiebreakers or ())
    rerank = rerank or values["entrants"] != event.entrants
    event.entrants = values["entrants"]
    event.seed_by_rating = bool(values["seed_by_rating"])
    _check_qualifiers(values["qualifiers"])
    event.qualifiers = values["qualifiers"]
    event.name, event.date, event.game = name, values["date"], values["game"]
    event.target, event.muggins, event.seed = values["target"], values["muggins"], values["seed"]
    event.match_point_format = new_format
    event.tiebreakers = _stored_chain(game_kind, chain)
    event.save(
        update_fields=[
            "name",
            "date",
            "game",
            "target",
            "muggins",
            "seed",
            "match_point_format",
            "tiebreakers",
            "entrants",
            "language",
            "seed_by_rating",
            "qualifiers",
        ]
    )
    if rerank:
        hooks.results_changed(event.pk)
    return event


# What a clone keeps of its event: how the night is played and ranked, never its state (status,
# results, seed, audit chain), name or date.
CLONED_SETTINGS = (
    "game",
    "kind",
    "pairing",
    "meetings_per_opponent",
    "games_planned",
    "target",
    "muggins",
    "match_point_format",
    "tiebreakers",
    "confirmation",
    "entrants",
    "language",
    "seed_by_rating",
    "qualifiers",
    "table_size",
    "min_table_size",
    "points_first",
    "points_second",
    "points_third",
    "counts_for_season",
    "standings_published",
)


@transaction.atomic
def clone_event(
    event: Event, *, name: str, date: datetime.date, with_players: bool = False
) -> Event:
    """A new draft event of the same club played like ``event`` (format, games, target,
    match points, ranking chain, confirmation, language...): the weekly night set up in one
    step. ``with_players`` registers the same players again (not checked in). The apps above
    copy what they keep of an event (the money desk its fees and pools) on
    ``hooks.event_cloned_signal``."""
    name, _kind = _check_basics(
        name=name, date=date, game=event.game, kind=event.kind, target=event.target, seed=None
    )
    copy = Event(
        club=event.club,
        name=name,
        date=date,
        **{field: getattr(event, field) for field in CLONED_SETTINGS},
    )
    copy.save()
    if with_players:
        from tournaments.models import Entry

        players = (
            Entry.objects.filter(event=event, withdrawn=False)
            .order_by("pk")
            .values_list("player_id", "partner_id")
        )
        Entry.objects.bulk_create(
            [Entry(event=copy, player_id=p, partner_id=q) for p, q in players]
        )
    hooks.event_cloned_signal.send(sender=clone_event, source_id=event.pk, event_id=copy.pk)
    return copy
