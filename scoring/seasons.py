"""Seasons and points ledgers: Grass Roots points, master points, special hands, grand slams.

A season is a club's nights between two dates. Its ledgers are rebuilt from the final
standings snapshot of each event in it (never from raw results again), by the nightly beat
job and on demand; lifetime totals add the seasons up.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from pegboard.errors import ServiceError
from tournaments import kinds

from .models import GrassRootsPoints, MasterPoints, Season, SeasonLedger, SpecialHand
from .places import final_places_for

# The ACC's public 9-game internet table: game points on the night -> Grass Roots points
# (12 game points earn 3, each point more earns more, 21 earns 107).
ACC_GRASS_ROOTS = {12: 3, 13: 6, 14: 11, 15: 19, 16: 27, 17: 39, 18: 53, 19: 69, 20: 87, 21: 107}
QUALIFYING_GAME_POINTS = 12  # a 9-game night earns ranking points only at 12+ game points
GRAND_SLAM_WINS = 9


def default_dates(today: datetime.date) -> tuple[datetime.date, datetime.date]:
    """September 1 to May 31 of the season ``today`` falls in (summer belongs to the next)."""
    first_year = today.year if today.month >= 6 else today.year - 1
    return datetime.date(first_year, 9, 1), datetime.date(first_year + 1, 5, 31)


@transaction.atomic
def create_season(
    club,
    *,
    name: str = "",
    start: datetime.date | None = None,
    end: datetime.date | None = None,
) -> Season:
    """A season for ``club`` (September to May by default), its Grass Roots table seeded."""
    if start is None or end is None:
        start, end = default_dates(start or timezone.localdate())
    _check_dates(start, end)
    name = name.strip() or f"{start.year}-{str(end.year)[-2:]}"
    if Season.objects.filter(club=club, name=name).exists():
        raise ServiceError(
            "season_exists", _("The club already has a season %(name)s.") % {"name": name}
        )
    season = Season.objects.create(club=club, name=name, start=start, end=end)
    seed_grass_roots(season)
    request_recompute(season)  # the club's nights already in its dates count at once
    return season


MAX_GAME_POINTS = 200  # a Grass Roots row beyond any night's game points is a typing error


def _check_dates(start: datetime.date, end: datetime.date) -> None:
    if end < start:
        raise ServiceError(
            "season_ends_before_start", _("A season cannot end before it starts."), field="end"
        )


@transaction.atomic
def update_season(season: Season, *, name: str, start: datetime.date, end: datetime.date) -> Season:
    """Rename a season or move its dates; its ledgers are rebuilt (the nights in it change)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    name = name.strip()
    if not name:
        raise ServiceError("season_name_missing", _("Give the season a name."), field="name")
    _check_dates(start, end)
    if Season.objects.filter(club_id=season.club_id, name=name).exclude(pk=season.pk).exists():
        raise ServiceError(
            "season_exists",
            _("The club already has a season %(name)s.") % {"name": name},
            field="name",
        )
    season.name, season.start, season.end = name, start, end
    season.save(update_fields=["name", "start", "end"])
    request_recompute(season)
    return season


@transaction.atomic
def set_grass_roots(season: Season, table: dict[int, int]) -> int:
    """Replace the season's Grass Roots table (game points on a night -> ranking points) and
    rebuild its ledgers. An empty table is allowed: the season then ranks by game points and
    every player's Grass Roots points are 0, which the season page says."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    for game_points, points in table.items():
        if not 0 <= game_points <= MAX_GAME_POINTS or points < 0:
            raise ServiceError(
                "bad_grass_roots_row",
                _("Game points go from 0 to %(max)s and points cannot be negative.")
                % {"max": MAX_GAME_POINTS},
                field="rows",
            )
    season.grass_roots.all().delete()
    GrassRootsPoints.objects.bulk_create(
        GrassRootsPoints(season=season, game_points=gp, points=p) for gp, p in sorted(table.items())
    )
    request_recompute(season)
    return len(table)


def seed_grass_roots(season: Season) -> int:
    """Give a season without a Grass Roots table the ACC's public 9-game table."""
    if season.grass_roots.exists():
        return 0
    rows = GrassRootsPoints.objects.bulk_create(
        GrassRootsPoints(season=season, game_points=gp, points=p)
        for gp, p in ACC_GRASS_ROOTS.items()
    )
    return len(rows)


def request_recompute(season: Season) -> None:
    """Queue a rebuild of the season's ledgers (Celery) once the current transaction commits."""
    from .tasks import recompute_season

    season_id = season.pk
    transaction.on_commit(lambda: recompute_season.delay(season_id), robust=True)


def on_players_merged(sender, *, kept_id: int, merged_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.players_merged_signal``: rebuild every season either
    player has a ledger in, so the kept player's lines add up both records' nights."""
    seasons = Season.objects.filter(ledgers__player_id__in=[kept_id, merged_id]).distinct()
    for season in seasons:
        request_recompute(season)


def grass_roots_points(table: dict[int, int], game_points: int, games_planned: int) -> int:
    """Ranking points for one night: only 9-game nights at 12+ game points earn any.

    Past the top of the table the top row applies (a perfect 27 earns at least 21's points).
    """
    if games_planned != 9 or game_points < QUALIFYING_GAME_POINTS or not table:
        return 0
    eligible = [gp for gp in table if gp <= game_points]
    return table[max(eligible)] if eligible else 0


@dataclass
class _Totals:
    nights: int = 0
    qualifying_nights: int = 0
    grass_roots_points: int = 0
    master_points: Decimal = field(default_factory=lambda: Decimal("0"))
    games_played: int = 0
    games_won: int = 0
    game_points: int = 0
    spread: int = 0
    skunks_won: int = 0
    skunks_suffered: int = 0
    hands_28: int = 0
    hands_29: int = 0
    grand_slams: int = 0


def season_events(season: Season) -> QuerySet:
    """The club's cribbage events in the season's dates that have started (Grass Roots and
    master points are cribbage ledgers: Stoppa nights, scored in chips, stay out)."""
    from tournaments.models import Event

    return (
        Event.objects.filter(club=season.club, date__gte=season.start, date__lte=season.end)
        .exclude(status=Event.Status.DRAFT)
        .filter(game__in=[kind.key for kind in kinds.all_kinds() if kind.seasons])
    )


@transaction.atomic
def recompute_season(season_id: int) -> int:
    """Rebuild a season's ledgers from its events' final standings; returns the players."""
    from .models import Standing, StandingsSnapshot

    season = Season.objects.select_for_update().filter(pk=season_id).first()
    if season is None:
        return 0
    table = dict(season.grass_roots.values_list("game_points", "points"))
    events = {e.pk: e for e in season_events(season)}
    latest = {
        s.event_id: s.pk
        for s in StandingsSnapshot.objects.filter(event_id__in=list(events)).order_by("after_game")
    }  # the last one per event wins: its final standings
    awards: defaultdict[int, dict[int, Decimal]] = defaultdict(dict)
    for event_id, place, points in MasterPoints.objects.filter(
        event_id__in=list(events)
    ).values_list("event_id", "place", "points"):
        awards[event_id][place] = points
    # Master points go by final place: the playoff's places first, once it is decided.
    places = final_places_for(list(events))
    totals: dict[int, _Totals] = defaultdict(_Totals)
    rows = Standing.objects.filter(snapshot_id__in=list(latest.values())).values_list(
        "event_id",
        "entry_id",
        "entry__player_id",
        "rank",
        "game_points",
        "games_played",
        "games_won",
        "games_lost",
        "spread",
        "skunks_won",
        "skunks_suffered",
    )
    for event_id, entry, player, rank, gp, played, won, lost, spread, sk_won, sk_lost in rows:
        if not played:
            continue
        line = totals[player]
        event = events[event_id]
        line.nights += 1
        earned = grass_roots_points(table, gp, event.games_planned)
        line.qualifying_nights += 1 if earned else 0
        line.grass_roots_points += earned
        place = places[event_id].place(entry, rank)
        line.master_points += awards[event_id].get(place, Decimal("0"))
        line.games_played += played
        line.games_won += won
        line.game_points += gp
        line.spread += spread
        line.skunks_won += sk_won
        line.skunks_suffered += sk_lost
        if won >= GRAND_SLAM_WINS and lost == 0:
            line.grand_slams += 1
    hands = (
        SpecialHand.objects.filter(event_id__in=list(events))
        .values("entry__player_id", "points")
        .annotate(n=Count("id"))
    )
    for row in hands:
        line = totals[row["entry__player_id"]]
        if row["points"] == 28:
            line.hands_28 += row["n"]
        else:
            line.hands_29 += row["n"]

    ordered = sorted(
        totals.items(),
        key=lambda kv: (-kv[1].grass_roots_points, -kv[1].game_points, -kv[1].spread, kv[0]),
    )
    SeasonLedger.objects.filter(season=season).delete()
    ledgers = []
    rank, previous = 0, None
    for position, (player, line) in enumerate(ordered, start=1):
        key = (line.grass_roots_points, line.game_points, line.spread)
        if key != previous:
            rank, previous = position, key
        ledgers.append(SeasonLedger(season=season, player_id=player, rank=rank, **line.__dict__))
    SeasonLedger.objects.bulk_create(ledgers)
    season.computed_at = timezone.now()
    season.save(update_fields=["computed_at"])
    return len(ledgers)


def seasons_to_refresh(today: datetime.date | None = None) -> QuerySet[Season]:
    """Seasons the nightly job rebuilds: every season that has not ended more than a month ago."""
    today = today or timezone.localdate()
    return Season.objects.filter(end__gte=today - datetime.timedelta(days=31))


def lifetime_totals(player_id: int) -> dict:
    """A player's ledgers added up over every season."""
    return SeasonLedger.objects.filter(player_id=player_id).aggregate(
        seasons=Count("id"),
        nights=Sum("nights"),
        grass_roots_points=Sum("grass_roots_points"),
        master_points=Sum("master_points"),
        games_played=Sum("games_played"),
        games_won=Sum("games_won"),
        skunks_won=Sum("skunks_won"),
        skunks_suffered=Sum("skunks_suffered"),
        hands_28=Sum("hands_28"),
        hands_29=Sum("hands_29"),
        grand_slams=Sum("grand_slams"),
    )
