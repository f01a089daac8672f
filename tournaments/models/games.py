"""The games of an event (rounds), their tables and results, and the pairs never seated together."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .events import Entry, Event


class Round(models.Model):
    """Game N of an event: the seating drawn for it, from a seed stored for reproduction.

    A draft seating is the TD's to check, swap and draw again; players see a game once it is
    released. A released game with results is never drawn again.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RELEASED = "released", _("Released")

    class Clock(models.TextChoices):
        """The game's clock. ``TIME`` is never stored: a running clock past its end reads
        as it (``tournaments.clock.clock_of``)."""

        OFF = "off", _("Not started")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")
        TIME = "time", pgettext_lazy("the game's clock ran out", "Time")
        STOPPED = "stopped", _("Stopped")

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("game number"))
    seed = models.BigIntegerField(_("seed"))
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.RELEASED)
    method = models.CharField(
        _("seated by"),
        max_length=20,
        blank=True,
        help_text=_("movement, draw, swiss, round_robin or hand"),
    )
    released_at = models.DateTimeField(_("released at"), null=True, blank=True)
    notes = models.JSONField(
        _("notes"), default=list, blank=True, help_text=_("What the draw had to compromise on.")
    )
    created_at = models.DateTimeField(_("drawn at"), auto_now_add=True)
    # The round clock (issue 28), set by tournaments.services.clock only. Running: it ends
    # at ``clock_ends_at``; paused: ``clock_left`` seconds remain. ``clock_minutes`` is the
    # time given, with the minutes the TD added.
    clock_state = models.CharField(
        _("clock"), max_length=10, choices=Clock, default=Clock.OFF, editable=False
    )
    clock_minutes = models.PositiveSmallIntegerField(
        _("minutes on the clock"), null=True, blank=True, editable=False
    )
    clock_started_at = models.DateTimeField(
        _("clock started at"), null=True, blank=True, editable=False
    )
    clock_ends_at = models.DateTimeField(_("clock ends at"), null=True, blank=True, editable=False)
    clock_left = models.PositiveIntegerField(
        _("seconds left on the paused clock"), null=True, blank=True, editable=False
    )
    # Bumped by database triggers on every write of the game's tables, results and Stoppa
    # seats (migration 0014), whoever writes them (services, raw SQL, the admin): the
    # standings job reads one row per game to see which snapshots changed.
    results_version = models.PositiveBigIntegerField(
        _("results version"), default=0, editable=False
    )

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="one_round_per_number")
        ]

    def __str__(self) -> str:
        return f"{self.event} - game {self.number}"

    @property
    def is_draft(self) -> bool:
        return self.status == self.Status.DRAFT


class Table(models.Model):
    """A table of a game: two seats, or a bye (one seat, no table number)."""

    round = models.ForeignKey(
        Round, verbose_name=_("game"), on_delete=models.CASCADE, related_name="tables"
    )
    number = models.PositiveSmallIntegerField(_("table"), null=True, blank=True)
    seat_a = models.ForeignKey(
        Entry, verbose_name=_("seat A"), on_delete=models.PROTECT, related_name="+"
    )
    seat_b = models.ForeignKey(
        Entry,
        verbose_name=_("seat B"),
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
    )
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["round", models.F("number").asc(nulls_last=True)]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="one_table_number_per_round"),
            models.UniqueConstraint(fields=["round", "seat_a"], name="seat_a_once_per_round"),
            models.UniqueConstraint(fields=["round", "seat_b"], name="seat_b_once_per_round"),
            models.CheckConstraint(
                condition=~models.Q(seat_a=models.F("seat_b")), name="no_player_against_self"
            ),
            models.CheckConstraint(
                condition=models.Q(seat_b__isnull=True, number__isnull=True)
                | models.Q(seat_b__isnull=False, number__isnull=False),
                name="bye_has_no_table_number",
            ),
        ]

    def __str__(self) -> str:
        if self.is_bye:
            return f"{self.round}: bye {self.seat_a}"
        return f"{self.round}: table {self.number}"

    @property
    def is_bye(self) -> bool:
        return self.seat_b_id is None

    def seats(self) -> list[Entry]:
        return [self.seat_a] if self.seat_b is None else [self.seat_a, self.seat_b]


class GameResult(models.Model):
    """The result of one table. Input is the winner and the loser's score (or a forfeit/bye);
    the game points, spread (margin) and skunk level are derived by the service, never typed."""

    class Kind(models.TextChoices):
        PLAYED = "played", _("Played")
        FORFEIT = "forfeit", _("Forfeit")
        BYE = "bye", _("Bye")

    table = models.OneToOneField(
        Table, verbose_name=_("table"), on_delete=models.CASCADE, related_name="result"
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind, default=Kind.PLAYED)
    winner = models.ForeignKey(
        Entry, verbose_name=_("winner"), on_delete=models.PROTECT, related_name="wins"
    )
    loser = models.ForeignKey(
        Entry,
        verbose_name=_("loser"),
        on_delete=models.PROTECT,
        related_name="losses",
        null=True,
        blank=True,
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    # Derived (tournaments.outcome), stored so standings are one SQL aggregate.
    winner_points = models.PositiveSmallIntegerField(_("winner's game points"), editable=False)
    loser_points = models.PositiveSmallIntegerField(
        _("loser's game points"), default=0, editable=False
    )
    margin = models.PositiveSmallIntegerField(_("spread"), editable=False)
    skunk_level = models.PositiveSmallIntegerField(_("skunk level"), default=0, editable=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now=True)

    class Meta:
        verbose_name = _("game result")
        verbose_name_plural = _("game results")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(margin__gte=1), name="result_margin_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(winner=models.F("loser")), name="result_winner_is_not_loser"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.winner} +{self.margin}"


class ForbiddenPair(models.Model):
    """Two entries of an event the TD never wants seated together (family, partners).

    Stored with the lower entry id first, so a pair is one row whichever way it was entered.
    """

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="forbidden_pairs"
    )
    entry_a = models.ForeignKey(
        Entry, verbose_name=_("player"), on_delete=models.CASCADE, related_name="+"
    )
    entry_b = models.ForeignKey(
        Entry, verbose_name=_("other player"), on_delete=models.CASCADE, related_name="+"
    )
    reason = models.CharField(_("reason"), max_length=120, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["event", "pk"]
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.UniqueConstraint(
                fields=["event", "entry_a", "entry_b"], name="one_forbidden_pair_row"
            ),
            models.CheckConstraint(
                condition=models.Q(entry_a__lt=models.F("entry_b")),
                name="forbidden_pair_ordered",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry_a} / {self.entry_b}"
