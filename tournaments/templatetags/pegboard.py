"""Template filters in the game's own notation."""

from functools import cache

from django import template
from django.contrib.staticfiles import finders
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors
from tournaments.models import Event
from tournaments.outcome import format_spread
from tournaments.services.results import describe_result
from tournaments.tiebreakers import describe

register = template.Library()


@register.simple_tag
def directed_clubs(user) -> list:
    """The clubs ``user`` directs (for the navbar), at most ten."""
    return list(selectors.clubs_directed_by(user)[:10])


@cache
def _icon_svg(name: str) -> str:
    path = finders.find(f"icons/{name}.svg")
    if not path:
        raise template.TemplateSyntaxError(f"No icon static/icons/{name}.svg")
    with open(path, encoding="utf-8") as svg:
        return svg.read().strip()


@register.simple_tag
def icon(name: str, label: str = "") -> SafeString:
    """The SVG icon vendored as ``static/icons/<name>.svg``, inline: pages, the projector and
    the PDFs draw it alike, with no emoji font and no fetch (an emoji such as the trophy is an
    empty box where no emoji font is installed). ``label`` names it for screen readers (and
    as its tooltip); without one it is decoration, hidden from them."""
    # Sized to the text around it, on every page, projector and PDF (no stylesheet needed).
    svg = _icon_svg(name).replace(
        "<svg ", '<svg width="1.2em" height="1.2em" style="vertical-align:-.2em" ', 1
    )
    if label:
        named = f'role="img" aria-label="{escape(label)}"'
        svg = svg.replace("<svg ", f'<svg class="icon icon-{name}" {named} ', 1)
        svg = svg.replace(">", f"><title>{escape(label)}</title>", 1)
    else:
        svg = svg.replace("<svg ", f'<svg class="icon icon-{name}" aria-hidden="true" ', 1)
    return mark_safe(svg)  # a vendored file; the label is escaped


@register.filter
def spread(value: int | None) -> str:
    """A spread with its sign: +7, -12, +121, 0."""
    return "" if value is None else format_spread(int(value))


@register.filter
def tiebreaker_name(key: str) -> str:
    """The name of a tiebreaker of the ranking chain, for people."""
    return describe(key)


@register.filter
def round_label(event: Event, number: int) -> str:
    """Round ``number`` of ``event`` in its game kind's words: Game 3, Session 3."""
    return event.game_kind.round_label(int(number))


@register.filter
def chips(value: int | None) -> str:
    """A chip net with its sign: +12, -7, 0."""
    if value is None:
        return ""
    value = int(value)
    return f"+{value}" if value > 0 else str(value)


# What the audit log's action codes say, for the TD.
AUDIT_ACTIONS = {
    "entered": gettext_lazy("entered"),
    "corrected": gettext_lazy("corrected"),
    "submitted": gettext_lazy("reported by a player"),
    "confirmed": gettext_lazy("confirmed"),
    "to_check": gettext_lazy("agreed, to check"),
    "checked": gettext_lazy("checked at the desk"),
    "disputed": gettext_lazy("disputed"),
    "ruled": gettext_lazy("ruled"),
    "paper_import": gettext_lazy("from a paper card"),
    "no_show": gettext_lazy("no-show"),
    "playoff_game": gettext_lazy("playoff game"),
    "playoff_game_undone": gettext_lazy("playoff game undone"),
    "playoff_corrected": gettext_lazy("playoff game corrected"),
    "undone": gettext_lazy("result undone"),
    "withdrawn": gettext_lazy("forfeit: the player withdrew"),
    "accepted": gettext_lazy("a player's report, accepted by the TD"),
    "stoppa_nets": gettext_lazy("nets entered"),
    "stoppa_cleared": gettext_lazy("nets cleared"),
    "nets_reported": gettext_lazy("nets reported by a player"),
    "nets_confirmed": gettext_lazy("nets confirmed by a player"),
    # The round clock (issue 28)
    "clock_started": gettext_lazy("clock started"),
    "clock_paused": gettext_lazy("clock paused"),
    "clock_resumed": gettext_lazy("clock resumed"),
    "clock_extended": gettext_lazy("minutes added to the clock"),
    "clock_stopped": gettext_lazy("clock stopped"),
    "called_at_time": gettext_lazy("called at time"),
    "table_scores": gettext_lazy("table scores entered"),
    # The money desk (treasury)
    "fees_set": gettext_lazy("fees set"),
    "payment": gettext_lazy("entry fee marked"),
    "pool_stake": gettext_lazy("side pool stake"),
    "pool_winners": gettext_lazy("side pool winners named"),
    "night_closed": gettext_lazy("night closed, balances carried"),
    "night_reopened": gettext_lazy("night re-opened"),
    # The door (issue 28)
    "registration_settings": gettext_lazy("online registration settings"),
    "registered": gettext_lazy("registered online"),
    "waiting_list": gettext_lazy("put on the waiting list"),
    "moved_up": gettext_lazy("moved up from the waiting list"),
    "left_waiting_list": gettext_lazy("left the waiting list"),
    "withdrawn_online": gettext_lazy("withdrew on their registration page"),
    "self_check_in": gettext_lazy("checked themselves in"),
    "door": gettext_lazy("door check-in changed"),
}


@register.filter
def audit_action(code: str) -> str:
    """An audit log's action in words (an unknown code as it is, underscores as spaces)."""
    return str(AUDIT_ACTIONS.get(code, str(code).replace("_", " ")))


@register.filter
def audit_value(value) -> str:
    """An audit log's old or new value as a sentence: "Ann won, Bob 95", a Stoppa table's
    nets by name, never a raw dict of ids."""
    if not value:
        return ""
    if not isinstance(value, dict):
        return str(value)
    if "nets" in value:
        nets = value.get("nets") or {}
        where = _("Session %(session)s, table %(table)s") % {
            "session": value.get("session", "?"),
            "table": value.get("table", "?"),
        }
        return f"{where}: " + ", ".join(f"{name} {chips(net)}" for name, net in nets.items())
    if "winner" in value:
        if value.get("loser") or value.get("forfeit"):
            sentence = describe_result({"loser": "", "loser_score": ""} | value)
        else:  # a playoff game's line names only the winner
            sentence = _("%(winner)s won, loser's score %(loser_score)s") % (
                {"loser_score": "?"} | value
            )
        if "match" in value:
            prefix = _("Match %(match)s, game %(game)s") % {
                "match": value["match"],
                "game": value.get("game", "?"),
            }
            return f"{prefix}: {sentence}"
        return sentence
    if "game" in value and set(value) <= {"game", "clock", "left", "minutes"}:
        return _clock_value(value)
    if "player" in value and set(value) <= {"player", "how", "by", "position"}:  # the door
        from tournaments.models import Entry

        parts = [str(value["player"])]
        if value.get("position"):
            parts.append(_("place %(n)s on the waiting list") % {"n": value["position"]})
        if value.get("how") in Entry.CheckIn.values:
            parts.append(str(Entry.CheckIn(value["how"]).label))
        if value.get("by"):
            parts.append(_("from the phone of %(name)s") % {"name": value["by"]})
        return ", ".join(parts)
    return ", ".join(f"{key}: {_plain(item)}" for key, item in value.items())


def _plain(value) -> str:
    """A nested audit value as words ("main 2.00, 29 hand 15.00"), never a raw dict or list."""
    if isinstance(value, dict):
        return ", ".join(f"{key} {_plain(item)}" for key, item in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_plain(item) for item in value)
    return str(value)


def _clock_value(value: dict) -> str:
    """A round clock's audit value: "Game 3: 12:30 left" or "Game 3: 15 minutes"."""
    parts = [_("Game %(game)s") % {"game": value["game"]}]
    if "minutes" in value:
        parts.append(_("%(n)s minutes") % {"n": value["minutes"]})
    if "left" in value:
        parts.append(_("%(left)s left") % {"left": value["left"]})
    return ": ".join([parts[0], ", ".join(parts[1:])]) if len(parts) > 1 else parts[0]


@register.simple_tag
def entry_links(entry) -> SafeString:
    """An entry's name linked to its player's page; a team's two partners each to their own
    ("Anna Rossi & Ștefan Pop", two links)."""
    from django.urls import reverse

    def link(player) -> str:
        url = reverse("player-ledgers", args=[player.pk])
        return f'<a href="{escape(url)}">{escape(player.name)}</a>'

    if entry.partner_id is None:
        return mark_safe(link(entry.player))  # the name escaped in link()
    # The words of tournaments.models.team_name, escaped, around the two links.
    joined = escape(_("%(player)s & %(partner)s"))
    return mark_safe(  # the names escaped in link(), the words above
        joined % {"player": link(entry.player), "partner": link(entry.partner)}
    )
