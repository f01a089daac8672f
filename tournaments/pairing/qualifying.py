"""Qualifying seating for ACC-style games: no repeat opponents, fair byes, reproducible.

The ACC rule for qualifying: opponents come from a table movement, not from standings; nobody
meets the same opponent twice (at most twice when the event plays two games per opponent); with
an odd field one player has a bye each game, never the same player twice while others have had
none. The TD can fix a seating by hand; late arrivals join at the next game and early departures
are withdrawn from later games.

While the field is the one the event started with, the movement is the circle method over a
seeded shuffle of the field: it meets nobody twice for n-1 games (n rounded up to even), and with
an odd field the phantom seat hands every player exactly one bye before anyone gets a second.
When the field
changes (late entry, withdrawal) the movement no longer applies and each game is drawn as a
perfect matching of the remaining field over the pairs that have not met, found by a shuffled
greedy pass and, if that gets stuck, by maximum-weight matching (rustworkx). Only when no
repeat-free seating exists does a repeat get seated, the fewest possible, with a note.

Events that play two games per opponent raise the meeting limit (``max_meetings=2``); forbidden
pairs (family, partners) are never seated together, and a field that cannot keep them apart is
refused with a :class:`PairingError`. A TD's hand swap of two seats is checked by
:func:`swap_seats`, which reports everything the swap breaks instead of refusing it.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ._matching import cheapest_matching, ordinal
from .errors import PairingError

Player = Hashable
PairKey = frozenset[Player]  # an unordered pair of players: see pair_key
PHANTOM = None  # the empty seat of an odd field: whoever draws it has the bye
GREEDY_TRIES = 30
# Bye candidates the greedy pass tries before handing the whole choice to one matching.
GREEDY_BYE_CANDIDATES = 3


def pair_key(a: Player, b: Player) -> PairKey:
    """Key of an unordered pair of players, for the history of who has met whom."""
    return frozenset((a, b))


@dataclass(frozen=True, slots=True)
class Compromise:
    """Something a generator had to accept, with the plain-language note the TD sees.

    ``kind`` is stable: "repeat" (a pair seated beyond the meeting limit), "second_bye" (a bye
    to someone with more byes than another active player), "forbidden" (a forbidden pair seated,
    only ever by a hand change), "missing" / "unknown" / "seated_twice" (a hand-made seating
    that does not seat the field exactly once), "unequal_meetings" (round robin groups).
    ``players`` are the players concerned, for the bridge to name them its own way.
    """

    kind: str
    players: tuple[Player, ...]
    note: str


@dataclass(frozen=True, slots=True)
class Seating:
    """One game's seating: pairs in table order, the bye (or None), and what it compromised.

    ``repeats`` lists each pair seated although they already met as often as the event allows
    (once, unless it plays two games per opponent), as (a, b, times met before); it is empty
    unless no seating within the limit existed. ``method`` is "movement", "draw", "swiss",
    "round_robin" or "hand". ``compromises`` holds a note for every repeat and unfair bye.
    """

    pairs: tuple[tuple[Player, Player], ...]
    bye: Player | None
    repeats: tuple[tuple[Player, Player, int], ...] = field(default=())
    method: str = "movement"
    compromises: tuple[Compromise, ...] = field(default=())

    def opponents(self) -> dict[Player, Player]:
        """Each seated player's opponent."""
        out: dict[Player, Player] = {}
        for a, b in self.pairs:
            out[a] = b
            out[b] = a
        return out


def circle_round(
    field_order: Sequence[Player], game_number: int
) -> list[tuple[Player | None, Player | None]]:
    """Pairs of the circle method (Berger table) for ``game_number`` (1-based).

    ``field_order`` is the seeded order of the field; an odd field gets a phantom seat. After
    n-1 games the movement starts again from game 1.
    """
    seats: list[Player | None] = list(field_order)
    if len(seats) % 2:
        seats.append(PHANTOM)
    n = len(seats)
    if n < 2:
        return []
    turn = (game_number - 1) % (n - 1)
    # Seat 0 stays put; the others rotate one place a game.
    rotating = seats[1:]
    rotating = rotating[-turn:] + rotating[:-turn] if turn else rotating
    circle = [seats[0], *rotating]
    return [(circle[i], circle[n - 1 - i]) for i in range(n // 2)]


def forbidden_pairs(forbidden: Iterable[Iterable[Player]] | None) -> frozenset[PairKey]:
    """Normalise the TD's forbidden pairs (family, partners) to a set of :func:`pair_key`."""
    out = set()
    for pair in forbidden or ():
        members = tuple(pair)
        if len(members) != 2 or members[0] == members[1]:
            raise PairingError(
                "bad_forbidden_pair", f"A forbidden pair must name two players, not {members!r}."
            )
        out.add(pair_key(*members))
    return frozenset(out)


def check_field(players: Sequence[Player]) -> None:
    """Refuse a field that lists a player twice or has fewer than two players."""
    if len(set(players)) != len(players):
        raise PairingError("duplicate_player", "A player is listed twice in the field.")
    if len(players) < 2:
        raise PairingError("too_few_players", "At least two players are needed to seat a game.")


def repeat_compromise(a: Player, b: Player, times: int) -> Compromise:
    """The note for a pair seated again although they reached the meeting limit."""
    return Compromise(
        "repeat",
        (a, b),
        f"{a} and {b} meet for the {ordinal(times + 1)} time: "
        "no seating within the meeting limit exists for this field.",
    )


def bye_compromise(player: Player, had: int) -> Compromise:
    """The note for a bye to someone who already has more byes than another active player."""
    return Compromise(
        "second_bye",
        (player,),
        f"{player} has a {ordinal(had + 1)} bye although another player has fewer: "
        "no other bye let the rest of the field be seated.",
    )


def draw_qualifying_game(
    players: Sequence[Player],
    *,
    game_number: int,
    seed: int,
    met: Mapping[PairKey, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    starting_field: Sequence[Player] | None = None,
    max_meetings: int = 1,
    forbidden: Iterable[Iterable[Player]] | None = None,
    draw_seed: int | None = None,
) -> Seating:
    """Seat ``players`` for game ``game_number`` of a qualifying session.

    ``met`` counts earlier meetings per :func:`pair_key`; ``byes`` counts earlier byes;
    ``starting_field`` is the field of game 1 in entry order (the movement is used while the
    field is unchanged). ``max_meetings`` is how often two players may meet (2 when the event
    plays two games per opponent); ``forbidden`` pairs are never seated together. The same
    arguments always give the same seating. Raises :class:`PairingError` for a field that
    cannot be seated (too small, a player twice, forbidden pairs that cannot be kept apart).
    ``seed`` shuffles the movement; ``draw_seed`` (default: ``seed``) the draw used when the
    movement does not apply, so a game can be drawn again without moving the movement.
    """
    met = met or {}
    byes = byes or {}
    players = list(players)
    check_field(players)
    if max_meetings < 1:
        raise PairingError("bad_meeting_limit", "Players must be allowed to meet at least once.")
    blocked = forbidden_pairs(forbidden)

    if starting_field is not None and set(starting_field) == set(players):
        seating = _movement_seating(
            starting_field, game_number, seed, met, byes, max_meetings, blocked
        )
        if seating is not None:
            return seating

    rng = random.Random(f"{seed if draw_seed is None else draw_seed}:{game_number}:draw")
    return _matching_seating(players, rng, met, byes, max_meetings, blocked)


def _movement_seating(
    starting_field: Sequence[Player],
    game_number: int,
    seed: int,
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    limit: int,
    blocked: frozenset[PairKey],
) -> Seating | None:
    order = list(starting_field)
    random.Random(f"{seed}:movement").shuffle(order)
    pairs: list[tuple[Player, Player]] = []
    bye = None
    for a, b in circle_round(order, game_number):
        if a is PHANTOM or b is PHANTOM:
            bye = b if a is PHANTOM else a
        else:
            pairs.append((a, b))
    fewest = min(byes.get(p, 0) for p in starting_field)
    if any(met.get(pair_key(a, b), 0) >= limit or pair_key(a, b) in blocked for a, b in pairs) or (
        bye is not None and byes.get(bye, 0) > fewest
    ):
        # Past the movement's games, the history did not come from this movement, or the TD
        # forbade a pair it seats: draw instead.
        return None
    return Seating(pairs=tuple(pairs), bye=bye, method="movement")


def _matching_seating(
    players: list[Player],
    rng: random.Random,
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    limit: int,
    blocked: frozenset[PairKey],
) -> Seating:
    bye_candidates: list[Player | None] = [None]
    fewest = min(byes.get(p, 0) for p in players)
    if len(players) % 2:
        bye_candidates = [p for p in players if byes.get(p, 0) == fewest]
        rng.shuffle(bye_candidates)

    # The cheap pass: a shuffled greedy draw within the limit for the first few bye candidates.
    for bye in bye_candidates[:GREEDY_BYE_CANDIDATES]:
        seated = [p for p in players if p != bye]
        for _ in range(GREEDY_TRIES):
            pairs = _greedy(seated, rng, met, limit, blocked)
            if pairs is not None:
                return Seating(pairs=tuple(pairs), bye=bye, method="draw")

    # Greedy got stuck: one matching chooses the bye and the pairs together, fewest unfair byes
    # first, then fewest meetings beyond the limit, then the fewest earlier meetings.
    order = list(players)
    rng.shuffle(order)
    edges = []
    for i, a in enumerate(order):
        for j in range(i + 1, len(order)):
            key = pair_key(a, order[j])
            if key in blocked:
                continue
            times = met.get(key, 0)
            excess = max(0, times - limit + 1)
            edges.append((i, j, (0, excess * excess, times)))
    phantom = len(order)
    if len(order) % 2:
        edges.extend((i, phantom, (byes.get(p, 0) - fewest, 0, 0)) for i, p in enumerate(order))
    nodes = len(order) + len(order) % 2
    chosen = cheapest_matching(nodes, edges)
    if len(chosen) * 2 != nodes:
        raise PairingError(
            "forbidden_pairs",
            "No seating keeps every forbidden pair apart in this field: "
            "lift a forbidden pair or change the field.",
        )
    pairs = []
    bye = None
    for i, j in chosen:
        if j == phantom:
            bye = order[i]
        else:
            pairs.append((order[i], order[j]))
    return _with_compromises(pairs, bye, met, byes, limit, fewest, "draw")


def _with_compromises(
    pairs: list[tuple[Player, Player]],
    bye: Player | None,
    met: Mapping[PairKey, int],
    byes: Mapping[Player, int],
    limit: int,
    fewest: int,
    method: str,
) -> Seating:
    repeats = tuple(
        (a, b, met.get(pair_key(a, b), 0)) for a, b in pairs if met.get(pair_key(a, b), 0) >= limit
    )
    notes = [repeat_compromise(a, b, times) for a, b, times in repeats]
    if bye is not None and byes.get(bye, 0) > fewest:
        notes.append(bye_compromise(bye, byes.get(bye, 0)))
    return Seating(
        pairs=tuple(pairs), bye=bye, repeats=repeats, method=method, compromises=tuple(notes)
    )


def _greedy(
    seated: list[Player],
    rng: random.Random,
    met: Mapping[PairKey, int],
    limit: int = 1,
    blocked: frozenset[PairKey] = frozenset(),
) -> list[tuple[Player, Player]] | None:
    pool = list(seated)
    rng.shuffle(pool)
    pairs = []
    while pool:
        a = pool.pop()
        partner = _greedy_partner(a, pool, met, 1, blocked)
        if partner is None and limit > 1:
            # Two games per opponent: a second meeting only when no fresh opponent is left.
            partner = _greedy_partner(a, pool, met, limit, blocked)
        if partner is None:
            return None
        pairs.append((a, pool.pop(partner)))
    return pairs


def _greedy_partner(
    a: Player,
    pool: list[Player],
    met: Mapping[PairKey, int],
    limit: int,
    blocked: frozenset[PairKey],
) -> int | None:
    for i in range(len(pool) - 1, -1, -1):
        key = pair_key(a, pool[i])
        if met.get(key, 0) < limit and key not in blocked:
            return i
    return None


def check_seating(
    seating: Seating,
    players: Iterable[Player] | None = None,
    *,
    met: Mapping[PairKey, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
    max_meetings: int = 1,
) -> tuple[Compromise, ...]:
    """Everything a (hand-made) seating breaks, as notes for the TD; empty when it is sound.

    ``players`` is the active field (default: whoever the seating seats). Reported: active
    players not seated, seated players not in the field (withdrawn), a player seated twice,
    forbidden pairs, pairs beyond the meeting limit and a bye to someone with more byes than
    another active player.
    """
    met = met or {}
    byes = byes or {}
    blocked = forbidden_pairs(forbidden)
    seated = [p for pair in seating.pairs for p in pair]
    if seating.bye is not None:
        seated.append(seating.bye)
    field_ = list(seated if players is None else players)
    active = set(field_)
    problems: list[Compromise] = []
    counts: dict[Player, int] = {}
    for p in seated:
        counts[p] = counts.get(p, 0) + 1
    problems += [
        Compromise("seated_twice", (p,), f"{p} is seated {n} times.")
        for p, n in counts.items()
        if n > 1
    ]
    problems += [
        Compromise("missing", (p,), f"{p} is in the field but has no seat.")
        for p in field_
        if p not in counts
    ]
    problems += [
        Compromise("unknown", (p,), f"{p} is seated but is not in the field (withdrawn?).")
        for p in counts
        if p not in active
    ]
    for a, b in seating.pairs:
        if pair_key(a, b) in blocked:
            problems.append(Compromise("forbidden", (a, b), f"{a} and {b} are a forbidden pair."))
        times = met.get(pair_key(a, b), 0)
        if times >= max_meetings:
            problems.append(repeat_compromise(a, b, times))
    if seating.bye is not None and active:
        fewest = min(byes.get(p, 0) for p in active)
        if byes.get(seating.bye, 0) > fewest:
            problems.append(bye_compromise(seating.bye, byes.get(seating.bye, 0)))
    return tuple(problems)


@dataclass(frozen=True, slots=True)
class SeatSwap:
    """A TD's swap of two seats: the new seating and what it breaks (``problems``)."""

    seating: Seating
    problems: tuple[Compromise, ...]

    @property
    def ok(self) -> bool:
        """True when the swapped seating breaks nothing."""
        return not self.problems


def swap_seats(
    seating: Seating,
    a: Player,
    b: Player,
    *,
    players: Iterable[Player] | None = None,
    met: Mapping[PairKey, int] | None = None,
    byes: Mapping[Player, int] | None = None,
    forbidden: Iterable[Iterable[Player]] | None = None,
    max_meetings: int = 1,
) -> SeatSwap:
    """Swap the seats of ``a`` and ``b`` (either may hold the bye) and check the result.

    The swap is never refused for what it breaks: the problems (repeats, forbidden pairs, an
    unfair bye, see :func:`check_seating`) come back for the TD to confirm. Swapping a player
    who has no seat raises :class:`PairingError` ("not_seated").
    """
    if a == b:
        raise PairingError("same_player", "Choose two different players to swap.")
    seats = [list(pair) for pair in seating.pairs]
    flat = [p for pair in seats for p in pair] + [seating.bye]
    for p in (a, b):
        if p is None or p not in flat:
            raise PairingError("not_seated", f"{p} has no seat in this game to swap.")

    def moved(p: Player) -> Player:
        return b if p == a else a if p == b else p

    pairs = tuple((moved(x), moved(y)) for x, y in seats)
    bye = moved(seating.bye) if seating.bye is not None else None
    met = met or {}
    swapped = Seating(pairs=pairs, bye=bye, method="hand")
    problems = check_seating(
        swapped, players, met=met, byes=byes, forbidden=forbidden, max_meetings=max_meetings
    )
    repeats = tuple(
        (x, y, met.get(pair_key(x, y), 0))
        for x, y in pairs
        if met.get(pair_key(x, y), 0) >= max_meetings
    )
    return SeatSwap(
        seating=Seating(pairs=pairs, bye=bye, repeats=repeats, method="hand", compromises=problems),
        problems=problems,
    )


def meetings(seatings: Iterable[Seating]) -> dict[PairKey, int]:
    """Count how often each pair met over ``seatings`` (for tests and reports)."""
    counts: dict[PairKey, int] = {}
    for seating in seatings:
        for a, b in seating.pairs:
            key = pair_key(a, b)
            counts[key] = counts.get(key, 0) + 1
    return counts
