"""Scoring data: match-point formats (formats are data) and the computed standings table."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class MatchPointFormat(models.Model):
    """How many game points a win is worth, by skunk level; plus forfeit and bye values.

    Four formats are built in (spec/cribbage.md "Match points"); a club can add its own.
    """

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=100)
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        help_text=_("Empty for the built-in formats every club can use."),
    )
    win = models.PositiveSmallIntegerField(_("win"))
    skunk = models.PositiveSmallIntegerField(_("skunk win"))
    double_skunk = models.PositiveSmallIntegerField(_("double skunk win"))
    triple_skunk = models.PositiveSmallIntegerField(_("triple skunk win"))
    triple_skunk_wins_match = models.BooleanField(
        _("triple skunk wins the whole match"), default=False
    )
    forfeit_points = models.PositiveSmallIntegerField(_("forfeit win points"), default=2)
    forfeit_spread = models.PositiveSmallIntegerField(_("forfeit win spread"), default=10)
    bye_points = models.PositiveSmallIntegerField(_("bye points"), default=2)
    bye_spread = models.PositiveSmallIntegerField(_("bye spread"), default=10)
    builtin = models.BooleanField(_("built in"), default=False, editable=False)

    class Meta:
        ordering = ["name"]
        verbose_name = _("match-point format")
        verbose_name_plural = _("match-point formats")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(skunk__gte=models.F("win"))
                & models.Q(double_skunk__gte=models.F("skunk"))
                & models.Q(triple_skunk__gte=models.F("double_skunk")),
                name="format_points_never_fall_with_skunk",
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def summary(self) -> str:
        """Short display: ``2 / 3 / 3 / 3``."""
        return f"{self.win} / {self.skunk} / {self.double_skunk} / {self.triple_skunk}"


class Standing(models.Model):
    """One entry's line in an event's standings, written only by the standings job."""

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("event"),
    )
    entry = models.OneToOneField(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="standing",
        verbose_name=_("entry"),
    )
    rank = models.PositiveIntegerField(_("rank"))
    tied = models.BooleanField(_("tied"), default=False)
    game_points = models.IntegerField(_("game points"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    games_won = models.PositiveIntegerField(_("games won"), default=0)
    games_lost = models.PositiveIntegerField(_("games lost"), default=0)
    spread = models.IntegerField(_("net spread"), default=0)
    skunks_won = models.PositiveIntegerField(_("skunks won"), default=0)
    skunks_suffered = models.PositiveIntegerField(_("skunks suffered"), default=0)
    byes = models.PositiveIntegerField(_("byes"), default=0)
    after_game = models.PositiveIntegerField(_("after game"), default=0)
    separated_by = models.CharField(
        _("separated by"),
        max_length=30,
        blank=True,
        help_text=_("The tiebreaker that put this row below the one above."),
    )
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["event", "rank", "entry__player__name"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        indexes = [models.Index(fields=["event", "rank"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry}"

    @property
    def explanation(self) -> str:
        """Why this row is where it is, when game points alone do not say it ('' otherwise)."""
        from django.utils.translation import gettext

        from .tiebreakers import describe

        if self.tied:
            return gettext("Tied on every tiebreaker of the chain.")
        if self.separated_by and self.separated_by != "game_points":
            return gettext("Placed below the row above on %(name)s.") % {
                "name": describe(self.separated_by)
            }
        return ""
