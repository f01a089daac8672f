"""Template filters in the game's own notation."""

from django import template

from tournaments import selectors
from tournaments.models import Event
from tournaments.outcome import format_spread
from tournaments.tiebreakers import describe

register = template.Library()


@register.simple_tag
def directed_clubs(user) -> list:
    """The clubs ``user`` directs (for the navbar), at most ten."""
    return list(selectors.clubs_directed_by(user)[:10])


@register.filter
def spread(value: int | None) -> str:
    """Spread as on a score card: +07, -12, +121."""
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
