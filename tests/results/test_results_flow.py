"""Results from the table: submit, confirm, dispute, rule, correct; scoped, throttled, audited."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db.utils import IntegrityError

from core.errors import ServiceError
from results import services
from results.models import Dispute, Submission
from scoring.selectors import standings_for_event
from tests.factories import UserFactory, event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, GameResult, Table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # throttle counters


@pytest.fixture
def game(django_capture_on_commit_callbacks):
    event = event_with_field(4)
    round_ = tournament_services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    key_a = services.key_for(table.seat_a).key
    key_b = services.key_for(table.seat_b).key
    return event, table, key_a, key_b


def test_two_agreeing_reports_confirm_the_game(game, django_capture_on_commit_callbacks):
    event, table, key_a, key_b = game
    first = services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    assert first.state == "pending" and not GameResult.objects.filter(table=table).exists()
    with django_capture_on_commit_callbacks(execute=True):
        second = services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
    assert second.state == "confirmed"
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.margin, result.winner_points) == (table.seat_a_id, 26, 2)
    assert Submission.objects.filter(table=table, status="confirmed").count() == 1
    row = standings_for_event(event.pk).get(entry=table.seat_a)
    assert (row.game_points, row.spread) == (2, 26)
    assert list(AuditEntry.objects.filter(table=table).values_list("action", flat=True)) == [
        "confirmed",
        "submitted",
        "submitted",
    ]


def test_disagreement_goes_to_the_td_whose_ruling_is_final(game):
    event, table, key_a, key_b = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    outcome = services.submit(key_b, table=table, winner=table.seat_a, loser_score=99)
    assert outcome.state == "disputed"
    dispute = Dispute.objects.get(table=table)
    assert (
        dispute.is_open and Submission.objects.filter(table=table, status="disputed").count() == 2
    )
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=table, winner=table.seat_a, loser_score=90)
    assert caught.value.code == "in_dispute"
    td = UserFactory()
    chosen = Submission.objects.get(table=table, loser_score=99)
    result = services.rule(event, table=table, user=td, submission=chosen, note="Score sheet")
    assert result.margin == 22
    dispute.refresh_from_db()
    assert (dispute.ruling_id, dispute.ruled_by_id, dispute.note) == (
        chosen.pk,
        td.pk,
        "Score sheet",
    )
    assert AuditEntry.objects.filter(table=table, action="ruled", user=td).exists()


def test_a_player_disputes_the_opponents_version(game):
    event, table, key_a, key_b = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=100)
    services.dispute(key_b, table=table, reason="I won that game")
    assert Dispute.objects.get(table=table).reason == "I won that game"


def test_confirming_the_opponents_version(game):
    event, table, key_a, key_b = game
    theirs = services.submit(key_a, table=table, winner=table.seat_b, loser_score=70)
    outcome = services.confirm_opponent(key_b, table=table, version=theirs.submission)
    assert outcome.state == "confirmed"
    assert GameResult.objects.get(table=table).winner_id == table.seat_b_id


def test_a_confirmation_of_a_version_since_changed_is_refused(game):
    event, table, key_a, key_b = game
    seen = services.submit(key_a, table=table, winner=table.seat_a, loser_score=90).submission
    services.submit(key_a, table=table, winner=table.seat_b, loser_score=60)
    for named in ({"version": seen}, {"winner": table.seat_a, "loser_score": 90}):
        with pytest.raises(ServiceError) as caught:
            services.confirm_opponent(key_b, table=table, **named)
        assert caught.value.code == services.ConfirmRefusal.CHANGED
        name = table.seat_a.player.name
        assert caught.value.message == f"{name} changed the report: check it again."
    with pytest.raises(ServiceError) as caught:
        services.confirm_opponent(key_b, table=table)
    assert caught.value.code == "confirmation_unnamed"
    assert not GameResult.objects.filter(table=table).exists()
    assert Submission.objects.get(table=table, status="pending").loser_score == 60


def test_double_tap_stores_one_version(game):
    event, table, key_a, _ = game
    first = services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    again = services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    assert again.state == "duplicate" and again.submission.pk == first.submission.pk
    assert Submission.objects.filter(table=table).count() == 1


def test_a_changed_report_supersedes_the_players_previous_version(game):
    event, table, key_a, _ = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=96)
    statuses = list(Submission.objects.filter(table=table).values_list("status", flat=True))
    assert statuses == ["superseded", "pending"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"loser_score": 121}, "loser_reached_target"),
        ({"loser_score": -2}, "negative_score"),
        ({"loser_score": None}, "score_required"),
        (
            {"record": {"players": ["a", "b"], "deals": [{"dealer": 0, "hands": [["5X"]]}]}},
            "bad_record",
        ),
    ],
)
def test_bad_reports_are_refused_and_write_nothing(game, change, code):
    event, table, key_a, _ = game
    values = {"winner": table.seat_a, "loser_score": 95} | change
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=table, **values)
    assert caught.value.code == code
    assert not Submission.objects.exists() and not AuditEntry.objects.exists()


def test_a_key_only_reaches_its_own_games(game):
    event, table, key_a, _ = game
    other_table = table.round.tables.exclude(pk=table.pk).first()
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=other_table, winner=other_table.seat_a, loser_score=95)
    assert caught.value.code == "not_your_game"
    stranger = event_with_field(2)
    foreign = tournament_services.draw_next_game(stranger).tables.get()
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=foreign, winner=foreign.seat_a, loser_score=95)
    assert caught.value.code == "unknown_game"
    with pytest.raises(ServiceError) as caught:
        services.submit("not-a-key", table=table, winner=table.seat_a, loser_score=95)
    assert caught.value.code == "unknown_key"


def test_a_draft_game_takes_no_reports():
    event = event_with_field(4)
    round_ = tournament_services.draw_next_game(event, draft=True)
    table = round_.tables.first()
    with pytest.raises(ServiceError) as caught:
        services.submit(
            services.key_for(table.seat_a).key, table=table, winner=table.seat_a, loser_score=95
        )
    assert caught.value.code == "round_not_released"


def test_corrections_need_a_reason_and_are_logged(game, django_capture_on_commit_callbacks):
    event, table, key_a, key_b = game
    td = UserFactory()
    # One capture block: the test transaction never commits, so callbacks queued outside it
    # would never run (and the standings queue registers one per event per transaction).
    with django_capture_on_commit_callbacks(execute=True):
        services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
        services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
        with pytest.raises(ServiceError) as caught:
            services.correct(
                event, table=table, user=td, winner=table.seat_b, loser_score=80, reason=" "
            )
        assert caught.value.code == "reason_required"
        services.correct(
            event, table=table, user=td, winner=table.seat_b, loser_score=80, reason="Miscount"
        )
    entry = AuditEntry.objects.get(action="corrected")
    a, b = table.seat_a.player.name, table.seat_b.player.name
    assert entry.old == {"winner": a, "loser": b, "loser_score": 95, "forfeit": False}
    assert entry.new == {"winner": b, "loser": a, "loser_score": 80, "forfeit": False}
    assert (entry.user_id, entry.reason) == (td.pk, "Miscount")
    assert standings_for_event(event.pk).get(entry=table.seat_b).spread == 41
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    assert caught.value.code == "already_confirmed"


def test_the_database_allows_one_confirmed_version_per_game(game):
    event, table, key_a, key_b = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
    with pytest.raises(IntegrityError):
        Submission.objects.create(
            table=table,
            event=event,
            source="td",
            winner=table.seat_a,
            loser_score=1,
            status="confirmed",
        )


def test_a_flood_from_one_phone_is_throttled(game):
    event, table, key_a, _ = game
    for score in range(80, 80 + services.SUBMISSIONS_PER_MINUTE):
        services.submit(key_a, table=table, winner=table.seat_a, loser_score=score)
    with pytest.raises(ServiceError) as caught:
        services.submit(key_a, table=table, winner=table.seat_a, loser_score=60)
    assert caught.value.code == "throttled"


def test_paper_cards_are_reconciled_by_rule_12_2(game):
    event, table, *_ = game
    other = table.round.tables.exclude(pk=table.pk).first()
    a, b, c, d = table.seat_a.player, table.seat_b.player, other.seat_a.player, other.seat_b.player
    csv_text = (
        "\ufeffgame,table,player,result,spread\n"
        f"1,{table.number},{a.name},W,+12\n"
        f"1,{table.number},{b.name},L,-12\n"
        f"1,{other.number},{c.name},W,+20\n"
        f"1,{other.number},{d.name},W,+5\n"
    )
    report = services.import_paper_cards(event, csv_text, user=UserFactory())
    assert next(r["clause"] for r in report.recorded) == "agree"
    assert GameResult.objects.get(table=table).margin == 12
    assert report.summary["agree"] == 1 and len(report.recorded) + len(report.flagged) == 2
    with pytest.raises(ServiceError) as caught:
        services.import_paper_cards(event, "game,table\n1,1\n", user=None)
    assert caught.value.code == "bad_csv"


def test_single_counts_attached_to_a_report_are_checked(game):
    event, table, key_a, _ = game
    claims = {
        "claims": [
            {"kind": "hand", "cards": "5H 5C 5S JD", "starter": "5D", "claimed": 28},
            # A crib never scores a four-card flush: claiming it is 4 too many.
            {"kind": "crib", "cards": "2H 4H 6H 8H", "starter": "KS", "claimed": 4, "crib": True},
        ]
    }
    outcome = services.submit(
        key_a, table=table, winner=table.seat_a, loser_score=95, record=claims
    )
    report = outcome.submission.report
    assert report["claims_correct"] is False
    assert [(c["true"], c["difference"]) for c in report["claims"]] == [(29, -1), (0, 4)]
    with pytest.raises(ServiceError) as caught:
        services.submit(
            key_a,
            table=table,
            winner=table.seat_a,
            loser_score=96,
            record={
                "claims": [{"kind": "hand", "cards": "5H 5C 5S QQ", "starter": "5D", "claimed": 2}]
            },
        )
    assert caught.value.code == "bad_record" and "QQ" in caught.value.message


def test_a_ruling_only_settles_a_dispute_and_players_cannot_overturn_the_td(game):
    event, table, key_a, key_b = game
    td = UserFactory()
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
    # Confirmed: a ruling (what a scorekeeper may do at the desk) cannot flip it.
    with pytest.raises(ServiceError) as caught:
        services.rule(event, table=table, user=td, winner=table.seat_b, loser_score=10)
    assert caught.value.code == "not_disputed"
    assert GameResult.objects.get(table=table).winner_id == table.seat_a_id

    # A result the TD entered stands against two later agreeing reports.
    other = Table.objects.filter(round=table.round, seat_b__isnull=False).exclude(pk=table.pk)
    other = other.first()
    tournament_services.record_result(event, table=other, winner=other.seat_a, loser_score=80)
    key_c = services.key_for(other.seat_a).key
    with pytest.raises(ServiceError) as caught:
        services.submit(key_c, table=other, winner=other.seat_b, loser_score=70)
    assert caught.value.code == "already_confirmed"
    assert GameResult.objects.get(table=other).winner_id == other.seat_a_id


def test_an_event_that_checks_at_the_desk_waits_for_the_check(game):
    event, table, key_a, key_b = game
    event.confirmation = event.Confirmation.DESK_CHECK
    event.save(update_fields=["confirmation"])
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    both = services.submit(key_b, table=table, winner=table.seat_a, loser_score=95)
    # Both keys may have come from one table card: nothing counts until the desk checks.
    assert both.state == "to_check" and not GameResult.objects.filter(table=table).exists()
    assert Submission.objects.filter(table=table, status="to_check").count() == 2
    scorekeeper = UserFactory()
    result = services.check_agreed(event, table=table, user=scorekeeper)
    assert (result.winner_id, result.loser_score) == (table.seat_a_id, 95)
    assert AuditEntry.objects.filter(table=table, action="checked", user=scorekeeper).exists()
    with pytest.raises(ServiceError) as caught:
        services.check_agreed(event, table=table, user=scorekeeper)
    assert caught.value.code == "nothing_to_check"


def test_a_game_with_a_player_report_is_not_drawn_again(game, client, td_user):
    """A redraw would delete the tables and the players' reports and disputes with them."""
    event, table, key_a, _key_b = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    with pytest.raises(ServiceError) as caught:
        tournament_services.redraw_game(table.round)
    assert caught.value.code == "game_has_reports" and "Game 1" in caught.value.message
    assert Submission.objects.filter(table=table).exists()
    event.club.directors.add(td_user)
    client.force_login(td_user)
    page = client.get(f"/td/events/{event.pk}/games/1/").content.decode()
    assert "Draw again" not in page


def test_the_audit_names_the_player_who_raised_a_dispute(game, client, td_user):
    """Not "?": the player whose link disputed (the button, or a report that disagrees)."""
    event, table, key_a, key_b = game
    services.submit(key_a, table=table, winner=table.seat_a, loser_score=95)
    services.dispute(key_b, table=table, reason="Not what we played")
    (by_button,) = AuditEntry.objects.filter(table=table, action="disputed")
    assert by_button.actor == table.seat_b.player.name
    other = Table.objects.filter(round=table.round, seat_b__isnull=False).exclude(pk=table.pk)[0]
    key_c, key_d = services.key_for(other.seat_a).key, services.key_for(other.seat_b).key
    services.submit(key_c, table=other, winner=other.seat_a, loser_score=95)
    services.submit(key_d, table=other, winner=other.seat_b, loser_score=80)
    (by_report,) = AuditEntry.objects.filter(table=other, action="disputed")
    assert by_report.actor == other.seat_b.player.name
    event.club.directors.add(td_user)
    client.force_login(td_user)
    desk = client.get(f"/td/events/{event.pk}/results/").content.decode()
    assert "<td>?</td>" not in desk


def test_a_hostile_key_is_throttled_under_a_printable_cache_key():
    """Whatever a client sends as a key, the throttle's cache key stays short and printable
    (memcached's rules), and the same text still counts against one window."""
    import warnings

    from django.core.cache import CacheKeyWarning

    from results.error_codes import ResultsError
    from results.services import keys

    hostile = "E\x89U\U0004b014\n\U000c26d0" * 50
    with warnings.catch_warnings():
        warnings.simplefilter("error", CacheKeyWarning)
        for _ in range(keys.SUBMISSIONS_PER_MINUTE):
            keys.throttle(hostile)
        with pytest.raises(ServiceError) as refused:
            keys.throttle(hostile)
    assert refused.value.code == ResultsError.THROTTLED
