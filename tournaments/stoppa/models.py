"""Stoppa's seating: the tables of a session and each player's seat and chip net."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models.events import Entry
from tournaments.models.games import Round


class StoppaTable(models.Model):
    """A Stoppa table of one session (a :class:`Round`): 3 to 6 seats in playing order.

    A session is one full rotation of the deal around the table (each player deals once).
    Its result is every player's chip net, entered for the whole table at once (typed by the
    TD or summed from verified deal records) and always summing to zero. The players who sit a
    session out are kept on a table without a number, which never has a result.
    """

    class Source(models.TextChoices):
        NONE = "", _("No result yet")
        TABLE = "table", _("Entered by the table")
        DEALS = "deals", _("Verified deal records")

    round = models.ForeignKey(
        Round, verbose_name=_("session"), on_delete=models.CASCADE, related_name="stoppa_tables"
    )
    number = models.PositiveSmallIntegerField(
        _("table"), null=True, blank=True, help_text=_("Empty: the players sitting out.")
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    source = models.CharField(
        _("result from"), max_length=10, choices=Source, default=Source.NONE, blank=True
    )
    deals = models.JSONField(
        _("deal records"),
        default=list,
        blank=True,
        help_text=_("The verified deal records the nets were summed from."),
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), null=True, blank=True)

    class Meta:
        ordering = ["round", models.F("number").asc(nulls_last=True)]
        verbose_name = _("Stoppa table")
        verbose_name_plural = _("Stoppa tables")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="one_stoppa_table_number_per_round"
            ),
        ]

    def __str__(self) -> str:
        if self.number is None:
            return f"{self.round}: sitting out"
        return f"{self.round}: Stoppa table {self.number}"

    @property
    def sitting_out(self) -> bool:
        return self.number is None

    @property
    def has_result(self) -> bool:
        return self.entered_at is not None


class StoppaSeat(models.Model):
    """One player's seat at a Stoppa table, in playing order, and their chip net."""

    table = models.ForeignKey(
        StoppaTable, verbose_name=_("table"), on_delete=models.CASCADE, related_name="seats"
    )
    # Repeated from the table so one entry has one seat per session (a database constraint).
    round = models.ForeignKey(
        Round, verbose_name=_("session"), on_delete=models.CASCADE, related_name="+"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("player"), on_delete=models.PROTECT, related_name="stoppa_seats"
    )
    position = models.PositiveSmallIntegerField(
        _("seat"), help_text=_("1 deals first; the deal passes counter-clockwise.")
    )
    net = models.IntegerField(_("chip net"), null=True, blank=True)

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("Stoppa seat")
        verbose_name_plural = _("Stoppa seats")
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="one_stoppa_seat_position"),
            models.UniqueConstraint(fields=["round", "entry"], name="one_stoppa_seat_per_session"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.position}. {self.entry}"
