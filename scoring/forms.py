"""The TD's season forms: a season's name and dates, and its Grass Roots table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms import ServiceForm

from . import seasons
from .models import Season

GRASS_ROOTS_ROWS = 14  # the ACC table has 10 rows; room to add a few


class SeasonForm(ServiceForm):
    """A season's name and its first and last day."""

    name = forms.CharField(label=_("Name"), max_length=60, required=False)
    start = forms.DateField(label=_("First day"), widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))
    night_games = forms.IntegerField(
        label=_("Games in a night of the Grass Roots table"),
        min_value=1,
        max_value=seasons.MAX_NIGHT_GAMES,
        initial=seasons.ACC_NIGHT_GAMES,
        required=False,
        help_text=_(
            "The ACC's table is for 9-game nights. Nights of another length earn no Grass "
            "Roots points; the season page says so beside each of them."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.widget.attrs.setdefault("class", "form-control")
        self.fields["name"].help_text = _("Empty: named by its years, e.g. 2026-27.")

    def create(self, club) -> Season | None:
        """A new season for ``club``; None with the errors on the form."""
        return self.run(lambda: seasons.create_season(club, **self.cleaned_data))

    def save(self, season: Season) -> Season | None:
        """Rename the season or move its dates."""
        return self.run(lambda: seasons.update_season(season, **self.cleaned_data))


class GrassRootsForm(ServiceForm):
    """The Grass Roots table as rows of two numbers; an empty row is left out."""

    def __init__(self, *args, season: Season, **kwargs):
        super().__init__(*args, **kwargs)
        rows = list(season.grass_roots.values_list("game_points", "points"))
        rows += [(None, None)] * max(GRASS_ROOTS_ROWS - len(rows), 2)
        self.row_count = len(rows)
        for i, (game_points, points) in enumerate(rows):
            attrs = {"class": "form-control form-control-sm", "inputmode": "numeric"}
            self.fields[f"gp_{i}"] = forms.IntegerField(
                label=_("Game points on the night (row %(n)s)") % {"n": i + 1},
                required=False,
                min_value=0,
                max_value=seasons.MAX_GAME_POINTS,
                initial=game_points,
                widget=forms.NumberInput(attrs=attrs),
            )
            self.fields[f"points_{i}"] = forms.IntegerField(
                label=_("Grass Roots points (row %(n)s)") % {"n": i + 1},
                required=False,
                min_value=0,
                max_value=10_000,
                initial=points,
                widget=forms.NumberInput(attrs=attrs),
            )

    def rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The form's fields in pairs, a table row each."""
        return [(self[f"gp_{i}"], self[f"points_{i}"]) for i in range(self.row_count)]

    def clean(self):
        data = super().clean()
        table: dict[int, int] = {}
        for i in range(self.row_count):
            game_points, points = data.get(f"gp_{i}"), data.get(f"points_{i}")
            if game_points is None and points is None:
                continue
            if game_points is None or points is None:
                self.add_error(f"gp_{i}", _("Fill in both numbers of the row, or neither."))
                continue
            if game_points in table:
                self.add_error(
                    f"gp_{i}", _("%(gp)s game points appear twice.") % {"gp": game_points}
                )
                continue
            table[game_points] = points
        data["table"] = table
        return data

    def save(self, season: Season) -> int | None:
        """Replace the season's table; the number of rows kept."""
        return self.run(lambda: seasons.set_grass_roots(season, self.cleaned_data["table"]))
