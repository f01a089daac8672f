"""A whole deal: read the documented JSON record and settle every player's net in chips
(stoppa.md sections 3, 6 and 10). ``verify.verify_deal`` compares the record's claims with this.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from .cards import Card
from .contest import ContestResult, settle_contest
from .deck import DeckInfo, check_deal, deal_by_ones, deck_info, priority_order
from .errors import Issue, StoppaError
from .settings import Settings
from .stop import (
    DeclarationOutcome,
    StopResult,
    replay_stop,
    settle_declarations,
    stop_payments,
)


@dataclass(frozen=True, slots=True)
class GameSettlement:
    """Everything recomputed from a deal record.

    ``contests`` are the punti piccoli in order then the punto grosso; ``nets`` are each
    player's chips won or lost over the deal (ante included) and always sum to zero.
    """

    players: tuple[str, ...]
    dealer: str
    order: tuple[str, ...]
    settings: Settings
    deck: DeckInfo
    pot: int
    grosso_value: int
    hands: Mapping[str, tuple[Card, ...]]
    contests: tuple[ContestResult, ...]
    declarations: DeclarationOutcome
    stop: StopResult | None
    closer: str | None
    stop_payments: Mapping[str, int]
    nets: Mapping[str, int]
    warnings: tuple[Issue, ...]

    @property
    def piccoli(self) -> tuple[ContestResult, ...]:
        """The punti piccoli, one per iteration."""
        return self.contests[:-1]

    @property
    def grosso(self) -> ContestResult:
        """The punto grosso."""
        return self.contests[-1]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "players": list(self.players),
            "dealer": self.dealer,
            "order": list(self.order),
            "settings": self.settings.to_dict(),
            "deck": self.deck.to_dict(),
            "pot": self.pot,
            "piccolo_value": self.settings.piccolo_value,
            "grosso_value": self.grosso_value,
            "hands": {p: [c.text for c in h] for p, h in self.hands.items()},
            "piccoli": [c.to_dict() for c in self.piccoli],
            "grosso": self.grosso.to_dict(),
            "declarations": self.declarations.to_dict(),
            "stop": self.stop.to_dict() if self.stop is not None else None,
            "closer": self.closer,
            "stop_payments": dict(self.stop_payments),
            "nets": dict(self.nets),
            "warnings": [w.to_dict() for w in self.warnings],
        }


def _need(
    record: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str = ""
) -> Any:
    if key not in record:
        raise StoppaError(
            "bad_record", f"the record has no {key!r}", where or key, params={"field": key}
        )
    value = record[key]
    if not isinstance(value, kind):
        raise StoppaError(
            "bad_record", f"{key!r} has the wrong type", where or key, params={"field": key}
        )
    return value


def _players(record: Mapping[str, Any]) -> tuple[str, ...]:
    players = _need(record, "players", list)
    if not all(isinstance(p, str) and p for p in players):
        raise StoppaError("bad_record", "players are non-empty names", "players")
    if len(set(players)) != len(players):
        dup = next(p for p in players if players.count(p) > 1)
        raise StoppaError(
            "duplicate_player", f"{dup!r} is seated twice", "players", params={"player": dup}
        )
    if not 3 <= len(players) <= 6:
        raise StoppaError(
            "unsupported_player_count",
            f"Stoppa is played by 3 to 6 players, the record seats {len(players)}",
            "players",
            params={"count": len(players)},
        )
    return tuple(players)


def _at(e: StoppaError, where: str) -> StoppaError:
    # Keep the innermost location if the error already has one.
    return StoppaError(e.code, e.message, e.where or where, e.params)


def _contest(record: Any, where: str, order: Sequence[str]) -> tuple[dict[str, int], list[str]]:
    if not isinstance(record, Mapping):
        raise StoppaError("bad_record", "a contest is an object", where)
    contributions = record.get("contributions", {})
    showdown = record.get("showdown", [])
    if not isinstance(contributions, Mapping):
        raise StoppaError("bad_record", "contributions map player -> chips", where)
    if not isinstance(showdown, list) or not all(isinstance(p, str) for p in showdown):
        raise StoppaError("bad_record", "showdown lists player names", where)
    return dict(contributions), list(showdown)


def settle_game(record: Mapping[str, Any]) -> GameSettlement:
    """Recompute a whole deal from its record (format in ``games/stoppa/README.md``): the deal,
    every punto piccolo, the punto grosso, the declarations, the stop phase and its payments, and
    each player's net. Claims in the record are ignored here (``verify_deal`` checks them).

    Raises ``StoppaError`` with the code and the record location (``.where``) of the first
    problem.
    """
    if not isinstance(record, Mapping):
        raise StoppaError("bad_record", "a deal record is a JSON object")
    players = _players(record)
    dealer = _need(record, "dealer", str)
    if dealer not in players:
        raise StoppaError(
            "unknown_player",
            f"the dealer {dealer!r} is not at the table",
            "dealer",
            params={"player": dealer},
        )
    try:
        info = deck_info(len(players), record.get("removed_king"))
    except StoppaError as e:
        raise _at(e, "removed_king") from None
    try:
        settings = Settings.from_dict(record.get("settings"))
        settings.validate(len(players), info.iterations)
    except (StoppaError, TypeError) as e:
        if isinstance(e, StoppaError):
            raise _at(e, "settings") from None
        raise StoppaError("bad_setting", str(e), "settings", {"error": str(e)}) from None
    order = priority_order(players, dealer)

    deal = _need(record, "deal", Mapping)
    try:
        if "deck_order" in deal:
            iterations = deal_by_ones(info, order, deal["deck_order"])
        else:
            raw = _need(deal, "iterations", list, "deal.iterations")
            iterations = check_deal(info, order, raw)
    except StoppaError as e:
        raise _at(e, "deal") from None
    hands = {p: tuple(c for it in iterations for c in it[p]) for p in order}

    contests: list[ContestResult] = []
    piccoli = _need(record, "piccoli", list)
    if len(piccoli) != info.iterations:
        raise StoppaError(
            "wrong_contest_count",
            f"{info.iterations} punti piccoli are played, the record has {len(piccoli)}",
            "piccoli",
            params={"iterations": info.iterations, "count": len(piccoli)},
        )
    for i, (raw_contest, it) in enumerate(zip(piccoli, iterations, strict=True)):
        where = f"piccoli[{i}]"
        contributions, showdown = _contest(raw_contest, where, order)
        try:
            contests.append(
                settle_contest(
                    order,
                    contributions,
                    showdown,
                    settings.piccolo_value,
                    it,
                    phase="piccolo",
                    iteration_size=info.schedule[i],
                    deck=info,
                )
            )
        except StoppaError as e:
            raise _at(e, where) from None
    grosso_value = settings.grosso_value(len(players), info.iterations)
    contributions, showdown = _contest(_need(record, "grosso", Mapping), "grosso", order)
    try:
        contests.append(
            settle_contest(
                order,
                contributions,
                showdown,
                grosso_value,
                hands,
                phase="grosso",
                deck=info,
                no_bets=settings.grosso_no_bets,
            )
        )
    except StoppaError as e:
        raise _at(e, "grosso") from None

    raw_decl = record.get("declarations", [])
    if not isinstance(raw_decl, list) or not all(
        isinstance(d, Mapping)
        and isinstance(d.get("player"), str)
        and isinstance(d.get("kind"), str)
        for d in raw_decl
    ):
        raise StoppaError(
            "bad_record", 'declarations list {"player": ..., "kind": ...}', "declarations"
        )
    decl = settle_declarations(
        order,
        hands,
        [(d["player"], d["kind"]) for d in raw_decl],
        settings.unit,
        top_rank=info.top_rank,
        no_stop_rule=settings.no_stop_rule,
    )

    stop_raw = record.get("stop")
    stop: StopResult | None = None
    closer: str | None = None
    payments: dict[str, int] = {p: 0 for p in order}
    warnings = list(decl.warnings)
    if decl.cancels_stop:
        if stop_raw:
            raise StoppaError(
                "stop_after_declaration",
                "a declaration cancelled the stop phase, but the record has one",
                "stop",
            )
    else:
        if not isinstance(stop_raw, Mapping):
            raise StoppaError(
                "stop_missing",
                "no declaration cancelled the stop phase: record its log, or its "
                "closer and cards left",
                "stop",
            )
        if "log" in stop_raw:
            if not isinstance(stop_raw["log"], list):
                raise StoppaError("bad_record", "the stop log is a list of plays", "stop.log")
            try:
                stop = replay_stop(
                    order, hands, stop_raw["log"], three_aces_free=settings.three_aces_free
                )
            except StoppaError as e:
                raise _at(e, "stop.log") from None
            closer, left = stop.closer, stop.remaining
            warnings.extend(stop.warnings)
        else:
            closer, left = _cards_left(stop_raw, order, info)
        try:
            payments.update(stop_payments(closer, left, settings.unit, settings.cards_per_payment))
        except StoppaError as e:
            raise _at(e, "stop") from None

    nets = {}
    for p in order:
        nets[p] = -settings.ante + sum(c.nets[p] for c in contests) + decl.payments[p] + payments[p]
    # The pot: antes in, punti piccoli and grosso out; every other payment is player to player.
    assert sum(nets.values()) == 0, nets
    return GameSettlement(
        players,
        dealer,
        order,
        settings,
        info,
        settings.pot(len(players)),
        grosso_value,
        MappingProxyType(hands),
        tuple(contests),
        decl,
        stop,
        closer,
        MappingProxyType(payments),
        MappingProxyType({p: nets[p] for p in players}),
        tuple(warnings),
    )


def _cards_left(
    stop_raw: Mapping[str, Any], order: Sequence[str], info: DeckInfo
) -> tuple[str, dict[str, int]]:
    closer = _need(stop_raw, "closer", str, "stop.closer")
    if closer not in order:
        raise StoppaError(
            "unknown_player",
            f"the closer {closer!r} is not at the table",
            "stop.closer",
            params={"player": closer},
        )
    left = _need(stop_raw, "cards_left", Mapping, "stop.cards_left")
    out: dict[str, int] = {}
    for p in order:
        n = left.get(p, 0 if p == closer else None)
        where = f"stop.cards_left.{p}"
        if isinstance(n, bool) or not isinstance(n, int):
            raise StoppaError(
                "bad_record",
                f"cards left of {p} missing or not a number",
                where,
                params={"player": p},
            )
        if p == closer:
            if n != 0:
                raise StoppaError(
                    "bad_cards_left",
                    f"the closer {p} cannot have {n} card(s)",
                    where,
                    params={"player": p, "count": n},
                )
        elif n == 0:
            raise StoppaError(
                "two_closers",
                f"{p} also has no cards: only {closer} went out",
                where,
                params={"player": p, "other": closer},
            )
        elif not 1 <= n <= info.per_player:
            raise StoppaError(
                "bad_cards_left",
                f"{p} has {n} cards left; between 1 and {info.per_player} possible",
                where,
                params={"player": p, "count": n, "per_player": info.per_player},
            )
        out[p] = n
    extra = sorted(set(left) - set(order))
    if extra:
        raise StoppaError(
            "unknown_player",
            f"{extra[0]!r} is not at the table",
            "stop.cards_left",
            params={"player": extra[0]},
        )
    return closer, out
