"""Whole-game records: replay a game deal by deal and check every card and every claim.

The record format is documented in README.md beside this file; `GAME_RECORD_SCHEMA` (in
`schema.py`) is its JSON Schema. `verify_game` never raises for bad input: every fault becomes a
`Problem` naming the deal and the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cards import JACK, Card, CardError, parse_card, plain_params
from .hand import score_hand
from .play import score_cards_played
from .rules import SKUNK_NAMES, TARGETS, skunk_level
from .scoring import ScoreItem

HAND_SIZE = 4
DEALT_SIZE = {2: 6, 3: 5, 4: 5}
"""Cards dealt to each player, by number of players."""

PROBLEM_CODES = {
    "malformed": "the record or a part of it does not have the documented shape",
    "bad_card": "a card that is not valid notation",
    "card_twice": "a card used twice in a deal",
    "wrong_hand_size": "a hand or the crib does not hold 4 cards (or the dealt cards are not 6/5)",
    "discard_mismatch": "the hand is not part of the dealt cards, or a discard is not in the crib",
    "wrong_dealer": "the deal did not pass to the left",
    "card_not_in_hand": "a card played that the player does not hold",
    "past_31": "a card played that takes the count past 31",
    "illegal_go": "a go while the player could lay a card",
    "out_of_turn": "a player acted when it was another player's turn",
    "cards_unplayed": "the play ended with cards still in hand",
    "show_order": "the show lists counts in another order than the rules",
    "claim_mismatch": "claimed points differ from the true points",
    "after_game_end": "the record goes on after the target was reached (ignored)",
    "game_unfinished": "the record ends before anyone reached the target",
    "result_mismatch": "the declared result differs from the replayed one",
    "internal_error": "the checker failed on this record (a bug; please report it)",
}
"""Stable problem codes and what each means."""

_WARNING_CODES = frozenset({"claim_mismatch", "after_game_end", "game_unfinished", "show_order"})


@dataclass(frozen=True, slots=True)
class Problem:
    """One fault in a record, located by deal index, phase and event index (all 0-based).

    `phase` is the record field the fault is in (`deals`, `dealt`, `hands`, `crib`, `starter`,
    `play`, `show`, `result`); `event` is the index inside that list (for `hands` and `dealt`,
    the player index). `params` are the values the English `message` names (card, player,
    count...; README.md lists them per code), so that a web layer can say it in the user's
    language by the code; they take no part in equality.
    """

    code: str
    message: str
    deal: int | None = None
    phase: str | None = None
    event: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        # frozen: normalised once (JSON-ready), hence object.__setattr__
        object.__setattr__(self, "params", plain_params(self.params))

    @property
    def severity(self) -> str:
        """`error` for a record that breaks the rules, `warning` for claims and endings."""
        return "warning" if self.code in _WARNING_CODES else "error"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "deal": self.deal,
            "phase": self.phase,
            "event": self.event,
            "params": dict(self.params),
        }


@dataclass(frozen=True, slots=True)
class GameEvent:
    """One scoring moment of the replay: his heels, a card or go in the play, a hand or crib."""

    deal: int
    phase: str
    """`starter` (his heels), `play` or `show`."""
    event: int | None
    """Index in the record's list for that phase (None for a show count the record omits)."""
    player: int
    side: int
    what: str
    """`heels`, the card laid (`5H`), `go`, `hand` or `crib`."""
    count: int | None
    """The running count after a card in the play."""
    true: int
    claimed: int | None
    difference: int
    """claimed - true (0 when nothing was claimed)."""
    credited: int
    """Points pegged by the player's side (capped at the target)."""
    muggins_side: int | None
    muggins_points: int
    scores: tuple[int, ...]
    """Every side's score after this event."""
    items: tuple[ScoreItem, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "deal": self.deal,
            "phase": self.phase,
            "event": self.event,
            "player": self.player,
            "side": self.side,
            "what": self.what,
            "count": self.count,
            "true": self.true,
            "claimed": self.claimed,
            "difference": self.difference,
            "credited": self.credited,
            "muggins_side": self.muggins_side,
            "muggins_points": self.muggins_points,
            "scores": list(self.scores),
            "items": [item.to_dict() for item in self.items],
        }


@dataclass(frozen=True, slots=True)
class Loser:
    """A losing side's final score and skunk level."""

    side: int
    score: int
    skunk: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "side": self.side,
            "score": self.score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk],
        }


@dataclass(frozen=True, slots=True)
class GameReport:
    """The replay of a whole-game record."""

    players: tuple[str, ...]
    sides: tuple[tuple[int, ...], ...]
    """Player indices per side: one each for 2 or 3 players, partners (0, 2) and (1, 3) for 4."""
    target: int
    muggins: bool
    scores: tuple[int, ...]
    """Final score of each side."""
    finished: bool
    """True when a side reached the target."""
    winner: int | None
    """Winning side index."""
    ended_at: dict[str, Any] | None
    """Where the target was reached: deal, phase, event, player, what."""
    losers: tuple[Loser, ...]
    events: tuple[GameEvent, ...]
    problems: tuple[Problem, ...]

    @property
    def valid(self) -> bool:
        """No error-severity problem: every card and turn is legal."""
        return not any(problem.severity == "error" for problem in self.problems)

    @property
    def claims_correct(self) -> bool:
        """Every claim equals the true points."""
        return not any(problem.code == "claim_mismatch" for problem in self.problems)

    @property
    def loser_score(self) -> int | None:
        """The best losing score (the only one with 2 sides); None before the game ends."""
        return max((loser.score for loser in self.losers), default=None)

    @property
    def skunk(self) -> int | None:
        """Skunk level 0..3 for `loser_score`; None before the game ends."""
        return min((loser.skunk for loser in self.losers), default=None)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "valid": self.valid,
            "claims_correct": self.claims_correct,
            "players": list(self.players),
            "sides": [list(side) for side in self.sides],
            "target": self.target,
            "muggins": self.muggins,
            "scores": list(self.scores),
            "finished": self.finished,
            "winner": self.winner,
            "winner_players": (
                [self.players[p] for p in self.sides[self.winner]]
                if self.winner is not None
                else []
            ),
            "loser_score": self.loser_score,
            "skunk": self.skunk,
            "skunk_name": SKUNK_NAMES[self.skunk] if self.skunk is not None else None,
            "losers": [loser.to_dict() for loser in self.losers],
            "ended_at": self.ended_at,
            "events": [event.to_dict() for event in self.events],
            "problems": [problem.to_dict() for problem in self.problems],
        }


class _Stop(Exception):
    """The game ended (target reached); the rest of the record is not scored."""


@dataclass(slots=True)
class _Replay:
    """Mutable state of one replay."""

    n: int
    side_of: tuple[int, ...]
    target: int
    muggins: bool
    scores: list[int]
    events: list[GameEvent] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    winner: int | None = None
    ended_at: dict[str, Any] | None = None
    after: tuple[str, int] | None = None
    """The first recorded item of the ending deal left unscored: (phase, event index)."""

    def problem(
        self,
        code: str,
        message: str,
        deal: int | None = None,
        phase: str | None = None,
        event: int | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> None:
        self.problems.append(Problem(code, message, deal, phase, event, params or {}))

    def muggins_side(self, player: int) -> int:
        # With two sides the opponent; with three players the player on the claimant's left.
        if self.n == 3:
            return self.side_of[(player + 1) % 3]
        return 1 - self.side_of[player]

    def peg(self, side: int, points: int, where: dict[str, Any]) -> int:
        """Add points to a side, stopping at the target; returns the points actually pegged."""
        if self.winner is not None or points <= 0:
            return 0
        before = self.scores[side]
        if before + points >= self.target:
            self.scores[side] = self.target
            self.winner = side
            self.ended_at = where
            return self.target - before
        self.scores[side] = before + points
        return points

    def score_event(
        self,
        deal: int,
        phase: str,
        event: int | None,
        player: int,
        what: str,
        true: int,
        claimed: int | None,
        items: tuple[ScoreItem, ...],
        count: int | None = None,
    ) -> None:
        """Record one scoring moment, credit it (and muggins), and stop if the game ended."""
        side = self.side_of[player]
        where = {"deal": deal, "phase": phase, "event": event, "player": player, "what": what}
        if claimed is None:
            own, overlooked = true, 0
        else:
            own, overlooked = min(claimed, true), max(true - claimed, 0)
            if claimed != true:
                self.problem(
                    "claim_mismatch",
                    f"{what}: claimed {claimed}, true {true}"
                    + (f" ({overlooked} overlooked)" if overlooked else " (over-claimed)"),
                    deal,
                    phase,
                    event,
                    {"what": what, "claimed": claimed, "true": true},
                )
        credited = self.peg(side, own, where)
        mug_side: int | None = None
        mug_points = 0
        if overlooked and self.muggins:
            mug_side = self.muggins_side(player)
            mug_points = self.peg(mug_side, overlooked, where)
        self.events.append(
            GameEvent(
                deal=deal,
                phase=phase,
                event=event,
                player=player,
                side=side,
                what=what,
                count=count,
                true=true,
                claimed=claimed,
                difference=0 if claimed is None else claimed - true,
                credited=credited,
                muggins_side=mug_side,
                muggins_points=mug_points,
                scores=tuple(self.scores),
                items=items,
            )
        )
        if self.winner is not None:
            raise _Stop


def _as_index(value: Any, limit: int) -> int | None:
    """An int in 0..limit-1 (bools are not indices), else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < limit:
        return value
    return None


def _as_claim(value: Any) -> int | bool | None:
    """A claim: None when absent, an int >= 0, or False when malformed."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    return False


def _parse_list(
    state: _Replay, raw: Any, deal: int, phase: str, event: int | None, size: int | None
) -> list[Card] | None:
    """Parse a list of cards, reporting bad cards and a wrong size; None when unusable."""
    if not isinstance(raw, list):
        state.problem("malformed", f"{phase} must be a list of cards", deal, phase, event)
        return None
    cards: list[Card] = []
    ok = True
    for token in raw:
        try:
            cards.append(parse_card(token))
        except CardError as exc:
            state.problem("bad_card", str(exc), deal, phase, event, exc.params)
            ok = False
    if ok and size is not None and len(cards) != size:
        who = f"player {event}'s {phase}" if event is not None else phase
        state.problem(
            "wrong_hand_size",
            f"{who} has {len(cards)} cards, expected {size}",
            deal,
            phase,
            event,
            {"player": event, "what": phase, "count": len(cards), "expected": size},
        )
        ok = False
    return cards if ok else None


def _setup_deal(
    state: _Replay, d: int, deal: dict[str, Any]
) -> tuple[list[list[Card]], list[Card], Card] | None:
    """Check hands, crib, starter and dealt cards; None when the deal cannot be replayed."""
    n = state.n
    raw_hands = deal.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != n:
        state.problem("malformed", f"hands must list {n} hands, one per player", d, "hands")
        return None
    hands: list[list[Card]] = []
    ok = True
    for p, raw in enumerate(raw_hands):
        cards = _parse_list(state, raw, d, "hands", p, HAND_SIZE)
        ok = ok and cards is not None
        hands.append(cards or [])
    crib = _parse_list(state, deal.get("crib"), d, "crib", None, HAND_SIZE)
    starter: Card | None = None
    try:
        starter = parse_card(deal.get("starter"))  # type: ignore[arg-type]
    except CardError as exc:
        state.problem("bad_card", f"starter: {exc}", d, "starter", params=exc.params)
    if not ok or crib is None or starter is None:
        return None
    seen: dict[int, str] = {}
    duplicate = False
    places: list[tuple[str, str, int | None, list[Card]]] = [
        (f"player {p}'s hand", "hands", p, hand) for p, hand in enumerate(hands)
    ]
    places += [("the crib", "crib", None, crib), ("the starter", "starter", None, [starter])]
    for where, phase, event, cards in places:
        for card in cards:
            if card.index in seen:
                state.problem(
                    "card_twice",
                    f"{card} is in {seen[card.index]} and in {where}",
                    d,
                    phase,
                    event,
                    {"card": card},
                )
                duplicate = True
            else:
                seen[card.index] = where
    if duplicate:
        return None
    raw_dealt = deal.get("dealt")
    if raw_dealt is not None:
        _check_dealt(state, d, raw_dealt, hands, crib)
    return hands, crib, starter


def _check_dealt(
    state: _Replay, d: int, raw_dealt: Any, hands: list[list[Card]], crib: list[Card]
) -> None:
    """The dealt cards (when known) must hold the hand, and the rest must be in the crib."""
    n = state.n
    if not isinstance(raw_dealt, list) or len(raw_dealt) != n:
        state.problem("malformed", f"dealt must list {n} entries (null when unknown)", d, "dealt")
        return
    crib_set = {card.index for card in crib}
    seen: set[int] = set()
    for p, raw in enumerate(raw_dealt):
        if raw is None:
            continue
        dealt = _parse_list(state, raw, d, "dealt", p, DEALT_SIZE[n])
        if dealt is None:
            continue
        dealt_set = {card.index for card in dealt}
        for card in dealt:
            if card.index in seen or len(dealt_set) != len(dealt):
                state.problem(
                    "card_twice",
                    f"{card} is dealt twice",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )
                break
        seen |= dealt_set
        for card in hands[p]:
            if card.index not in dealt_set:
                state.problem(
                    "discard_mismatch",
                    f"{card} is in player {p}'s hand but was not dealt to them",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )
        held = {card.index for card in hands[p]}
        for card in dealt:
            if card.index not in held and card.index not in crib_set:
                state.problem(
                    "discard_mismatch",
                    f"{card} was discarded by player {p} but is not in the crib",
                    d,
                    "dealt",
                    p,
                    {"card": card, "player": p},
                )


def _replay_play(state: _Replay, d: int, dealer: int, plays: Any, hands: list[list[Card]]) -> None:
    """Replay the pegging of one deal."""
    n = state.n
    if plays is None:
        plays = []
    if not isinstance(plays, list):
        state.problem("malformed", "play must be a list of events", d, "play")
        return
    remaining = [list(hand) for hand in hands]
    played: set[int] = set()
    count = 0
    pile: list[Card] = []
    turn = (dealer + 1) % n

    def can_play(p: int) -> bool:
        room = 31 - count
        return any(card.value <= room for card in remaining[p])

    def walk_to(q: int) -> int:
        """From `turn`, skip players who cannot lay a card (an implied go) until reaching q or
        a player who can play; returns the player reached."""
        p = turn
        for _ in range(n):
            if p == q or can_play(p):
                return p
            p = (p + 1) % n
        return q

    for j, event in enumerate(plays):
        if not isinstance(event, dict):
            state.problem("malformed", "a play event must be an object", d, "play", j)
            continue
        q = _as_index(event.get("by"), n)
        claim = _as_claim(event.get("claim"))
        raw_card = event.get("card")
        if q is None or claim is False or not isinstance(raw_card, str):
            state.problem(
                "malformed",
                "a play event needs by (player index), card (a card or"
                ' "go") and an optional claim (points >= 0)',
                d,
                "play",
                j,
            )
            continue
        assert claim is not False  # narrowed above; keeps the type checker precise
        if raw_card.strip().lower() == "go":
            if can_play(q):
                state.problem(
                    "illegal_go",
                    f"player {q} said go at count {count} but could lay a card",
                    d,
                    "play",
                    j,
                    {"player": q, "count": count},
                )
            elif walk_to(q) != q:
                state.problem(
                    "out_of_turn",
                    f"player {q} said go when it was player {walk_to(q)}'s turn",
                    d,
                    "play",
                    j,
                    {"player": q, "card": "go", "expected": walk_to(q)},
                )
            turn = (q + 1) % n
            state.score_event(d, "play", j, q, "go", 0, claim, (), count)  # 0 points: no stop
            continue
        try:
            card = parse_card(raw_card)
        except CardError as exc:
            state.problem("bad_card", str(exc), d, "play", j, exc.params)
            continue
        if card not in remaining[q]:
            if card.index in played:
                state.problem(
                    "card_twice", f"{card} was already played", d, "play", j, {"card": card}
                )
            else:
                state.problem(
                    "card_not_in_hand",
                    f"player {q} does not hold {card}",
                    d,
                    "play",
                    j,
                    {"player": q, "card": card},
                )
            continue
        if count + card.value > 31:
            state.problem(
                "past_31",
                f"{card} takes the count from {count} to {count + card.value}",
                d,
                "play",
                j,
                {"card": card, "count": count, "new_count": count + card.value},
            )
            continue
        expected = walk_to(q)
        if expected != q:
            state.problem(
                "out_of_turn",
                f"player {q} played {card} when it was player {expected}'s turn",
                d,
                "play",
                j,
                {"player": q, "card": card, "expected": expected},
            )
        remaining[q].remove(card)
        played.add(card.index)
        pile.append(card)
        count += card.value
        # The count ends at 31, or when nobody (the player included) can lay another card:
        # then this card takes the go (or last card), and play resumes after this player.
        closes = count == 31 or not any(can_play(p) for p in range(n))
        score = score_cards_played(tuple(pile), last=closes)
        turn = (q + 1) % n
        at_count = count
        if closes:
            count = 0
            pile = []
        try:
            state.score_event(d, "play", j, q, str(card), score.total, claim, score.items, at_count)
        except _Stop:
            if j + 1 < len(plays):
                state.after = ("play", j + 1)
            raise
    left = [p for p in range(n) if remaining[p]]
    if left:
        state.problem(
            "cards_unplayed",
            "the play ends with cards still held by player(s) " + ", ".join(str(p) for p in left),
            d,
            "play",
            len(plays),
            {"players": ", ".join(str(p) for p in left)},
        )


def _replay_show(
    state: _Replay,
    d: int,
    dealer: int,
    shows: Any,
    hands: list[list[Card]],
    crib: list[Card],
    starter: Card,
) -> None:
    """Count the hands from the dealer's left round to the dealer, then the crib."""
    n = state.n
    claims: dict[tuple[int, bool], tuple[int, int | None]] = {}
    listed: list[tuple[int, bool]] = []
    if shows is None:
        shows = []
    if not isinstance(shows, list):
        state.problem("malformed", "show must be a list of counts", d, "show")
        shows = []
    for j, entry in enumerate(shows):
        is_crib = isinstance(entry, dict) and entry.get("crib", False) is True
        by = (
            _as_index(entry.get("by", dealer if is_crib else None), n)
            if isinstance(entry, dict)
            else None
        )
        claim = _as_claim(entry.get("claim")) if isinstance(entry, dict) else False
        if by is None or claim is False or (is_crib and by != dealer):
            state.problem(
                "malformed",
                "a show entry needs by (player index; the dealer for the"
                " crib), optional crib: true, and claim (points >= 0)",
                d,
                "show",
                j,
            )
            continue
        assert claim is not False
        key = (by, is_crib)
        if key in claims:
            state.problem("malformed", "the same hand is counted twice", d, "show", j)
            continue
        claims[key] = (j, claim)
        listed.append(key)
    order = [((dealer + k) % n, False) for k in range(1, n + 1)] + [(dealer, True)]
    if listed != [key for key in order if key in claims]:
        state.problem(
            "show_order",
            "the show is counted from the dealer's left round to the"
            " dealer, then the crib; the counts were scored in that order",
            d,
            "show",
        )
    for position, (player, is_crib) in enumerate(order):
        index, claim = claims.get((player, is_crib), (None, None))
        cards = crib if is_crib else hands[player]
        score = score_hand(cards, starter, crib=is_crib)
        try:
            state.score_event(
                d,
                "show",
                index,
                player,
                "crib" if is_crib else "hand",
                score.total,
                claim,
                score.items,
            )
        except _Stop:
            later = [claims[key][0] for key in order[position + 1 :] if key in claims]
            if later:
                state.after = ("show", min(later))
            raise


def _replay(state: _Replay, deals: list[Any]) -> None:
    n = state.n
    previous_dealer: int | None = None
    for d, deal in enumerate(deals):
        if not isinstance(deal, dict):
            state.problem("malformed", "a deal must be an object", d, "deals")
            continue
        dealer = _as_index(deal.get("dealer"), n)
        if dealer is None:
            state.problem("malformed", f"dealer must be a player index 0..{n - 1}", d, "deals")
            continue
        if previous_dealer is not None and dealer != (previous_dealer + 1) % n:
            state.problem(
                "wrong_dealer",
                f"the deal passes to the left: expected player"
                f" {(previous_dealer + 1) % n} to deal, not {dealer}",
                d,
                "deals",
                params={"expected": (previous_dealer + 1) % n, "dealer": dealer},
            )
        previous_dealer = dealer
        setup = _setup_deal(state, d, deal)
        if setup is None:
            continue
        hands, crib, starter = setup
        heels_claim = _as_claim(deal.get("heels"))
        if heels_claim is False:
            state.problem("malformed", "heels must be the points claimed (>= 0)", d, "starter")
            heels_claim = None
        try:
            if starter.rank == JACK or heels_claim:
                assert heels_claim is not False
                items = (ScoreItem("his heels", (starter,), 2),) if starter.rank == JACK else ()
                state.score_event(
                    d, "starter", 0, dealer, "heels", 2 if items else 0, heels_claim, items
                )
            _replay_play(state, d, dealer, deal.get("play"), hands)
            _replay_show(state, d, dealer, deal.get("show"), hands, crib, starter)
        except _Stop:
            if state.after is None and state.ended_at is not None:
                # ended before the show began: the first recorded play or count is left over
                phase = state.ended_at["phase"]
                plays, shows = deal.get("play"), deal.get("show")
                if phase == "starter" and isinstance(plays, list) and plays:
                    state.after = ("play", 0)
                elif phase != "show" and isinstance(shows, list) and shows:
                    state.after = ("show", 0)
            if state.after is not None:
                state.problem(
                    "after_game_end",
                    "the game ended when the target was reached;"
                    f" the record goes on ({state.after[0]} event {state.after[1]})"
                    " and that is not scored",
                    d,
                    *state.after,
                )
            elif d + 1 < len(deals):
                state.problem(
                    "after_game_end",
                    "the game ended when the target was reached; the later deals are not scored",
                    d + 1,
                    "deals",
                )
            return


def verify_game(record: Any) -> GameReport:
    """Replay a whole-game record and check every card, turn and claim.

    Never raises for malformed input: faults are listed in `GameReport.problems`, each naming
    the deal and the event. See README.md beside this module for the record format.
    """
    problems: list[Problem] = []

    def fail(message: str, code: str = "malformed") -> GameReport:
        problems.append(Problem(code, message))
        return GameReport(
            players=(),
            sides=(),
            target=0,
            muggins=False,
            scores=(),
            finished=False,
            winner=None,
            ended_at=None,
            losers=(),
            events=(),
            problems=tuple(problems),
        )

    if not isinstance(record, dict):
        return fail("the record must be a JSON object")
    players = record.get("players")
    if (
        not isinstance(players, list)
        or not 2 <= len(players) <= 4
        or not all(isinstance(name, str) for name in players)
    ):
        return fail("players must list 2, 3 or 4 names in seating order")
    target = record.get("target", 121)
    if target not in TARGETS or isinstance(target, bool):
        return fail(f"target must be one of {', '.join(map(str, TARGETS))}")
    muggins = record.get("muggins", False)
    if not isinstance(muggins, bool):
        return fail("muggins must be true or false")
    deals = record.get("deals")
    if not isinstance(deals, list):
        return fail("deals must be a list")
    n = len(players)
    side_of = tuple(p % 2 for p in range(4)) if n == 4 else tuple(range(n))
    sides = ((0, 2), (1, 3)) if n == 4 else tuple((p,) for p in range(n))
    state = _Replay(n=n, side_of=side_of, target=target, muggins=muggins, scores=[0] * len(sides))
    try:
        _replay(state, deals)
    except Exception as exc:
        state.problem(
            "internal_error",
            f"{type(exc).__name__}: {exc}",
            params={"error": f"{type(exc).__name__}: {exc}"},
        )
    losers: tuple[Loser, ...] = ()
    if state.winner is None:
        state.problem("game_unfinished", f"no side reached {target}", params={"target": target})
    else:
        losers = tuple(
            Loser(side, state.scores[side], skunk_level(target, state.scores[side]))
            for side in range(len(sides))
            if side != state.winner
        )
    _check_result(state, record.get("result"), sides, losers)
    return GameReport(
        players=tuple(players),
        sides=sides,
        target=target,
        muggins=muggins,
        scores=tuple(state.scores),
        finished=state.winner is not None,
        winner=state.winner,
        ended_at=state.ended_at,
        losers=losers,
        events=tuple(state.events),
        problems=tuple(state.problems),
    )


def _check_result(
    state: _Replay, result: Any, sides: tuple[tuple[int, ...], ...], losers: tuple[Loser, ...]
) -> None:
    """Compare an optional declared result {winner: player index, loser_score} with the replay."""
    if result is None:
        return
    if not isinstance(result, dict):
        state.problem("malformed", "result must be an object", phase="result")
        return
    winner = _as_index(result.get("winner"), state.n)
    if "winner" in result and winner is None:
        state.problem("malformed", "result.winner must be a player index", phase="result")
    elif winner is not None and state.side_of[winner] != state.winner:
        state.problem(
            "result_mismatch",
            f"declared winner is player {winner}, the replay's winning side is {state.winner}",
            phase="result",
            params={"claimed": winner, "actual": state.winner},
        )
    loser_score = result.get("loser_score")
    if loser_score is not None:
        best = max((loser.score for loser in losers), default=None)
        if loser_score != best:
            state.problem(
                "result_mismatch",
                f"declared loser score {loser_score!r}, replayed {best}",
                phase="result",
                params={"claimed": loser_score, "actual": best},
            )
