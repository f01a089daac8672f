"""Scoring data: the computed standings snapshots, seasons and their ledgers."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class StandingsSnapshot(models.Model):
    """The standings of an event after game N (results of games 1..N), kept for every N.

    The snapshot of the game in progress is rewritten as results arrive (its ``version``
    counts the rewrites); earlier ones stay as they are unless a correction touches them.
    """

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="snapshots",
        verbose_name=_("event"),
    )
    after_game = models.PositiveIntegerField(_("after game"))
    complete = models.BooleanField(_("game complete"), default=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    fingerprint = models.CharField(_("fingerprint"), max_length=200, blank=True, editable=False)
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["event", "after_game"]
        verbose_name = _("standings snapshot")
        verbose_name_plural = _("standings snapshots")
        constraints = [
            models.UniqueConstraint(fields=["event", "after_game"], name="one_snapshot_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.event} after game {self.after_game} (v{self.version})"


class StandingsStatus(models.Model):
    """How far an event's standings have caught up: the ``results_version`` of the event that
    the last complete recompute read. An event whose version is ahead is behind (the sweep)."""

    event = models.OneToOneField(
        "tournaments.Event",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="standings_status",
        verbose_name=_("event"),
    )
    version = models.PositiveBigIntegerField(_("results version computed"), default=0)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("standings status")
        verbose_name_plural = _("standings statuses")

    def __str__(self) -> str:
        return f"{self.event_id}: v{self.version}"


# The order the standings are listed in, everywhere (pages, API, exports): rank, then name;
# the entry id keeps two players of the same name in one order.
# Ties by the folded name: "Łucja" among the L, not after Z.
STANDINGS_ORDER = ("rank", "entry__player__name_folded", "entry_id")


class Standing(models.Model):
    """One entry's line in a standings snapshot, written only by the standings job."""

    # Rows are written only by the standings job, under the snapshot it saved in the same
    # transaction, from the event's entries it joins, and deleted with their snapshot, event
    # or entry by Django's cascade: a database check of the keys (a row lock per key per row
    # written, at every commit: a third of a snapshot's cost) guards nothing more. The unique
    # (snapshot, entry) index serves the lookups by snapshot.
    snapshot = models.ForeignKey(
        StandingsSnapshot,
        on_delete=models.CASCADE,
        related_name="rows",
        verbose_name=_("snapshot"),
        db_constraint=False,
        db_index=False,
    )
    # The tenant scope, repeated so every read can filter by event without a join.
    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("event"),
        db_constraint=False,
    )
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("entry"),
        db_constraint=False,
    )
    rank = models.PositiveIntegerField(_("rank"))
    tied = models.BooleanField(_("tied"), default=False)
    separated_by = models.CharField(
        _("separated by"),
        max_length=30,
        blank=True,
        help_text=_("The tiebreaker that put this row below the one above."),
    )
    game_points = models.IntegerField(_("game points"), default=0)
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    games_won = models.PositiveIntegerField(_("games won"), default=0)
    games_lost = models.PositiveIntegerField(_("games lost"), default=0)
    spread = models.IntegerField(_("net spread"), default=0)
    skunks_won = models.PositiveIntegerField(_("skunks won"), default=0)
    skunks_suffered = models.PositiveIntegerField(_("skunks suffered"), default=0)
    byes = models.PositiveIntegerField(_("byes"), default=0)
    # Stoppa events only (empty for cribbage): chips over all sessions, sessions won, best one.
    chips = models.IntegerField(_("chips"), null=True, blank=True)
    sessions_won = models.PositiveIntegerField(_("sessions won"), null=True, blank=True)
    best_session = models.IntegerField(_("best session"), null=True, blank=True)

    class Meta:
        ordering = ["snapshot", "rank", "entry__player__name"]
        verbose_name = _("standing")
        verbose_name_plural = _("standings")
        constraints = [
            models.UniqueConstraint(
                fields=["snapshot", "entry"], name="one_row_per_entry_and_snapshot"
            )
        ]
        indexes = [models.Index(fields=["snapshot", "rank"])]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entry}"

    @property
    def after_game(self) -> int:
        return self.snapshot.after_game

    @property
    def computed_at(self):
        return self.snapshot.computed_at

    @property
    def explanation(self) -> str:
        """Why this row is where it is, when game points alone do not say it ('' otherwise)."""
        from django.utils.translation import gettext

        from tournaments.tiebreakers import describe

        below = ""
        if self.separated_by and self.separated_by not in ("game_points", "chips"):
            below = gettext("Placed below the row above on %(name)s.") % {
                "name": describe(self.separated_by)
            }
        if self.tied:
            tied = gettext("Tied on every tiebreaker of the chain.")
            return f"{below} {tied}" if below else tied
        return below


class Season(models.Model):
    """A club's season: its nights between two dates (September to May by default)."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="seasons", verbose_name=_("club")
    )
    name = models.CharField(_("name"), max_length=60)
    start = models.DateField(_("first day"))
    end = models.DateField(_("last day"))
    computed_at = models.DateTimeField(_("ledgers computed at"), null=True, blank=True)
    night_games = models.PositiveSmallIntegerField(
        _("games in a night of the Grass Roots table"),
        default=9,
        help_text=_(
            "The ACC's table is for 9-game nights. A night of another length earns no Grass "
            "Roots points, and the season page says so; a club that plays other nights sets "
            "its own table and its length here."
        ),
    )

    class Meta:
        ordering = ["club", "-start"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "name"], name="one_season_name_per_club"),
            models.CheckConstraint(
                condition=models.Q(end__gte=models.F("start")), name="season_ends_after_start"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.club} {self.name}"


class GrassRootsPoints(models.Model):
    """One row of a season's Grass Roots table: game points on a night -> ranking points."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="grass_roots", verbose_name=_("season")
    )
    game_points = models.PositiveSmallIntegerField(_("game points on the night"))
    points = models.PositiveSmallIntegerField(_("ranking points"))

    class Meta:
        ordering = ["season", "game_points"]
        verbose_name = _("Grass Roots points")
        verbose_name_plural = _("Grass Roots table")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "game_points"], name="one_row_per_game_points"
            )
        ]

    def __str__(self) -> str:
        return f"{self.game_points} GP -> {self.points}"


class MasterPoints(models.Model):
    """Master points for a final place in an event, loaded by hand: the playoff's places,
    which the ACC's rules as retrieved do not let Pegboard compute. The qualifying MRPs are
    computed (:class:`MrpAward`); an event that has those ignores these rows in its season."""

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="master_points",
        verbose_name=_("event"),
    )
    place = models.PositiveIntegerField(_("place"))
    points = models.DecimalField(_("master points"), max_digits=6, decimal_places=2)

    class Meta:
        ordering = ["event", "place"]
        verbose_name = _("master points")
        verbose_name_plural = _("master points")
        constraints = [
            models.UniqueConstraint(fields=["event", "place"], name="one_award_per_place")
        ]

    def __str__(self) -> str:
        return f"{self.event}: place {self.place} -> {self.points}"


class SpecialHand(models.Model):
    """A 28 or 29 hand held in an event, logged for awards and side pots."""

    class Points(models.IntegerChoices):
        TWENTY_EIGHT = 28, "28"
        TWENTY_NINE = 29, "29"

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="special_hands",
        verbose_name=_("event"),
    )
    entry = models.ForeignKey(
        "tournaments.Entry",
        on_delete=models.CASCADE,
        related_name="special_hands",
        verbose_name=_("entry"),
    )
    points = models.PositiveSmallIntegerField(_("hand"), choices=Points)
    game_number = models.PositiveSmallIntegerField(_("game"), null=True, blank=True)
    note = models.CharField(_("note"), max_length=200, blank=True)

    class Meta:
        ordering = ["event", "game_number"]
        verbose_name = _("special hand")
        verbose_name_plural = _("special hands")

    def __str__(self) -> str:
        return f"{self.entry}: {self.points}"


class SeasonLedger(models.Model):
    """One player's line in a season, written by the season job."""

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="ledgers", verbose_name=_("season")
    )
    player = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.CASCADE,
        related_name="ledgers",
        verbose_name=_("player"),
    )
    rank = models.PositiveIntegerField(_("rank"))
    nights = models.PositiveIntegerField(_("nights"), default=0)
    qualifying_nights = models.PositiveIntegerField(_("nights that earned points"), default=0)
    grass_roots_points = models.PositiveIntegerField(_("Grass Roots points"), default=0)
    master_points = models.DecimalField(
        _("master points"), max_digits=8, decimal_places=2, default=0
    )
    games_played = models.PositiveIntegerField(_("games played"), default=0)
    games_won = models.PositiveIntegerField(_("games won"), default=0)
    game_points = models.PositiveIntegerField(_("game points"), default=0)
    spread = models.IntegerField(_("net spread"), default=0)
    skunks_won = models.PositiveIntegerField(_("skunks for"), default=0)
    skunks_suffered = models.PositiveIntegerField(_("skunks against"), default=0)
    hands_28 = models.PositiveIntegerField(_("28 hands"), default=0)
    hands_29 = models.PositiveIntegerField(_("29 hands"), default=0)
    grand_slams = models.PositiveIntegerField(_("grand slams"), default=0)

    class Meta:
        ordering = ["season", "rank"]
        verbose_name = _("season ledger")
        verbose_name_plural = _("season ledgers")
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="one_ledger_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.player}"

    @property
    def win_percentage(self) -> float:
        return round(100 * self.games_won / self.games_played, 1) if self.games_played else 0.0


class SeasonNight(models.Model):
    """One player's night in a season, as the season job counted it: the place, the game
    points, the Grass Roots points it earned and why (so the season page can say it)."""

    class Why(models.TextChoices):
        ROW = "row", _("a row of the Grass Roots table")
        BELOW_TABLE = "below_table", _("fewer game points than the table's first row")
        NIGHT_LENGTH = "night_length", _("a night of another length than the table's")
        NO_TABLE = "no_table", _("the season has no Grass Roots table")
        GUEST = "guest", _("a guest: Grass Roots points go to members only")

    season = models.ForeignKey(
        Season, on_delete=models.CASCADE, related_name="nights", verbose_name=_("season")
    )
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    place = models.PositiveIntegerField(_("place"))
    field_size = models.PositiveIntegerField(_("players ranked"))
    games = models.PositiveSmallIntegerField(_("games in the night"))
    game_points = models.PositiveIntegerField(_("game points"))
    why = models.CharField(_("why"), max_length=16, choices=Why)
    row = models.PositiveIntegerField(_("table row (game points)"), null=True, blank=True)
    grass_roots_points = models.PositiveIntegerField(_("Grass Roots points"), default=0)
    master_points = models.DecimalField(
        _("master points"), max_digits=8, decimal_places=2, default=0
    )

    class Meta:
        ordering = ["season", "player", "event__date", "event_id"]
        verbose_name = _("season night")
        verbose_name_plural = _("season nights")
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player", "event"], name="one_season_night_per_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.season}: {self.player_id} @ {self.event_id}"


# --- Club ratings (scoring.ratings) ---------------------------------------------------------------


class PlayerRating(models.Model):
    """A player's current club rating (OpenSkill Plackett-Luce): mean ``mu`` and uncertainty
    ``sigma``, written only by the ratings job (:mod:`scoring.ratings`)."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    player = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.CASCADE,
        related_name="ratings",
        verbose_name=_("player"),
    )
    mu = models.FloatField(_("rating (mean)"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    # The place of the player's last rated game in the club's order (``ratings.key_text``): a
    # new game comes after it, or the club's ratings are replayed (see scoring.ratings).
    last_key = models.CharField(_("last rated game"), max_length=48, blank=True, editable=False)

    class Meta:
        ordering = ["club", "-mu"]
        verbose_name = _("player rating")
        verbose_name_plural = _("player ratings")
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="one_rating_per_club_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.club_id}: {self.mu:.1f} ± {self.sigma:.1f}"


class RatingHistory(models.Model):
    """A player's club rating after their last rated game of an event."""

    club = models.ForeignKey(
        "tournaments.Club", on_delete=models.CASCADE, related_name="+", verbose_name=_("club")
    )
    player = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.CASCADE,
        related_name="rating_history",
        verbose_name=_("player"),
    )
    event = models.ForeignKey(
        "tournaments.Event", on_delete=models.CASCADE, related_name="+", verbose_name=_("event")
    )
    mu = models.FloatField(_("rating (mean)"))
    sigma = models.FloatField(_("uncertainty"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    # That last game's place in the club's order (``ratings.key_text``): where a replay from
    # a later event takes the player's last game from.
    last_key = models.CharField(_("last rated game"), max_length=48, blank=True, editable=False)

    class Meta:
        ordering = ["club", "player", "event"]
        verbose_name = _("rating history line")
        verbose_name_plural = _("rating history")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "player", "event"], name="one_rating_line_per_event"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} after {self.event_id}: {self.mu:.1f}"


class RatingState(models.Model):
    """How far a club's ratings have read its games (the watermark of the incremental job,
    :func:`scoring.ratings.update_club`): the last rated result's id, and what the last run
    saw of each event (its date and results version, a checksum of its rated results, a
    digest of its rated playoff and Stoppa games)."""

    club = models.OneToOneField(
        "tournaments.Club",
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="+",
        verbose_name=_("club"),
    )
    games = models.PositiveIntegerField(_("games processed"), default=0)
    result_id = models.BigIntegerField(_("last rated result"), default=0, editable=False)
    # The read starts past settled_id (the previous run's result_id: one run of lag) and skips
    # the ids in recent (rated, above it), so a result whose id was taken before a run but
    # committed after it (two reports at once) is rated next run instead of forcing a replay.
    settled_id = models.BigIntegerField(_("settled result"), default=0, editable=False)
    recent = models.JSONField(_("rated results past the settled one"), default=list, blank=True)
    # Per event of the club (by id): [date, results version, checksum of its rated results,
    # digest of its rated playoff and Stoppa games], as the last run saw them. None: the next
    # run replays from scratch.
    events = models.JSONField(_("events as last rated"), null=True, blank=True, default=None)
    computed_at = models.DateTimeField(_("computed at"), null=True, blank=True)
    full_runs = models.PositiveIntegerField(_("recomputes from scratch"), default=0)

    class Meta:
        verbose_name = _("rating state")
        verbose_name_plural = _("rating states")

    def __str__(self) -> str:
        return f"{self.club_id}: {self.games} games"


class MrpTable(models.Model):
    """The ACC's Master Points for the upper half of the qualifiers of one format (Main or
    Consolation, number of qualifying games): game points -> points, as the ACC publishes it.

    Loaded by the club or the site (``books.mrp`` carries no table: the ACC's pages were not
    retrieved); ``verified`` says whether the rows were checked against ``source``, and
    awards computed from an unverified table are marked provisional.
    """

    class Kind(models.TextChoices):
        MAIN = "main", _("Main event")
        CONSOLATION = "consolation", _("Consolation")

    club = models.ForeignKey(
        "tournaments.Club",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("club"),
        help_text=_("Empty for a table every club uses."),
    )
    kind = models.CharField(_("kind"), max_length=12, choices=Kind)
    games = models.PositiveSmallIntegerField(_("qualifying games"))
    rows = models.JSONField(_("points by game points"), default=dict)
    source = models.CharField(_("source"), max_length=300, blank=True)
    verified = models.BooleanField(_("checked against the ACC's page"), default=False)

    class Meta:
        ordering = ["kind", "games"]
        verbose_name = _("Master Points table")
        verbose_name_plural = _("Master Points tables")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "kind", "games"], name="one_mrp_table_per_format"
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.games}"


class MrpAward(models.Model):
    """A qualifier's computed Master Rating Points in an event's qualifying (``books.mrp``).

    ``provisional`` says the points rest on a table not checked against the ACC's page (or on
    no table at all, when none was loaded: then the upper half shows 0 until one is).
    """

    class Basis(models.TextChoices):
        UPPER_HALF_TABLE = "upper_half_table", _("the format's table, by game points")
        LOWER_HALF_FIXED = "lower_half_fixed", _("the fixed award of the lower half")
        NONE = "none", _("nothing: the lower half before the fixed award")

    event = models.ForeignKey(
        "tournaments.Event",
        on_delete=models.CASCADE,
        related_name="mrp_awards",
        verbose_name=_("event"),
    )
    entry = models.ForeignKey(
        "tournaments.Entry", on_delete=models.CASCADE, related_name="+", verbose_name=_("entry")
    )
    qualifying_rank = models.PositiveIntegerField(_("qualifying rank"))
    game_points = models.PositiveIntegerField(_("game points"))
    points = models.DecimalField(_("Master Rating Points"), max_digits=7, decimal_places=2)
    basis = models.CharField(_("basis"), max_length=20, choices=Basis)
    provisional = models.BooleanField(_("provisional"), default=False)
    rules_effective = models.DateField(_("rules in force since"))
    computed_at = models.DateTimeField(_("computed at"))

    class Meta:
        ordering = ["event", "qualifying_rank"]
        verbose_name = _("computed Master Rating Points")
        verbose_name_plural = _("computed Master Rating Points")
        constraints = [
            models.UniqueConstraint(fields=["event", "entry"], name="one_mrp_award_per_entry")
        ]

    def __str__(self) -> str:
        return f"{self.event}: #{self.qualifying_rank} -> {self.points}"
