"""Partners' cribbage (four-handed): two teams of two at a table, partners sitting opposite.

An entry is a team (``Entry.partner``), so a table seats two entries exactly as two-player
cribbage does (Swiss or round robin of pairs through the pairing bridge), a result is the
winning team and the losing team's score, and the standings rank the teams. What differs is
said here: teams of two, no ACC points (the ACC rates two-player games only), no season
ledgers (Grass Roots points are a player's, not a team's), no playoff, no paper import or
hand records (a four-handed deal is not a two-player hand record).
"""

from __future__ import annotations

from dataclasses import replace

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Table

from .base import SeatLine, name_order
from .cribbage import Cribbage


class Partners(Cribbage):
    """Four-handed cribbage played by teams of two."""

    key = "partners"
    label = _("Partners' cribbage (four-handed)")
    team_size = 2
    playoffs = False
    seasons = False
    acc_points = False
    paper_import = False
    hand_records = False
    template = "kinds/cribbage.html"
    messages = replace(
        Cribbage.messages,
        field_changed=_(
            "The field changed since game %(n)s was drafted (a late team, a withdrawal or a "
            "check-out): draw it again before releasing it."
        ),
        too_few=_("At least %(n)s checked-in teams are needed."),
    )

    def seat_lines(self, event, number: int) -> list[SeatLine]:
        """Every partner of every team seated in released game ``number``, alphabetically,
        each with the table: both partners find their table by their own name."""
        released = Q(round__event=event, round__number=number, round__status=Round.Status.RELEASED)
        lines = []
        bye = str(_("bye"))
        for seat in ("seat_a", "seat_b"):
            rows = Table.objects.filter(released, **{f"{seat}__isnull": False}).values_list(
                "number",
                "seat_b_id",
                f"{seat}__player_id",
                f"{seat}__player__name",
                f"{seat}__partner_id",
                f"{seat}__partner__name",
            )
            for table, other, p_id, p_name, q_id, q_name in rows:
                note = "" if other else bye
                lines.append(SeatLine(p_name, p_id, table, note))
                if q_id:
                    lines.append(SeatLine(q_name, q_id, table, note))
        return sorted(lines, key=lambda line: name_order(line.name))


PARTNERS = Partners()
