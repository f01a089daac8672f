"""A club's leagues: teams of its players meet in matches of several legs over a season."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.clubs import Club, Player
from tournaments.models.events import Event


class LegKind(models.TextChoices):
    """A leg is one game of cribbage: one player a side, or a pair a side."""

    SINGLES = "singles", _("Singles")
    DOUBLES = "doubles", _("Doubles")

    @property
    def side_size(self) -> int:
        return 2 if self == LegKind.DOUBLES else 1


class Side(models.TextChoices):
    HOME = "home", _("Home")
    AWAY = "away", _("Away")


class League(models.Model):
    """A club's league over one season: its match format and its table's points.

    ``leg_kinds`` lists a match's legs in playing order (``["doubles", "doubles", "singles"]``);
    ``legs_per_player`` is how many legs of one match a player may play (1, the usual
    club rule: every leg is played by different players; 0 for no limit, as in a partners'
    league where a pair plays all five legs at its table).
    """

    class WinOn(models.TextChoices):
        LEGS = "legs", _("Legs won")
        POINTS = "points", _("Game points")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="leagues", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=120)
    season_start = models.DateField(_("season starts"))
    season_end = models.DateField(_("season ends"))
    leg_kinds = models.JSONField(_("legs of a match"), default=list)
    win_on = models.CharField(_("match won on"), max_length=10, choices=WinOn, default=WinOn.LEGS)
    points_win = models.PositiveSmallIntegerField(_("points for a win"), default=2)
    points_draw = models.PositiveSmallIntegerField(_("points for a draw"), default=1)
    points_loss = models.PositiveSmallIntegerField(_("points for a loss"), default=0)
    target = models.PositiveSmallIntegerField(
        _("game to"), choices=Event.Target, default=Event.Target.FULL
    )
    legs_per_player = models.PositiveSmallIntegerField(
        _("legs per player in a match"),
        default=1,
        help_text=_("0: no limit (a pair may play every leg at its table)."),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        ordering = ["-season_start", "name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "name", "season_start"], name="one_league_name_per_club_season"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def legs(self) -> list[LegKind]:
        return [LegKind(kind) for kind in self.leg_kinds]

    @property
    def players_needed(self) -> int:
        """How many players a team needs to play every leg of a match: a doubles leg takes
        two, and each plays at most ``legs_per_player`` legs of a match (0: no limit)."""
        legs = self.legs
        side = max((leg.side_size for leg in legs), default=1)
        if not self.legs_per_player:
            return side
        seats = sum(leg.side_size for leg in legs)
        return max(side, -(-seats // self.legs_per_player))  # rounded up


class LeagueTeam(models.Model):
    """A team of the league: a name and its players (the club's players)."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="teams", verbose_name=_("league")
    )
    name = models.CharField(_("name"), max_length=80)
    players = models.ManyToManyField(
        Player, related_name="league_teams", verbose_name=_("players"), blank=True
    )

    class Meta:
        ordering = ["league", "name"]
        verbose_name = _("league team")
        verbose_name_plural = _("league teams")
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="one_team_name_per_league")
        ]

    def __str__(self) -> str:
        return self.name


class LeagueMatch(models.Model):
    """A fixture: the home team meets the away team in one round of the season."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        IN_PLAY = "in_play", _("In play")
        PLAYED = "played", _("Played")

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="matches", verbose_name=_("league")
    )
    round = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)
    home = models.ForeignKey(
        LeagueTeam, on_delete=models.CASCADE, related_name="home_matches", verbose_name=_("home")
    )
    away = models.ForeignKey(
        LeagueTeam, on_delete=models.CASCADE, related_name="away_matches", verbose_name=_("away")
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.SCHEDULED)

    class Meta:
        ordering = ["league", "round", "pk"]
        verbose_name = _("league match")
        verbose_name_plural = _("league matches")
        constraints = [
            models.UniqueConstraint(
                fields=["league", "round", "home"], name="one_home_match_per_round"
            ),
            models.UniqueConstraint(
                fields=["league", "round", "away"], name="one_away_match_per_round"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.home} v {self.away}"

    @property
    def is_played(self) -> bool:
        return self.status == self.Status.PLAYED


class Leg(models.Model):
    """One leg (table) of a match, once played: its players, the winning side and the
    loser's score (the winner scored the league's target)."""

    match = models.ForeignKey(
        LeagueMatch, on_delete=models.CASCADE, related_name="legs", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(_("leg"))
    kind = models.CharField(_("kind"), max_length=10, choices=LegKind)
    home_first = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("home player")
    )
    home_second = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("home partner"),
    )
    away_first = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="+", verbose_name=_("away player")
    )
    away_second = models.ForeignKey(
        Player,
        on_delete=models.PROTECT,
        related_name="+",
        null=True,
        blank=True,
        verbose_name=_("away partner"),
    )
    winner = models.CharField(_("winner"), max_length=4, choices=Side)
    loser_score = models.PositiveSmallIntegerField(_("loser's score"))
    spread = models.PositiveSmallIntegerField(_("spread"))
    skunk_level = models.PositiveSmallIntegerField(_("skunk"), default=0)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("entered by"),
    )
    entered_at = models.DateTimeField(_("entered at"), default=timezone.now)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("leg")
        verbose_name_plural = _("legs")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_leg_number_per_match")
        ]

    def __str__(self) -> str:
        return f"{self.match}: leg {self.number}"

    @property
    def winner_team(self):
        """The team that won the leg."""
        return self.match.home if self.winner == Side.HOME else self.match.away

    def players(self, side: str) -> list[Player]:
        first, second = (
            (self.home_first, self.home_second)
            if side == Side.HOME
            else (self.away_first, self.away_second)
        )
        return [p for p in (first, second) if p is not None]

    def score(self, side: str, target: int) -> int:
        """The game points ``side`` scored: the target for the winner, else the loser's."""
        return target if self.winner == side else self.loser_score


class LeagueAuditEntry(models.Model):
    """Who changed what in a league, when, from what to what (a leg, the teams, fixtures).

    A league is not an event, so its log is its own (the events' log is chained per event);
    values name the players, so the log reads the same after a rename.
    """

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="audit", verbose_name=_("league")
    )
    match = models.ForeignKey(
        LeagueMatch,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
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
    at = models.DateTimeField(_("when"), default=timezone.now)

    class Meta:
        ordering = ["league", "-at", "-pk"]
        verbose_name = _("league audit entry")
        verbose_name_plural = _("league audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"
