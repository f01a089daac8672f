"""The archive's import: rebuild an archived event in one transaction, checking every value as
it is read, then recompute its standings from the imported results (never copied from the
file)."""

from __future__ import annotations

from typing import Any

from django.db import DataError, IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments.models import Club, Entry, Event, ForbiddenPair

from ..error_codes import ResultsError
from .door import import_registrations
from .import_games import _import_games
from .import_records import (
    _import_audit,
    _import_bracket,
    _import_disputes,
    _import_reports,
    _import_scoring,
)
from .import_setup import _import_settings, _match_format, _players, _target_club
from .schema import BATCH, SCHEMA, VERSION
from .validate import _Check, check_shape, text


def import_event(data: Any, club: Club | None = None) -> Event:
    """Rebuild an archived event (``export_event``'s dict) in ``club`` (by default the
    archive's club, found by its slug or created), in one transaction; returns the new event
    with its standings recomputed. Players are matched by ACC number, then by name within the
    club, and created otherwise. A bad archive is a ServiceError naming the first wrong value;
    nothing is written then.

    Imports into one club take turns (a lock on the club's row): two imports of one archive
    at once would otherwise both find a player missing and both create them.
    """
    try:
        with transaction.atomic():
            return _import(data, club)
    except UnicodeEncodeError:
        # Text the checks do not read one by one (the audit's details) may still hold a lone
        # surrogate; the database refuses it and nothing is written.
        raise ServiceError(
            ResultsError.BAD_ARCHIVE,
            _("This is not a valid event archive: it holds a character that is not valid Unicode."),
            field="archive",
        ) from None
    except (IntegrityError, DataError):
        # The checks before each insert name the usual faults; this is the net under them.
        raise ServiceError(
            ResultsError.BAD_ARCHIVE,
            _("This is not a valid event archive: its values break the database's rules."),
            field="archive",
        ) from None


def _import(data: Any, club: Club | None) -> Event:
    check = _Check()
    if not isinstance(data, dict):
        raise check.bad("archive", _("should be an object"))
    if data.get("schema") != SCHEMA:
        raise check.bad("schema", _("should be %(schema)s") % {"schema": SCHEMA})
    if data.get("version") != VERSION:
        raise ServiceError(
            ResultsError.ARCHIVE_VERSION,
            _("This archive is version %(found)s; this Pegboard reads version %(version)s.")
            % {"found": data.get("version"), "version": VERSION},
            field="archive",
        )
    check_shape(data)  # the declared schema: every key, type, length, range and choice
    club = _target_club(data, club, check)
    # Imports into one club take turns: both would find a player missing and both create them.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    fmt = _match_format(data["match_point_format"], club)
    event = _import_settings(data["event"], club, fmt, check)
    players = _players(data, club, check)

    entries_new = []
    refs = []
    playing: set[int] = set()  # a player in one entry only, as its player or its partner
    for i, row in enumerate(data["entries"]):
        player = check.ref(row, "player", f"entries[{i}]", players)
        partner = check.ref(row, "partner", f"entries[{i}]", players, null=True)
        team = {player.pk} | ({partner.pk} if partner is not None else set())
        if playing & team or (partner is not None and partner.pk == player.pk):
            raise check.bad("entries", _("enter one player twice"))
        playing |= team
        entries_new.append(
            Entry(
                event=event,
                player=player,
                partner=partner,
                checked_in=row.get("checked_in", False),
                checked_in_how=row.get("checked_in_how") or "",
                withdrawn=row.get("withdrawn", False),
            )
        )
        refs.append(row["ref"])
    if len(set(refs)) != len(refs):
        raise check.bad("entries", _("has two entries with the same ref"))
    try:
        with transaction.atomic():
            created = Entry.objects.bulk_create(entries_new, batch_size=BATCH)
    except IntegrityError:
        raise check.bad("entries", _("enter one player twice")) from None
    entries: dict[Any, Entry] = dict(zip(refs, created, strict=True))
    ids = {ref: e.pk for ref, e in entries.items()}

    for i, row in enumerate(data.get("forbidden_pairs", [])):
        path = f"forbidden_pairs[{i}]"
        a, b = sorted((check.ref(row, "a", path, ids), check.ref(row, "b", path, ids)))
        ForbiddenPair.objects.get_or_create(
            event=event,
            entry_a_id=a,
            entry_b_id=b,
            defaults={"reason": text(row, "reason")},
        )

    import_registrations(data, event, entries, check)
    tables = _import_games(data, event, ids, check)
    submissions = _import_reports(data, event, ids, tables, check)
    _import_audit(data, event, tables, check)
    _import_disputes(data, event, tables, submissions, check)
    _import_bracket(data.get("playoff"), event, ids, check)
    _import_scoring(data, event, ids, check)

    # The standings are computed here, from the imported results: never copied from the file.
    from scoring.services import recompute_standings

    recompute_standings(event.pk)
    return event
