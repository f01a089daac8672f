"""The TD's league forms: a league's format, a team, the fixtures and a leg's result.

Each runs its service; a refused one shows the service's message beside its field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import ServiceError
from tournaments.forms.base import ServiceForm, _style
from tournaments.models import Club, Event, Player

from . import services
from .error_codes import LeagueError
from .models import League, LeagueMatch, LeagueTeam, LegKind, Side

NUMERIC = {"inputmode": "numeric"}


class _LeagueServiceForm(ServiceForm):
    """A ServiceForm whose service names some fields differently (``FIELD_OF``)."""

    FIELD_OF: dict[str, str] = {}

    def run(self, action):
        if not self.is_valid():
            return None
        try:
            return action()
        except ServiceError as exc:
            field = self.field_for(exc)
            self.add_error(
                field if field in self.fields else None,
                forms.ValidationError(exc.message, code=exc.code),
            )
            return None

    def field_for(self, exc: ServiceError) -> str | None:
        """The form's field a refusal goes beside."""
        return self.FIELD_OF.get(exc.field or "", exc.field)


class LeagueForm(_LeagueServiceForm):
    """A new league: its season and its match format (doubles legs first, then singles)."""

    # The service names the legs "leg_kinds"; on this form they are two counts.
    FIELD_OF = {"leg_kinds": "doubles_legs"}

    name = forms.CharField(label=_("Name"), max_length=120)
    season_start = forms.DateField(
        label=_("Season starts"), widget=forms.DateInput(attrs={"type": "date"})
    )
    season_end = forms.DateField(
        label=_("Season ends"), widget=forms.DateInput(attrs={"type": "date"})
    )
    doubles_legs = forms.IntegerField(
        label=_("Doubles legs a match"), min_value=0, max_value=services.MAX_LEGS, initial=3
    )
    singles_legs = forms.IntegerField(
        label=_("Singles legs a match"), min_value=0, max_value=services.MAX_LEGS, initial=2
    )
    win_on = forms.ChoiceField(
        label=_("A match is won on"), choices=League.WinOn.choices, initial=League.WinOn.LEGS
    )
    points_win = forms.IntegerField(
        label=_("Points for a win"), min_value=0, max_value=services.MAX_POINTS, initial=2
    )
    points_draw = forms.IntegerField(
        label=_("Points for a draw"), min_value=0, max_value=services.MAX_POINTS, initial=1
    )
    points_loss = forms.IntegerField(
        label=_("Points for a loss"), min_value=0, max_value=services.MAX_POINTS, initial=0
    )
    target = forms.TypedChoiceField(
        label=_("Games to"), choices=Event.Target.choices, coerce=int, initial=121
    )
    legs_per_player = forms.IntegerField(
        label=_("Legs a player may play in one match"),
        min_value=0,
        max_value=services.MAX_LEGS,
        initial=1,
        help_text=_("0: no limit (a pair may play every leg at its table)."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)
        for name in ("doubles_legs", "singles_legs", "points_win", "points_draw", "points_loss"):
            self.fields[name].widget.attrs.update(NUMERIC)

    def save(self, club: Club, *, user) -> League | None:
        def create():
            data = dict(self.cleaned_data)
            kinds = [LegKind.DOUBLES] * data.pop("doubles_legs") + [LegKind.SINGLES] * data.pop(
                "singles_legs"
            )
            return services.create_league(club, leg_kinds=kinds, user=user, **data)

        return self.run(create)


class _ByName(forms.models.ModelChoiceIterator):
    """The players in the reader's alphabetical order ("Ștefan" among the S, not after Z)."""

    def __iter__(self):
        from tournaments import selectors

        for player in selectors.by_name(self.queryset, lambda p: p.name):
            yield self.choice(player)


class TeamForm(ServiceForm):
    """A team of the league: its name and its players, ticked from the club's players."""

    name = forms.CharField(label=_("Team name"), max_length=80)
    players: forms.ModelMultipleChoiceField = forms.ModelMultipleChoiceField(
        label=_("Players"), queryset=Player.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, league: League, team: LeagueTeam | None = None, **kwargs):
        from tournaments import selectors

        if team is not None:
            kwargs.setdefault("initial", {"name": team.name, "players": list(team.players.all())})
        super().__init__(*args, **kwargs)
        self.league, self.team = league, team
        field = cast(forms.ModelMultipleChoiceField, self.fields["players"])
        # The club's players not in another team of the league (a player is in one team).
        others = LeagueTeam.objects.filter(league=league)
        if team is not None:
            others = others.exclude(pk=team.pk)
        field.iterator = _ByName  # before the queryset: its setter hands the widget the choices
        field.queryset = selectors.club_players(league.club).exclude(league_teams__in=others)
        self.fields["name"].widget.attrs["class"] = "form-control"

    def save(self, *, user):
        return self.run(
            lambda: services.save_team(
                self.league,
                name=self.cleaned_data["name"],
                player_ids=[p.pk for p in self.cleaned_data["players"]],
                team=self.team,
                user=user,
            )
        )


class FixturesForm(ServiceForm):
    """The round robin of fixtures: the first round's date and the days between rounds."""

    first_date = forms.DateField(
        label=_("First round on"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    days_between = forms.IntegerField(
        label=_("Days between rounds"), min_value=1, max_value=60, initial=7
    )
    twice = forms.BooleanField(label=_("Every pair meets home and away"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _style(self)

    def save(self, league: League, *, user):
        return self.run(lambda: services.schedule_fixtures(league, user=user, **self.cleaned_data))


class LegForm(_LeagueServiceForm):
    """One leg of a match by keyboard: the leg, each side's player(s), the winner and the
    loser's score. A singles leg leaves the partners empty."""

    # The service names each side's list; on this form the side's first select carries it.
    FIELD_OF = {"home_players": "home_first", "away_players": "away_first"}

    number = forms.TypedChoiceField(label=_("Leg"), coerce=int)
    home_first = forms.TypedChoiceField(coerce=int)
    home_second = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    away_first = forms.TypedChoiceField(coerce=int)
    away_second = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    winner = forms.ChoiceField(label=_("Winner"))
    loser_score = forms.IntegerField(
        label=_("Loser's score"),
        min_value=0,
        max_value=9_999,
        error_messages={"invalid": _("A score is a whole number, e.g. 95.")},
    )
    reason = forms.CharField(
        label=_("Reason for the change"),
        required=False,
        max_length=300,
        help_text=_("Needed to change a leg already recorded."),
    )

    def __init__(self, *args, match: LeagueMatch, **kwargs):
        super().__init__(*args, **kwargs)
        self.match = match
        league = match.league
        choice = cast(Callable[[str], forms.ChoiceField], self.fields.__getitem__)
        # A blank first: once every leg is recorded none is chosen, and the TD picks the one
        # to correct (an Enter never lands on leg 1 by default).
        choice("number").choices = [("", "—")] + [
            (n, _("Leg %(n)s · %(kind)s") % {"n": n, "kind": kind.label})
            for n, kind in enumerate(league.legs, start=1)
        ]
        for side, team in ((Side.HOME, match.home), (Side.AWAY, match.away)):
            players = [("", "—")] + [(p.pk, p.name) for p in team.players.order_by("name")]
            first, second = choice(f"{side}_first"), choice(f"{side}_second")
            first.choices = second.choices = players
            first.label = _("%(team)s: player") % {"team": team.name}
            second.label = _("%(team)s: partner (doubles)") % {"team": team.name}
        choice("winner").choices = [
            ("", "—"),
            (Side.HOME, match.home.name),
            (Side.AWAY, match.away.name),
        ]
        self.fields["loser_score"].widget.attrs.update(NUMERIC)
        # After a leg is saved the next one is chosen: the TD types on from its first player.
        self.fields["home_first"].widget.attrs["autofocus"] = True
        _style(self)

    def field_for(self, exc: ServiceError) -> str | None:
        # One player picked as their own partner: the partner's select is the one to change.
        if exc.code == LeagueError.PLAYER_TWICE and exc.field in self.FIELD_OF:
            return self.FIELD_OF[exc.field].replace("_first", "_second")
        return super().field_for(exc)

    def save(self, *, user):
        def record():
            data = self.cleaned_data
            return services.record_leg(
                self.match,
                number=data["number"],
                home_players=[pk for pk in (data["home_first"], data["home_second"]) if pk],
                away_players=[pk for pk in (data["away_first"], data["away_second"]) if pk],
                winner=data["winner"],
                loser_score=data["loser_score"],
                user=user,
                reason=data.get("reason") or "",
            )

        return self.run(record)
