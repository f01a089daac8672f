"""The results app's writers of the audit log chain their rows (issue 27): players' reports,
a dispute and its ruling, the desk's check, a paper-card import; the archive carries the
digests and an imported event is chained anew."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.db import connection

from results import services
from results.archive import export_event, import_event
from results.archive.validate import check_shape
from tests.factories import ClubFactory, UserFactory, event_with_field
from tests.results.test_archive import demo_night, through_json
from tests.results.test_paper_import import cards_csv, played_event
from tournaments import services as tournament_services
from tournaments.audit_chain import GENESIS, verify_chain
from tournaments.models import AuditEntry, Event, Player

__all__ = ["demo_night"]
pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # throttle counters


def two_tables():
    event = event_with_field(4)
    one, two = tournament_services.draw_next_game(event).tables.order_by("number")
    keys = {
        t.pk: (services.key_for(t.seat_a).key, services.key_for(t.seat_b).key) for t in (one, two)
    }
    return event, one, two, keys


def actions(event: Event) -> list[str]:
    return list(
        AuditEntry.objects.filter(event=event).order_by("pk").values_list("action", flat=True)
    )


def test_reports_a_dispute_its_ruling_and_a_correction_chain_in_order():
    event, one, two, keys = two_tables()
    services.submit(keys[one.pk][0], table=one, winner=one.seat_a, loser_score=95)
    services.submit(keys[one.pk][1], table=one, winner=one.seat_a, loser_score=95)
    services.submit(keys[two.pk][0], table=two, winner=two.seat_a, loser_score=95)
    services.submit(keys[two.pk][1], table=two, winner=two.seat_a, loser_score=99)
    services.rule(event, table=two, user=UserFactory(), winner=two.seat_a, loser_score=99)
    tournament_services.record_result(
        event, table=one, winner=one.seat_b, loser_score=60, reason="Card misread"
    )
    assert actions(event) == [
        "submitted",
        "submitted",
        "confirmed",
        "submitted",
        "submitted",
        "disputed",
        "ruled",
        "corrected",
    ]
    check = verify_chain(event)
    last = AuditEntry.objects.filter(event=event).order_by("pk").last()
    assert check.intact and check.entries == 8 and check.digest == last.digest
    first = AuditEntry.objects.filter(event=event).order_by("pk").first()
    assert first.previous_digest == GENESIS


def test_the_desk_check_chains_its_rows():
    event, one, _two, keys = two_tables()
    Event.objects.filter(pk=event.pk).update(confirmation=Event.Confirmation.DESK_CHECK)
    services.submit(keys[one.pk][0], table=one, winner=one.seat_a, loser_score=95)
    services.submit(keys[one.pk][1], table=one, winner=one.seat_a, loser_score=95)
    services.check_agreed(event, table=one, user=UserFactory())
    assert actions(event) == ["submitted", "submitted", "to_check", "checked"]
    assert verify_chain(event).intact


def test_a_paper_card_import_chains_its_rows():
    event, rounds = played_event(8, 2)
    services.import_paper_cards(event, cards_csv(rounds), user=UserFactory())
    check = verify_chain(event)
    assert check.intact and check.entries == 16  # 8 games entered, 8 changed by the cards
    assert actions(event)[-1] == "paper_import"


def test_a_report_changed_with_raw_sql_is_named():
    event, one, _two, keys = two_tables()
    services.submit(keys[one.pk][0], table=one, winner=one.seat_a, loser_score=95)
    services.submit(keys[one.pk][1], table=one, winner=one.seat_a, loser_score=95)
    confirmed = AuditEntry.objects.get(event=event, action="confirmed")
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tournaments_auditentry SET new = %s WHERE id = %s",
            [json.dumps(dict(confirmed.new, loser_score=5)), confirmed.pk],
        )
    check = verify_chain(event)
    assert not check.intact and check.first_mismatch.entry.pk == confirmed.pk


def test_the_archive_carries_the_digests_and_an_import_chains_anew(demo_night):
    data = through_json(export_event(demo_night))
    stored = list(AuditEntry.objects.filter(event=demo_night).order_by("pk"))
    assert stored and data["audit_digest"] == demo_night.audit_digest == stored[-1].digest
    assert [a["digest"] for a in data["audit"]] == [a.digest for a in stored]
    assert [a["previous_digest"] for a in data["audit"]][1:] == [a.digest for a in stored][:-1]
    check_shape(data)  # the declared schema knows the digests
    Player.objects.filter(home_club=demo_night.club).update(acc_number="")
    copy = import_event(data, club=ClubFactory(name="Club nou", slug="club-nou"))
    check = verify_chain(copy)
    assert check.intact and check.entries == len(stored)
    # Chained anew (the digests cover the new database ids), in the archive's order.
    assert check.digest != data["audit_digest"]
    assert actions(copy) == [a.action for a in stored]
    copy.refresh_from_db()
    assert copy.audit_digest == check.digest


def test_an_archive_with_a_malformed_digest_is_refused(demo_night):
    from core.errors import ServiceError

    data = through_json(export_event(demo_night))
    data["audit_digest"] = "not a digest"
    with pytest.raises(ServiceError) as refused:
        check_shape(data)
    assert "audit_digest" in refused.value.message
