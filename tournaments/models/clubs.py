"""The club and its people: clubs, players, and the match-point formats a club scores by."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .. import kinds, names


class Club(models.Model):
    """A cribbage club: the tenant every event, player list and TD belongs to."""

    class AtTime(models.TextChoices):
        """What the club does with a game not finished when the round clock runs out."""

        FINISH_HAND = "finish_hand", _("Finish the hand in play; the player ahead wins")
        LOWER_COUNT = "lower_count", _("Play on to a lower count; the first to reach it wins")
        TD_DECIDES = "td_decides", _("The tournament director decides each game")
        LOSS_FOR_BOTH = "loss_for_both", _("The game counts as a loss for both players")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=60, unique=True)
    city = models.CharField(_("city"), max_length=120, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("tournament directors"),
        related_name="directed_clubs",
        blank=True,
    )
    # What the new-event form starts from; the TD can change both per event.
    default_match_point_format = models.ForeignKey(
        "MatchPointFormat",
        verbose_name=_("default match-point format"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    default_chains = models.JSONField(
        _("default ranking chains"),
        default=dict,
        blank=True,
        help_text=_(
            "Per game, the tiebreaker keys in order for new events; a game left out ranks "
            "by its own chain."
        ),
    )
    # The ACC guest rule (issue 27): a guest plays this many nights, or until a night of this
    # many game points (a qualifying card), then must join.
    guest_nights_allowed = models.PositiveSmallIntegerField(_("nights a guest may play"), default=4)
    qualifying_card_points = models.PositiveSmallIntegerField(
        _("game points of a qualifying card"), default=12
    )
    # The round clock (issue 28): the ACC says a game should take about 15 minutes.
    game_minutes = models.PositiveSmallIntegerField(_("minutes per game"), default=15)
    at_time = models.CharField(
        _("a game not finished in time"),
        max_length=20,
        choices=AtTime,
        default=AtTime.FINISH_HAND,
    )

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name

    def default_chain(self, game: str) -> tuple[str, ...]:
        """The chain new events of ``game`` start from: the club's, or the game's own."""
        return tuple((self.default_chains or {}).get(game) or kinds.get(game).default_chain)


class PlayerQuerySet(models.QuerySet):
    """Players; ``bulk_create`` keeps each player's folded name in step, as ``save`` does."""

    def bulk_create(self, objs, *args, **kwargs):
        objs = list(objs)
        for player in objs:
            player.name_folded = names.fold(player.name)
        return super().bulk_create(objs, *args, **kwargs)


class Player(models.Model):
    """A person who plays; an ACC member number is optional (visitors and guests have none).

    ``name_folded`` is the name as it is searched and sorted (``names.fold``: accents, case
    and spacing aside), kept in step by ``save`` and ``bulk_create``: "zoe" finds Zoë and
    "Łucja" sorts among the L by an index, on SQLite and PostgreSQL alike.
    """

    class Status(models.TextChoices):
        MEMBER = "member", _("Member")
        VISITOR = "visitor", _("Visitor")
        GUEST = "guest", _("Guest")

    name = models.CharField(_("name"), max_length=120)
    name_folded = models.CharField(
        _("name for searching"), max_length=names.FOLDED_MAX, editable=False, db_index=True
    )
    acc_number = models.CharField(_("ACC member number"), max_length=20, blank=True)
    home_club = models.ForeignKey(
        Club,
        verbose_name=_("home club"),
        on_delete=models.PROTECT,
        related_name="players",
        null=True,
        blank=True,
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.MEMBER)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["acc_number"],
                condition=~models.Q(acc_number=""),
                name="unique_acc_number_when_given",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args, **kwargs):
        """Save, the folded name with the name (also when only ``name`` is updated)."""
        self.name_folded = names.fold(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields and "name_folded" not in fields:
            kwargs["update_fields"] = [*fields, "name_folded"]
        super().save(*args, **kwargs)


# The built-in formats' names in the reader's language (their rows hold the English name,
# written by migration 0002): by code, so a club's own format keeps the name it was given.
BUILTIN_FORMAT_NAMES = {
    "acc": _("ACC tournament rules (2 / 3)"),
    "long-match": _("Long match (3 / 4)"),
    "free-play": _("Free play (1 / 2 / 3)"),
    "free-play-triple": _("Free play with triple skunk (1 / 2 / 4 / match)"),
}


class MatchPointFormat(models.Model):
    """How many game points a win is worth, by skunk level; plus forfeit and bye values.

    Four formats are built in (ACC 2/3, long match 3/4, free play 1/2/3, free play with a
    triple skunk 1/2/4 that wins the match); a club can add its own.
    """

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=100)
    club = models.ForeignKey(
        "Club",
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
        return self.display_name

    def save(self, *args, **kwargs):
        if self.pk is not None:
            stored = type(self).objects.filter(pk=self.pk).first()
            if stored is not None and stored.locked and self._points() != stored._points():
                from django.core.exceptions import ValidationError

                raise ValidationError(
                    _("A finished event was scored with this format: copy it to change it.")
                )
        super().save(*args, **kwargs)

    @property
    def display_name(self) -> str:
        """The name to show: a built-in format's in the active language, a club's as given."""
        if self.builtin and self.code in BUILTIN_FORMAT_NAMES:
            return str(BUILTIN_FORMAT_NAMES[self.code])
        return self.name

    @property
    def locked(self) -> bool:
        """A format a finished event was scored with never changes (copy it instead)."""
        from .events import Event  # events.py imports this module

        return self.pk is not None and self.event_set.filter(status=Event.Status.FINISHED).exists()

    def _points(self) -> tuple:
        return (
            self.win,
            self.skunk,
            self.double_skunk,
            self.triple_skunk,
            self.triple_skunk_wins_match,
            self.forfeit_points,
            self.forfeit_spread,
            self.bye_points,
            self.bye_spread,
        )

    @property
    def summary(self) -> str:
        """Short display: ``2 / 3 / 3 / 3``."""
        return f"{self.win} / {self.skunk} / {self.double_skunk} / {self.triple_skunk}"
