"""The audit log as a hash chain per event (issue 27, "Results no one can quietly change"):
every writer chains its rows, ``verify_audit`` recomputes the chain, and a row changed or
deleted with raw SQL behind the application's back is detected and named."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from results import services as result_services
from tests.factories import event_with_field
from tournaments import services
from tournaments.audit_chain import GENESIS, canonical, verify_chain
from tournaments.models import AuditEntry, Event

pytestmark = pytest.mark.django_db


def played_night(td_user) -> tuple[Event, list]:
    """A 4-player night: table 1 reported and confirmed by its players, table 2 entered by
    the TD and then corrected."""
    event = event_with_field(4)
    one, two = services.draw_next_game(event).tables.order_by("number")
    key_a = result_services.key_for(one.seat_a).key
    key_b = result_services.key_for(one.seat_b).key
    result_services.submit(key_a, table=one, winner=one.seat_a, loser_score=95)
    result_services.submit(key_b, table=one, winner=one.seat_a, loser_score=95)
    services.record_result(event, table=two, winner=two.seat_a, loser_score=90, user=td_user)
    services.record_result(
        event, table=two, winner=two.seat_b, loser_score=70, user=td_user, reason="Misread"
    )
    return event, [one, two]


def rows(event: Event) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(event=event).order_by("pk"))


def test_every_writer_chains_its_rows_in_id_order(td_user):
    event, _tables = played_night(td_user)
    log = rows(event)
    actions = [r.action for r in log]
    assert actions == ["submitted", "submitted", "confirmed", "entered", "corrected"]
    previous = GENESIS
    for row in log:
        assert row.previous_digest == previous
        # The digest is the SHA-256 of the canonical JSON (sorted keys, UTC time).
        assert row.digest == hashlib.sha256(canonical(row, previous)).hexdigest()
        previous = row.digest
    event.refresh_from_db()
    assert event.audit_digest == log[-1].digest
    content = json.loads(canonical(log[-1], log[-2].digest))
    assert content == {
        "event": event.pk,
        "table": log[-1].table_id,
        "user": td_user.pk,
        "actor": "director",
        "action": "corrected",
        "old": log[-1].old,
        "new": log[-1].new,
        "reason": "Misread",
        "at": log[-1].at.astimezone(UTC).isoformat(timespec="microseconds"),
        "previous": log[-2].digest,
    }
    # Another event's chain starts afresh.
    other = event_with_field(4)
    table = services.draw_next_game(other).tables.order_by("number").first()
    services.record_result(other, table=table, winner=table.seat_a, loser_score=80)
    (first,) = rows(other)
    assert first.previous_digest == GENESIS


def test_an_undo_chains_on_too(td_user):
    event, (one, two) = played_night(td_user)
    services.undo_last_result(event, user=td_user, reason="Wrong table")
    assert rows(event)[-1].action == "undone"
    check = verify_chain(event)
    assert check.intact and check.entries == 6 and check.digest == rows(event)[-1].digest


def test_verify_audit_prints_the_count_and_the_final_digest(td_user, capsys):
    event, _tables = played_night(td_user)
    call_command("verify_audit", str(event.pk))
    out = capsys.readouterr().out
    assert "5 entries, intact" in out and rows(event)[-1].digest in out


def test_an_unknown_event_is_refused():
    with pytest.raises(CommandError, match="There is no event 987654"):
        call_command("verify_audit", "987654")


def test_a_row_changed_with_raw_sql_is_named(td_user):
    event, _tables = played_night(td_user)
    log = rows(event)
    target = log[2]  # the players' confirmed result
    forged = dict(target.new, loser_score=15)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_auditentry SET new = %s WHERE id = %s",
            [json.dumps(forged), target.pk],
        )
    check = verify_chain(event)
    assert not check.intact and check.entries == 5
    assert check.first_mismatch.entry.pk == target.pk
    assert check.first_mismatch.found == target.digest
    with pytest.raises(CommandError) as refused:
        call_command("verify_audit", str(event.pk))
    message = str(refused.value)
    assert f"entry {target.pk} " in message and "confirmed" in message
    assert target.at.isoformat() in message


def test_a_row_deleted_in_the_middle_names_the_next_one(td_user):
    event, _tables = played_night(td_user)
    log = rows(event)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_auditentry WHERE id = %s", [log[1].pk])
    check = verify_chain(event)
    assert not check.intact and check.entries == 4
    assert check.first_mismatch.entry.pk == log[2].pk
    with pytest.raises(CommandError, match=f"entry {log[2].pk} "):
        call_command("verify_audit", str(event.pk))


def test_the_last_row_deleted_leaves_the_head_unreached(td_user):
    event, _tables = played_night(td_user)
    log = rows(event)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_auditentry WHERE id = %s", [log[-1].pk])
    check = verify_chain(event)
    assert not check.intact and check.first_mismatch.entry is None
    assert check.first_mismatch.expected == log[-1].digest
    with pytest.raises(CommandError, match="deleted at its end"):
        call_command("verify_audit", str(event.pk))


def test_a_whole_row_save_of_the_event_keeps_the_head(td_user):
    event, _tables = played_night(td_user)
    stale = Event.objects.get(pk=event.pk)
    stale.audit_digest = ""
    stale.name = "Renamed"
    stale.save()  # the admin's save of an instance read before the last report
    assert verify_chain(event).intact
    assert Event.objects.get(pk=event.pk).name == "Renamed"


def test_the_migration_chains_existing_rows(td_user):
    """The data migration's function over rows written before the chain existed."""
    import importlib

    from django.apps import apps

    event, _tables = played_night(td_user)
    AuditEntry.objects.filter(event=event).update(previous_digest="", digest="")
    Event.objects.filter(pk=event.pk).update(audit_digest="")
    assert not verify_chain(event).intact
    migration = importlib.import_module("tournaments.migrations.0015_audit_chain")
    migration.chain_existing(apps, None)
    assert verify_chain(event).intact


def test_a_table_drawn_again_or_a_user_deleted_leaves_the_chain_intact(td_user):
    """The foreign keys become NULL (a game drawn again after its results were undone, a
    user deleted): the digest covers the ids as written, so the log stays intact."""
    event = event_with_field(4)
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=80, user=td_user)
    services.undo_last_result(event, user=td_user, reason="Wrong draw")
    services.redraw_game(round_)
    td_user.delete()
    log = rows(event)
    assert [(r.table_id, r.user_id) for r in log] == [(None, None), (None, None)]
    assert log[0].written_table_id == table.pk and log[0].written_user_id is not None
    assert verify_chain(event).intact
