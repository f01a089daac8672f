"""A club's event templates: the weekly night saved once, then set up from it each week.

A template keeps what a clone keeps (``events.CLONED_SETTINGS``) and the registration cap;
the apps above keep their part (the money desk's fees and pools) in its ``extras`` through
``hooks.event_template_saved_signal`` and copy it into each new event through
``hooks.event_from_template_signal``, as they do for a clone.
"""

from __future__ import annotations

import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks
from tournaments.models import Club, Event, EventTemplate, MatchPointFormat

from ..error_codes import TournamentsError
from .events import CLONED_SETTINGS, _check_basics

# What a template keeps of its event besides the clone's settings.
TEMPLATE_SETTINGS = (*CLONED_SETTINGS, "cap")


def _template_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(
            TournamentsError.NAME_REQUIRED, _("A template needs a name."), field="name"
        )
    if len(name) > 120:
        raise ServiceError(
            TournamentsError.NAME_TOO_LONG, _("At most 120 characters."), field="name"
        )
    return name


@transaction.atomic
def save_template(event: Event, *, name: str, replace: bool = False) -> EventTemplate:
    """Save how ``event`` is played as the club's template ``name`` (``replace``: over a
    template of that name; else the name must be new)."""
    name = _template_name(name)
    values = {}
    for field in TEMPLATE_SETTINGS:
        value = getattr(event, "match_point_format_id" if field == "match_point_format" else field)
        values[field] = list(value) if isinstance(value, tuple) else value
    template = EventTemplate.objects.select_for_update().filter(club=event.club, name=name).first()
    if template is not None and not replace:
        raise ServiceError(
            TournamentsError.TEMPLATE_NAME_TAKEN,
            _("The club has a template called %(name)s already.") % {"name": name},
            field="name",
        )
    if template is None:
        template = EventTemplate(club=event.club, name=name)
    template.settings, template.extras = values, {}
    hooks.event_template_saved_signal.send(
        sender=save_template, source_id=event.pk, template=template
    )
    template.save()
    return template


@transaction.atomic
def event_from_template(template: EventTemplate, *, name: str, date: datetime.date) -> Event:
    """A new draft event of the template's club, played as the template says."""
    values = dict(template.settings)
    club = template.club
    fmt = (
        MatchPointFormat.objects.filter(pk=values.get("match_point_format") or 0)
        .filter(Q(club=club) | Q(club__isnull=True))
        .first()
    )
    if fmt is None:  # the format was deleted since: the club's default, else a built-in one
        fmt = club.default_match_point_format or (
            MatchPointFormat.objects.filter(club__isnull=True).order_by("pk").first()
        )
    values["match_point_format"] = fmt
    name, _kind = _check_basics(
        name=name,
        date=date,
        game=values.get("game", "cribbage"),
        kind=values.get("kind", Event.Kind.CLUB_NIGHT),
        target=values.get("target", Event.Target.FULL),
        seed=None,
    )
    known = {f: values[f] for f in TEMPLATE_SETTINGS if f in values}
    event = Event(club=template.club, name=name, date=date, **known)
    event.save()
    hooks.event_from_template_signal.send(
        sender=event_from_template, template=template, event_id=event.pk
    )
    return event


@transaction.atomic
def delete_template(club: Club, template_id: int) -> None:
    """Delete one of the club's templates (the events made from it stay)."""
    deleted, _rows = EventTemplate.objects.filter(club=club, pk=template_id).delete()
    if not deleted:
        raise ServiceError(TournamentsError.UNKNOWN_TEMPLATE, _("There is no such template."))
