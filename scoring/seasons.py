"""Seasons and points ledgers: Grass Roots points, master points, special hands, grand slams.

A season is a club's nights between two dates. Its ledgers are rebuilt from the final
standings snapshot of each event in it (never from raw results again), by the nightly beat
job and on demand; lifetime totals add the seasons up.
"""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import transaction
from django.db.models import Count, QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import kinds
from tournaments.selectors_members import member_ids, members_between

from .error_codes import ScoringError
from .models import (
    GrassRootsPoints,
    MasterPoints,
    MrpAward,
    Season,
    SeasonLedger,
    SeasonNight,
    SpecialHand,
)
from .places import final_places_for

# The ACC's public 9-game internet table: game points on a 9-game night -> Grass Roots points
# (a night of 12 game points gives 3 Grass Roots points, a night of 21 gives 107). The ACC
# awards Grass Roots points on 9-game nights only; its table starts at 12 game points.
ACC_GRASS_ROOTS = {12: 3, 13: 6, 14: 11, 15: 19, 16: 27, 17: 39, 18: 53, 19: 69, 20: 87, 21: 107}
ACC_NIGHT_GAMES = 9
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
    night_games: int | None = None,
) -> Season:
    """A season for ``club`` (September to May by default), its Grass Roots table seeded with
    the ACC's (for 9-game nights unless told otherwise)."""
    if start is None or end is None:
        start, end = default_dates(start or timezone.localdate())
    _check_dates(start, end)
    night_games = _check_night_games(night_games or ACC_NIGHT_GAMES)
    name = name.strip() or f"{start.year}-{str(end.year)[-2:]}"
    if Season.objects.filter(club=club, name=name).exists():
        raise ServiceError(
            ScoringError.SEASON_EXISTS,
            _("The club already has a season %(name)s.") % {"name": name},
        )
    season = Season.objects.create(
        club=club, name=name, start=start, end=end, night_games=night_games
    )
    seed_grass_roots(season)
    request_recompute(season)  # the club's nights already in its dates count at once
    return season


MAX_GAME_POINTS = 200  # a Grass Roots row beyond any night's game points is a typing error


def _check_dates(start: datetime.date, end: datetime.date) -> None:
    if end < start:
        raise ServiceError(
            ScoringError.SEASON_ENDS_BEFORE_START,
            _("A season cannot end before it starts."),
            field="end",
        )


MAX_NIGHT_GAMES = 40  # an event has at most 40 games


def _check_night_games(night_games: int) -> int:
    if not 1 <= night_games <= MAX_NIGHT_GAMES:
        raise ServiceError(
            ScoringError.BAD_NIGHT_GAMES,
            _("A night has between 1 and %(max)s games.") % {"max": MAX_NIGHT_GAMES},
            field="night_games",
        )
    return night_games


@transaction.atomic
def update_season(
    season: Season,
    *,
    name: str,
    start: datetime.date,
    end: datetime.date,
    night_games: int | None = None,
) -> Season:
    """Rename a season, move its dates or change the length of night its Grass Roots table is
    for; its ledgers are rebuilt (the nights in it, or what they earn, change)."""
    season = Season.objects.select_for_update().get(pk=season.pk)
    name = name.strip()
    if not name:
        raise ServiceError(
            ScoringError.SEASON_NAME_MISSING, _("Give the season a name."), field="name"
        )
    _check_dates(start, end)
    if Season.objects.filter(club_id=season.club_id, name=name).exclude(pk=season.pk).exists():
        raise ServiceError(
            ScoringError.SEASON_EXISTS,
            _("The club already has a season %(name)s.") % {"name": name},
            field="name",
        )
    season.name, season.start, season.end = name, start, end
    season.night_games = _check_night_games(night_games or season.night_games)
    season.save(update_fields=["name", "start", "end", "night_games"])
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
                ScoringError.BAD_GRASS_ROOTS_ROW,
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


@dataclass(frozen=True, slots=True)
class NightPoints:
    """What one night earned on a Grass Roots table, and why (a :class:`SeasonNight.Why`)."""

    why: str
    points: int = 0
    row: int | None = None  # the table's row (game points) that gave the points


def night_points(
    table: dict[int, int], game_points: int, games: int, night_games: int = ACC_NIGHT_GAMES
) -> NightPoints:
    """The Grass Roots points of one night and the reason, as the ACC awards them: only a
    night as long as the table's (9 games for the ACC's) earns any, by the highest row at or
    below its game points (past the top row the top row applies: a perfect 27 earns 21's)."""
    if not table:
        return NightPoints(SeasonNight.Why.NO_TABLE)
    if games != night_games:
        return NightPoints(SeasonNight.Why.NIGHT_LENGTH)
    eligible = [gp for gp in table if gp <= game_points]
    if not eligible:
        return NightPoints(SeasonNight.Why.BELOW_TABLE)
    row = max(eligible)
    return NightPoints(SeasonNight.Why.ROW, table[row], row)


def explain_night(night: SeasonNight, night_games: int) -> str:
    """Why a night earned what it earned, in words: "place 3 of 18 · 14 game points: the
    table's row 14 gives 11 points"."""
    where = _("place %(place)s of %(field)s") % {"place": night.place, "field": night.field_size}
    values = {
        "gp": night.game_points,
        "row": night.row,
        "points": night.grass_roots_points,
        "games": night.games,
        "night_games": night_games,
    }
    if night.why == SeasonNight.Why.ROW:
        why = _(
            "%(gp)s game points: the table's row for %(row)s game points gives %(points)s points"
        )
    elif night.why == SeasonNight.Why.BELOW_TABLE:
        why = _("%(gp)s game points, fewer than the table's first row: no Grass Roots points")
    elif night.why == SeasonNight.Why.GUEST:
        why = _("%(gp)s game points as a guest: Grass Roots points go to members only")
    elif night.why == SeasonNight.Why.NIGHT_LENGTH:
        why = _(
            "a night of %(games)s games; the Grass Roots table is for nights of "
            "%(night_games)s games, so it gives no Grass Roots points"
        )
    else:
        why = _("the season has no Grass Roots table: no Grass Roots points")
    text = f"{where} · {why % values}"
    if night.master_points:
        text += " · " + _("%(points)s master points for place %(place)s") % {
            "points": f"{night.master_points.normalize():f}",
            "place": night.place,
        }
    return text


def grass_roots_points(
    table: dict[int, int], game_points: int, games: int, night_games: int = ACC_NIGHT_GAMES
) -> int:
    """Ranking points for one night (see :func:`night_points`)."""
    return night_points(table, game_points, games, night_games).points


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


def _season_kind_events(season: Season) -> QuerySet:
    """The club's cribbage events in the season's dates (Grass Roots and master points are
    cribbage ledgers: Stoppa nights, scored in chips, stay out)."""
    from tournaments.models import Event

    return Event.objects.filter(
        club=season.club, date__gte=season.start, date__lte=season.end
    ).filter(game__in=[kind.key for kind in kinds.all_kinds() if kind.seasons])


def season_events(season: Season) -> QuerySet:
    """The nights that count for the season: finished, and not marked by the TD as not
    counting (a test night). A night under way counts once it has finished."""
    from tournaments.models import Event

    return _season_kind_events(season).filter(status=Event.Status.FINISHED, counts_for_season=True)


def uncounted_events(season: Season) -> list[tuple[object, str]]:
    """The club's events in the season's dates that do not count (yet), each with the reason
    in words: under way, or marked as not counting. Drafts and cancelled events are left out
    (they are not public)."""
    from tournaments.models import PRIVATE_STATUSES, Event

    found = []
    events = _season_kind_events(season).exclude(status__in=PRIVATE_STATUSES).order_by("date")
    for event in events.exclude(status=Event.Status.FINISHED, counts_for_season=True):
        if not event.counts_for_season:
            why = _("the TD marked it as not counting for the season")
        else:
            why = _("still under way: it counts once it has finished")
        found.append((event, why))
    return found


def night_places(snapshot_ids: list[int]) -> dict[tuple[int, int], int]:
    """Each player's final place on each night, keyed by (event id, player id): the one place
    lookup of the season job (master points and the nights' reasons read it). Once an event's
    playoff is decided its places come first (``scoring.places``), else the qualifying rank."""
    from .models import Standing

    rows = list(
        Standing.objects.filter(snapshot_id__in=snapshot_ids).values_list(
            "event_id", "entry_id", "entry__player_id", "rank"
        )
    )
    finals = final_places_for({event_id for event_id, *_rest in rows})
    return {
        (event_id, player_id): finals[event_id].place(entry_id, rank)
        for event_id, entry_id, player_id, rank in rows
    }


@transaction.atomic
def recompute_season(season_id: int) -> int:
    """Rebuild a season's ledgers and nights from its events' final standings; returns the
    players."""
    from .models import Standing, StandingsSnapshot

    season = Season.objects.select_for_update().filter(pk=season_id).first()
    if season is None:
        return 0
    table = dict(season.grass_roots.values_list("game_points", "points"))
    events = {
        e.pk: e for e in season_events(season).annotate(games_drawn=Count("rounds", distinct=True))
    }
    latest = {
        s.event_id: s.pk
        for s in StandingsSnapshot.objects.filter(event_id__in=list(events)).order_by("after_game")
    }  # the last one per event wins: its final standings
    places = night_places(list(latest.values()))
    # Master points: the computed MRPs of an event (by player); an event without them keeps
    # the table loaded by hand (by place), as before they were computed.
    computed: defaultdict[int, dict[int, Decimal]] = defaultdict(dict)
    for event_id, player_id, points in MrpAward.objects.filter(
        event_id__in=list(events)
    ).values_list("event_id", "entry__player_id", "points"):
        computed[event_id][player_id] = points
    awards: defaultdict[int, dict[int, Decimal]] = defaultdict(dict)
    for event_id, place, points in MasterPoints.objects.filter(
        event_id__in=list(events)
    ).values_list("event_id", "place", "points"):
        awards[event_id][place] = points
    totals: dict[int, _Totals] = defaultdict(_Totals)
    rows = list(
        Standing.objects.filter(snapshot_id__in=list(latest.values()), games_played__gt=0)
        .values_list(
            "event_id",
            "entry__player_id",
            "game_points",
            "games_played",
            "games_won",
            "games_lost",
            "spread",
            "skunks_won",
            "skunks_suffered",
        )
        .order_by("event_id", "rank")
    )
    field_sizes = Counter(row[0] for row in rows)
    # Grass Roots points go to members only (issue 27): who was a member on each night.
    players_of: defaultdict[int, set[int]] = defaultdict(set)
    for event_id, player, *_rest in rows:
        players_of[event_id].add(player)
    members = {
        event_id: member_ids(season.club, ids, events[event_id].date)
        for event_id, ids in players_of.items()
    }
    nights = []
    for event_id, player, gp, played, won, lost, spread, sk_won, sk_lost in rows:
        line = totals[player]
        event = events[event_id]
        place = places[(event_id, player)]
        # The night's length is the games it had (a night stopped early is that short).
        if player in members[event_id]:
            earned = night_points(
                table, gp, event.games_drawn or event.games_planned, season.night_games
            )
        else:
            earned = NightPoints(SeasonNight.Why.GUEST)
        if event_id in computed:
            master = computed[event_id].get(player, Decimal("0"))
        else:
            master = awards[event_id].get(place, Decimal("0"))
        nights.append(
            SeasonNight(
                season=season,
                player_id=player,
                event_id=event_id,
                place=place,
                field_size=field_sizes[event_id],
                games=event.games_drawn or event.games_planned,
                game_points=gp,
                why=earned.why,
                row=earned.row,
                grass_roots_points=earned.points,
                master_points=master,
            )
        )
        line.nights += 1
        line.qualifying_nights += 1 if earned.points else 0
        line.grass_roots_points += earned.points
        line.master_points += master
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
    SeasonNight.objects.filter(season=season).delete()
    ledgers = []
    rank, previous = 0, None
    for position, (player, line) in enumerate(ordered, start=1):
        key = (line.grass_roots_points, line.game_points, line.spread)
        if key != previous:
            rank, previous = position, key
        ledgers.append(SeasonLedger(season=season, player_id=player, rank=rank, **line.__dict__))
    SeasonLedger.objects.bulk_create(ledgers)
    SeasonNight.objects.bulk_create(nights)
    season.computed_at = timezone.now()
    season.save(update_fields=["computed_at"])
    return len(ledgers)


def split_members(season: Season, ledgers: list[SeasonLedger]) -> tuple[list, list]:
    """The season's ledger lines as (members, guests), each in the order given: the ACC's
    report and the season's pages list the club's guests apart (they earn no Grass Roots
    points)."""
    members = members_between(
        season.club, [line.player_id for line in ledgers], season.start, season.end
    )
    return (
        [line for line in ledgers if line.player_id in members],
        [line for line in ledgers if line.player_id not in members],
    )


def on_event_season_changed(sender, *, event_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.event_season_changed_signal``: an event finished, was
    cancelled or marked as (not) counting; rebuild the seasons its date falls in."""
    from tournaments.models import Event

    event = Event.objects.filter(pk=event_id).values("club_id", "date").first()
    if event is None:
        return
    for season in Season.objects.filter(
        club_id=event["club_id"], start__lte=event["date"], end__gte=event["date"]
    ):
        request_recompute(season)


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
