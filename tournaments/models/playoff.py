"""The playoff: an event's bracket, its matches and the games of each match."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Entry, Event, new_seed


class Bracket(models.Model):
    """The playoff of an event: its seeds (from the qualifying ranking or a random draw) and
    its options. The matches are written from the pure bracket (``tournaments.pairing``)
    rebuilt from the seeds and every game played so far, so advancement is never typed."""

    class Source(models.TextChoices):
        QUALIFYING = "qualifying", _("Cut from the qualifying ranking")
        DRAW = "draw", _("Random draw")

    event = models.OneToOneField(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="bracket"
    )
    source = models.CharField(_("seeded by"), max_length=12, choices=Source)
    seeds = models.JSONField(_("seeds"), default=list, help_text=_("Entry ids, seed 1 first."))
    entrants = models.PositiveIntegerField(_("entrants"), default=0)
    best_of = models.JSONField(
        _("best of"), default=list, help_text=_("Games per match, per round (the last repeats).")
    )
    side_best_of = models.PositiveSmallIntegerField(
        _("best of (side matches)"), null=True, blank=True
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    consolation = models.BooleanField(_("consolation bracket"), default=False)
    double_elimination = models.BooleanField(_("double elimination"), default=False)
    seed = models.BigIntegerField(_("seed"), default=new_seed)
    ranking_event = models.ForeignKey(
        Event,
        verbose_name=_("byes by the ranking of"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    places = models.JSONField(
        _("final places"), default=dict, blank=True, help_text=_("Entry id -> place.")
    )
    cut_lots = models.JSONField(
        _("draws of lots at the cut"),
        default=list,
        blank=True,
        help_text=_(
            "Groups the ranking chain left tied among the qualifiers, in the order the draw of "
            "lots put them: entry, lot drawn, qualified."
        ),
    )
    champion = models.ForeignKey(
        Entry,
        verbose_name=_("champion"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("playoff bracket")
        verbose_name_plural = _("playoff brackets")

    def __str__(self) -> str:
        return f"{self.event} - playoff"


class PlayoffMatch(models.Model):
    """One match of a bracket, as the pure bracket last left it (players, games won, winner)."""

    bracket = models.ForeignKey(
        Bracket, verbose_name=_("bracket"), on_delete=models.CASCADE, related_name="matches"
    )
    code = models.CharField(_("match"), max_length=12)
    position = models.PositiveSmallIntegerField(_("playing order"))
    section = models.CharField(_("section"), max_length=20)
    round = models.PositiveSmallIntegerField(_("round"))
    number = models.PositiveSmallIntegerField(_("number"))
    best_of = models.PositiveSmallIntegerField(_("best of"))
    seat_a = models.ForeignKey(
        Entry,
        verbose_name=_("seat A"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    seat_b = models.ForeignKey(
        Entry,
        verbose_name=_("seat B"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    seed_a = models.PositiveIntegerField(_("seed A"), null=True, blank=True)
    seed_b = models.PositiveIntegerField(_("seed B"), null=True, blank=True)
    empty_a = models.BooleanField(_("seat A empty (bye)"), default=False)
    empty_b = models.BooleanField(_("seat B empty (bye)"), default=False)
    wins_a = models.PositiveSmallIntegerField(_("games won by A"), default=0)
    wins_b = models.PositiveSmallIntegerField(_("games won by B"), default=0)
    winner = models.ForeignKey(
        Entry,
        verbose_name=_("winner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    decided = models.BooleanField(_("decided"), default=False)
    walkover = models.BooleanField(_("walkover"), default=False)
    winner_to = models.CharField(_("winner goes to"), max_length=16, blank=True)
    loser_to = models.CharField(_("loser goes to"), max_length=16, blank=True)

    class Meta:
        ordering = ["bracket", "position"]
        verbose_name = _("playoff match")
        verbose_name_plural = _("playoff matches")
        constraints = [
            models.UniqueConstraint(fields=["bracket", "code"], name="one_match_per_code")
        ]

    def __str__(self) -> str:
        return f"{self.bracket}: {self.code}"

    @property
    def ready(self) -> bool:
        return self.seat_a_id is not None and self.seat_b_id is not None and not self.decided

    @property
    def void(self) -> bool:
        return self.empty_a and self.empty_b

    @property
    def needed(self) -> int:
        return self.best_of // 2 + 1


class PlayoffGame(models.Model):
    """One game of a playoff match: who won it, the loser's score, or a forfeit (Rule 13.1).

    Playoff games do not change the qualifying standings.
    """

    match = models.ForeignKey(
        PlayoffMatch, verbose_name=_("match"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game"))
    winner = models.ForeignKey(
        Entry, verbose_name=_("winner"), on_delete=models.PROTECT, related_name="+"
    )
    loser_score = models.PositiveSmallIntegerField(_("loser's score"), null=True, blank=True)
    forfeit = models.BooleanField(_("forfeit"), default=False)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("entered by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    entered_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("playoff game")
        verbose_name_plural = _("playoff games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_playoff_game_number")
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"
