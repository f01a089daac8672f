"""An event of a club: its settings, its random seed, and its entries."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .. import kinds
from .clubs import Club, MatchPointFormat, Player


def new_seed() -> int:
    """A fresh random seed, stored so every draw can be reproduced."""
    return secrets.randbelow(2**31)


def new_door_token() -> str:
    """A fresh token for the door QR's link (unguessable, short enough for a QR code)."""
    return secrets.token_urlsafe(12)


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
    # The digest of the audit log's last entry (tournaments.audit_chain): the chain's head,
    # moved by every append; a deleted last entry no longer reaches it.
    audit_digest = models.CharField(
        _("audit log digest"), max_length=64, blank=True, default="", editable=False
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
    # Three-handed cribbage: the match points of each place at a table. A tie on a lower
    # place shares the better place: both players get its points (never an average, so the
    # points stay whole). A table of two (a field that does not divide by three) has a first
    # and a last: the loser takes the last place's points.
    points_first = models.PositiveSmallIntegerField(
        _("points for first"),
        default=2,
        help_text=_("Three-handed: match points of the winner of a table (at the target)."),
    )
    points_second = models.PositiveSmallIntegerField(
        _("points for second"),
        default=1,
        help_text=_(
            "Three-handed: match points of second place at a table of three; two players "
            "tied on second both get them."
        ),
    )
    points_third = models.PositiveSmallIntegerField(
        _("points for last"),
        default=0,
        help_text=_(
            "Three-handed: match points of last place (third at a table of three, second at "
            "a table of two)."
        ),
    )

    # Online pre-registration (issue 28): the public registration page takes entries up to
    # ``cap`` (empty: no cap), then waiting-list places (tournaments.models.door).
    registration_open = models.BooleanField(_("online registration open"), default=False)
    cap = models.PositiveSmallIntegerField(
        _("most entrants"),
        null=True,
        blank=True,
        help_text=_("Registrations beyond it join the waiting list. Empty: no limit."),
    )
    # Self check-in at the door: the door QR carries ``door_token`` (the TD rotates it to
    # void a leaked photo of the QR); closed by the TD, or by the first game drawn.
    door_closed = models.BooleanField(_("door check-in closed"), default=False)
    door_token = models.CharField(
        _("door token"), max_length=32, default=new_door_token, editable=False
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

    def save(self, *args, **kwargs) -> None:
        """Save; a whole-row save of a stored event (the admin, a settings form) leaves the
        audit chain's head alone: only ``audit_chain`` moves it, under its lock, and an
        instance read before a report would otherwise write an old head back."""
        if kwargs.get("update_fields") is None and not self._state.adding and self.pk:
            kwargs["update_fields"] = [
                f.attname
                for f in self._meta.concrete_fields
                if not f.primary_key and f.attname != "audit_digest"
            ]
        super().save(*args, **kwargs)

    @property
    def earns_master_points(self) -> bool:
        """A sanctioned tournament or a consolation of a game the ACC rates: it earns Master
        Rating Points (``scoring.mrp_awards``)."""
        return self.game_kind.acc_points and self.kind in (
            self.Kind.SANCTIONED,
            self.Kind.CONSOLATION,
        )

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


def team_name(player: str, partner: str) -> str:
    """A team's name: both partners, "Anna Rossi & Ștefan Pop"."""
    from django.utils.translation import gettext

    return gettext("%(player)s & %(partner)s") % {"player": player, "partner": partner}


def entry_name(player: str, partner: str | None) -> str:
    """An entry's name from its player's and partner's names (a values() row): the player's,
    or the team's for a team."""
    return player if partner is None else team_name(player, partner)


def entry_names(entries) -> dict[int, str]:
    """Each entry's name by id (a team's both partners), read in one query of ``entries``
    (a queryset of entries)."""
    return {
        pk: entry_name(name, partner)
        for pk, name, partner in entries.values_list("pk", "player__name", "partner__name")
    }


class Entry(models.Model):
    """A player in an event, or a team of two (``partner`` set) in a kind played by teams
    (``GameKind.team_size`` 2). Withdrawn entries are never seated again; their games stand.

    A player is in at most one entry of an event, as its player or as its partner: the
    constraints below hold each column; the cross case (one entry's partner being another's
    player) is refused by ``services.enter_player`` under the event's row lock.
    """

    event = models.ForeignKey(
        Event, verbose_name=_("event"), on_delete=models.CASCADE, related_name="entries"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    # The second player of a team (partners' cribbage); null for a one-player entry.
    partner = models.ForeignKey(
        Player,
        verbose_name=_("partner"),
        on_delete=models.PROTECT,
        related_name="partner_entries",
        null=True,
        blank=True,
    )
    checked_in = models.BooleanField(_("checked in"), default=False)

    class CheckIn(models.TextChoices):
        TD = "td", _("by the TD")
        LINK = "link", _('with "I\'m here" on their own link')
        DOOR = "door", _("at the door's QR code")

    # How the entry was last checked in: the TD sees who checked themselves in, and how.
    checked_in_how = models.CharField(
        _("checked in how"), max_length=4, choices=CheckIn, blank=True, default=""
    )
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    created_at = models.DateTimeField(_("entered at"), auto_now_add=True)

    class Meta:
        ordering = ["player__name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="one_entry_per_player"),
            models.UniqueConstraint(fields=["event", "partner"], name="one_entry_per_partner"),
            models.CheckConstraint(
                condition=~models.Q(partner=models.F("player")), name="partner_not_player"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def name(self) -> str:
        """The entry's name as shown everywhere: the player's, or both partners' for a team
        (select ``partner`` with ``player`` where many are shown)."""
        partner = self.partner if self.partner_id is not None else None
        if partner is None:
            return self.player.name
        return team_name(self.player.name, partner.name)

    @property
    def player_ids(self) -> tuple[int, ...]:
        """The players of the entry: the player, and the partner of a team."""
        return (self.player_id,) if self.partner_id is None else (self.player_id, self.partner_id)
