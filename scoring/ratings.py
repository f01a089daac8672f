"""Club ratings: OpenSkill (Plackett-Luce) over every confirmed game of a club's events.

The rating state of a club is a pure function of the ordered list of its rated games
(:func:`club_games`: by event date, event, game number, table). A cribbage game ranks its
winner above its loser; a Stoppa table ranks its 3 to 6 players by chip net, equal nets
sharing a rank. Playoff games count as every confirmed game does (after the event's qualifying
games, in the bracket's playing order). Forfeits and byes are not games played and are not
rated.

The job (:func:`update_club`) is incremental when it can be: the club's :class:`RatingState`
holds the count and the digest of the games it has processed; when the same games still
come first, only the games after them are rated, from the stored ratings. Otherwise (a
correction, an undo, a late result of an earlier night, a merged player) the club is rated
again from scratch. Both paths apply the same arithmetic in the same order to the same
float64 values, so they agree exactly (tests/scoring/test_ratings.py).
"""

from __future__ import annotations

import functools
import hashlib
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import groupby

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from openskill.models import PlackettLuce

from tournaments.limits import MAX_NUMBER
from tournaments.models import Club, GameResult, PlayoffGame, StoppaSeat

from . import coalesce
from .models import PlayerRating, RatingHistory, RatingState

log = logging.getLogger(__name__)

ADVISORY_LOCK_NAMESPACE = 7_040_122  # pg_advisory_xact_lock(namespace, club id)
# A rating is provisional until it rests on enough games: fewer rated games than this, or an
# uncertainty still above PROVISIONAL_SIGMA (a new player starts at 25 +- 8.33).
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 7.0  # about a night's 9 games against newcomers brings 8.33 to ~6.6

MODEL = PlackettLuce()  # deterministic: no randomness in its updates
INITIAL_MU = MODEL.mu
INITIAL_SIGMA = MODEL.sigma

Key = tuple[str, int, int, int]  # (event date, event id, game number, table number)
# A playoff game's "game number" in the key: past every qualifying game of its event, then
# the match's playing order (its "table" is the game's number within the match).
PLAYOFF_ORDER = MAX_NUMBER + 1


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One rated game: its place in the club's order and each player's rank (1 = best)."""

    key: Key
    players: tuple[int, ...]
    ranks: tuple[int, ...]

    @property
    def event_id(self) -> int:
        return self.key[1]

    def token(self) -> bytes:
        """What the digest of the processed games reads of this game."""
        return repr((self.key, self.players, self.ranks)).encode()


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


def competition_ranks(values: Sequence[int]) -> tuple[int, ...]:
    """1-based ranks, higher value better, equal values sharing a rank (1, 2, 2, 4)."""
    return tuple(1 + sum(other > value for other in values) for value in values)


def club_games(club_id: int) -> list[RatedGame]:
    """Every rated game of the club's events, in the club's order."""
    return _rated_games(
        results=Q(table__round__event__club_id=club_id),
        seats=Q(table__round__event__club_id=club_id),
        playoff=Q(match__bracket__event__club_id=club_id),
    )


def player_games(player_id: int) -> list[RatedGame]:
    """Every rated game a player played, in any club: the games their ratings rest on."""
    return _rated_games(
        results=Q(winner__player_id=player_id) | Q(loser__player_id=player_id),
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


def _rated_games(*, results: Q, seats: Q, playoff: Q) -> list[RatedGame]:
    """The rated games the three filters select (qualifying results, Stoppa seats, playoff
    games), in the club's order: a playoff game after every qualifying game of its event,
    by the match's playing order and the game's number."""
    games: list[RatedGame] = []
    played = GameResult.objects.filter(
        results, kind=GameResult.Kind.PLAYED, loser__isnull=False
    ).values_list(
        "table__round__event__date",
        "table__round__event_id",
        "table__round__number",
        "table__number",
        "winner__player_id",
        "loser__player_id",
    )
    for date, event_id, number, table, winner, loser in played:
        games.append(
            RatedGame((date.isoformat(), event_id, number, table or 0), (winner, loser), (1, 2))
        )
    # Playoff games are confirmed games too (a forfeit is not a game played, as in qualifying).
    playoff_games = PlayoffGame.objects.filter(
        playoff, forfeit=False, match__seat_a__isnull=False, match__seat_b__isnull=False
    ).values_list(
        "match__bracket__event__date",
        "match__bracket__event_id",
        "match__position",
        "number",
        "winner_id",
        "match__seat_a_id",
        "match__seat_a__player_id",
        "match__seat_b__player_id",
    )
    for date, event_id, position, number, winner, seat_a, player_a, player_b in playoff_games:
        pair = (player_a, player_b) if winner == seat_a else (player_b, player_a)
        key = (date.isoformat(), event_id, PLAYOFF_ORDER + position, number)
        games.append(RatedGame(key, pair, (1, 2)))
    stoppa = (
        StoppaSeat.objects.filter(
            seats,
            table__entered_at__isnull=False,
            table__number__isnull=False,
            net__isnull=False,
        )
        .order_by("table_id", "position")
        .values_list(
            "table__round__event__date",
            "table__round__event_id",
            "table__round__number",
            "table__number",
            "entry__player_id",
            "net",
        )
    )
    for (date, event_id, number, table), rows in groupby(stoppa, key=lambda row: row[:4]):
        players_nets = [(row[4], row[5]) for row in rows]
        if len(players_nets) < 2:
            continue
        games.append(
            RatedGame(
                (date.isoformat(), event_id, number, table or 0),
                tuple(p for p, _net in players_nets),
                competition_ranks([net or 0 for _p, net in players_nets]),
            )
        )
    games.sort(key=lambda game: game.key)
    return games


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
        teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in before]
        after = MODEL.rate(teams, ranks=list(game.ranks))
        for player, skill, (rating,) in zip(game.players, before, after, strict=True):
            skill.mu, skill.sigma, skill.games = rating.mu, rating.sigma, skill.games + 1
            history[(player, game.event_id)] = Skill(skill.mu, skill.sigma, skill.games)
    return skills, history


def _lock(club_id: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", [ADVISORY_LOCK_NAMESPACE, club_id]
            )


@transaction.atomic
def update_club(club_id: int, *, from_scratch: bool = False) -> str:
    """Bring a club's ratings up to date; ``"incremental"``, ``"scratch"`` or ``"current"``.

    Safe to repeat and to run concurrently (runs for one club take turns under an advisory
    lock). ``from_scratch`` forces the full replay (the TD's recompute, the tests).
    """
    _lock(club_id)
    if not Club.objects.filter(pk=club_id).exists():
        return "current"
    games = club_games(club_id)
    state, _created = RatingState.objects.select_for_update().get_or_create(club_id=club_id)
    done = state.games
    incremental = (
        not from_scratch and 0 < done <= len(games) and digest(games[:done]) == state.digest
    )
    if incremental and done == len(games):
        return "current"
    if incremental:
        stored = PlayerRating.objects.filter(club_id=club_id).values_list(
            "player_id", "mu", "sigma", "games"
        )
        skills = {p: Skill(mu, sigma, n) for p, mu, sigma, n in stored}
        _skills, history = replay(games[done:], skills)
        touched = {p for game in games[done:] for p in game.players}
        _write(club_id, {p: skills[p] for p in touched}, history, replace=False)
        state.digest = digest(games)
    else:
        skills, history = replay(games)
        _write(club_id, skills, history, replace=True)
        state.digest = digest(games)
        state.full_runs += 1
    state.games = len(games)
    state.computed_at = timezone.now()
    state.save()
    return "incremental" if incremental else "scratch"


def _write(
    club_id: int,
    skills: dict[int, Skill],
    history: dict[tuple[int, int], Skill],
    *,
    replace: bool,
) -> None:
    if replace:
        PlayerRating.objects.filter(club_id=club_id).delete()
        RatingHistory.objects.filter(club_id=club_id).delete()
    PlayerRating.objects.bulk_create(
        [
            PlayerRating(club_id=club_id, player_id=p, mu=s.mu, sigma=s.sigma, games=s.games)
            for p, s in skills.items()
        ],
        batch_size=1000,
        update_conflicts=not replace,
        unique_fields=None if replace else ["club", "player"],
        update_fields=None if replace else ["mu", "sigma", "games"],
    )
    RatingHistory.objects.bulk_create(
        [
            RatingHistory(
                club_id=club_id, player_id=p, event_id=e, mu=s.mu, sigma=s.sigma, games=s.games
            )
            for (p, e), s in history.items()
        ],
        batch_size=1000,
        update_conflicts=not replace,
        unique_fields=None if replace else ["club", "player", "event"],
        update_fields=None if replace else ["mu", "sigma", "games"],
    )


# --- Queueing the job ---------------------------------------------------------------------------


def _queued_key(club_id: int) -> str:
    return f"ratings:queued:{club_id}"


def send_update(club_id: int) -> bool:
    """Send the ratings task now unless one is already queued for the club; True if sent.
    Never raises (see :mod:`scoring.coalesce`)."""
    from .tasks import update_ratings

    return coalesce.send_coalesced(_queued_key(club_id), update_ratings, (club_id,))


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
    is rated are rated again once the merge commits (their games now have one player)."""
    clubs = set(
        PlayerRating.objects.filter(player_id__in=[kept_id, merged_id]).values_list(
            "club_id", flat=True
        )
    )
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
    """Each entry of an event by its player's conservative club rating (unrated: a new
    player's, 0). The provider of ``tournaments.hooks.rating_of_entries`` (seeding)."""
    from tournaments.models import Entry

    entries = list(
        Entry.objects.filter(event_id=event_id).values_list("pk", "player_id", "event__club_id")
    )
    if not entries:
        return {}
    club_id = entries[0][2]
    rated = PlayerRating.objects.filter(club_id=club_id).values_list("player_id", "mu", "sigma")
    ordinal = {p: mu - 3 * sigma for p, mu, sigma in rated}
    fresh = INITIAL_MU - 3 * INITIAL_SIGMA
    return {pk: ordinal.get(p, fresh) for pk, p, _club in entries}
