"""The club's money: its defaults, each event's fees and payments, the side pools that roll
over from night to night, and the closed night ledger.

The arithmetic is the pure ``books`` package; these rows are what it is fed and what it gave.
Every row is scoped by its club or event (the tenant), every amount a ``Decimal``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from books.payouts import RemainderTo
from books.pools import LedgerItem, PoolKind, ShareRule

MONEY: dict[str, Any] = {"max_digits": 12, "decimal_places": 2}
PERCENT: dict[str, Any] = {"max_digits": 5, "decimal_places": 2}
ZERO = Decimal(0)


class RemainderRule(models.TextChoices):
    """Where the coins that did not divide go (``books.payouts.RemainderTo``)."""

    CARRY = RemainderTo.CARRY.value, _("Carried to the next event's pot")
    TOP = RemainderTo.TOP.value, _("Added to the top place")
    CLUB = RemainderTo.CLUB.value, _("To the club")


class UnpaidRule(models.TextChoices):
    """What happens to a prize won by an entrant who never paid the entry fee (the club's rule).

    ``books.payouts.compute_payouts`` settles the debt from the prize (``owed``); the desk
    leaves a passed-down place out of the places it gives the sheet."""

    SETTLE = "settle", _("The prize settles the fee owed first")
    PASS_DOWN = "pass_down", _("The place passes down to the next who paid")
    DECIDE = "decide", _("The TD decides at the close")


class UnpaidChoice(models.TextChoices):
    """The TD's decision at the close for one unpaid place-finisher (``UnpaidRule.DECIDE``)."""

    SETTLE = UnpaidRule.SETTLE.value, _("Settle the fee from the prize")
    PASS_DOWN = UnpaidRule.PASS_DOWN.value, _("Pass the place down")


class ClubRole(models.TextChoices):
    """A club's money staff besides its TDs (``Club.directors``, who may do everything)."""

    # The club's books and nothing else: the money desk, the payout sheet, the ledger, the club
    # money page and the treasury API of the club; never the pairing or results pages.
    TREASURER = "treasurer", _("Treasurer")


class ClubStaff(models.Model):
    """A user's money role at a club (a TD needs none: directors open the money pages too)."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="staff", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=20, choices=ClubRole)

    class Meta:
        ordering = ["club", "role", "user"]
        verbose_name = _("club staff")
        verbose_name_plural = _("club staff")
        constraints = [
            models.UniqueConstraint(fields=["club", "user", "role"], name="one_role_per_club_user")
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"


class ClubMoney(models.Model):
    """A club's money defaults, and the main pot's balance carried to its next event."""

    club = models.OneToOneField(
        "tournaments.Club", on_delete=models.CASCADE, related_name="money", verbose_name=_("club")
    )
    currency = models.CharField(_("currency"), max_length=3, default="USD")
    coin = models.DecimalField(
        _("smallest coin"), default=Decimal(1), help_text=_("1, 0.25, 0.05..."), **MONEY
    )
    entry_fee = models.DecimalField(_("default entry fee"), default=ZERO, **MONEY)
    hold_back_name = models.CharField(_("held back for"), max_length=60, default="ACC")
    hold_back_per_entrant = models.DecimalField(
        _("held back per paid entrant"), default=ZERO, **MONEY
    )
    hold_back_percent = models.DecimalField(
        _("held back, percent of the takings"), default=ZERO, **PERCENT
    )
    remainder_to = models.CharField(
        _("remainder"), max_length=8, choices=RemainderRule, default=RemainderRule.CARRY
    )
    unpaid_rule = models.CharField(
        _("a prize won by a player who has not paid"),
        max_length=10,
        choices=UnpaidRule,
        default=UnpaidRule.SETTLE,
    )
    # The main pot's remainder carried out of the club's last closed night.
    main_balance = models.DecimalField(_("main pot carried"), default=ZERO, **MONEY)

    class Meta:
        verbose_name = _("club money settings")
        verbose_name_plural = _("club money settings")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(coin__gt=0, coin__lte=100)
                & models.Q(entry_fee__gte=0, entry_fee__lte=10000)
                & models.Q(hold_back_per_entrant__gte=0, hold_back_per_entrant__lte=10000)
                & models.Q(hold_back_percent__gte=0, hold_back_percent__lte=100)
                & models.Q(main_balance__gte=0),
                name="club_money_in_bounds",
            )
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.currency}"


class ClubAudit(models.Model):
    """A change of the club's money rules (settings, payout table, pools, staff): who, when,
    from what to what, and why. An event's own changes are in its ``AuditEntry`` chain; these
    belong to no event. Written only by ``treasury.club_services.audit_club_money``."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("user"),
    )
    actor = models.CharField(_("who"), max_length=150)
    action = models.CharField(_("action"), max_length=40)
    old = models.JSONField(_("old value"), null=True, blank=True)
    new = models.JSONField(_("new value"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["club", "-at", "-pk"]
        verbose_name = _("club money change")
        verbose_name_plural = _("club money changes")

    def __str__(self) -> str:
        return f"{self.club}: {self.action}"


class PercentsAreAList(models.Func):
    """True when a JSON column holds a non-empty array (of numbers or decimal text, on
    PostgreSQL): the database's own guard under ``treasury.payout_tables``, so that a row
    written behind the application's back (raw SQL) cannot hold an object, a string or
    nothing. SQLite allows no subquery in a CHECK, so there the elements go unchecked."""

    output_field = models.BooleanField()
    arity = 1
    # Pegboard runs on PostgreSQL and SQLite; another database gets the weakest guard.
    template = "(%(expressions)s IS NOT NULL)"

    def as_sqlite(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        template = (
            "(json_valid(%(expressions)s) AND json_type(%(expressions)s) = 'array' "
            "AND json_array_length(%(expressions)s) > 0)"
        )
        return self.as_sql(compiler, connection, template=template, **extra_context)

    def as_postgresql(self, compiler: Any, connection: Any, **extra_context: Any) -> Any:
        template = (
            "(jsonb_typeof(%(expressions)s) = 'array' AND jsonb_array_length(%(expressions)s) > 0"
            " AND NOT jsonb_path_exists(%(expressions)s,"
            ' \'$[*] ? (@.type() != "number" && @.type() != "string")\'))'
        )
        return self.as_sql(compiler, connection, template=template, **extra_context)


class PayoutTableRow(models.Model):
    """A row of a club's own payout table: from ``min_entrants`` paid entrants on, each paid
    place's percentage (they add up to 100). No rows: the built-in table (one in four).

    Written only by ``treasury.club_services.set_payout_table``, which checks the whole table
    (``treasury.payout_tables``); the database refuses a row that is not a non-empty list."""

    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        related_name="payout_rows",
        verbose_name=_("club"),
    )
    min_entrants = models.PositiveIntegerField(_("from paid entrants"))
    percents = models.JSONField(_("percent per place"), default=list)

    class Meta:
        ordering = ["club", "min_entrants"]
        verbose_name = _("payout table row")
        verbose_name_plural = _("payout table rows")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "min_entrants"], name="one_payout_row_per_size"
            ),
            models.CheckConstraint(
                condition=models.Q(min_entrants__gte=1), name="payout_row_from_one_entrant"
            ),
            models.CheckConstraint(
                condition=PercentsAreAList("percents"), name="payout_row_percents_a_list"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.min_entrants}+"


class SidePool(models.Model):
    """A club's side pool (a Q-pool, a 24/28/29 hand, four of a kind, a skunk pot) with its
    balance, carried from event to event until won."""

    class WinnerRule(models.TextChoices):
        """Who of the night's holders wins a hand pool when the TD names nobody."""

        ALL = "all", _("Every holder shares it")
        LAST = "last", _("The last holder of the night")

    class Kind(models.TextChoices):
        """The kinds of ``books.pools.PoolKind``, in words."""

        Q_POOL = PoolKind.Q_POOL.value, _("Q-pool")
        HAND_24 = PoolKind.HAND_24.value, _("24 hand")
        HAND_28 = PoolKind.HAND_28.value, _("28 hand")
        HAND_29 = PoolKind.HAND_29.value, _("29 hand")
        FOUR_OF_A_KIND = PoolKind.FOUR_OF_A_KIND.value, _("Four of a kind")
        SKUNK = PoolKind.SKUNK.value, _("Skunk pot")
        OTHER = PoolKind.OTHER.value, _("Other")

    class Share(models.TextChoices):
        """``books.pools.ShareRule`` in words."""

        EVEN = ShareRule.EVEN.value, _("Evenly")
        RATIO = ShareRule.RATIO.value, _("By ratios")

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="pools", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=60)
    kind = models.CharField(_("kind"), max_length=20, choices=Kind)
    fee = models.DecimalField(_("default fee"), default=Decimal(1), **MONEY)
    share = models.CharField(_("share rule"), max_length=8, choices=Share, default=Share.EVEN)
    ratios = models.JSONField(_("ratios"), default=list, blank=True)
    payout_percent = models.DecimalField(_("paid when won, percent"), default=100, **PERCENT)
    held_back_percent = models.DecimalField(_("kept by the club, percent"), default=0, **PERCENT)
    rolls_over = models.BooleanField(_("rolls over"), default=True)
    winner_rule = models.CharField(
        _("winners"), max_length=8, choices=WinnerRule, default=WinnerRule.ALL
    )
    active = models.BooleanField(_("active"), default=True)
    balance = models.DecimalField(_("balance carried"), default=ZERO, **MONEY)

    class Meta:
        ordering = ["club", "name"]
        verbose_name = _("side pool")
        verbose_name_plural = _("side pools")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="one_pool_per_name"),
            models.CheckConstraint(
                condition=models.Q(fee__gte=0, fee__lte=10000, balance__gte=0),
                name="side_pool_in_bounds",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class EventFees(models.Model):
    """An event's entry fee."""

    event = models.OneToOneField(
        "tournaments.Event", on_delete=models.CASCADE, related_name="fees", verbose_name=_("event")
    )
    entry_fee = models.DecimalField(_("entry fee"), default=ZERO, **MONEY)
    # The TD's decision for each unpaid place-finisher under ``UnpaidRule.DECIDE``, made at
    # the close: entry id (as text) -> ``UnpaidChoice``. Kept so the sheet reads the same after.
    unpaid_choices = models.JSONField(_("decisions on unpaid winners"), default=dict, blank=True)

    class Meta:
        verbose_name = _("event fees")
        verbose_name_plural = _("event fees")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(entry_fee__gte=0, entry_fee__lte=10000),
                name="event_fee_in_bounds",
            )
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.entry_fee}"


class EventPool(models.Model):
    """A side pool run at an event, with tonight's fee."""

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="event_pools",
        verbose_name=_("event"),
    )
    pool = models.ForeignKey(
        SidePool, on_delete=models.CASCADE, related_name="+", verbose_name=_("pool")
    )
    fee = models.DecimalField(_("fee"), **MONEY)

    class Meta:
        ordering = ["event", "pool__name"]
        verbose_name = _("pool of the event")
        verbose_name_plural = _("pools of the event")
        constraints = [
            models.UniqueConstraint(fields=["event", "pool"], name="one_event_pool_per_pool"),
            models.CheckConstraint(
                condition=models.Q(fee__gte=0, fee__lte=10000), name="event_pool_fee_in_bounds"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.pool}"


class Payment(models.Model):
    """An entry's entry fee at the door: paid, unpaid or waived; who marked it, when."""

    class Status(models.TextChoices):
        UNPAID = "unpaid", _("Unpaid")
        PAID = "paid", _("Paid")
        WAIVED = "waived", _("Waived")

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    entry = models.OneToOneField(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="payment",
        verbose_name=_("entry"),
    )
    status = models.CharField(_("status"), max_length=8, choices=Status, default=Status.UNPAID)
    amount = models.DecimalField(_("amount"), default=ZERO, **MONEY)
    # Why a payment is not the fee (a part payment, a discount, two nights at once), or why
    # it was waived or refunded: said at the door, shown on the desk and in the log.
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("marked by"),
    )
    at = models.DateTimeField(_("when"), auto_now=True)

    class Meta:
        verbose_name = _("payment")
        verbose_name_plural = _("payments")
        indexes = [models.Index(fields=["event", "status"])]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(amount__gte=0, amount__lte=10000), name="payment_in_bounds"
            ),
            # Money is taken only from who paid: unpaid and waived entries hold nothing.
            models.CheckConstraint(
                condition=models.Q(status="paid") | models.Q(amount=0),
                name="payment_only_paid_holds_money",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.status}"


class PoolEntry(models.Model):
    """An entry's stake in an event's pool (``count``: skunks, for a skunk pot)."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    pool = models.ForeignKey(
        SidePool, on_delete=models.CASCADE, related_name="+", verbose_name=_("pool")
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="+", verbose_name=_("entry")
    )
    count = models.PositiveSmallIntegerField(_("count"), default=1)

    class Meta:
        verbose_name = _("pool entry")
        verbose_name_plural = _("pool entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "pool", "entry"], name="one_stake_per_pool")
        ]

    def __str__(self) -> str:
        return f"{self.pool}: {self.entry} x{self.count}"


class PoolWin(models.Model):
    """A winner of an event's pool the TD named (a 29 hand held, a draw won), in order."""

    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    pool = models.ForeignKey(
        SidePool, on_delete=models.CASCADE, related_name="+", verbose_name=_("pool")
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="+", verbose_name=_("entry")
    )
    order = models.PositiveSmallIntegerField(_("order"), default=1)
    payout_percent = models.DecimalField(
        _("paid, percent"), null=True, blank=True, help_text=_("A 28 takes half..."), **PERCENT
    )

    class Meta:
        ordering = ["event", "pool", "order", "pk"]
        verbose_name = _("pool win")
        verbose_name_plural = _("pool wins")
        constraints = [
            models.UniqueConstraint(fields=["event", "pool", "entry"], name="one_win_per_pool")
        ]

    def __str__(self) -> str:
        return f"{self.pool}: {self.entry}"


class NightLedger(models.Model):
    """An event's closed books: the lines of ``books.pools.night_ledger``, balancing to zero.

    The event it closed can never be deleted (PROTECT): the money it moved stays in the books.
    """

    event = models.OneToOneField(
        "tournaments.Event",
        on_delete=models.PROTECT,
        related_name="ledger",
        verbose_name=_("event"),
    )
    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    closed_at = models.DateTimeField(_("closed at"), auto_now_add=True)
    closed_by = models.CharField(_("closed by"), max_length=150)
    currency = models.CharField(_("currency"), max_length=3)
    takings = models.DecimalField(_("takings"), **MONEY)
    carried_in = models.DecimalField(_("carried in"), **MONEY)
    payouts = models.DecimalField(_("payouts"), **MONEY)
    held_back = models.DecimalField(_("held back"), **MONEY)
    carried_out = models.DecimalField(_("carried out"), **MONEY)
    # The event's results version when the night was closed: a result changed since then
    # (a correction, an undo) moves the event's, and the payouts are to re-check. Compared on
    # read, so a player's report pays nothing for the books.
    results_version = models.PositiveIntegerField(_("results version at the close"), default=0)

    class Meta:
        ordering = ["club", "-closed_at", "-pk"]
        verbose_name = _("night ledger")
        verbose_name_plural = _("night ledgers")

    def __str__(self) -> str:
        return f"{self.event}: {self.closed_at:%Y-%m-%d}"

    @property
    def balance(self) -> Decimal:
        """Takings + carried in - payouts - held back - carried out: zero."""
        return self.takings + self.carried_in - self.payouts - self.held_back - self.carried_out


class LedgerLine(models.Model):
    """One line of a closed night ledger: which pot, what kind, how much, for whom."""

    class Item(models.TextChoices):
        """``books.pools.LedgerItem`` in words."""

        TAKINGS = LedgerItem.TAKINGS.value, _("Takings")
        CARRIED_IN = LedgerItem.CARRIED_IN.value, _("Carried in")
        PAYOUT = LedgerItem.PAYOUT.value, _("Payout")
        HELD_BACK = LedgerItem.HELD_BACK.value, _("Held back")
        TO_CLUB = LedgerItem.TO_CLUB.value, _("To the club")
        CARRIED_OUT = LedgerItem.CARRIED_OUT.value, _("Carried out")

    ledger = models.ForeignKey(
        NightLedger, on_delete=models.CASCADE, related_name="lines", verbose_name=_("ledger")
    )
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.PROTECT, related_name="+", verbose_name=_("event")
    )
    pool = models.ForeignKey(
        SidePool,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pool"),
    )
    pot = models.CharField(_("pot"), max_length=60)
    item = models.CharField(_("item"), max_length=12, choices=Item)
    amount = models.DecimalField(_("amount"), **MONEY)
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entry"),
    )
    name = models.CharField(_("name"), max_length=200, blank=True)  # the player, as written
    label = models.CharField(_("label"), max_length=100, blank=True)
    order = models.PositiveIntegerField(_("order"))

    class Meta:
        ordering = ["ledger", "order"]
        verbose_name = _("ledger line")
        verbose_name_plural = _("ledger lines")

    def __str__(self) -> str:
        return f"{self.pot} {self.item} {self.amount}"
