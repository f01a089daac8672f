"""The club's season books: each closed night of a season (``scoring.models.Season``: its
dates) with its takings, payouts, held back, to the club and carried over, and the totals.

Read from the stored night ledgers, so a night counts once it is closed (a night still open
is not in the books yet; the page says how many). Money is ``Decimal`` throughout.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Exists, OuterRef, Q, QuerySet, Sum
from django.http import Http404
from django.utils.translation import gettext as _

from books.pools import LedgerItem
from scoring.models import Season
from tournaments.models import Club, Event

from .models import ZERO, NightLedger, Payment
from .selectors import club_money

CENT = Decimal("0.01")


@dataclass(frozen=True)
class SeasonNight:
    """One closed night of the season's books. ``held_back`` is what was kept for the ACC
    (or the club's named fund) and ``to_club`` what went to the club: apart here, where the
    stored ledger adds them together."""

    event_id: int
    date: object
    name: str
    currency: str
    takings: Decimal
    carried_in: Decimal
    payouts: Decimal
    held_back: Decimal
    to_club: Decimal
    carried_out: Decimal

    @property
    def balance(self) -> Decimal:
        """Takings + carried in - payouts - held back - to the club - carried over: zero."""
        return (
            self.takings
            + self.carried_in
            - self.payouts
            - self.held_back
            - self.to_club
            - self.carried_out
        )


@dataclass(frozen=True)
class SeasonBooks:
    """A season's closed nights in date order and their totals. The carried balances are
    not added up night after night (each night's carried-in is the last one's carried-out):
    the season opens with the first night's carried-in and ends with the last one's
    carried-out."""

    season: Season
    currency: str
    nights: list[SeasonNight]
    open_nights: int  # events in the season's dates whose books are not closed yet
    # What their doors took so far: money not in the books until those nights close.
    open_takings: Decimal = ZERO

    def _total(self, name: str) -> Decimal:
        return sum((getattr(night, name) for night in self.nights), ZERO).quantize(CENT)

    @property
    def takings(self) -> Decimal:
        return self._total("takings")

    @property
    def payouts(self) -> Decimal:
        return self._total("payouts")

    @property
    def held_back(self) -> Decimal:
        return self._total("held_back")

    @property
    def to_club(self) -> Decimal:
        return self._total("to_club")

    @property
    def opened_with(self) -> Decimal:
        return self.nights[0].carried_in if self.nights else ZERO.quantize(CENT)

    @property
    def closed_with(self) -> Decimal:
        return self.nights[-1].carried_out if self.nights else ZERO.quantize(CENT)


def club_seasons(club: Club) -> QuerySet[Season]:
    """The club's seasons, newest first."""
    return Season.objects.filter(club=club).order_by("-start")


def club_season(club: Club, season_id: int) -> Season:
    """One of the club's seasons; 404 for another club's (never a hint that it exists)."""
    season = Season.objects.filter(club=club, pk=season_id).select_related("club").first()
    if season is None:
        raise Http404("No such season.")
    return season


def season_books(season: Season) -> SeasonBooks:
    """The season's closed nights (by the event's date, then closing order) and totals."""
    ledgers = (
        NightLedger.objects.filter(
            club=season.club, event__date__gte=season.start, event__date__lte=season.end
        )
        .select_related("event")
        .annotate(to_club=Sum("lines__amount", filter=Q(lines__item=LedgerItem.TO_CLUB.value)))
        .order_by("event__date", "closed_at", "pk")
    )
    nights = []
    for ledger in ledgers:
        to_club = (ledger.to_club or ZERO).quantize(CENT)
        nights.append(
            SeasonNight(
                event_id=ledger.event_id,
                date=ledger.event.date,
                name=ledger.event.name,
                currency=ledger.currency,
                takings=ledger.takings,
                carried_in=ledger.carried_in,
                payouts=ledger.payouts,
                held_back=ledger.held_back - to_club,
                to_club=to_club,
                carried_out=ledger.carried_out,
            )
        )
    # A night is open when it has no ledger and either ran (not a draft, not cancelled) or
    # took money at its door (a draft or a cancelled event that took fees is still money).
    took_money = Payment.objects.filter(
        event=OuterRef("pk"), status=Payment.Status.PAID, amount__gt=0
    )
    open_events = (
        Event.objects.filter(club=season.club, date__gte=season.start, date__lte=season.end)
        .exclude(ledger__isnull=False)
        .filter(~Q(status__in=[Event.Status.DRAFT, Event.Status.CANCELLED]) | Exists(took_money))
    )
    open_takings = (
        Payment.objects.filter(event__in=open_events, status=Payment.Status.PAID).aggregate(
            s=Sum("amount")
        )["s"]
        or ZERO
    )
    return SeasonBooks(
        season,
        club_money(season.club).currency,
        nights,
        open_events.count(),
        open_takings.quantize(CENT),
    )


def _headers() -> list[str]:
    return [
        _("Date"),
        _("Event"),
        _("Currency"),
        _("Takings"),
        _("Carried in"),
        _("Payouts"),
        _("Held back"),
        _("To the club"),
        _("Carried over"),
    ]


def _safe(text: str) -> str:
    """A cell a spreadsheet will not run as a formula (=, +, -, @ at the start)."""
    return "'" + text if re.match(r"^[=+\-@\t\r]", text) else text


def season_csv(books: SeasonBooks) -> str:
    """The season books as CSV: a row per closed night, then the totals. Amounts are plain
    decimals ("198.00"), the currency in its own column."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(_headers())
    for night in books.nights:
        writer.writerow(
            [
                night.date.isoformat(),  # type: ignore[attr-defined]
                _safe(night.name),
                _safe(night.currency),
                night.takings,
                night.carried_in,
                night.payouts,
                night.held_back,
                night.to_club,
                night.carried_out,
            ]
        )
    writer.writerow(
        [
            "",
            _("Totals"),
            _safe(books.currency),
            books.takings,
            books.opened_with,
            books.payouts,
            books.held_back,
            books.to_club,
            books.closed_with,
        ]
    )
    return out.getvalue()
