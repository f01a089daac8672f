"""Side pools that roll over, and the night ledger that balances to zero.

The pools clubs run beside the main event (``docs/rules/books.md``, with the sources):

* a **Q-pool**: entrants who pay in share it if they qualify (the ACC's Tournament Directors'
  Manual has a section on "Q" Pools; cardclubs.ca pays its Q-pool "on a one in four ratio");
* **special-hand pools**: a 24 hand, a 28 or 29 hand, four of a kind; who wins is the club's
  rule (the last 24 hand of the night, a draw between holders of four of a kind, as the
  Graeagle Peggers do, plumasnews.com) and the caller names the winners;
* a **skunk pot**: the skunked pay in per skunk; a 29 hand may take all of it and a 28 hand half
  (a club's "skunk bank", home.comcast.net/~surfitch), or a draw pays it 60/40 with a part kept
  for the club (cardclubs.ca).

Every pool keeps its balance when nobody wins it and carries it to the club's next event
("the 4-of-a-Kind Pot which had rolled over for a third week"). Each share is rounded down to
the coin; the coins that do not divide stay in the pool, carried.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction

from .error_codes import BooksError, BooksErrorCode
from .money import ZERO, floor_fraction_to_coin, money, validate_coin
from .payouts import CENT, EntryId, PayoutSheet, RemainderTo

__all__ = [
    "LedgerItem",
    "LedgerLine",
    "NightLedger",
    "PoolKind",
    "PoolResult",
    "PoolRule",
    "PoolShare",
    "ShareRule",
    "last_holder",
    "night_ledger",
    "q_pool_winners",
    "settle_pool",
]

HUNDRED = Decimal(100)
MAIN_POT = "main"
# The label of a ledger line that keeps an unpaid entrant's fee out of their prize.
SETTLED_LABEL = "fee settled from the prize"


class PoolKind(StrEnum):
    """The side pools clubs run."""

    Q_POOL = "q_pool"
    HAND_24 = "hand_24"
    HAND_28 = "hand_28"
    HAND_29 = "hand_29"
    FOUR_OF_A_KIND = "four_of_a_kind"
    SKUNK = "skunk"
    OTHER = "other"


class ShareRule(StrEnum):
    """How a won pool is split among its winners."""

    EVEN = "even"  # evenly (qualifiers of a Q-pool, holders who share a hand pot)
    RATIO = "ratio"  # by ratios, winners in order (a skunk pot's 60/40, a Q-pool by rank)


@dataclass(frozen=True)
class PoolRule:
    """A side pool's rule.

    ``fee`` is paid per entrant of the pool (per skunk for a skunk pot). When won,
    ``payout_percent`` of the balance is paid out (the rest carries); ``held_back_percent`` of
    each night's takings is kept for the club first. ``ratios`` are the RATIO rule's parts, first
    winner first; with fewer winners than ratios, the first ones are used, in proportion.
    A pool that does not ``roll_over`` gives an unwon balance to the club.
    """

    name: str
    kind: PoolKind
    fee: Decimal
    share: ShareRule = ShareRule.EVEN
    ratios: tuple[Decimal, ...] = ()
    payout_percent: Decimal = HUNDRED
    held_back_percent: Decimal = ZERO
    rolls_over: bool = True
    coin: Decimal = Decimal(1)

    def __post_init__(self) -> None:
        fee = money(self.fee)
        payout = money(self.payout_percent)
        held = money(self.held_back_percent)
        ratios = tuple(money(r) for r in self.ratios)
        if fee < 0 or not 0 < payout <= HUNDRED or not 0 <= held <= HUNDRED:
            raise BooksError(
                BooksErrorCode.BAD_POOL,
                f"{self.name}: a fee of 0 or more, a payout of 1-100% and a hold-back of 0-100%",
            )
        if ShareRule(self.share) is ShareRule.RATIO and (not ratios or any(r <= 0 for r in ratios)):
            raise BooksError(BooksErrorCode.BAD_POOL, f"{self.name}: ratios must be positive")
        object.__setattr__(self, "fee", fee)
        object.__setattr__(self, "kind", PoolKind(self.kind))
        object.__setattr__(self, "share", ShareRule(self.share))
        object.__setattr__(self, "ratios", ratios)
        object.__setattr__(self, "payout_percent", payout)
        object.__setattr__(self, "held_back_percent", held)
        object.__setattr__(self, "coin", validate_coin(self.coin))


@dataclass(frozen=True)
class PoolShare:
    """One winner's money from a pool."""

    entry_id: EntryId
    amount: Decimal


@dataclass(frozen=True)
class PoolResult:
    """A pool's night: what it had, took, held back, paid, and carries to the next event."""

    rule: PoolRule
    carried_in: Decimal
    takings: Decimal
    held_back: Decimal
    shares: tuple[PoolShare, ...]
    carried_out: Decimal
    to_club: Decimal

    @property
    def won(self) -> bool:
        """True when somebody was paid from the pool tonight."""
        return bool(self.shares)

    @property
    def paid_total(self) -> Decimal:
        """Everything paid from the pool tonight."""
        return sum((s.amount for s in self.shares), ZERO)

    def check(self) -> None:
        """Raise unless the pool's coins are all accounted for and none is negative."""
        parts = (self.held_back, self.carried_out, self.to_club, *(s.amount for s in self.shares))
        if min(parts, default=ZERO) < 0:
            raise BooksError(BooksErrorCode.LEDGER_UNBALANCED, f"{self.rule.name}: negative")
        incoming = self.carried_in + self.takings
        outgoing = self.held_back + self.paid_total + self.carried_out + self.to_club
        if incoming != outgoing:
            raise BooksError(
                BooksErrorCode.LEDGER_UNBALANCED,
                f"{self.rule.name} does not balance: {incoming} in, {outgoing} out",
            )


def q_pool_winners(
    pool_entrants: Iterable[EntryId], qualifiers_in_order: Sequence[EntryId]
) -> list[EntryId]:
    """The Q-pool's winners: the qualifiers (in qualifying order) who paid into the pool."""
    entered = set(pool_entrants)
    return [entry for entry in qualifiers_in_order if entry in entered]


def last_holder(holders_in_order: Sequence[EntryId]) -> list[EntryId]:
    """The "last one of the night wins" rule: the last holder, or nobody."""
    return list(holders_in_order[-1:])


def settle_pool(
    rule: PoolRule,
    count: int,
    winners: Sequence[EntryId],
    carried_in: Decimal = ZERO,
    payout_percent: Decimal | None = None,
) -> PoolResult:
    """Settle a pool for the night.

    ``count`` is how many paid in (entrants of the pool, or skunks for a skunk pot);
    ``winners`` are in order (the caller applies the club's rule of who wins: the qualifiers,
    the last holder, the drawn card); ``payout_percent`` overrides the rule's for this win (a
    28 hand takes half the skunk bank). Nobody won: the balance carries (or goes to the club
    when the pool does not roll over).
    """
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise BooksError(BooksErrorCode.BAD_POOL, "a pool's count is 0 or more")
    if len(set(winners)) != len(winners):
        raise BooksError(BooksErrorCode.BAD_WINNERS, "a winner is named twice")
    carried_in = money(carried_in)
    if carried_in < 0:
        raise BooksError(BooksErrorCode.BAD_AMOUNT, "a carried-in amount cannot be negative")
    percent = rule.payout_percent if payout_percent is None else money(payout_percent)
    if not 0 < percent <= HUNDRED:
        raise BooksError(BooksErrorCode.BAD_POOL, "a payout of 1-100% of the pool")
    coin = rule.coin
    takings = rule.fee * count
    # The club's part is owed to the cent; only the winners' shares round to the coin.
    held = (takings * rule.held_back_percent / HUNDRED).quantize(CENT, rounding=ROUND_HALF_UP)
    available = carried_in + takings - held

    shares: list[PoolShare] = []
    if winners:
        prize = Fraction(available) * Fraction(percent) / 100
        if rule.share is ShareRule.EVEN:
            parts = [Fraction(1, len(winners))] * len(winners)
        else:
            if len(winners) > len(rule.ratios):
                raise BooksError(
                    BooksErrorCode.BAD_WINNERS,
                    f"{rule.name} pays {len(rule.ratios)} winners, not {len(winners)}",
                )
            used = [Fraction(r) for r in rule.ratios[: len(winners)]]
            parts = [r / sum(used) for r in used]
        for entry, part in zip(winners, parts, strict=True):
            amount, _ = floor_fraction_to_coin(prize * part, coin)
            shares.append(PoolShare(entry, amount))
    paid = sum((s.amount for s in shares), ZERO)
    rest = available - paid
    carried_out, to_club = (rest, ZERO) if winners or rule.rolls_over else (ZERO, rest)
    result = PoolResult(rule, carried_in, takings, held, tuple(shares), carried_out, to_club)
    result.check()
    return result


class LedgerItem(StrEnum):
    """The kinds of line in a night ledger; the first two come in, the rest go out."""

    TAKINGS = "takings"
    CARRIED_IN = "carried_in"
    PAYOUT = "payout"
    HELD_BACK = "held_back"
    TO_CLUB = "to_club"
    CARRIED_OUT = "carried_out"


INCOMING = frozenset({LedgerItem.TAKINGS, LedgerItem.CARRIED_IN})


@dataclass(frozen=True)
class LedgerLine:
    """One line of the night ledger: which pot, what kind, how much, for whom (payouts)."""

    pot: str
    item: LedgerItem
    amount: Decimal
    entry_id: EntryId | None = None
    label: str = ""


@dataclass(frozen=True)
class NightLedger:
    """A night's money, line by line: takings and carried in on one side; payouts, held back,
    the club's share and carried out on the other. :attr:`balance` is zero."""

    lines: tuple[LedgerLine, ...]

    def total(self, item: LedgerItem) -> Decimal:
        """The sum of the lines of one kind."""
        return sum((line.amount for line in self.lines if line.item is item), ZERO)

    @property
    def takings(self) -> Decimal:
        """Entry fees and pool money taken tonight."""
        return self.total(LedgerItem.TAKINGS)

    @property
    def carried_in(self) -> Decimal:
        """Balances carried in from the club's last event."""
        return self.total(LedgerItem.CARRIED_IN)

    @property
    def payouts(self) -> Decimal:
        """Everything paid to players."""
        return self.total(LedgerItem.PAYOUT)

    @property
    def held_back(self) -> Decimal:
        """Fees held back (the ACC's, the club's) and the club's part of the pools."""
        return self.total(LedgerItem.HELD_BACK) + self.total(LedgerItem.TO_CLUB)

    @property
    def carried_out(self) -> Decimal:
        """Balances carried to the club's next event."""
        return self.total(LedgerItem.CARRIED_OUT)

    @property
    def balance(self) -> Decimal:
        """Takings + carried in - payouts - held back - carried out: zero when the books close."""
        return self.takings + self.carried_in - self.payouts - self.held_back - self.carried_out

    def carry_forward(self) -> dict[str, Decimal]:
        """What each pot starts the club's next event with, by pot name (``"main"`` first)."""
        carry: dict[str, Decimal] = {}
        for line in self.lines:
            if line.item is LedgerItem.CARRIED_OUT:
                carry[line.pot] = carry.get(line.pot, ZERO) + line.amount
        return carry


def night_ledger(sheet: PayoutSheet, pools: Sequence[PoolResult] = ()) -> NightLedger:
    """The night ledger of an event's payout sheet and its pools; raises if it does not balance."""
    names = [MAIN_POT, *(pool.rule.name for pool in pools)]
    if len(set(names)) != len(names):
        raise BooksError(BooksErrorCode.BAD_POOL, "two pots have the same name")
    # The fees settled from unpaid entrants' prizes are lines of their own (with the entrant),
    # beside the remainder they go with.
    settled_item = (
        LedgerItem.TO_CLUB if sheet.settled_to is RemainderTo.CLUB else LedgerItem.CARRIED_OUT
    )
    to_club = sheet.to_club - (sheet.settled if settled_item is LedgerItem.TO_CLUB else ZERO)
    carried_out = sheet.carried_out - (
        sheet.settled if settled_item is LedgerItem.CARRIED_OUT else ZERO
    )
    lines = [
        LedgerLine(MAIN_POT, LedgerItem.TAKINGS, sheet.gross, label="entry fees"),
        LedgerLine(MAIN_POT, LedgerItem.CARRIED_IN, sheet.carried_in),
        *(LedgerLine(MAIN_POT, LedgerItem.HELD_BACK, h.amount, label=h.name)
          for h in sheet.held_back),
        *(LedgerLine(MAIN_POT, LedgerItem.PAYOUT, s.amount, s.entry_id, f"place {s.place}")
          for s in sheet.shares),
        *(LedgerLine(MAIN_POT, settled_item, s.settled, s.entry_id, SETTLED_LABEL)
          for s in sheet.shares if s.settled),
        LedgerLine(MAIN_POT, LedgerItem.TO_CLUB, to_club, label="remainder"),
        LedgerLine(MAIN_POT, LedgerItem.CARRIED_OUT, carried_out, label="remainder"),
    ]  # fmt: skip
    for pool in pools:
        name = pool.rule.name
        lines += [
            LedgerLine(name, LedgerItem.TAKINGS, pool.takings),
            LedgerLine(name, LedgerItem.CARRIED_IN, pool.carried_in),
            LedgerLine(name, LedgerItem.HELD_BACK, pool.held_back),
            *(LedgerLine(name, LedgerItem.PAYOUT, s.amount, s.entry_id) for s in pool.shares),
            LedgerLine(name, LedgerItem.TO_CLUB, pool.to_club),
            LedgerLine(name, LedgerItem.CARRIED_OUT, pool.carried_out),
        ]
    ledger = NightLedger(tuple(lines))
    if ledger.balance != 0:
        raise BooksError(
            BooksErrorCode.LEDGER_UNBALANCED, f"the night does not balance by {ledger.balance}"
        )
    return ledger
