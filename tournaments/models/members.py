"""A club's members by season, and the format of an ACC member number.

The ACC guest rule (issue 27; ``docs/rules/acc-mrp.md``): a guest may play a number of nights
the club sets (4 by default) or until a qualifying card (a night of the club's game points, 12
by default), then must join. Who is a member on a date is read from these rows
(``tournaments.selectors_members``); a club that keeps no roll at all in Pegboard falls back
on the player's own status, as before the roll existed.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from .clubs import Club, Player

# The one format of an ACC member number, also what the roster import recognises after a name:
# up to three letters, a dash, then a digit first, no spaces ("Whitfield, Ann" is a name).
ACC_NUMBER = re.compile(r"^[A-Za-z]{0,3}-?\d[\w-]{0,19}$")
BAD_ACC_NUMBER_CODE = "bad_acc_number"


def validate_acc_number(value: str) -> None:
    """Refuse an ACC member number that is not in the ACC's format (a blank one is fine)."""
    if value and not ACC_NUMBER.match(value):
        raise ValidationError(
            _("%(value)s is not an ACC member number (digits, optionally after a letter prefix)."),
            code=BAD_ACC_NUMBER_CODE,
            params={"value": value},
        )


class Membership(models.Model):
    """A player's membership of a club for one season (the dates the dues cover)."""

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="memberships"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="memberships"
    )
    season_start = models.DateField(_("season starts"))
    season_end = models.DateField(_("season ends"))
    acc_number = models.CharField(
        _("ACC member number"), max_length=20, validators=[validate_acc_number]
    )
    dues_paid = models.DecimalField(_("dues paid"), max_digits=8, decimal_places=2, default=0)
    paid_on = models.DateField(_("paid on"), null=True, blank=True)
    member_since = models.DateField(_("member since"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["club", "-season_start", "player__name"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player", "season_start"], name="one_membership_per_season"
            ),
            models.CheckConstraint(
                condition=models.Q(season_end__gte=models.F("season_start")),
                name="membership_ends_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(dues_paid__gte=0), name="membership_dues_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ({self.club}, {self.season_start:%Y}-{self.season_end:%y})"
