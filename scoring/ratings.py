"""Club ratings: OpenSkill (Plackett-Luce) over every confirmed game of a club's events.

The rating state of a club is a pure function of the ordered list of its rated games
(:func:`club_games`: by event date, event, game number, table; read by
:mod:`scoring.rating_games`). A cribbage game ranks its winner above its loser; a Stoppa table
ranks its 3 to 6 players by chip net, equal nets sharing a rank. Playoff games count as every
confirmed game does (after the event's qualifying games, in the bracket's playing order).
Forfeits and byes are not games played and are not rated.

The job (:func:`update_club`) is incremental: it reads only the results past its watermark
(the previous run's last rated result id, in :class:`RatingState`, less the ids rated since:
a result whose id was taken before a run but committed after it is still read) and rates
them on top of the stored ratings. That equals a replay of every game exactly (same float64
arithmetic on the same values) when each new game comes after every rated game of its
players in the club's order: games without a player in common commute, and a game of one
night's game N has no player in common with the other tables of game N. Each player's last
rated game is stored (``PlayerRating.last_key``) to check it. Anything else is replayed from
the start of the earliest event concerned, from the ratings the players had before it (their
history lines): a correction or an undo of a rated result (the event's checksum of its rated
results, recomputed by SQL, no longer matches), a result committed later still, under the
watermark (the same), an event's date moved, a playoff or Stoppa game changed, or a new game
placed before a rated game of its players. A merged player replays the club from its first
game (tests/scoring/test_ratings*.py).
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from tournaments.models import Club, Event, StoppaSeat

from . import coalesce
from .models import PlayerRating, RatingHistory, RatingState
from .rating_games import (
    PLAYOFF_ORDER,
    Checksum,
    Key,
    RatedGame,
    club_filters,
    competition_ranks,
    events_filters,
    key_text,
    other_games,
    rated_games,
    result_games,
    results_checksums,
)

__all__ = ["PLAYOFF_ORDER", "Key", "RatedGame", "competition_ranks", "key_text"]

log = logging.getLogger(__name__)

ADVISORY_LOCK_NAMESPACE = 7_040_122  # pg_advisory_xact_lock(namespace, club id)
# A rating is provisional until it rests on enough games: fewer rated games than this, or an
# uncertainty still above PROVISIONAL_SIGMA (a new player starts at 25 +- 8.33).
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 7.0  # about a night's 9 games against newcomers brings 8.33 to ~6.6

MODEL = PlackettLuce()  # deterministic: no randomness in its updates
INITIAL_MU = MODEL.mu
INITIAL_SIGMA = MODEL.sigma


@dataclass(slots=True)
class Skill:
    """A player's rating while the games are replayed."""

    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative rating, mu - 3 sigma (99.7 % sure the skill is above it)."""
        return self.mu - 3 * self.sigma


def club_games(club_id: int) -> list[RatedGame]:
    """Every rated game of the club's events, in the club's order."""
    return rated_games(**club_filters(club_id))


def player_games(player_id: int) -> list[RatedGame]:
    """Every rated game a player played, in any club: the games their ratings rest on."""
    return rated_games(
        results=Q(winner__player_id=player_id)
        | Q(loser__player_id=player_id)
        | Q(winner__partner_id=player_id)
        | Q(loser__partner_id=player_id),
        seats=Q(table__in=StoppaSeat.objects.filter(entry__player_id=player_id).values("table")),
        playoff=Q(match__seat_a__player_id=player_id) | Q(match__seat_b__player_id=player_id),
    )


def player_game_counts(player_id: int) -> tuple[int, int]:
    """A player's rated games won and played: the count the player page shows beside the
    ratings, so both say the same (a Stoppa table is won by the best chip net, shared)."""
    games = player_games(player_id)
    won = sum(
        1
        for game in games
        for player, rank in zip(game.players, game.ranks, strict=True)
        if player == player_id and rank == 1
    )
    return won, len(games)


def digest(games: Iterable[RatedGame]) -> str:
    """The digest of a run of games (what they are, who played, who placed where)."""
    hasher = hashlib.sha256()
    for game in games:
        hasher.update(game.token())
        hasher.update(b"\n")
    return hasher.hexdigest()


def replay(
    games: Iterable[RatedGame], skills: dict[int, Skill] | None = None
) -> tuple[dict[int, Skill], dict[tuple[int, int], Skill]]:
    """Rate ``games`` in order from ``skills`` (a fresh start when None).

    Returns every player's skill and, per (player, event) of the games, the skill after the
    player's last game of that event (the rating history).
    """
    skills = {} if skills is None else skills
    history: dict[tuple[int, int], Skill] = {}
    for game in games:
        before = [skills.setdefault(p, Skill()) for p in game.players]
        sides = game.sides()  # one player a side, or a team of partners
        teams = [[MODEL.rating(mu=before[i].mu, sigma=before[i].sigma) for i in s] for s in sides]
        after = MODEL.rate(teams, ranks=[game.ranks[s[0]] for s in sides])
        for side, ratings in zip(sides, after, strict=True):
            for i, rating in zip(side, ratings, strict=True):
                skill = before[i]
                skill.mu, skill.sigma, skill.games = rating.mu, rating.sigma, skill.games + 1
                history[(game.players[i], game.event_id)] = Skill(
                    skill.mu, skill.sigma, skill.games
                )
    return skills, history


def last_keys(games: Iterable[RatedGame]) -> dict[int, str]:
    """Each player's last game of ``games`` (in order), as :func:`key_text`."""
    return {player: key_text(game.key) for game in games for player in game.players}


def last_keys_by_event(games: Iterable[RatedGame]) -> dict[tuple[int, int], str]:
    """Each (player, event)'s last game of ``games`` (in order), as :func:`key_text`."""
    return {
        (player, game.event_id): key_text(game.key) for game in games for player in game.players
    }


def _lock(club_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_NAMESPACE, club_id]
            )


@transaction.atomic
def update_club(club_id: int, *, from_scratch: bool = False) -> str:
    """Bring a club's ratings up to date; ``"incremental"``, ``"scratch"`` or ``"current"``.

    ``"scratch"``: the games were rated again, from a fresh start or from the stored ratings
    before the earliest event that changed (its date, a result, a playoff game, a Stoppa
    table): the same arithmetic as from the very first game. Safe to repeat and to run
    concurrently (runs for one club take turns under an advisory lock). ``from_scratch``
    forces the replay from the first game (the TD's recompute, the tests).
    """
    _lock(club_id)
    if not Club.objects.filter(pk=club_id).exists():
        return "current"
    state, created = RatingState.objects.select_for_update().get_or_create(club_id=club_id)
    # A state without events (none yet, from before the watermark, or marked by a merge)
    # starts from scratch.
    # Read first: a version read before the rows is never ahead of them (a change that
    # commits meanwhile brings the event back next run).
    events = _club_events(club_id)
    point = None
    if not (from_scratch or created or state.events is None):
        outcome = _incremental(club_id, state, events)
        if isinstance(outcome, str):
            return outcome
        point = outcome
    _replay_from(club_id, state, events, point)
    return "scratch"


Point = tuple[str, int]  # (event date, event id): the start of an event in the club's order


def _club_events(club_id: int) -> dict[str, tuple[str, int]]:
    """Each event of the club: its date and its results version, by id (as JSON keys)."""
    rows = Event.objects.filter(club_id=club_id).values_list("pk", "date", "results_version")
    return {str(pk): (date.isoformat(), version) for pk, date, version in rows}


def _line(date_version: tuple[str, int], checksum: str, others: list[RatedGame], event: str):
    """What a run keeps of an event: [date, results version, checksum of its rated results,
    digest of its rated playoff and Stoppa games, its rated games in all]."""
    mine = [game for game in others if str(game.event_id) == event]
    return [*date_version, checksum, digest(mine), Checksum.parse(checksum).count + len(mine)]


def _incremental(
    club_id: int, state: RatingState, events: dict[str, tuple[str, int]]
) -> str | Point | None:
    """Rate the games past the watermark on top of the stored ratings; when that would not
    equal a replay, the point to replay from (the start of the earliest event concerned).

    ``state.events`` holds, per event of the club, what the last run saw of it (see
    :func:`_line`). Only the events whose version moved (every change of a result bumps it,
    in the writer's transaction), the new ones and those with results past the watermark
    are read again. None: replay every game.
    """
    seen: dict[str, list[Any]] = state.events or {}
    moved = [e for e, line in seen.items() if e not in events or events[e][0] != line[0]]
    rated_ids = set(state.recent or [])
    past = result_games(Q(winner__event__club_id=club_id, pk__gt=state.settled_id))
    fresh = [row for row in past if row.pk not in rated_ids]
    changed = {
        e for e, (_date, version) in events.items() if e not in seen or seen[e][1] != version
    }
    changed |= {str(row.game.event_id) for row in fresh} | (set(moved) & set(events))
    # A replay starts before every event concerned, at its old place and its new.
    point = min(
        [(seen[e][0], int(e)) for e in moved] + [(events[e][0], int(e)) for e in changed],
        default=None,
    )
    if moved:
        return point  # an event rated moved to another date (or is gone): a new order
    expected = {e: Checksum.parse(seen[e][2]) if e in seen else Checksum() for e in changed}
    for row in fresh:
        expected[str(row.game.event_id)].add(row.pk, row.winner, row.loser)
    ids = sorted(int(e) for e in changed)
    now = results_checksums(ids)
    if any(now.get(int(e), Checksum().text()) != expected[e].text() for e in changed):
        return point  # a rated result changed or went, or one came in under the watermark
    others = sorted(other_games(**events_filters(ids)), key=lambda game: game.key)
    players = {p for row in fresh for p in row.game.players}
    players |= {p for game in others for p in game.players}
    stored = {
        p: (Skill(mu, sigma, n), last)
        for p, mu, sigma, n, last in PlayerRating.objects.filter(
            club_id=club_id, player_id__in=players
        ).values_list("player_id", "mu", "sigma", "games", "last_key")
    }

    def rated(game: RatedGame) -> list[bool]:
        here = key_text(game.key)
        return [p in stored and stored[p][1] >= here for p in game.players]

    # A playoff game or a Stoppa table is rated when its players' last rated games are at or
    # past it; per event, those must be exactly the ones rated last time.
    old_others = [game for game in others if all(rated(game))]
    new_games = [game for game in others if not any(rated(game))]
    if len(old_others) + len(new_games) != len(others):
        return point  # a game placed before a rated game of some of its players
    for event in changed:
        were = [game for game in old_others if str(game.event_id) == event]
        if digest(were) != (seen[event][3] if event in seen else digest([])):
            return point  # a playoff game or a Stoppa table changed or went
    for row in fresh:
        if any(rated(row.game)):
            return point  # a late result of an earlier game of one of its players
        new_games.append(row.game)
    state.events = seen | {
        e: _line(events[e], now.get(int(e), Checksum().text()), others, e) for e in changed
    }
    if not new_games:
        if changed:
            state.save(update_fields=["events"])
        return "current"
    new_games.sort(key=lambda game: game.key)
    skills = {p: skill for p, (skill, _last) in stored.items()}
    _skills, history = replay(new_games, skills)
    touched = last_keys(new_games)
    _write(
        club_id,
        {p: skills[p] for p in touched},
        history,
        touched,
        last_keys_by_event(new_games),
        upsert=True,
    )
    _settle(state, state.result_id, [row.pk for row in fresh])
    state.games += len(new_games)
    state.computed_at = timezone.now()
    state.save()
    return "incremental"


MAX_RECENT = 5000  # past this many ids above the settled one, settle at the newest instead


def _settle(state: RatingState, high: int, rated: list[int], *, full: bool = False) -> None:
    """Set the watermark after a run that rated ``rated`` (result ids): the settled id moves
    to the previous run's watermark ``high``, one run behind, and the ids rated above it are
    kept to be skipped. A result committed late with an id above the settled one is then read
    next run; one even later (or after a first run, which has no previous watermark) falls
    back to a replay, as a correction does."""
    newest = max([0 if full else high, *rated])
    recent = {pk for pk in [*(state.recent or []), *rated] if pk > high}
    if not high or len(recent) > MAX_RECENT:
        high, recent = newest, set()
    state.settled_id, state.recent, state.result_id = high, sorted(recent), newest


def _before(club_id: int, events: dict[str, tuple[str, int]], point: Point):
    """Each player's rating and last rated game before ``point``: the history line of their
    last event before it."""
    place = {int(e): (date, int(e)) for e, (date, _v) in events.items() if (date, int(e)) < point}
    lines = RatingHistory.objects.filter(club_id=club_id, event_id__in=list(place))
    latest: dict[int, tuple[Point, Skill, str]] = {}
    for p, e, mu, sigma, n, key in lines.values_list(
        "player_id", "event_id", "mu", "sigma", "games", "last_key"
    ):
        if p not in latest or place[e] > latest[p][0]:
            latest[p] = (place[e], Skill(mu, sigma, n), key)
    return {p: line[1] for p, line in latest.items()}, {p: line[2] for p, line in latest.items()}


def _replay_from(
    club_id: int, state: RatingState, events: dict[str, tuple[str, int]], point: Point | None
) -> None:
    """Rate the games of the events from ``point`` on (every game when None) from the
    ratings before it, and set the watermark. The events before ``point`` are unchanged."""
    after = [e for e, (date, _v) in events.items() if point is None or (date, int(e)) >= point]
    ids = sorted(int(e) for e in after)
    skills: dict[int, Skill] = {}
    last: dict[int, str] = {}
    if point is None:
        filters = club_filters(club_id)
        results = result_games(filters["results"])
        others = other_games(seats=filters["seats"], playoff=filters["playoff"])
    else:
        results = result_games(Q(winner__event_id__in=ids))
        others = other_games(**events_filters(ids))
        skills, last = _before(club_id, events, point)
    others.sort(key=lambda game: game.key)
    checksums = {e: Checksum() for e in after}
    for row in results:
        checksums[str(row.game.event_id)].add(row.pk, row.winner, row.loser)
    games = sorted([row.game for row in results] + others, key=lambda game: game.key)
    skills, history = replay(games, skills)
    last |= last_keys(games)
    PlayerRating.objects.filter(club_id=club_id).delete()
    lines = RatingHistory.objects.filter(club_id=club_id)
    (lines if point is None else lines.filter(event_id__in=ids)).delete()
    _write(club_id, skills, history, last, last_keys_by_event(games), upsert=False)
    before: dict[str, list[Any]] = state.events or {}
    kept = {} if point is None else {e: before[e] for e in events if e not in after}
    now_seen = kept | {e: _line(events[e], checksums[e].text(), others, e) for e in after}
    state.events = now_seen
    if point is None:
        state.recent = []
    _settle(state, state.result_id, [row.pk for row in results], full=point is None)
    state.games = sum(line[4] for line in now_seen.values())
    if point is None:
        state.full_runs += 1
    state.computed_at = timezone.now()
    state.save()


def _write(
    club_id: int,
    skills: dict[int, Skill],
    history: dict[tuple[int, int], Skill],
    last: dict[int, str],
    last_of_lines: dict[tuple[int, int], str],
    *,
    upsert: bool,
) -> None:
    """Write ratings and history lines, with the last game of each (:func:`last_keys`,
    :func:`last_keys_by_event`): over the stored ones (``upsert``), or as new rows where the
    caller deleted the old."""
    replace = not upsert
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(
                club_id=club_id,
                player_id=p,
                mu=s.mu,
                sigma=s.sigma,
                games=s.games,
                last_key=last[p],
            )
            for p, s in skills.items()
        ],
        batch_size=1000,
        update_conflicts=not replace,
        unique_fields=None if replace else ["club", "player"],
        update_fields=None if replace else ["mu", "sigma", "games", "last_key"],
    )
    RatingHistory.objects.bulk_create(
        [
            RatingHistory(
                club_id=club_id,
                player_id=p,
                event_id=e,
                mu=s.mu,
                sigma=s.sigma,
                games=s.games,
                last_key=last_of_lines[(p, e)],
            )
            for (p, e), s in history.items()
        ],
        batch_size=1000,
        update_conflicts=not replace,
        unique_fields=None if replace else ["club", "player", "event"],
        update_fields=None if replace else ["mu", "sigma", "games", "last_key"],
    )


# --- Queueing the job ---------------------------------------------------------------------------


def _queued_key(club_id: int) -> str:
    return f"ratings:queued:{club_id}"


def send_update(club_id: int) -> bool:
    """Send the ratings task unless one is already queued for the club; True if sent. It runs
    ``RATINGS_GATHER_SECONDS`` after the first result it is for: one run gathers every result
    of the club's events in that window (the standings gather per event, in a shorter one).
    Never raises (see :mod:`scoring.coalesce`)."""
    from .tasks import update_ratings

    return coalesce.send_coalesced(
        _queued_key(club_id),
        update_ratings,
        (club_id,),
        countdown=settings.RATINGS_GATHER_SECONDS,
    )


def clear_queued(club_id: int) -> None:
    """Called as a run starts: from here on a new result queues a new run."""
    coalesce.clear(_queued_key(club_id))


def queue_for_event(event_id: int) -> bool:
    """Queue the ratings of the event's club (after the event's standings run); never raises:
    a lost message is caught up by the next result, or the TD's recompute."""
    from tournaments.models import Event

    try:
        club_id = Event.objects.filter(pk=event_id).values_list("club_id", flat=True).first()
    except Exception as exc:
        log.warning("ratings: could not read event %s (%s)", event_id, exc)
        return False
    return club_id is not None and send_update(club_id)


def on_players_merged(sender, *, kept_id: int, merged_id: int, **kwargs) -> None:
    """Receiver of ``tournaments.hooks.players_merged_signal``: the clubs where either player
    is rated are rated again from scratch once the merge commits (their games now have one
    player; the results' checksums, by entry, cannot see it)."""
    clubs = set(
        PlayerRating.objects.filter(player_id__in=[kept_id, merged_id]).values_list(
            "club_id", flat=True
        )
    )
    RatingState.objects.filter(club_id__in=clubs).update(events=None)
    for club_id in sorted(clubs):
        transaction.on_commit(functools.partial(send_update, club_id), robust=True)


def is_provisional(games: int, sigma: float) -> bool:
    """Whether a rating rests on too few games to be trusted yet."""
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


# --- Reads -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RankingLine:
    """One line of a club's rating list."""

    rank: int
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return is_provisional(self.games, self.sigma)


def club_ranking(club_id: int) -> list[RankingLine]:
    """The club's rated players by conservative rating (mu - 3 sigma), best first.

    Ranked by the conservative figure so that a newcomer with two lucky wins does not top
    the list over a regular with the same mean: the list says how sure it is, too.
    """
    rows = PlayerRating.objects.filter(club_id=club_id).values_list(
        "player_id", "player__name", "mu", "sigma", "games"
    )
    ordered = sorted(rows, key=lambda r: (-(r[2] - 3 * r[3]), r[1].casefold(), r[0]))
    return [RankingLine(i, *row) for i, row in enumerate(ordered, start=1)]


def player_history(player_id: int) -> list[dict]:
    """A player's rating per club: the current rating and the line after each event."""
    clubs = []
    current = PlayerRating.objects.filter(player_id=player_id).select_related("club")
    for rating in current.order_by("club__name"):
        lines = (
            RatingHistory.objects.filter(player_id=player_id, club_id=rating.club_id)
            .select_related("event")
            .order_by("event__date", "event_id")
        )
        clubs.append(
            {
                "club": rating.club,
                "rating": rating,
                "ordinal": rating.mu - 3 * rating.sigma,
                "provisional": is_provisional(rating.games, rating.sigma),
                "lines": [
                    {
                        "event": line.event,
                        "mu": line.mu,
                        "sigma": line.sigma,
                        "ordinal": line.mu - 3 * line.sigma,
                        "games": line.games,
                    }
                    for line in lines
                ],
            }
        )
    return clubs


def entry_ratings(event_id: int) -> dict[int, float]:
    """Each entry of an event by its player's conservative club rating (a team: its two
    partners' mean; unrated: a new player's, 0). The provider of
    ``tournaments.hooks.rating_of_entries`` (seeding)."""
    from tournaments.models import Entry

    entries = list(
        Entry.objects.filter(event_id=event_id).values_list(
            "pk", "player_id", "partner_id", "event__club_id"
        )
    )
    if not entries:
        return {}
    club_id = entries[0][3]
    rated = PlayerRating.objects.filter(club_id=club_id).values_list("player_id", "mu", "sigma")
    ordinal = {p: mu - 3 * sigma for p, mu, sigma in rated}
    fresh = INITIAL_MU - 3 * INITIAL_SIGMA
    # A team of partners: the mean of its two players' ratings.
    return {
        pk: sum(ordinal.get(p, fresh) for p in team) / len(team)
        for pk, *players, _club in entries
        for team in [[p for p in players if p is not None]]
    }
