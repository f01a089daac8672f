"""Playoffs: the cut, byes to the top seeds, seeded brackets, best-of-N matches, final places.

The arithmetic is the ACC's (American Cribbage Congress) cut and playoff rule: qualifiers =
ceil(entrants / 4) unless the TD sets a number, never rounded up to a full bracket (121-124
entrants -> 31); byes = next power of two - qualifiers, to the highest qualifiers, so round two is
always a full bracket (60 -> 15 qualifiers and 1 bye, 108 -> 27 and 5, 132 -> 33 and 31). Seeds
follow the qualifying rank; seed s meets seed B+1-s in a bracket of B (1 v 16, 8 v 9), placed in
the standard order (1, B, B/2, B/2+1, ...) so the top two seeds can only meet in the final. Final
places: 1, 2, then the semifinal losers share 3rd, the quarterfinal losers 5th, and so on.

A bracket is an immutable value: :func:`record_game` and :func:`withdraw` return a new bracket in
which every decided match has already sent its winner (and, where the format says so, its loser)
on, byes and walkovers included. Sections: "main", "third_place", "consolation" (first-round
losers), and for double elimination ("one-loss bracket") "losers", "final" and "reset" (the
second grand final, played only when the losers' bracket champion wins the first).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict, TypeVar, Unpack

from .errors import PairingError
from .qualifying import Player, check_field

MAIN, THIRD_PLACE, CONSOLATION = "main", "third_place", "consolation"
LOSERS, FINAL, RESET = "losers", "final", "reset"
RESET_ID = "F2"

Seat = tuple[str, int]  # (match id, seat 0 or 1)
T = TypeVar("T")


class BracketOptions(TypedDict, total=False):
    """The keyword options of :func:`build_bracket`, passed on by the functions that call it."""

    best_of: int | Sequence[int]
    side_best_of: int | None
    third_place: bool
    consolation: bool
    double_elimination: bool
    grand_final_reset: bool


@dataclass(frozen=True, slots=True)
class PlayoffPlan:
    """The cut and the bracket for a number of entrants: qualifiers, bracket size, byes."""

    entrants: int
    qualifiers: int
    bracket_size: int

    @property
    def byes(self) -> int:
        """Byes in round one, all to the top seeds."""
        return self.bracket_size - self.qualifiers

    @property
    def rounds(self) -> int:
        """Rounds of the main bracket, the final included."""
        return self.bracket_size.bit_length() - 1


def plan_playoff(entrants: int, qualifiers: int | None = None) -> PlayoffPlan:
    """Qualifiers (ceil(entrants / 4) unless the TD sets ``qualifiers``), bracket size, byes.

    60 -> 15 qualifiers, 16-bracket, 1 bye; 108 -> 27 and 5; 132 -> 33 and 31.
    """
    if qualifiers is None:
        qualifiers = math.ceil(entrants / 4)
    if qualifiers > entrants:
        raise PairingError(
            "too_many_qualifiers",
            f"{qualifiers} qualifiers cannot come from {entrants} entrants.",
        )
    if qualifiers < 2:
        raise PairingError("too_few_qualifiers", "A playoff needs at least two qualifiers.")
    return PlayoffPlan(entrants, qualifiers, 1 << (qualifiers - 1).bit_length())


def seed_order(bracket_size: int) -> tuple[int, ...]:
    """Seeds in bracket order, round-one opponents side by side: 8 -> 1 8 4 5 2 7 3 6.

    Each seed s sits next to B+1-s, and every half, quarter, ... holds one of the top seeds,
    so seeds 1 and 2 can only meet in the final, 1-4 only in the semifinals, and so on.
    """
    if bracket_size < 1 or bracket_size & (bracket_size - 1):
        raise PairingError("bad_bracket_size", "A bracket holds a power of two of seeds.")
    order = [1]
    while len(order) < bracket_size:
        size = 2 * len(order)
        order = [s for top in order for s in (top, size + 1 - top)]
    return tuple(order)


def cut(ranking: Sequence[Player], *, qualifiers: int | None = None) -> tuple[Player, ...]:
    """The qualifiers, in seed order: the top of the qualifying ranking (best first)."""
    plan = plan_playoff(len(ranking), qualifiers)
    return tuple(ranking[: plan.qualifiers])


@dataclass(frozen=True, slots=True)
class Match:
    """One match of a bracket: two seats, best-of-N, the games won so far, where players go.

    ``players`` is None for a seat still waiting for its player; ``empty`` marks a seat nobody
    will come to (a bye), so the other seat advances by walkover. ``games`` lists the seat (0
    or 1) that won each game. ``winner_to`` / ``loser_to`` are the (match id, seat) the winner
    and loser go on to (None: out, or the end of the bracket).
    """

    id: str
    section: str
    round: int
    number: int
    best_of: int
    players: tuple[Player | None, Player | None] = (None, None)
    seeds: tuple[int | None, int | None] = (None, None)
    empty: tuple[bool, bool] = (False, False)
    games: tuple[int, ...] = ()
    walkover_to: int | None = None  # the seat that advanced without winning the games
    winner_to: Seat | None = None
    loser_to: Seat | None = None

    @property
    def needed(self) -> int:
        """Games needed to win the match: 2 in a best of 3, 3 in a best of 5."""
        return self.best_of // 2 + 1

    @property
    def wins(self) -> tuple[int, int]:
        """Games won by each seat."""
        return self.games.count(0), self.games.count(1)

    @property
    def void(self) -> bool:
        """Neither seat will ever be filled: nothing to play."""
        return self.empty == (True, True)

    @property
    def winning_seat(self) -> int | None:
        """Seat 0 or 1 once the match is decided (by games or by walkover), else None."""
        if self.walkover_to is not None:
            return self.walkover_to
        wins = self.wins
        for seat in (0, 1):
            if wins[seat] >= self.needed:
                return seat
        return None

    @property
    def decided(self) -> bool:
        """True when the match has a winner or is void."""
        return self.void or self.winning_seat is not None

    @property
    def ready(self) -> bool:
        """True when both players are known and the match is still to be decided."""
        return None not in self.players and not self.decided

    @property
    def winner(self) -> Player | None:
        """The winner, once decided."""
        seat = self.winning_seat
        return None if seat is None else self.players[seat]

    @property
    def loser(self) -> Player | None:
        """The loser, once decided (None after a bye)."""
        seat = self.winning_seat
        return None if seat is None else self.players[1 - seat]

    @property
    def bye(self) -> bool:
        """True when one seat was empty and the other advanced without play."""
        return self.walkover_to is not None and self.empty[1 - self.walkover_to]


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole playoff: its matches in playing order and the seeds (seeds[0] is seed 1)."""

    matches: tuple[Match, ...]
    seeds: tuple[Player, ...]
    double_elimination: bool = False
    withdrawn: frozenset[Player] = field(default=frozenset())

    def match(self, match_id: str) -> Match:
        """The match with this id ("M1-1", "L2-3", "F", "3P", "C1-2", ...)."""
        for m in self.matches:
            if m.id == match_id:
                return m
        raise PairingError("unknown_match", f"There is no match {match_id} in this bracket.")

    def ready(self) -> tuple[Match, ...]:
        """Matches whose players are known and that are still to be decided."""
        return tuple(m for m in self.matches if m.ready)

    def section(self, name: str) -> tuple[Match, ...]:
        """The matches of one section, round by round."""
        return tuple(m for m in self.matches if m.section == name)

    @property
    def champion(self) -> Player | None:
        """The winner of the playoff, once known."""
        if self.double_elimination:
            final = self.match("F")
            reset = next((m for m in self.matches if m.section == RESET), None)
            if reset is not None and final.winning_seat == 1:
                return reset.winner
            return final.winner
        return self.section(MAIN)[-1].winner

    @property
    def finished(self) -> bool:
        """True when every match is decided."""
        return all(m.decided for m in self.matches)


def build_bracket(
    seeds: Sequence[Player],
    *,
    best_of: int | Sequence[int] = 3,
    side_best_of: int | None = None,
    third_place: bool = False,
    consolation: bool = False,
    double_elimination: bool = False,
    grand_final_reset: bool = True,
) -> Bracket:
    """A bracket for ``seeds`` (seed 1 first), byes to the top seeds, byes already advanced.

    ``best_of`` is one odd number or one per round of the main bracket (the last repeats, so
    ``(3, 3, 5)`` makes the final and later rounds best of 5). ``side_best_of`` is the length
    of losers'-bracket, consolation and third-place matches (default: round one's). Options:
    a third-place match, a consolation bracket for first-round losers, double elimination
    (with a second grand final when the losers' champion wins the first, unless
    ``grand_final_reset`` is False).
    """
    seeds = list(seeds)
    check_field(seeds)
    plan = plan_playoff(len(seeds), len(seeds))
    size, rounds = plan.bracket_size, plan.rounds
    lengths = [best_of] if isinstance(best_of, int) else list(best_of)
    if not lengths:
        raise PairingError("bad_best_of", "Give a match length for at least one round.")
    lengths += [lengths[-1]] * rounds
    side = lengths[0] if side_best_of is None else side_best_of
    for n in [*lengths, side]:
        if n < 1 or n % 2 == 0:
            raise PairingError("bad_best_of", f"A match is best of an odd number, not {n}.")
    if double_elimination and (third_place or consolation):
        raise PairingError(
            "bad_options",
            "A double-elimination bracket has no third-place match or consolation bracket.",
        )
    if (third_place or consolation) and rounds < 2:
        raise PairingError(
            "bracket_too_small",
            "A third-place match or consolation bracket needs at least three qualifiers.",
        )

    matches: list[Match] = []
    order = seed_order(size)
    for r in range(1, rounds + 1):
        for i in range(1, size // 2**r + 1):
            winner_to = (f"M{r + 1}-{(i + 1) // 2}", (i - 1) % 2) if r < rounds else None
            loser_to = None
            if double_elimination:
                winner_to = winner_to or ("F", 0)
                loser_to = _drop_seat(r, i, size, rounds)
            elif r == 1 and consolation:
                loser_to = (f"C1-{(i + 1) // 2}", (i - 1) % 2)
            elif r == rounds - 1 and third_place:
                loser_to = ("3P", (i - 1) % 2)
            m = Match(
                f"M{r}-{i}", MAIN, r, i, lengths[r - 1], winner_to=winner_to, loser_to=loser_to
            )
            if r == 1:
                top, bottom = (
                    order[2 * i - 2],
                    order[2 * i - 1],
                )  # seed numbers; past the field = bye
                present = (top <= len(seeds), bottom <= len(seeds))
                m = replace(
                    m,
                    players=(
                        seeds[top - 1] if present[0] else None,
                        seeds[bottom - 1] if present[1] else None,
                    ),
                    seeds=(top if present[0] else None, bottom if present[1] else None),
                    empty=(not present[0], not present[1]),
                )
            matches.append(m)

    if third_place:
        matches.append(Match("3P", THIRD_PLACE, rounds, 1, side))
    if consolation:
        for r in range(1, rounds):
            for i in range(1, size // 2 ** (r + 1) + 1):
                to = (f"C{r + 1}-{(i + 1) // 2}", (i - 1) % 2) if r < rounds - 1 else None
                matches.append(Match(f"C{r}-{i}", CONSOLATION, r, i, side, winner_to=to))
    if double_elimination:
        matches += _losers_bracket(size, rounds, side)
        final_length = lengths[rounds - 1]
        matches.append(Match("F", FINAL, 1, 1, final_length))
        if grand_final_reset:
            matches.append(Match(RESET_ID, RESET, 1, 1, final_length))
    return _settle(Bracket(tuple(matches), tuple(seeds), double_elimination))


def _drop_seat(r: int, i: int, size: int, rounds: int) -> Seat:
    """Where the loser of main-bracket match (r, i) drops into the losers' bracket."""
    if rounds == 1:
        return ("F", 1)
    if r == 1:
        return (f"L1-{(i + 1) // 2}", (i - 1) % 2)
    count = size // 2**r
    # Alternate rounds drop in reverse order, so a dropped player does not at once meet the
    # player they beat (or who beat them) in an earlier round.
    j = i if r % 2 == 0 else count + 1 - i
    return (f"L{2 * (r - 1)}-{j}", 1)


def _losers_bracket(size: int, rounds: int, best_of: int) -> list[Match]:
    out = []
    last = 2 * (rounds - 1)
    for j in range(1, last + 1):
        count = size // 2 ** ((j + 1) // 2 + 1)
        for i in range(1, count + 1):
            if j == last:
                to: Seat = ("F", 1)
            elif j % 2:
                to = (f"L{j + 1}-{i}", 0)  # odd rounds meet the next drop-ins one to one
            else:
                to = (f"L{j + 1}-{(i + 1) // 2}", (i - 1) % 2)
            out.append(Match(f"L{j}-{i}", LOSERS, j, i, best_of, winner_to=to))
    return out


def build_playoff(
    ranking: Sequence[Player],
    *,
    qualifiers: int | None = None,
    **options: Unpack[BracketOptions],
) -> Bracket:
    """The cut from a qualifying ranking (best first, every entrant) and its seeded bracket.

    ``qualifiers`` defaults to ceil(entrants / 4); ``options`` go to :func:`build_bracket`.
    """
    return build_bracket(cut(ranking, qualifiers=qualifiers), **options)


def draw_playoff(
    players: Sequence[Player],
    *,
    seed: int,
    ranking: Sequence[Player] = (),
    **options: Unpack[BracketOptions],
) -> Bracket:
    """A playoff-only event: byes to the top of a named ranking, the rest drawn at random.

    The entrants found highest in ``ranking`` take the byes (seeds 1, 2, ...); everyone else
    is drawn into round one from ``seed`` (same seed, same draw). ``options`` go to
    :func:`build_bracket`.
    """
    players = list(players)
    check_field(players)
    plan = plan_playoff(len(players), len(players))
    entered = set(players)
    ranked = [p for p in dict.fromkeys(ranking) if p in entered][: plan.byes]
    rest = [p for p in players if p not in set(ranked)]
    random.Random(f"{seed}:playoff-draw").shuffle(rest)
    return build_bracket([*ranked, *rest], **options)


def record_game(bracket: Bracket, match_id: str, winner: Player) -> Bracket:
    """Record one game of a match won by ``winner``; a decided match sends its players on.

    Raises :class:`PairingError` for a match that is decided ("match_decided"), whose
    players are not both known ("match_not_ready"), or that ``winner`` is not in.
    """
    m = bracket.match(match_id)
    if m.decided:
        raise PairingError("match_decided", f"Match {match_id} is already decided.")
    if None in m.players:
        raise PairingError("match_not_ready", f"Match {match_id} is waiting for a player.")
    if winner not in m.players:
        raise PairingError("not_in_match", f"{winner} is not playing in match {match_id}.")
    played = replace(m, games=(*m.games, m.players.index(winner)))
    return _settle(_put(bracket, played))


def withdraw(bracket: Bracket, player: Player) -> Bracket:
    """``player`` leaves the playoff: their open match, and any they would reach, is a walkover.

    Games already played stand; the opponent advances as soon as they are known.
    """
    if player not in bracket.seeds:
        raise PairingError("unknown_player", f"{player} is not in this playoff.")
    return _settle(replace(bracket, withdrawn=bracket.withdrawn | {player}))


def _put(bracket: Bracket, match: Match) -> Bracket:
    return replace(
        bracket, matches=tuple(match if m.id == match.id else m for m in bracket.matches)
    )


def _settle(bracket: Bracket) -> Bracket:
    """Advance everything that follows from the results so far, until nothing changes."""
    by_id = {m.id: m for m in bracket.matches}

    def fill(target: Seat | None, player: Player | None) -> bool:
        if target is None:
            return False
        mid, seat = target
        m = by_id[mid]
        if player is None:
            if m.empty[seat]:
                return False
            by_id[mid] = replace(m, empty=_set(m.empty, seat, True))
            return True
        if m.players[seat] == player:
            return False
        by_id[mid] = replace(m, players=_set(m.players, seat, player))
        return True

    changed = True
    while changed:
        changed = False
        for mid in list(by_id):
            m = by_id[mid]
            if not m.decided:
                seat = _walkover_seat(m, bracket.withdrawn)
                if seat is not None:
                    m = by_id[mid] = replace(m, walkover_to=seat)
                    changed = True
            if not m.decided:
                continue
            if m.void:
                changed |= fill(m.winner_to, None)
                changed |= fill(m.loser_to, None)
            else:
                changed |= fill(m.winner_to, m.winner)
                changed |= fill(m.loser_to, m.loser)
                if m.section == FINAL and RESET_ID in by_id:
                    # The second grand final is played only if the losers' champion won.
                    if m.winning_seat == 1:
                        changed |= fill((RESET_ID, 0), m.players[0])
                        changed |= fill((RESET_ID, 1), m.players[1])
                    else:
                        changed |= fill((RESET_ID, 0), None)
                        changed |= fill((RESET_ID, 1), None)
    return replace(bracket, matches=tuple(by_id[m.id] for m in bracket.matches))


def _walkover_seat(m: Match, withdrawn: frozenset[Player]) -> int | None:
    """The seat that advances without (more) play: the other seat is a bye or withdrew."""
    if m.void:
        return None
    for seat in (0, 1):
        other = 1 - seat
        present = m.players[seat] is not None
        if present and m.empty[other]:
            return seat
        if (
            present
            and m.players[other] is not None
            and m.players[other] in withdrawn
            and m.players[seat] not in withdrawn
        ):
            return seat
    if None not in m.players and all(p in withdrawn for p in m.players):
        return 0  # both withdrew: the higher seat goes on, to a walkover of its own
    return None


def _set(pair: tuple[T, T], index: int, value: T) -> tuple[T, T]:
    return (value, pair[1]) if index == 0 else (pair[0], value)


def final_places(bracket: Bracket, section: str = MAIN) -> dict[Player, int]:
    """Places known so far, best first: 1, 2, then 3= for semifinal losers, 5=, 9=, ...

    A third-place match, once played, splits 3 and 4. ``section="consolation"`` gives the
    consolation bracket's own places. In double elimination a player's place follows the
    losers'-bracket round of their second loss (3, 4, 5=, 7=, ...).
    """
    if bracket.double_elimination:
        return _double_places(bracket)
    matches = bracket.section(section)
    if not matches:
        return {}
    last = max(m.round for m in matches)
    # Losers of round r share the place after everyone who played on: the winners of round r.
    alive = {r: sum(1 for m in matches if m.round == r and not m.void) for r in range(1, last + 1)}
    places: dict[Player, int] = {}
    final = next(m for m in matches if m.round == last)
    if final.decided and final.winner is not None:
        places[final.winner] = 1
    third = next((m for m in bracket.matches if m.section == THIRD_PLACE), None)
    for m in sorted(matches, key=lambda m: -m.round):
        if not m.decided or m.void or m.bye:
            continue
        if section == MAIN and third is not None and m.round == last - 1:
            if third.decided and not third.void:
                places[third.winner] = 3
                if third.loser is not None:  # a walkover (the other semifinal was a bye)
                    places[third.loser] = 4
            continue
        places[m.loser] = alive[m.round] + 1
    return dict(sorted(places.items(), key=lambda item: item[1]))


def _double_places(bracket: Bracket) -> dict[Player, int]:
    places: dict[Player, int] = {}
    final = bracket.match("F")
    reset = next((m for m in bracket.matches if m.section == RESET), None)
    deciding = reset if reset is not None and final.winning_seat == 1 else final
    if deciding.decided and not deciding.void:
        places[deciding.winner] = 1
        places[deciding.loser] = 2
    losers = bracket.section(LOSERS)
    rounds = max((m.round for m in losers), default=0)
    later = 0  # players knocked out in later losers' rounds
    for j in range(rounds, 0, -1):
        here = [m for m in losers if m.round == j and not m.void]
        for m in here:
            if m.decided and not m.bye:
                places[m.loser] = 3 + later
        later += len(here)
    return dict(sorted(places.items(), key=lambda item: item[1]))
