"""The audit log: who changed what in an event, when, from what to what, and why."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .events import Event
from .games import Table


class AuditEntry(models.Model):
    """Who changed what, when, from what to what, and why.

    Every change of a recorded result writes one (``tournaments.services.record_result``);
    the results app adds the steps before a result (submitted, disputed). Values name the
    players (``{"winner": "Ann Whitfield", "loser": "Bob Ng", "loser_score": 95, ...}``), so
    the log reads the same after an entry is merged or renamed.

    Rows are written only through ``tournaments.audit_chain.append_audit``, which chains
    them (``digest``) so that a row changed behind the application's back is detected.
    """

    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="audit", verbose_name=_("event")
    )
    table = models.ForeignKey(
        Table,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("user"),
    )
    actor = models.CharField(_("who"), max_length=150)
    action = models.CharField(_("action"), max_length=40)
    old = models.JSONField(_("old value"), null=True, blank=True)
    new = models.JSONField(_("new value"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    # Set when the row is made (not on save): the chain's digest covers it before the INSERT.
    at = models.DateTimeField(_("when"), default=timezone.now)
    # The hash chain (tournaments.audit_chain): hex SHA-256 of the previous entry of the
    # event ("" for the first) and of this entry's content with it.
    previous_digest = models.CharField(_("previous digest"), max_length=64, blank=True)
    # The table's and the user's ids as written, which the digest covers: the foreign keys
    # above become NULL when a table is drawn again (after its results were undone) or a
    # user deleted, and the chain must not break for that.
    written_table_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    written_user_id = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    digest = models.CharField(_("digest"), max_length=64, blank=True)

    class Meta:
        ordering = ["event", "-at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"
