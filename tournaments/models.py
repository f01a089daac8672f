"""Clubs, players, events, entries, rounds (games of an event), tables and game results."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import kinds, names


def new_seed() -> int:
    """A fresh random seed, stored so every draw can be reproduced."""
    return secrets.randbelow(2**31)


class Club(models.Model):
    """A cribbage club: the tenant every event, player list and TD belongs to."""

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
        return self.pk is not None and self.event_set.filter(status="finished").exists()

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


class Event(models.Model):
    """One event of a club: a club night, a sanctioned tournament (qualifying, then the cut to
    a playoff), a consolation, a playoff-only or internet-style bracket, or a round robin."""

    class Kind(models.TextChoices):
        CLUB_NIGHT = "club_night", _("Club night")
        SANCTIONED = "sanctioned", _("Sanctioned tournament (qualifying and playoff)")
        CONSOLATION = "consolation", _("Consolation")
        PLAYOFF_ONLY = "playoff_only", _("Playoff only")
        INTERNET = "internet", _("Internet-style bracket")
        # Worded apart from the seating method of the same name (both sit on one form).
        ROUND_ROBIN = "round_robin", _("Round-robin event (no playoff)")

    class Pairing(models.TextChoices):
        QUALIFYING = "qualifying", _("Qualifying draw (table movement)")
        SWISS = "swiss", _("Swiss by standings")
        ROUND_ROBIN = "round_robin", _("Round robin: everyone plays everyone")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Target(models.IntegerChoices):
        FULL = 121, _("121 (full game)")
        SHORT = 61, _("61 (short game)")

    club = models.ForeignKey(
        Club, verbose_name=_("club"), on_delete=models.CASCADE, related_name="events"
    )
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    # One of the registered game kinds (tournaments.kinds): what seats, scores and ranks it.
    # The card game itself (Italian "gioco"), not one game of the event ("partita").
    game = models.CharField(
        pgettext_lazy("card game", "game"), max_length=20, choices=kinds.choices, default="cribbage"
    )
    kind = models.CharField(_("kind"), max_length=20, choices=Kind, default=Kind.CLUB_NIGHT)
    games_planned = models.PositiveSmallIntegerField(
        _("number of games"), default=9, help_text=_("Usually 9; between 4 and 22.")
    )
    target = models.PositiveSmallIntegerField(_("target"), choices=Target, default=Target.FULL)
    match_point_format = models.ForeignKey(
        MatchPointFormat, verbose_name=_("match-point format"), on_delete=models.PROTECT
    )
    muggins = models.BooleanField(_("muggins"), default=False)
    pairing = models.CharField(
        _("pairing method"), max_length=20, choices=Pairing, default=Pairing.QUALIFYING
    )
    meetings_per_opponent = models.PositiveSmallIntegerField(
        _("games per opponent"),
        choices=[(1, _("One game per opponent")), (2, _("Up to two games per opponent"))],
        default=1,
    )
    status = models.CharField(_("status"), max_length=10, choices=Status, default=Status.DRAFT)
    seed = models.BigIntegerField(
        _("seed"), default=new_seed, help_text=_("Makes every draw reproducible.")
    )
    standings_published = models.BooleanField(_("standings published"), default=True)
    counts_for_season = models.BooleanField(
        _("counts for the season"),
        default=True,
        help_text=_(
            "Off for a test or practice night: its games then earn no season points. A night "
            "counts only once it has finished."
        ),
    )

    class Confirmation(models.TextChoices):
        OWN_KEYS = (
            "own_keys",
            _(
                "Each player confirms with the key on their own score card "
                "(table cards show no keys)"
            ),
        )
        DESK_CHECK = (
            "desk_check",
            _(
                "Table cards carry both players' keys; the TD or a scorekeeper checks "
                "agreeing reports"
            ),
        )

    confirmation = models.CharField(
        _("how reports are confirmed"),
        max_length=12,
        choices=Confirmation,
        default=Confirmation.OWN_KEYS,
        help_text=_(
            "One person holding a table card with both keys could report for both players: "
            "either keep the keys on the players' own score cards, or check at the desk."
        ),
    )

    language = models.CharField(
        _("language of the public pages and printables"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_(
            "The projector and the printed cards use it; the public pages start in it, until a "
            "visitor picks another language. Empty: each visitor's own language."
        ),
    )

    class Entrants(models.TextChoices):
        PLAYED = "played", _("Players who played at least one game")
        CHECKED_IN = "checked_in", _("Players who played or are checked in")

    entrants = models.CharField(
        _("entrants"),
        max_length=12,
        choices=Entrants,
        default=Entrants.PLAYED,
        help_text=_(
            "Who is ranked and counts as an entrant for the cut; the other entries are "
            "listed apart as no-shows."
        ),
    )
    tiebreakers = models.JSONField(
        _("ranking chain"),
        default=list,
        blank=True,
        help_text=_(
            "Tiebreaker keys in order, e.g. game_points, games_won, spread, skunks_won, "
            "head_to_head, buchholz, median_buchholz, most_recent, draw; for Stoppa: chips, "
            "sessions_won, best_session. Empty: the game's own chain."
        ),
    )
    qualifiers = models.PositiveSmallIntegerField(
        _("qualifiers (cut size)"),
        null=True,
        blank=True,
        help_text=_(
            "How many players the cut to the playoff takes. Empty: one in four entrants, "
            "rounded up."
        ),
    )
    seed_by_rating = models.BooleanField(
        _("seed by club rating"),
        default=False,
        help_text=_(
            "Swiss: the first game's order, and players level in the standings, go by club "
            "rating. A drawn playoff is seeded by club rating instead of drawn at random."
        ),
    )
    # Counts every change the standings depend on (hooks.results_changed bumps it in the
    # writer's transaction), so the standings job can tell whether it is behind.
    results_version = models.PositiveBigIntegerField(
        _("results version"), default=0, editable=False
    )
    table_size = models.PositiveSmallIntegerField(
        _("players per table"),
        default=4,
        help_text=_("Stoppa: the largest table (3 to 6 players)."),
    )
    min_table_size = models.PositiveSmallIntegerField(
        _("fewest players per table"),
        default=3,
        help_text=_("Stoppa: smaller tables absorb a field that does not divide evenly."),
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games_planned__gte=1) & models.Q(games_planned__lte=40),
                name="event_games_planned_in_range",
            ),
            models.CheckConstraint(
                condition=models.Q(meetings_per_opponent__in=[1, 2]),
                name="event_meetings_one_or_two",
            ),
            models.CheckConstraint(
                condition=models.Q(min_table_size__gte=3)
                & models.Q(table_size__lte=6)
                & models.Q(min_table_size__lte=models.F("table_size")),
                name="event_stoppa_tables_3_to_6",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date:%Y-%m-%d})"

    @property
    def game_kind(self) -> kinds.GameKind:
        """What this event's game is: how it seats, scores and ranks (the registry's entry)."""
        return kinds.get(self.game)

    # Kinds of event that are a bracket from the start: no qualifying games are drawn.
    PLAYOFF_ONLY_KINDS = frozenset({Kind.PLAYOFF_ONLY, Kind.INTERNET})

    @property
    def playoff_only(self) -> bool:
        """Whether the event is a bracket from the start (no qualifying games to draw)."""
        return self.kind in self.PLAYOFF_ONLY_KINDS

    @property
    def ranking_chain(self) -> tuple[str, ...]:
        """The tiebreakers in force: the TD's chain, or the game kind's own."""
        return tuple(self.tiebreakers or self.game_kind.default_chain)

    def clean(self) -> None:
        from django.core.exceptions import ValidationError

        try:
            if self.tiebreakers:
                self.tiebreakers = list(self.game_kind.validate_chain(self.tiebreakers))
        except (TypeError, ValueError) as exc:
            raise ValidationError({"tiebreakers": str(exc)}) from None


# Statuses of an event the public never sees: a draft is not announced yet, a cancelled
# event left the public lists and the seasons (its TD still finds it).
PRIVATE_STATUSES = (Event.Status.DRAFT, Event.Status.CANCELLED)


class Entry(models.Model):
    """A player in an event. Withdrawn entries are never seated again; their games stand."""

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player")
        ]

    def __str__(self) -> str:
        return str(self.player)


class Round(models.Model):
    """Game N of an event: the seating drawn for it, from a seed stored for reproduction.

    A draft seating is the TD's to check, swap and draw again; players see a game once it is
    released. A released game with results is never drawn again.
    """

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        RELEASED = "released", _("Released")

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


class AuditEntry(models.Model):
    """Who changed what, when, from what to what, and why.

    Every change of a recorded result writes one (``tournaments.services.record_result``);
    the results app adds the steps before a result (submitted, disputed). Values name the
    players (``{"winner": "Ann Whitfield", "loser": "Bob Ng", "loser_score": 95, ...}``), so
    the log reads the same after an entry is merged or renamed.
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
    at = models.DateTimeField(_("when"), auto_now_add=True)

    class Meta:
        ordering = ["event", "-at", "-pk"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.actor}: {self.action}"
