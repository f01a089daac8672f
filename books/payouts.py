"""The payout sheet: who gets what of the entry fees, from the final places.

The rules (``docs/rules/books.md``, with their sources):

* **Who is paid.** A payout table by the number of paid entrants: the club's own
  (:class:`PayoutRow` per field size, percentages per place), or the built-in default that pays
  one entrant in four, rounded up, as ACC clubs and tournaments do ("cash prizes to the top
  25% of players", eugenecribbage.com; "cash prizes are awarded on a one in four ratio",
  cardclubs.ca; one in four qualify, cribbage.org "Playoff Brackets and Byes"). The default's
  split (linear: with k places, place i gets k + 1 - i parts) is Pegboard's choice, not an ACC
  figure: the ACC's own payback percentages were not found (see the docs).
* **Held back first.** ACC or club fees per entrant or a percentage of the takings come off the
  takings before the pot is split, when the club says so (:class:`HoldBack`).
* **Equal places.** Players tied at a place share the sum of the places they occupy, evenly:
  two tied for 3rd with 3rd and 4th paid each get (3rd + 4th) / 2; places past the paid ones
  add nothing.
* **Coins.** Every share is rounded *down* to the club's smallest coin, so the sheet never pays
  more than the pot. What is left (the coins that did not divide, and the money of paid places
  nobody finished in) is the remainder, and the club says where it goes
  (:class:`RemainderTo`): carried to the next pot, added to the top place, or to the club.
  It is always on the sheet, never lost: ``gross + carried_in == held back + paid + carried
  out + to the club`` (:meth:`PayoutSheet.check`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from enum import StrEnum
from fractions import Fraction
from math import gcd
from operator import itemgetter
from typing import Any

from .error_codes import BooksError, BooksErrorCode
from .money import ZERO, money, split_evenly, validate_coin

__all__ = [
    "DEFAULT_PAID_SHARE",
    "EntryId",
    "Fees",
    "HeldBack",
    "HoldBack",
    "PayoutRow",
    "PayoutSheet",
    "PayoutTable",
    "RemainderTo",
    "Share",
    "compute_payouts",
    "default_paid_places",
    "tie_groups",
]

EntryId = Hashable
DEFAULT_PAID_SHARE = Fraction(1, 4)
HUNDRED = Decimal(100)
CENT = Decimal("0.01")


class RemainderTo(StrEnum):
    """Where the coins that did not divide go: the club's choice."""

    CARRY = "carry"  # to the next event's pot
    TOP = "top"  # to the top place (split evenly among those tied there; what still does
    # not divide is carried)
    CLUB = "club"  # to the club's funds


@dataclass(frozen=True)
class HoldBack:
    """A fee held back from the takings before the pot is split (the ACC's, the club's).

    ``per_entrant`` is an amount per paid entrant, ``percent`` a percentage (0-100) of the
    gross takings; both may be set. The held amount is owed to the cent (the ACC's fee per
    player, a club's percentage), so it is rounded to the cent, halves up, never to the coin:
    only prizes are paid in coins (``docs/rules/books.md``).
    """

    name: str
    per_entrant: Decimal = ZERO
    percent: Decimal = ZERO

    def __post_init__(self) -> None:
        per = money(self.per_entrant)
        pct = money(self.percent)
        if per < 0 or pct < 0 or pct > HUNDRED:
            raise BooksError(
                BooksErrorCode.BAD_FEE,
                f"{self.name}: a hold-back is 0 or more per entrant and 0-100 percent",
            )
        object.__setattr__(self, "per_entrant", per)
        object.__setattr__(self, "percent", pct)


@dataclass(frozen=True)
class Fees:
    """An event's entry fee, what is held back first, the smallest coin and the remainder rule."""

    entry: Decimal
    hold_backs: tuple[HoldBack, ...] = ()
    coin: Decimal = Decimal(1)
    remainder_to: RemainderTo = RemainderTo.CARRY

    def __post_init__(self) -> None:
        entry = money(self.entry)
        if entry < 0:
            raise BooksError(BooksErrorCode.BAD_FEE, "the entry fee cannot be negative")
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "coin", validate_coin(self.coin))
        object.__setattr__(self, "remainder_to", RemainderTo(self.remainder_to))


@dataclass(frozen=True)
class PayoutRow:
    """One row of a club's payout table: from ``min_entrants`` paid entrants on, the places
    paid and each one's percentage of the pot (they add up to 100)."""

    min_entrants: int
    percents: tuple[Decimal, ...]

    def __post_init__(self) -> None:
        percents = tuple(money(p) for p in self.percents)
        if self.min_entrants < 1:
            raise BooksError(BooksErrorCode.BAD_TABLE, "a row starts at 1 paid entrant or more")
        if not percents or any(p <= 0 for p in percents):
            raise BooksError(
                BooksErrorCode.BAD_TABLE, "a row pays at least one place, each more than 0%"
            )
        if sum(percents) != HUNDRED:
            raise BooksError(
                BooksErrorCode.BAD_TABLE,
                f"the percentages of the row from {self.min_entrants} add up to "
                f"{sum(percents)}, not 100",
            )
        object.__setattr__(self, "percents", percents)


def default_paid_places(paid_entrants: int, share: Fraction = DEFAULT_PAID_SHARE) -> int:
    """How many places the built-in table pays: one in four paid entrants, rounded up."""
    if paid_entrants <= 0:
        return 0
    return -(-paid_entrants * share.numerator // share.denominator)


@dataclass(frozen=True)
class PayoutTable:
    """A club's payout table (``rows``), or the built-in default when ``rows`` is empty.

    The default pays :func:`default_paid_places` places; with k places, place i gets
    ``k + 1 - i`` parts of ``k (k + 1) / 2`` (3 places: 50%, 33.3%, 16.7%).
    """

    rows: tuple[PayoutRow, ...] = ()
    paid_share: Fraction = DEFAULT_PAID_SHARE

    def __post_init__(self) -> None:
        starts = [row.min_entrants for row in self.rows]
        if len(set(starts)) != len(starts):
            raise BooksError(BooksErrorCode.BAD_TABLE, "two rows start at the same field size")
        object.__setattr__(self, "rows", tuple(sorted(self.rows, key=lambda row: row.min_entrants)))
        if not 0 < self.paid_share <= 1:
            raise BooksError(BooksErrorCode.BAD_TABLE, "the paid share is more than 0, at most 1")

    @property
    def is_default(self) -> bool:
        """True when the club has no table of its own."""
        return not self.rows

    def shares_for(self, paid_entrants: int) -> tuple[Fraction, ...]:
        """The exact share of the pot of each paid place (they add up to 1) for a field size."""
        if paid_entrants < 1:
            return ()
        if self.is_default:
            places = default_paid_places(paid_entrants, self.paid_share)
            parts = places * (places + 1) // 2
            return tuple(Fraction(places - i, parts) for i in range(places))
        row = None
        for candidate in self.rows:
            if candidate.min_entrants <= paid_entrants:
                row = candidate
        if row is None:
            raise BooksError(
                BooksErrorCode.NO_TABLE_ROW,
                f"the payout table has no row for {paid_entrants} paid entrants",
            )
        return tuple(Fraction(p) / 100 for p in row.percents)


@dataclass(frozen=True)
class HeldBack:
    """An amount held back on the sheet, by the name of its :class:`HoldBack`."""

    name: str
    amount: Decimal


@dataclass(frozen=True)
class Share:
    """One entrant's money: the place (tied places share it), how many were tied there, the
    amount handed over, the part of the prize that came from the remainder
    (``RemainderTo.TOP``), and the part kept to settle an entry fee the entrant still owed
    (``settled``: the prize is ``amount + settled``)."""

    entry_id: EntryId
    place: int
    tied: int
    amount: Decimal
    from_remainder: Decimal = ZERO
    settled: Decimal = ZERO

    @property
    def prize(self) -> Decimal:
        """The place's prize, before an owed fee was settled from it."""
        return self.amount + self.settled


@dataclass(frozen=True)
class PayoutSheet:
    """The printable sheet: takings, held back, pot, each paid place, the shares, the remainder.

    ``place_amounts`` are each paid place's money before ties, rounded down to the coin (for
    display); ``shares`` are what is paid. ``remainder`` is the pot minus the shares before
    the remainder rule; it ends in ``carried_out``, ``to_club`` or the top shares
    (``Share.from_remainder``). ``settled`` is what was kept of unpaid entrants' prizes to
    settle their fees; it is in ``carried_out`` or ``to_club`` (``settled_to``), beside the
    remainder.
    """

    paid_entrants: int
    fees: Fees
    gross: Decimal
    carried_in: Decimal
    held_back: tuple[HeldBack, ...]
    pot: Decimal
    place_amounts: tuple[Decimal, ...]
    shares: tuple[Share, ...]
    remainder: Decimal
    carried_out: Decimal
    to_club: Decimal
    notes: tuple[str, ...] = field(default=())
    settled: Decimal = ZERO
    settled_to: RemainderTo = RemainderTo.CARRY

    @property
    def held_back_total(self) -> Decimal:
        """Everything held back from the takings."""
        return sum((h.amount for h in self.held_back), ZERO)

    @property
    def paid_total(self) -> Decimal:
        """Everything paid to the entrants."""
        return sum((s.amount for s in self.shares), ZERO)

    def check(self) -> None:
        """Raise unless every coin is accounted for and nothing is negative."""
        if (
            any(s.amount < 0 or s.settled < 0 for s in self.shares)
            or min(self.carried_out, self.to_club, self.remainder, self.pot, self.settled) < 0
        ):
            raise BooksError(BooksErrorCode.LEDGER_UNBALANCED, "a negative amount on the sheet")
        incoming = self.gross + self.carried_in
        outgoing = self.held_back_total + self.paid_total + self.carried_out + self.to_club
        if incoming != outgoing:
            raise BooksError(
                BooksErrorCode.LEDGER_UNBALANCED,
                f"the sheet does not balance: {incoming} in, {outgoing} out",
            )


def _integer_weights(shares: Sequence[Fraction]) -> tuple[list[int], int]:
    """The shares as integer parts of a common whole: ``([3, 2, 1], 6)`` for 1/2, 1/3, 1/6."""
    whole = 1
    for share in shares:
        whole = whole * share.denominator // gcd(whole, share.denominator)
    return [share.numerator * (whole // share.denominator) for share in shares], whole


def _common_units(amount: Decimal, coin: Decimal) -> tuple[int, int]:
    """``amount`` and ``coin`` as integers of the same small unit (cents for 0.01...)."""
    scale = -min(int(amount.as_tuple().exponent), int(coin.as_tuple().exponent), 0)
    return int(amount.scaleb(scale)), int(coin.scaleb(scale))


def tie_groups(places: Sequence[tuple[EntryId, int]]) -> list[tuple[int, list[EntryId]]]:
    """Check final places and group them: ``[(place, [entry ids tied there]), ...]``.

    Places are the standard competition ranking ("1224"): the first is 1, and a place held by
    m entrants is followed by the place m further on (1, 2, 3, 3, 5). Anything else (a gap, a
    repeated entry, a place 0) is refused: the sheet would not know whose places are whose.
    """
    ids = [entry for entry, _ in places]
    if len(set(ids)) != len(ids):
        raise BooksError(BooksErrorCode.BAD_PLACES, "an entry has two places")
    groups: list[tuple[int, list[EntryId]]] = []
    expected = 1
    for entry, place in sorted(places, key=itemgetter(1)):
        if groups and place == groups[-1][0]:
            groups[-1][1].append(entry)
            continue
        if groups:
            expected = groups[-1][0] + len(groups[-1][1])
        if isinstance(place, bool) or not isinstance(place, int) or place != expected:
            raise BooksError(
                BooksErrorCode.BAD_PLACES,
                f"place {place} where place {expected} was due (places run 1, 2, 3, 3, 5, ...)",
            )
        groups.append((place, [entry]))
    return groups


def compute_payouts(
    places: Sequence[tuple[EntryId, int]],
    paid_entrants: int,
    fees: Fees,
    table: PayoutTable | None = None,
    carried_in: Decimal = ZERO,
    *,
    takings: Decimal | None = None,
    owed: Mapping[Any, Decimal] | None = None,  # entry id -> owed (Mapping keys are invariant)
) -> PayoutSheet:
    """The payout sheet of an event from its final places (after the playoff, where there is one).

    ``places`` are ``(entry id, place)`` with ties as equal places (1, 2, 3, 3, 5);
    ``paid_entrants`` is how many paid the entry fee (waived entrants play, but pay nothing in
    and do not count for the table's row); ``carried_in`` is a remainder carried from the last
    event's pot. ``takings`` is the money actually taken at the door (part payments and all);
    without it, every paid entrant is taken to have paid the fee. ``owed`` maps an entrant who
    never paid to the fee they owe: their prize settles it first (``Share.settled``), and what
    it settles goes where the remainder goes (carried, or to the club). Raises
    :class:`BooksError` on bad places, fees or table.
    """
    if isinstance(paid_entrants, bool) or not isinstance(paid_entrants, int) or paid_entrants < 0:
        raise BooksError(BooksErrorCode.BAD_FEE, "the number of paid entrants is 0 or more")
    table = table or PayoutTable()
    carried_in = money(carried_in)
    if carried_in < 0:
        raise BooksError(BooksErrorCode.BAD_AMOUNT, "a carried-in amount cannot be negative")
    groups = tie_groups(places)
    coin = fees.coin
    gross = fees.entry * paid_entrants if takings is None else money(takings)
    if gross < 0:
        raise BooksError(BooksErrorCode.BAD_AMOUNT, "the takings cannot be negative")
    debts = {entry: money(amount) for entry, amount in (owed or {}).items()}
    if any(amount < 0 for amount in debts.values()):
        raise BooksError(BooksErrorCode.BAD_AMOUNT, "an amount owed cannot be negative")

    held: list[HeldBack] = []
    for hold in fees.hold_backs:
        wanted = hold.per_entrant * paid_entrants + gross * hold.percent / HUNDRED
        # Owed to the cent, not to the coin: the part below a coin is not the players'.
        held.append(HeldBack(hold.name, wanted.quantize(CENT, rounding=ROUND_HALF_UP)))
    held_total = sum((h.amount for h in held), ZERO)
    if held_total > gross:
        raise BooksError(
            BooksErrorCode.HELD_BACK_EXCEEDS_TAKINGS,
            f"{held_total} held back is more than the {gross} taken",
        )
    pot = gross - held_total + carried_in

    weights, parts = _integer_weights(table.shares_for(paid_entrants))
    pot_units, coin_units = _common_units(pot, coin)

    def whole_coins(weight: int, ways: int = 1) -> Decimal:
        # floor(pot * weight / parts / ways / coin) coins, in integers: exact and fast.
        return coin * ((pot_units * weight) // (parts * ways * coin_units))

    place_amounts = tuple(whole_coins(weight) for weight in weights)
    paid_places = len(weights)

    shares: list[Share] = []
    for place, members in groups:
        if place > paid_places:
            break
        occupied = sum(weights[place - 1 : place - 1 + len(members)])  # past the paid: nothing
        each = whole_coins(occupied, len(members))
        shares.extend(Share(entry, place, len(members), each) for entry in members)
    remainder = pot - sum((s.amount for s in shares), ZERO)

    carried_out = to_club = ZERO
    notes: list[str] = []
    finishers = sum(len(members) for _, members in groups)
    if finishers < paid_places:
        notes.append(
            f"{paid_places - finishers} paid place(s) had nobody in them: their money is in"
            " the remainder"
        )
    if fees.remainder_to is RemainderTo.CLUB:
        to_club = remainder
    elif fees.remainder_to is RemainderTo.TOP and shares and remainder > 0:
        top = [s for s in shares if s.place == 1]
        extra, carried_out = split_evenly(remainder, len(top), coin)
        if extra > 0:
            shares = [
                Share(s.entry_id, s.place, s.tied, s.amount + extra, extra) if s.place == 1 else s
                for s in shares
            ]
        if carried_out:
            notes.append("the part of the remainder the tied top places cannot share is carried")
    else:
        carried_out = remainder

    # An unpaid entrant's prize settles the fee they owe first; the fee joins the remainder.
    settled_total = ZERO
    if debts:
        settled_shares = []
        for s in shares:
            settled = min(s.amount, debts.get(s.entry_id, ZERO))
            settled_total += settled
            settled_shares.append(
                Share(s.entry_id, s.place, s.tied, s.amount - settled, s.from_remainder, settled)
                if settled
                else s
            )
        shares = settled_shares
    settled_to = RemainderTo.CLUB if fees.remainder_to is RemainderTo.CLUB else RemainderTo.CARRY
    if settled_total:
        if settled_to is RemainderTo.CLUB:
            to_club += settled_total
        else:
            carried_out += settled_total
        notes.append("an unpaid entrant's prize settles the fee owed first")

    sheet = PayoutSheet(
        paid_entrants=paid_entrants,
        fees=fees,
        gross=gross,
        carried_in=carried_in,
        held_back=tuple(held),
        pot=pot,
        place_amounts=place_amounts,
        shares=tuple(shares),
        remainder=remainder,
        carried_out=carried_out,
        to_club=to_club,
        notes=tuple(notes),
        settled=settled_total,
        settled_to=settled_to,
    )
    sheet.check()
    return sheet
