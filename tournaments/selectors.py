"""Reads for events, always scoped by club (the tenant) and event."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, User
from django.db.models import (
    Count,
    F,
    IntegerField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
)
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils.translation import get_language

from . import names
from .limits import MAX_NUMBER
from .models import (
    PRIVATE_STATUSES,
    Club,
    Entry,
    Event,
    ForbiddenPair,
    GameResult,
    Player,
    Round,
    Table,
)

UserLike = AbstractBaseUser | AnonymousUser

# The playoff's and Stoppa's reads live in their own modules; callers keep asking this one.
from .selectors_playoff import bracket_places as bracket_places  # noqa: E402
from .selectors_playoff import bracket_sections as bracket_sections  # noqa: E402
from .selectors_playoff import cut_lots as cut_lots  # noqa: E402
from .selectors_playoff import cut_preview as cut_preview  # noqa: E402
from .selectors_playoff import event_bracket as event_bracket  # noqa: E402
from .selectors_playoff import ready_matches as ready_matches  # noqa: E402
from .stoppa.selectors import stoppa_can_redraw as stoppa_can_redraw  # noqa: E402
from .stoppa.selectors import stoppa_sessions as stoppa_sessions  # noqa: E402
from .stoppa.selectors import stoppa_tables as stoppa_tables  # noqa: E402


def public_events() -> QuerySet[Event]:
    """Events the public may see: every event past its draft and not cancelled."""
    return Event.objects.exclude(status__in=PRIVATE_STATUSES).select_related(
        "club", "match_point_format"
    )


def clubs_directed_by(user: UserLike) -> QuerySet[Club]:
    """The clubs whose events ``user`` may run (all of them for a superuser)."""
    if not isinstance(user, User) or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(directors=user)


def directed_club(user: UserLike, club_id: int) -> Club:
    """The club if ``user`` directs it; 404 otherwise (never a hint that it exists)."""
    club = clubs_directed_by(user).filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    return club


def club_players(club: Club) -> QuerySet[Player]:
    """The club's players: its members, and everyone who has played one of its events
    (visitors and guests have no home club)."""
    played = Entry.objects.filter(event__club=club).values("player_id")
    return Player.objects.filter(Q(home_club=club) | Q(pk__in=played)).order_by("name", "pk")


def club_managed_players(club: Club) -> QuerySet[Player]:
    """The club's players its TDs may rename and merge: its members, and visitors and guests
    without a home club who played here. A member of another club who visited is that
    club's to change."""
    return club_players(club).filter(Q(home_club=club) | Q(home_club__isnull=True))


def club_player(club: Club, player_id: int) -> Player:
    """One of the players the club's TDs may rename or merge, or 404."""
    player = club_managed_players(club).filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    return player


def name_search(path: str, query: str) -> Q:
    """Rows whose folded name (``path``, e.g. ``"player__name_folded"``) holds every typed word
    of ``query``: accents, case and word order aside ("zoe", "Lindqvist, Zoe" and "ZOË" all find
    Zoë Lindqvist), done by the database on SQLite and PostgreSQL alike."""
    typed = names.words(query)
    if not typed:
        return Q(pk__in=[])  # nothing typed but commas: nobody, not everybody
    found = Q()
    for word in typed:
        found &= Q(**{f"{path}__contains": word})
    return found


def entry_name_search(prefix: str, query: str) -> Q:
    """:func:`name_search` on an entry's names (``prefix`` leads to the entry, e.g.
    ``"seat_a__"``): its player's, or its partner's for a team, so either partner finds it."""
    return name_search(f"{prefix}player__name_folded", query) | name_search(
        f"{prefix}partner__name_folded", query
    )


def find_club_players(
    club: Club, query: str, *, limit: int = 8, among: QuerySet[Player] | None = None
) -> list[Player]:
    """The club's players (or those ``among``) whose names fit ``query`` best, or whose ACC
    number it is.

    Compared in Python, accents and case folded (``tournaments.names``), so "ann whitfeld"
    or "Jurgen" find Ann Whitfield and Jürgen Weiß on SQLite and PostgreSQL alike; a club's
    list is hundreds of names, one small query.
    """
    query = query.strip()[:120]
    if not query:
        return []
    players = club_players(club) if among is None else among
    rows = list(players.values_list("pk", "name", "acc_number"))
    by_number = [pk for pk, _name, acc in rows if acc and acc.casefold() == query.casefold()]
    ids = by_number or names.best_matches(query, [(pk, name) for pk, name, _acc in rows], limit)
    found = Player.objects.in_bulk(ids)
    return [found[pk] for pk in ids if pk in found]


def events_directed_by(user: UserLike) -> QuerySet[Event]:
    """Events ``user`` may run, newest first."""
    return Event.objects.filter(club__in=clubs_directed_by(user)).select_related(
        "club", "match_point_format"
    )


def directed_event(user: UserLike, event_id: int) -> Event:
    """The event if ``user`` directs its club; 404 otherwise (never a hint that it exists)."""
    event = events_directed_by(user).filter(pk=event_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


def public_event(event_id: int) -> Event:
    """A public event or 404."""
    event = public_events().filter(pk=event_id).first()
    if event is None:
        raise Http404("No such event.")
    return event


def is_director(user: UserLike, event: Event) -> bool:
    """Whether ``user`` may run ``event``."""
    return clubs_directed_by(user).filter(pk=event.club_id).exists()


T = TypeVar("T")


def _player_name(entry) -> str:
    return entry.name


def by_name(items: Iterable[T], name: Callable[[T], str] = _player_name) -> list[T]:
    """``items`` (entries, by default) in the alphabetical order of the active language
    (``names.sort_key``): "Łucja" among the L and, in Romanian, "Ștefan" after the other S,
    where the database's own order of code points puts both after Z."""
    language = get_language()
    return sorted(items, key=lambda item: names.sort_key(name(item), language))


def event_entries(event: Event) -> list[Entry]:
    """The entries of an event with their players, in the language's alphabetical order."""
    return by_name(event.entries.select_related("player", "partner"))


def open_tables(event: Event, entries=None) -> dict[int, Table]:
    """Each entry's table in a released game that still has no result (``entries``: only
    those), by entry id: what a withdrawal leaves open unless it is forfeited."""
    tables = Table.objects.filter(
        round__event=event,
        round__status=Round.Status.RELEASED,
        seat_b__isnull=False,
        result__isnull=True,
    ).select_related(
        "round", "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
    )
    if entries is not None:
        ids = [e.pk if isinstance(e, Entry) else e for e in entries]
        tables = tables.filter(Q(seat_a_id__in=ids) | Q(seat_b_id__in=ids))
    found: dict[int, Table] = {}
    for table in tables.order_by("round__number", "number"):
        for seat in (table.seat_a_id, table.seat_b_id):
            if seat is not None:
                found.setdefault(seat, table)
    return found


def event_round(event: Event, number: int) -> Round:
    """Game ``number`` of ``event`` or 404."""
    round_ = event.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404("No such game.")
    return round_


def latest_round(event: Event) -> Round | None:
    """The most recently drawn game, if any."""
    return event.rounds.order_by("-number").first()


@dataclass(frozen=True, slots=True)
class TdActions:
    """Which of the TD's event buttons lead somewhere now (a button that can only fail is
    not shown), and what the page says instead."""

    draw: bool  # the next game can be drawn
    all_drawn: bool  # every planned game is drawn (more only by raising the planned number)
    game_open: bool  # the latest game is released and still has tables without a result
    cut: bool  # the playoff can be cut (or drawn, for a playoff-only event)
    finish: bool  # every drawn game is complete
    public: bool  # the public page exists (the event is past its draft)


def td_actions(event: Event, latest: Round | None, *, has_bracket: bool) -> TdActions:
    """What the TD can do next with ``event``, whose latest game is ``latest``."""
    running = event.status != Event.Status.FINISHED
    open_ = latest is not None and not latest.is_draft and bool(event.game_kind.open_tables(latest))
    settled = latest is not None and not latest.is_draft and not open_
    all_drawn = latest is not None and latest.number >= event.games_planned
    playoff_only = event.playoff_only
    return TdActions(
        draw=(
            running
            and not playoff_only  # a bracket from the start: no game to draw, only the playoff
            and not has_bracket
            and not all_drawn
            and (latest is None or settled)
            and event.games_planned > 0
        ),
        all_drawn=all_drawn,
        game_open=open_,
        cut=(
            running
            and not has_bracket
            and event.game_kind.playoffs
            and (settled or (latest is None and playoff_only))
        ),
        finish=running and (settled or (latest is None and has_bracket)),
        public=event.status != Event.Status.DRAFT,
    )


def rounds_with_tables(
    event: Event,
    *,
    released_only: bool = False,
    number: int | None = None,
    find: str = "",
    limit: int | None = None,
) -> QuerySet[Round]:
    """The games of an event, each with its tables, seats and results prefetched.

    ``released_only`` leaves out a draft (what the public sees); ``number`` keeps one game;
    ``find`` keeps the tables of that number or with a player of that name, and ``limit``
    the first tables only, so a page of a 1,000-player game reads 60 tables, not 500.
    """
    tables = Table.objects.select_related(
        "seat_a__player",
        "seat_a__partner",
        "seat_b__player",
        "seat_b__partner",
        "result__winner__player",
        "result__winner__partner",
    ).order_by("number")
    if find.isdigit():
        tables = tables.filter(number=int(find))
    elif find:
        # "stefan" finds Ștefan, as "find me" does.
        tables = tables.filter(
            entry_name_search("seat_a__", find) | entry_name_search("seat_b__", find)
        )
    if limit is not None:
        # The first tables of each game, and its bye: a draw numbers its tables from 1 (the
        # bye has no number), so this reads them by index instead of ranking all 500.
        tables = tables.filter(Q(number__lte=limit) | Q(number__isnull=True))
    rounds = event.rounds.order_by("number").annotate(table_count=Count("tables"))
    if released_only:
        rounds = rounds.filter(status=Round.Status.RELEASED)
    if number is not None:
        rounds = rounds.filter(number=number)
    return rounds.prefetch_related(Prefetch("tables", queryset=tables))


def can_redraw(event: Event, round_: Round, tables: list[Table]) -> bool:
    """Whether the TD may draw ``round_`` again: the latest game, with no result but byes."""
    latest = latest_round(event)
    return (
        latest is not None
        and latest.pk == round_.pk
        and event.status != Event.Status.FINISHED
        and not any(t.seat_b_id is not None and _has_result(t) for t in tables)
    )


def _has_result(table: Table) -> bool:
    try:
        return table.result is not None
    except Table.result.RelatedObjectDoesNotExist:
        return False


def seating_list(round_: Round) -> tuple[list[Table], list[tuple[str, Table]]]:
    """A game's tables in number order, and every seated player by name with their table."""
    tables = list(
        round_.tables.select_related(
            "seat_a__player", "seat_a__partner", "seat_b__player", "seat_b__partner"
        ).order_by("number")
    )
    by_name = sorted(
        ((seat.name, t) for t in tables for seat in t.seats()),
        key=lambda row: row[0].casefold(),
    )
    return tables, by_name


def forbidden_pairs(event: Event) -> QuerySet[ForbiddenPair]:
    """The event's forbidden pairs with both players."""
    return event.forbidden_pairs.select_related("entry_a__player", "entry_b__player")


def released_numbers(event: Event) -> QuerySet[Round, int]:
    """The numbers of an event's released games (what the public may see), in order."""
    return (
        event.rounds.filter(status=Round.Status.RELEASED)
        .order_by("number")
        .values_list("number", flat=True)
    )


def _count(queryset: QuerySet, outer: str) -> Coalesce:
    """A correlated ``COUNT(*)`` of ``queryset`` rows whose ``outer`` is the outer row."""
    counted = (
        queryset.filter(**{outer: OuterRef("pk")})
        .order_by()
        .values(outer)
        .annotate(n=Count("*"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), Value(0))


def public_event_summary(event_id: int) -> Event:
    """A public event (or 404) with ``entry_count`` and ``game_count`` (released games), in
    one query: what the event's API answer shows instead of its lists."""
    event = (
        public_events()
        .filter(pk=event_id)
        .annotate(
            entry_count=_count(Entry.objects.all(), "event"),
            game_count=_count(Round.objects.filter(status=Round.Status.RELEASED), "event"),
        )
        .first()
    )
    if event is None:
        raise Http404("No such event.")
    return event


def public_games(event: Event) -> QuerySet[Round]:
    """The released games of an event, each with ``table_count`` (byes included) and
    ``result_count``."""
    return (
        event.rounds.filter(status=Round.Status.RELEASED)
        .annotate(
            table_count=_count(Table.objects.all(), "round"),
            result_count=_count(GameResult.objects.all(), "table__round"),
        )
        .order_by("number")
    )


def public_game(event: Event, number: int) -> Round:
    """Released game ``number`` of ``event`` or 404 (a draft is the TD's alone)."""
    round_ = event.rounds.filter(number=number, status=Round.Status.RELEASED).first()
    if round_ is None:
        raise Http404("No such game.")
    return round_


def game_tables(round_: Round, *, open_only: bool = False) -> QuerySet[Table]:
    """A game's tables with their results, each with ``place``: its number, the byes (which
    have none) after the numbered tables. ``open_only`` keeps the tables without a result."""
    tables = Table.objects.filter(round=round_)
    if open_only:
        tables = tables.filter(result__isnull=True)
    return (
        tables.select_related("round", "result")
        .annotate(place=Coalesce("number", Value(MAX_NUMBER + 1)))
        .order_by("place", "pk")
    )


def event_results(event: Event) -> QuerySet[GameResult]:
    """The results of an event's released games, each with ``game_number``, game by game."""
    return (
        GameResult.objects.filter(
            table__round__event=event, table__round__status=Round.Status.RELEASED
        )
        .select_related("table__round")
        .annotate(game_number=F("table__round__number"))
        .order_by("game_number", "table_id")
    )


def api_entries(event: Event) -> QuerySet[Entry]:
    """The entries of an event with their players, in entry order (the API's)."""
    return event.entries.select_related("player", "partner").order_by("pk")


def last_result(event: Event) -> GameResult | None:
    """The result :func:`tournaments.services.undo_last_result` would take back: the one
    recorded last in the latest game that has results (a bye's scoring is not one), with its
    table and players; None when there is none."""
    latest = (
        GameResult.objects.filter(table__round__event=event)
        .exclude(kind=GameResult.Kind.BYE)
        .order_by("-table__round__number")
        .values_list("table__round__number", flat=True)
        .first()
    )
    if latest is None:
        return None
    return (
        GameResult.objects.filter(table__round__event=event, table__round__number=latest)
        .exclude(kind=GameResult.Kind.BYE)
        .select_related(
            "table__round",
            "table__seat_a__player",
            "table__seat_a__partner",
            "table__seat_b__player",
            "table__seat_b__partner",
        )
        .select_related("winner__player", "winner__partner")
        .order_by("-entered_at", "-pk")
        .first()
    )
