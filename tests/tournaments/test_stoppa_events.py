"""Stoppa events: sessions at tables of 3-6, reseating, chip nets summing to zero, standings by
chips then sessions won then best session, entry from verified deal records, pages and API."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from core.errors import ServiceError
from games.stoppa import random_session
from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.factories import ClubFactory, UserFactory, event_with_field, stoppa_event_with_field
from tournaments import services
from tournaments.models import Event, Round, StoppaSeat, StoppaTable
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db

NAMES = ("Ann", "Bea", "Cal", "Dan", "Zoë", "Nicolò")


def tables_of(round_: Round) -> list[list[int]]:
    """The entry ids of each numbered table of a session, in seat order."""
    out = []
    for table in round_.stoppa_tables.filter(number__isnull=False).order_by("number"):
        out.append(list(table.seats.order_by("position").values_list("entry_id", flat=True)))
    return out


def zero_sum_nets(members: list[int], rng: random.Random) -> dict[int, int]:
    nets = {pk: rng.randint(-30, 30) for pk in members[:-1]}
    nets[members[-1]] = -sum(nets.values())
    return nets


def play_session(event: Event, round_: Round, rng: random.Random) -> None:
    for table in round_.stoppa_tables.filter(number__isnull=False):
        members = list(table.seats.values_list("entry_id", flat=True))
        services_stoppa.record_session_nets(event, table=table, nets=zero_sum_nets(members, rng))


def hand_session(event: Event, number: int, tables: list[list]) -> Round:
    """A session seated by hand (known answers), released."""
    round_ = Round.objects.create(event=event, number=number, seed=1, method="stoppa")
    for n, members in enumerate(tables, start=1):
        table = StoppaTable.objects.create(round=round_, number=n)
        for position, entry in enumerate(members, start=1):
            StoppaSeat.objects.create(table=table, round=round_, entry=entry, position=position)
    return round_


def table_at(round_: Round, number: int) -> StoppaTable:
    return round_.stoppa_tables.get(number=number)


# --- Seating -------------------------------------------------------------------------------------


def test_a_field_of_17_is_seated_at_tables_of_3_to_4_and_everyone_once():
    event = stoppa_event_with_field(17, table_size=4, min_table_size=3)
    assert event.ranking_chain == ("chips", "sessions_won", "best_session")
    round_ = services.draw_next_game(event)  # the TD's usual button dispatches to Stoppa
    assert round_.method == "stoppa" and not round_.is_draft
    tables = tables_of(round_)
    assert sorted(len(t) for t in tables) == [3, 3, 3, 4, 4]
    seated = [pk for t in tables for pk in t]
    assert sorted(seated) == sorted(event.entries.values_list("pk", flat=True))
    assert not round_.stoppa_tables.filter(number__isnull=True).exists()
    assert round_.tables.count() == 0  # no two-seat cribbage tables
    for table in round_.stoppa_tables.all():
        positions = list(table.seats.order_by("position").values_list("position", flat=True))
        assert positions == list(range(1, len(positions) + 1))
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_fixed_table_sizes_3_to_6(size):
    event = stoppa_event_with_field(size * 3, table_size=size, min_table_size=size)
    assert [len(t) for t in tables_of(services.draw_next_game(event))] == [size] * 3


def test_a_field_that_does_not_fit_leaves_the_fewest_sitting_out():
    event = stoppa_event_with_field(5, table_size=4, min_table_size=4)
    round_ = services.draw_next_game(event)
    out = round_.stoppa_tables.get(number__isnull=True)
    assert out.seats.count() == 1 and [len(t) for t in tables_of(round_)] == [4]
    assert any("Sitting out" in note for note in round_.notes)
    # The players sitting out have no result to enter; the session is complete without them.
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_nets(event, table=out, nets={out.seats.get().entry_id: 0})
    assert exc.value.code == "sitting_out"
    play_session(event, round_, random.Random(1))
    second = services.draw_next_game(event)
    # Who sat out once plays next.
    assert out.seats.get().entry_id in {pk for t in tables_of(second) for pk in t}


def test_sessions_reseat_the_field_and_wait_for_every_table():
    event = stoppa_event_with_field(17)
    first = services.draw_next_game(event)
    with pytest.raises(ServiceError) as exc:
        services.draw_next_game(event)
    assert exc.value.code == "previous_game_open"
    play_session(event, first, random.Random(7))
    second = services.draw_next_game(event)
    met = Counter()
    for round_ in (first, second):
        for table in tables_of(round_):
            for a, b in combinations(sorted(table), 2):
                met[(a, b)] += 1
    # 17 players in tables of 3-4: the reseating finds a second session with no pair repeated.
    assert max(met.values()) == 1
    assert second.seed != first.seed


def test_a_draft_session_is_released_and_redrawn_only_before_results():
    event = stoppa_event_with_field(8)
    draft = services.draw_next_game(event, draft=True)
    assert draft.is_draft
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_nets(
            event, table=table_at(draft, 1), nets={pk: 0 for pk in tables_of(draft)[0]}
        )
    assert exc.value.code == "round_draft"
    redrawn = services.redraw_game(draft)
    assert redrawn.is_draft and redrawn.number == 1
    released = services.release_game(redrawn)
    assert not released.is_draft
    play_session(event, released, random.Random(3))
    with pytest.raises(ServiceError) as exc:
        services.redraw_game(released)
    assert exc.value.code == "game_has_results"
    services.finish_event(event)


def test_withdrawing_a_player_seated_in_a_draft_draws_it_again():
    event = stoppa_event_with_field(9)
    draft = services.draw_next_game(event, draft=True)
    gone = event.entries.first()
    services.withdraw_entry(gone)
    latest = event.rounds.get()
    assert latest.is_draft
    seated = {pk for t in tables_of(latest) for pk in t}
    assert gone.pk not in seated and len(seated) == 8
    assert not Round.objects.filter(pk=draft.pk).exists()


def test_table_sizes_are_checked():
    event = stoppa_event_with_field(6)
    with pytest.raises(ServiceError) as exc:
        services_stoppa.set_table_sizes(event, table_size=7, min_table_size=3)
    assert exc.value.code == "bad_table_size"
    with pytest.raises(ServiceError):
        services_stoppa.set_table_sizes(event, table_size=4, min_table_size=5)
    services_stoppa.set_table_sizes(event, table_size=6, min_table_size=6)
    assert [len(t) for t in tables_of(services.draw_next_game(event))] == [6]


# --- Nets ----------------------------------------------------------------------------------------


@pytest.fixture
def seated():
    event = stoppa_event_with_field(6, table_size=3, min_table_size=3, names=NAMES)
    by_name = {e.player.name: e for e in event.entries.select_related("player")}
    round_ = hand_session(
        event, 1, [[by_name[n] for n in NAMES[:3]], [by_name[n] for n in NAMES[3:]]]
    )
    return event, round_, by_name


@pytest.mark.parametrize(
    ("nets", "code"),
    [
        ({"Ann": 10, "Bea": -4, "Cal": -5}, "nets_not_zero"),
        ({"Ann": 10, "Bea": -10}, "net_missing"),
        ({"Ann": 10, "Bea": -4, "Cal": -6, "Dan": 0}, "not_at_table"),
        ({"Ann": "ten", "Bea": -4, "Cal": -6}, "bad_net"),
    ],
)
def test_refused_nets_write_nothing(seated, nets, code):
    event, round_, by_name = seated
    table = table_at(round_, 1)
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_nets(
            event, table=table, nets={by_name[n]: v for n, v in nets.items()}
        )
    assert exc.value.code == code and exc.value.message
    table.refresh_from_db()
    assert table.entered_at is None and table.source == ""
    assert not StoppaSeat.objects.filter(round=round_, net__isnull=False).exists()


def test_the_refusal_says_what_the_sum_is(seated):
    event, round_, by_name = seated
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_nets(
            event,
            table=table_at(round_, 1),
            nets={by_name["Ann"]: 10, by_name["Bea"]: -4, by_name["Cal"]: -5},
        )
    assert "+1" in exc.value.message and "0" in exc.value.message


def test_nets_are_recorded_corrected_and_queue_the_standings(
    seated, django_capture_on_commit_callbacks
):
    event, round_, by_name = seated
    table = table_at(round_, 1)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        services_stoppa.record_session_nets(
            event, table=table, nets={by_name["Ann"]: 10, by_name["Bea"]: -4, by_name["Cal"]: -6}
        )
    assert len(callbacks) == 1
    rows = {s.entry.player.name: s for s in standings_for_event(event.pk)}
    assert (rows["Ann"].chips, rows["Ann"].rank, rows["Cal"].chips) == (10, 1, -6)
    # A correction (the test's outer transaction keeps the first callback: run the job here).
    services_stoppa.record_session_nets(
        event,
        table=table,
        nets={by_name["Ann"]: 1, by_name["Bea"]: 2, by_name["Cal"]: -3},
        reason="Keyed at the wrong table",
    )
    recompute_standings(event.pk)
    rows = {s.entry.player.name: s for s in standings_for_event(event.pk)}
    assert (rows["Bea"].chips, rows["Bea"].rank) == (2, 1)
    assert (
        rows["Zoë"].chips == 0
        and rows["Zoë"].games_played == 0
        and rows["Zoë"].best_session is None
    )


# --- Standings -----------------------------------------------------------------------------------


def test_standings_by_chips_then_sessions_won_then_best_session(seated):
    event, first, e = seated
    enter = services_stoppa.record_session_nets
    enter(event, table=table_at(first, 1), nets={e["Ann"]: 10, e["Bea"]: -4, e["Cal"]: -6})
    enter(event, table=table_at(first, 2), nets={e["Dan"]: 2, e["Zoë"]: -1, e["Nicolò"]: -1})
    second = hand_session(
        event, 2, [[e["Ann"], e["Dan"], e["Zoë"]], [e["Bea"], e["Cal"], e["Nicolò"]]]
    )
    enter(event, table=table_at(second, 1), nets={e["Ann"]: -5, e["Dan"]: 3, e["Zoë"]: 2})
    enter(event, table=table_at(second, 2), nets={e["Bea"]: 9, e["Cal"]: -1, e["Nicolò"]: -8})
    recompute_standings(event.pk)

    rows = list(standings_for_event(event.pk))
    line = {
        r.entry.player.name: (r.rank, r.chips, r.sessions_won, r.best_session, r.separated_by)
        for r in rows
    }
    assert line == {
        "Dan": (1, 5, 2, 3, ""),
        "Ann": (2, 5, 1, 10, "sessions_won"),
        "Bea": (3, 5, 1, 9, "best_session"),
        "Zoë": (4, 1, 0, 2, "chips"),
        "Cal": (5, -7, 0, -1, "chips"),
        "Nicolò": (6, -9, 0, -1, "chips"),
    }
    assert [r.entry.player.name for r in rows] == ["Dan", "Ann", "Bea", "Zoë", "Cal", "Nicolò"]
    assert all(r.games_played == 2 for r in rows)
    assert sum(r.chips for r in rows) == 0

    # After session 1: Zoë and Nicolò tie on every tiebreaker (-1, no session won, best -1).
    after_one = {r.entry.player.name: r for r in standings_for_event(event.pk, after_game=1)}
    assert (after_one["Ann"].rank, after_one["Dan"].rank) == (1, 2)
    assert after_one["Zoë"].rank == after_one["Nicolò"].rank == 3
    assert after_one["Zoë"].tied and after_one["Nicolò"].tied
    # A shared best at the table counts as a session won for each.
    assert after_one["Dan"].sessions_won == 1 and after_one["Ann"].sessions_won == 1


def test_a_shared_best_net_wins_the_session_for_both(seated):
    event, round_, e = seated
    services_stoppa.record_session_nets(
        event, table=table_at(round_, 1), nets={e["Ann"]: 6, e["Bea"]: 6, e["Cal"]: -12}
    )
    recompute_standings(event.pk)
    rows = {r.entry.player.name: r for r in standings_for_event(event.pk)}
    assert rows["Ann"].sessions_won == rows["Bea"].sessions_won == 1
    assert rows["Ann"].rank == rows["Bea"].rank == 1 and rows["Ann"].tied


def test_the_chain_can_end_with_a_draw_of_lots(seated):
    event, round_, e = seated
    services.set_ranking_chain(event, ["chips", "sessions_won", "best_session", "draw"])
    services_stoppa.record_session_nets(
        event, table=table_at(round_, 1), nets={e["Ann"]: 6, e["Bea"]: 6, e["Cal"]: -12}
    )
    recompute_standings(event.pk)
    rows = {r.entry.player.name: r for r in standings_for_event(event.pk)}
    assert {rows["Ann"].rank, rows["Bea"].rank} == {1, 2}
    assert not rows["Ann"].tied


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    players=st.integers(min_value=3, max_value=14),
    size=st.integers(min_value=3, max_value=6),
    sessions=st.integers(min_value=1, max_value=3),
    seed=st.integers(min_value=0, max_value=10**6),
)
def test_property_total_chips_over_the_standings_is_zero(players, size, sessions, seed):
    event = stoppa_event_with_field(players, table_size=size, min_table_size=3, seed=seed)
    rng = random.Random(seed)
    expected: Counter = Counter()
    for _ in range(sessions):
        round_ = services.draw_next_game(event)
        for table in round_.stoppa_tables.filter(number__isnull=False):
            members = list(table.seats.values_list("entry_id", flat=True))
            assert 3 <= len(members) <= size
            nets = zero_sum_nets(members, rng)
            services_stoppa.record_session_nets(event, table=table, nets=nets)
            expected.update(nets)
    recompute_standings(event.pk)
    rows = list(standings_for_event(event.pk))
    assert len(rows) == players
    assert sum(r.chips for r in rows) == 0
    assert {r.entry_id: r.chips for r in rows} == {
        pk: expected[pk] for pk in event.entries.values_list("pk", flat=True)
    }
    chips = [r.chips for r in rows]
    assert chips == sorted(chips, reverse=True)


# --- Verified deal records -----------------------------------------------------------------------


def session_records(names, seed=5):
    return random_session(list(names), names[0], random.Random(seed))


def test_a_table_entered_from_verified_deals(seated):
    event, round_, e = seated
    names = NAMES[3:]  # Dan, Zoë, Nicolò: names with accents must match
    records = session_records(names)
    assert len(records) == 3
    table = services_stoppa.record_session_deals(event, table=table_at(round_, 2), deals=records)
    expected = Counter()
    for record in records:
        expected.update(record["nets"])
    nets = {s.entry.player.name: s.net for s in table.seats.select_related("entry__player")}
    assert nets == {n: expected[n] for n in names}
    assert sum(nets.values()) == 0
    assert table.source == "deals" and len(table.deals) == 3


def test_deal_records_are_refused_with_the_first_problem(seated):
    event, round_, e = seated
    table = table_at(round_, 2)
    records = session_records(NAMES[3:])
    bad = json.loads(json.dumps(records))
    first = bad[1]["players"][0]
    bad[1]["nets"][first] += 1
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_deals(event, table=table, deals=bad)
    assert exc.value.code == "deal_rejected" and "Deal 2" in exc.value.message
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_deals(event, table=table, deals=records[:2])
    assert exc.value.code == "incomplete_session"
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_deals(event, table=table, deals=[records[0]] * 3)
    assert exc.value.code == "incomplete_session"
    other = session_records(NAMES[:3])
    with pytest.raises(ServiceError) as exc:
        services_stoppa.record_session_deals(event, table=table, deals=other)
    assert exc.value.code == "deal_wrong_table"
    table.refresh_from_db()
    assert table.entered_at is None
    assert not table.seats.filter(net__isnull=False).exists()


# --- Pages ---------------------------------------------------------------------------------------


@pytest.fixture
def running(td_user):
    event = stoppa_event_with_field(7, names=NAMES)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    return event, round_


def test_public_pages_show_tables_and_chip_standings(client, running):
    event, round_ = running
    play_session(event, round_, random.Random(2))
    recompute_standings(event.pk)
    page = client.get(reverse("event", args=[event.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert "Session 1" in body and "Nicolò" in body and "Zoë" in body and "Chips" in body
    sessions = client.get(reverse("event-sessions", args=[event.pk]))
    assert sessions.status_code == 200 and "Nicolò" in sessions.content.decode()
    fragment = client.get(reverse("event-standings", args=[event.pk]))
    assert fragment.status_code == 200 and "Chips" in fragment.content.decode()
    assert client.get(reverse("event-projector", args=[event.pk])).status_code == 200


def test_td_session_page_enters_nets_row_by_row(client, running, td_user):
    event, round_ = running
    client.force_login(td_user)
    td = client.get(reverse("td-event", args=[event.pk]))
    assert td.status_code == 200 and "Session 1" in td.content.decode()
    # The cribbage result page of a Stoppa event sends the TD to the session page.
    game = client.get(reverse("td-game", args=[event.pk, 1]))
    assert game.status_code == 302 and game["Location"].endswith("/sessions/1/")
    url = reverse("td-session", args=[event.pk, 1])
    page = client.get(url)
    assert page.status_code == 200 and "Nicolò" in page.content.decode()

    table = table_at(round_, 1)
    members = list(table.seats.values_list("entry_id", flat=True))
    bad = {f"net_{pk}": 1 for pk in members}
    response = client.post(url, {"table": table.pk, "kind": "nets", **bad})
    assert response.status_code == 400
    assert "sum to" in response.content.decode()
    assert not table.seats.filter(net__isnull=False).exists()

    nets = zero_sum_nets(members, random.Random(4))
    good = {f"net_{pk}": v for pk, v in nets.items()}
    response = client.post(url, {"table": table.pk, "kind": "nets", **good}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Saved." in response.content.decode()
    assert dict(table.seats.values_list("entry_id", "net")) == nets

    table2 = table_at(round_, 2)
    names = list(table2.seats.order_by("position").values_list("entry__player__name", flat=True))
    records = session_records(names, seed=11)
    response = client.post(url, {"table": table2.pk, "kind": "deals", "deals": json.dumps(records)})
    assert response.status_code == 302
    table2.refresh_from_db()
    assert table2.source == "deals"
    response = client.post(url, {"table": table2.pk, "kind": "deals", "deals": "not json"})
    assert response.status_code == 400


def test_td_draws_through_the_event_page(client, td_user):
    event = stoppa_event_with_field(9)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    response = client.post(reverse("td-draw", args=[event.pk]))
    assert response.status_code == 302 and response["Location"].endswith("/sessions/1/")
    response = client.post(
        reverse("td-stoppa-tables", args=[event.pk]), {"table_size": 5, "min_table_size": 3}
    )
    assert response.status_code == 302
    event.refresh_from_db()
    assert (event.table_size, event.min_table_size) == (5, 3)


def test_a_td_of_another_club_gets_404(client, running):
    event, _round = running
    stranger = UserFactory(username="stranger")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    assert client.get(reverse("td-session", args=[event.pk, 1])).status_code == 404
    table = table_at(event.rounds.get(), 1)
    response = client.post(reverse("td-session", args=[event.pk, 1]), {"table": table.pk})
    assert response.status_code == 404
    api = APIClient()
    api.force_authenticate(stranger)
    payload = {"session": 1, "table": 1, "nets": []}
    response = api.post(reverse("api-stoppa-results", args=[event.pk]), payload, format="json")
    assert response.status_code == 404


# --- API -----------------------------------------------------------------------------------------


def test_api_sessions_are_public(running):
    event, round_ = running
    api = APIClient()
    response = api.get(reverse("api-stoppa-sessions", args=[event.pk]))
    assert response.status_code == 200
    sessions = response.json()
    assert [s["session"] for s in sessions] == [1]
    seated = [seat["name"] for t in sessions[0]["tables"] for seat in t["seats"]]
    assert sorted(seated) == sorted(event.entries.values_list("player__name", flat=True))
    assert "Nicolò" in seated


def test_api_td_posts_nets_and_deals(running, td_user):
    event, round_ = running
    api = APIClient()
    api.force_authenticate(td_user)
    url = reverse("api-stoppa-results", args=[event.pk])
    table = table_at(round_, 1)
    members = list(table.seats.values_list("entry_id", flat=True))

    bad = {"session": 1, "table": 1, "nets": [{"entry": pk, "net": 2} for pk in members]}
    response = api.post(url, bad, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "nets_not_zero"
    assert not table.seats.filter(net__isnull=False).exists()

    nets = zero_sum_nets(members, random.Random(9))
    payload = {"session": 1, "table": 1, "nets": [{"entry": k, "net": v} for k, v in nets.items()]}
    response = api.post(url, payload, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["complete"] and {s["entry"]: s["net"] for s in body["seats"]} == nets

    table2 = table_at(round_, 2)
    names = list(table2.seats.order_by("position").values_list("entry__player__name", flat=True))
    response = api.post(
        url, {"session": 1, "table": 2, "deals": session_records(names)}, format="json"
    )
    assert response.status_code == 201, response.content
    assert response.json()["source"] == "deals"

    response = api.post(url, {"session": 1, "table": 2}, format="json")
    assert response.status_code == 400
    response = api.post(url, {"session": 1, "table": 9, "nets": []}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["code"] == "unknown_table"

    recompute_standings(event.pk)
    standings = api.get(reverse("api-standings", args=[event.pk])).json()["results"]
    assert sum(row["chips"] for row in standings) == 0
    assert all(row["sessions_won"] is not None for row in standings)


def test_api_needs_a_login_and_a_stoppa_event(running):
    event, _round = running
    api = APIClient()
    url = reverse("api-stoppa-results", args=[event.pk])
    assert api.post(url, {}, format="json").status_code in (401, 403)
    cribbage = event_with_field(4)
    services.draw_next_game(cribbage)
    response = api.get(reverse("api-stoppa-sessions", args=[cribbage.pk]))
    assert response.status_code == 404
    assert APIClient().get(reverse("event-sessions", args=[cribbage.pk])).status_code == 404


def test_stoppa_nights_stay_out_of_the_cribbage_season_ledgers():
    import datetime

    from scoring.models import SeasonLedger
    from scoring.seasons import create_season, recompute_season

    event = stoppa_event_with_field(6, date=datetime.date(2026, 10, 1))
    play_session(event, services.draw_next_game(event), random.Random(8))
    recompute_standings(event.pk)
    season = create_season(
        event.club, start=datetime.date(2026, 9, 1), end=datetime.date(2027, 5, 31)
    )
    recompute_season(season.pk)
    assert not SeasonLedger.objects.filter(season=season).exists()


def test_chip_nets_are_audited_by_player_name(running, td_user):
    from tournaments.models import AuditEntry

    event, round_ = running
    table = table_at(round_, 1)
    members = list(table.seats.select_related("entry__player").order_by("position"))
    nets = {s.entry_id: (12 if i == 0 else -12 if i == 1 else 0) for i, s in enumerate(members)}
    services_stoppa.record_session_nets(event, table=table, nets=nets, user=td_user)
    entry = AuditEntry.objects.get(event=event, action="stoppa_nets")
    assert entry.old is None and entry.new["table"] == 1 and entry.new["session"] == 1
    assert entry.new["nets"][members[0].entry.player.name] == 12
    assert entry.actor == td_user.get_username()
