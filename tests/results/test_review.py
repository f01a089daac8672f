"""The discard review of a stored game record: queued on commit, run by Celery (eager here),
stored per submission, shown on the player's page and as the TD's "missed points" leaders."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import reverse

from results import services
from results.models import DiscardReview, Submission
from results.reviews import missed_points_leaders, player_reviews
from results.services.review import review_submission
from tests.factories import event_with_field
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db

EXAMPLE = json.loads(
    (Path(__file__).parents[2] / "games" / "cribbage" / "example_game.json").read_text()
)


@pytest.fixture
def night(td_user):
    cache.clear()  # the per-key report throttle lives in the cache
    event = event_with_field(4)
    event.club.directors.add(td_user)
    table = tournament_services.draw_next_game(event).tables.order_by("number").first()
    return event, table


def record_for(table, *, swap: bool = False) -> dict:
    """The example game (Ann v Bob) with the table's players' names in it."""
    record = copy.deepcopy(EXAMPLE)
    names = [table.seat_a.player.name, table.seat_b.player.name]
    record["players"] = names[::-1] if swap else names
    record.pop("result", None)
    return record


def submit(table, record, django_capture_on_commit_callbacks):
    key = services.key_for(table.seat_a).key
    with django_capture_on_commit_callbacks(execute=True):
        outcome = services.submit(
            key, table=table, winner=table.seat_b, loser_score=59, record=record
        )
    return outcome.submission


def test_record_is_reviewed_after_commit_and_shown_to_the_player(
    client, night, django_capture_on_commit_callbacks
):
    event, table = night
    submission = submit(table, record_for(table), django_capture_on_commit_callbacks)
    review = DiscardReview.objects.get(submission=submission)
    assert review.status == "done" and review.event_id == event.pk
    data = review.review
    assert data["entries"] == [table.seat_a_id, table.seat_b_id]
    totals = {t["player"]: t for t in data["totals"]}
    assert totals[0]["decisions"] == 7 and totals[0]["given_away"] == 33.6784
    assert totals[1]["given_away"] == 28.9196
    assert data["costliest"][0]["cost"] == 11.0694

    games = player_reviews(table.seat_a)
    assert len(games) == 1 and games[0].given_away == 33.6784
    anns = sorted((d for d in data["decisions"] if d["player"] == 0), key=lambda d: -d["cost"])
    assert [d["deal_number"] for d in games[0].costliest] == [d["deal"] + 1 for d in anns[:3]]
    page = client.get(reverse("player-page", args=[services.key_for(table.seat_a).key]))
    body = page.content.decode()
    assert "Your discards" in body
    assert "33.68 points given away over 7 discards (0 best)." in body
    assert "Deal 4: you threw" in body and "5♠" in body and "3♣" in body and "\u221211.07" in body


def test_names_in_another_order_still_find_each_player(night, django_capture_on_commit_callbacks):
    _event, table = night
    submit(table, record_for(table, swap=True), django_capture_on_commit_callbacks)
    data = DiscardReview.objects.get().review
    assert data["entries"] == [table.seat_b_id, table.seat_a_id]
    assert player_reviews(table.seat_b)[0].given_away == 33.6784


def test_td_sees_missed_points_leaders(client, night, td_user, django_capture_on_commit_callbacks):
    event, table = night
    submit(table, record_for(table), django_capture_on_commit_callbacks)
    leaders = missed_points_leaders(event)
    assert [(m.entry_id, m.given_away, m.decisions, m.games) for m in leaders] == [
        (table.seat_a_id, 33.68, 7, 1),
        (table.seat_b_id, 28.92, 7, 1),
    ]
    client.force_login(td_user)
    desk = client.get(reverse("results-desk", args=[event.pk]))
    body = desk.content.decode()
    assert "Missed points at the discard" in body
    assert table.seat_a.player.name in body and "33.68" in body and "4.81" in body  # 33.68 / 7


def test_a_record_without_dealt_cards_reviews_nothing_and_counts_nowhere(
    night, django_capture_on_commit_callbacks
):
    event, table = night
    record = record_for(table)
    for deal in record["deals"]:
        deal.pop("dealt")
    submit(table, record, django_capture_on_commit_callbacks)
    assert DiscardReview.objects.get().review["unknown"] == 14
    assert player_reviews(table.seat_a) == []
    assert missed_points_leaders(event) == []


def test_single_counts_are_not_reviewed(night, django_capture_on_commit_callbacks):
    _event, table = night
    claims = {"claims": [{"kind": "hand", "cards": "5H 5C 5S JD", "starter": "5D", "claimed": 29}]}
    submit(table, claims, django_capture_on_commit_callbacks)
    assert Submission.objects.count() == 1
    assert not DiscardReview.objects.exists()


def test_a_record_that_does_not_verify_is_stored_as_refused(night):
    _event, table = night
    record = record_for(table)
    record["deals"][0]["play"][0]["card"] = "KD"  # nobody holds it: an error, readable though
    submission = Submission.objects.create(
        table=table,
        event=table.round.event,
        source="player",
        by_entry=table.seat_a,
        winner=table.seat_b,
        loser_score=59,
        record=record,
    )
    review = review_submission(submission.pk)
    assert review.status == "refused"
    assert review.review["code"] == "invalid_record"
    assert review_submission(submission.pk).pk == review.pk  # again: the same row, updated
