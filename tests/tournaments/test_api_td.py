"""The TD's REST API: every action of the TD console, scoped by club, errors as 400."""

from __future__ import annotations

import datetime

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from results.models import Scorekeeper
from tests.factories import (
    ClubFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    RoundFactory,
    UserFactory,
    event_with_field,
)
from tournaments import services
from tournaments.models import AuditEntry, Bracket, Entry, Event, GameResult, Round, Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def td(api, td_user):
    api.force_authenticate(td_user)
    return api


@pytest.fixture
def event(td_user):
    found = event_with_field(8, name="Tuesday night")
    found.club.directors.add(td_user)
    return found


@pytest.fixture
def stranger(api):
    """A signed-in TD of another club."""
    user = UserFactory(username="elsewhere")
    ClubFactory().directors.add(user)
    client = APIClient()
    client.force_authenticate(user)
    return client


def url(event, tail=""):
    return f"/api/v1/events/{event.pk}/{tail}"


def errors(response) -> list[tuple[str | None, str, str]]:
    """(field, code, message) of each error of a 400."""
    assert response.status_code == 400, response.content
    return [(e["attr"], e["code"], e["detail"]) for e in response.json()["errors"]]


def play(event, round_, loser_score=95):
    for table in round_.tables.filter(seat_b__isnull=False).order_by("number"):
        services.record_result(event, table=table, winner=table.seat_a, loser_score=loser_score)


# --- Events ---------------------------------------------------------------------------------


def test_create_an_event_in_the_club(td, td_user):
    club = ClubFactory(name="Harbour Cribbage")
    club.directors.add(td_user)
    response = td.post(
        f"/api/v1/clubs/{club.pk}/events/",
        {"name": " Spring  open ", "date": "2026-12-01", "games_planned": 5, "target": 61},
        format="json",
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["date"], body["games_planned"], body["target"]) == (
        "Spring open",
        "2026-12-01",
        5,
        61,
    )
    assert (body["status"], body["club"]["name"], body["game"]) == ("draft", club.name, "cribbage")
    assert body["locks"] == {}
    listing = td.get(f"/api/v1/clubs/{club.pk}/events/").json()
    assert [e["id"] for e in listing] == [body["id"]]


def test_create_refuses_bad_input_with_a_message(td, td_user):
    club = ClubFactory()
    club.directors.add(td_user)
    response = td.post(
        f"/api/v1/clubs/{club.pk}/events/", {"name": "   ", "date": "2026-12-01"}, format="json"
    )
    assert errors(response) == [("name", "name_required", "An event needs a name.")]
    response = td.post(f"/api/v1/clubs/{club.pk}/events/", {"name": "X"}, format="json")
    assert errors(response)[0][:2] == ("date", "required")


def test_another_clubs_td_gets_404_and_anonymous_403(api, stranger, event):
    club_url = f"/api/v1/clubs/{event.club_id}/events/"
    for client in (stranger, api):
        expected = 404 if client is stranger else 401
        assert client.post(club_url, {"name": "X", "date": "2026-12-01"}).status_code == expected
        assert client.get(url(event, "settings/")).status_code == expected
        assert client.patch(url(event), {"name": "Mine"}, format="json").status_code == expected
        assert client.post(url(event, "entries/"), {"name": "Zed"}).status_code == expected
        assert client.post(url(event, "games/"), {}).status_code == expected
        assert client.post(url(event, "finish/")).status_code == expected
        assert client.post(url(event, "results/undo/")).status_code == expected
        assert client.post(url(event, "playoff/"), {}).status_code == expected
    assert Event.objects.get(pk=event.pk).name == "Tuesday night"
    assert not event.rounds.exists() and not event.entries.filter(player__name="Zed").exists()


def test_edit_settings_and_a_locked_one_says_why(td, event):
    response = td.patch(url(event), {"name": "Wednesday night", "games_planned": 6}, format="json")
    assert response.status_code == 200, response.content
    assert (response.json()["name"], response.json()["games_planned"]) == ("Wednesday night", 6)
    services.draw_next_game(event)
    settings = td.get(url(event, "settings/")).json()
    assert "target" in settings["locks"] and settings["status"] == "running"
    field, code, message = errors(td.patch(url(event), {"target": 61}, format="json"))[0]
    assert (field, code) == ("target", "setting_locked")
    assert "first round is drawn" in message
    assert Event.objects.get(pk=event.pk).target == 121


def test_finish_reopen_and_publish(td, event):
    services.draw_next_game(event)
    field, code, message = errors(td.post(url(event, "finish/")))[0]
    assert code == "previous_game_open" and "no result" in message
    play(event, event.rounds.get())
    assert td.post(url(event, "finish/")).json()["status"] == "finished"
    assert td.post(url(event, "reopen/")).json()["status"] == "running"
    assert errors(td.post(url(event, "reopen/")))[0][1] == "not_finished"
    body = td.post(url(event, "standings/publish/"), {"published": False}, format="json").json()
    assert body["standings_published"] is False
    assert errors(td.post(url(event, "standings/publish/"), {}, format="json"))[0][:2] == (
        "published",
        "required",
    )


# --- Entries --------------------------------------------------------------------------------


def test_register_by_name_and_by_club_player_id(td, event):
    response = td.post(
        url(event, "entries/"), {"name": "Ann Whitfield", "acc_number": "A-1234"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["name"], body["acc_number"], body["checked_in"], body["withdrawn"]) == (
        "Ann Whitfield",
        "A-1234",
        True,
        False,
    )
    member = PlayerFactory(name="Bob Ng", home_club=event.club)
    response = td.post(url(event, "entries/"), {"player": member.pk}, format="json")
    assert response.status_code == 201 and response.json()["player"] == member.pk
    again = td.post(url(event, "entries/"), {"player": member.pk}, format="json")
    assert errors(again) == [("name", "already_entered", "Bob Ng is already entered.")]
    assert errors(td.post(url(event, "entries/"), {"name": " "}, format="json"))[0][1] == (
        "name_required"
    )


def test_import_a_roster(td, event):
    text = "name\nCarla Diaz, C-77\nDev Patel\nDev Patel\n"
    response = td.post(url(event, "entries/import/"), {"text": text}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["added"], body["matched"], body["skipped"]) == (2, 0, 1)
    assert body["lines"][0] == {
        "line": 2,
        "name": "Carla Diaz",
        "acc_number": "C-77",
        "outcome": "added",
        "reason": "",
    }
    assert body["lines"][2]["reason"] == "Listed twice."
    assert errors(td.post(url(event, "entries/import/"), {"text": "\n"}, format="json"))[0][1] in (
        "blank",
        "empty_list",
    )


def test_check_in_out_withdraw_and_reinstate_one_entry(td, stranger, event):
    entry = event.entries.order_by("pk").first()
    base = url(event, f"entries/{entry.pk}/")
    assert td.post(base + "check-out/").json()["checked_in"] is False
    assert td.post(base + "check-in/").json()["checked_in"] is True
    body = td.post(base + "withdraw/").json()
    assert (body["withdrawn"], body["checked_in"], body["name"]) == (True, False, entry.player.name)
    assert errors(td.post(base + "check-in/"))[0][1] == "withdrawn"
    body = td.post(base + "reinstate/").json()
    assert (body["withdrawn"], body["checked_in"]) == (False, True)
    assert errors(td.post(base + "reinstate/")) == [
        ("entry", "not_withdrawn", f"{entry.player.name} has not withdrawn.")
    ]
    assert stranger.post(base + "withdraw/").status_code == 404
    other = EntryFactory()  # an entry of another event is not found under this one
    assert td.post(url(event, f"entries/{other.pk}/withdraw/")).status_code == 404


def test_check_in_all(td, event):
    Entry.objects.filter(event=event).update(checked_in=False)
    assert td.post(url(event, "entries/check-in-all/")).json() == {"checked_in": 8}
    assert td.post(url(event, "entries/check-in-all/")).json() == {"checked_in": 0}


def test_a_td_reads_a_draft_events_entries(td, event):
    assert event.status == Event.Status.DRAFT
    assert APIClient().get(url(event, "entries/")).status_code == 404
    assert len(td.get(url(event, "entries/")).json()["results"]) == 8


# --- Games ----------------------------------------------------------------------------------


def test_draw_swap_redraw_and_release(td, event):
    response = td.post(url(event, "games/"), {"draft": True}, format="json")
    assert response.status_code == 201, response.content
    game = response.json()
    assert (game["number"], game["status"], len(game["tables"])) == (1, "draft", 4)
    first = game["tables"][0]
    assert first["seat_a_name"] == Entry.objects.get(pk=first["seat_a"]).player.name
    a, b = game["tables"][0]["seat_a"], game["tables"][1]["seat_a"]
    swapped = td.post(url(event, "games/1/swap/"), {"player_a": a, "player_b": b}, format="json")
    assert swapped.status_code == 200, swapped.content
    assert swapped.json()["tables"][0]["seat_a"] == b and swapped.json()["problems"] == []
    assert td.get(url(event, "games/1/")).json()["tables"][1]["seat_a"] == a
    redrawn = td.post(url(event, "games/1/redraw/"))
    assert redrawn.status_code == 200 and redrawn.json()["status"] == "draft"
    released = td.post(url(event, "games/1/release/"))
    assert released.status_code == 200 and released.json()["status"] == "released"
    assert errors(td.post(url(event, "games/1/release/")))[0][1] == "already_released"
    assert errors(td.post(url(event, "games/"), {}, format="json")) == [
        (None, "previous_game_open", "Game 1 still has open tables: 1, 2, 3, 4.")
    ]
    assert td.post(url(event, "games/9/redraw/")).status_code == 404


def test_a_swap_that_repeats_needs_confirm(td, event):
    first = services.draw_next_game(event)
    play(event, first)
    draft = services.draw_next_game(event, draft=True)
    old = first.tables.order_by("number").first()
    x, y = old.seat_a_id, old.seat_b_id
    here = next(t for t in draft.tables.all() if x in (t.seat_a_id, t.seat_b_id))
    z = here.seat_b_id if here.seat_a_id == x else here.seat_a_id
    payload = {"player_a": y, "player_b": z}
    field, code, message = errors(td.post(url(event, "games/2/swap/"), payload, format="json"))[0]
    assert (field, code) == ("confirm", "swap_needs_confirmation")
    confirmed = td.post(url(event, "games/2/swap/"), payload | {"confirm": True}, format="json")
    assert confirmed.status_code == 200 and confirmed.json()["problems"]


# --- Results --------------------------------------------------------------------------------


def test_correct_a_result_with_a_reason(td, event, td_user):
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=95)
    payload = {"game": 1, "table": table.number, "winner": table.seat_b_id, "loser_score": 100}
    assert errors(td.post(url(event, "results/correct/"), payload, format="json"))[0][:2] == (
        "reason",
        "required",
    )
    response = td.post(
        url(event, "results/correct/"), payload | {"reason": "Card misread"}, format="json"
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["winner"], body["loser_score"], body["game"], body["table"]) == (
        table.seat_b_id,
        100,
        1,
        table.number,
    )
    log = AuditEntry.objects.filter(event=event, action="corrected").get()
    assert (log.reason, log.new["winner"]) == ("Card misread", table.seat_b.player.name)


def test_a_scorekeeper_may_not_correct(api, event):
    keeper = UserFactory(username="keeper")
    Scorekeeper.objects.create(club=event.club, user=keeper)
    api.force_authenticate(keeper)
    payload = {"game": 1, "table": 1, "winner": 1, "loser_score": 100, "reason": "x"}
    response = api.post(url(event, "results/correct/"), payload, format="json")
    assert response.status_code == 403
    assert "tournament director" in response.json()["errors"][0]["detail"]
    assert api.post(url(event, "finish/")).status_code == 404  # nor change the event


def test_a_scorekeeper_checks_agreeing_reports(api, event):
    from django.core.cache import cache

    from results import services as results_services

    cache.clear()
    Event.objects.filter(pk=event.pk).update(confirmation=Event.Confirmation.DESK_CHECK)
    table = services.draw_next_game(event).tables.order_by("number").first()
    check = {"game": 1, "table": table.number}
    keeper = UserFactory(username="keeper")
    Scorekeeper.objects.create(club=event.club, user=keeper)
    api.force_authenticate(keeper)
    assert errors(api.post(url(event, "results/check/"), check, format="json"))[0][1] == (
        "nothing_to_check"
    )
    for entry in (table.seat_a, table.seat_b):
        key = results_services.key_for(entry).key
        results_services.submit(key, table=table, winner=table.seat_a, loser_score=90)
    response = api.post(url(event, "results/check/"), check, format="json")
    assert response.status_code == 201, response.content
    assert (response.json()["winner"], response.json()["loser_score"]) == (table.seat_a_id, 90)
    assert AuditEntry.objects.filter(event=event, action="checked", actor="keeper").exists()
    assert APIClient().post(url(event, "results/check/"), check, format="json").status_code == 401


def test_undo_the_last_result(td, event):
    round_ = services.draw_next_game(event)
    tables = list(round_.tables.order_by("number"))
    services.record_result(event, table=tables[0], winner=tables[0].seat_a, loser_score=95)
    services.record_result(event, table=tables[1], winner=tables[1].seat_b, forfeit=True)
    response = td.post(url(event, "results/undo/"), {"reason": "Wrong table"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json() == {
        "game": 1,
        "table": 2,
        "undone": {
            "winner": tables[1].seat_b.player.name,
            "loser": tables[1].seat_a.player.name,
            "loser_score": None,
            "forfeit": True,
        },
        "draft_removed": None,
    }
    assert not GameResult.objects.filter(table=tables[1]).exists()
    td.post(url(event, "results/undo/"))
    assert errors(td.post(url(event, "results/undo/"))) == [
        (None, "no_results", "There is no result to undo.")
    ]


# --- Playoffs -------------------------------------------------------------------------------


def test_cut_record_and_undo_a_playoff_game(td, event):
    Event.objects.filter(pk=event.pk).update(kind=Event.Kind.SANCTIONED)
    play(event, services.draw_next_game(event))
    bad = td.post(url(event, "playoff/"), {"qualifiers": 99}, format="json")
    assert errors(bad)[0][:2] == ("qualifiers", "too_many_qualifiers")
    response = td.post(url(event, "playoff/"), {"qualifiers": 4, "best_of": [1]}, format="json")
    assert response.status_code == 201, response.content
    bracket = response.json()
    assert (bracket["source"], bracket["entrants"], len(bracket["seeds"])) == ("qualifying", 8, 4)
    match = next(m for m in bracket["matches"] if all(s["entry"] for s in m["seats"]))
    winner = match["seats"][0]["entry"]
    payload = {"match": match["code"], "winner": winner, "loser_score": 90}
    recorded = td.post(url(event, "playoff/games/"), payload, format="json")
    assert recorded.status_code == 201, recorded.content
    assert (recorded.json()["winner"], recorded.json()["decided"]) == (winner, True)
    again = td.post(url(event, "playoff/games/"), payload, format="json")
    assert errors(again)[0][1] == "match_decided"
    undone = td.post(url(event, "playoff/games/undo/"), {"match": match["code"]}, format="json")
    assert undone.status_code == 200 and undone.json()["games"] == []
    assert errors(td.post(url(event, "playoff/games/undo/"), {"match": "ZZ"}, format="json"))[0][
        1
    ] == ("unknown_match")
    assert Bracket.objects.filter(event=event).count() == 1


# --- Tokens and a whole night ----------------------------------------------------------------


def test_api_token_command_prints_a_working_token(td_user, capsys):
    call_command("api_token", "director")
    key = capsys.readouterr().out.strip()
    assert Token.objects.get(user=td_user).key == key
    call_command("api_token", "director", "--reset")
    assert capsys.readouterr().out.strip() != key


def test_a_whole_night_only_through_the_api(td_user, django_capture_on_commit_callbacks):
    club = ClubFactory(name="Harbour Cribbage")
    club.directors.add(td_user)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=td_user).key}")

    def ok(response, code=200):
        assert response.status_code == code, response.content
        return response.json()

    today = datetime.date(2026, 11, 24).isoformat()
    event = ok(
        api.post(
            f"/api/v1/clubs/{club.pk}/events/",
            {"name": "Harbour night", "date": today, "games_planned": 2},
            format="json",
        ),
        201,
    )
    base = f"/api/v1/events/{event['id']}/"
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
    ids = {}
    for name in names:
        entry = ok(
            api.post(base + "entries/", {"name": name, "checked_in": False}, format="json"), 201
        )
        ids[entry["id"]] = name
    assert ok(api.post(base + "entries/check-in-all/", format="json")) == {"checked_in": 8}
    # Ann wins both her games by a skunk; everyone else's seat A wins narrowly.
    ann = next(pk for pk, name in ids.items() if name == "Ann")
    with django_capture_on_commit_callbacks(execute=True):
        for _game in (1, 2):
            game = ok(api.post(base + "games/", {}, format="json"), 201)
            for table in game["tables"]:
                winner = ann if ann in (table["seat_a"], table["seat_b"]) else table["seat_a"]
                score = 80 if winner == ann else 115
                ok(
                    api.post(
                        base + "results/",
                        {
                            "game": game["number"],
                            "table": table["number"],
                            "winner": winner,
                            "loser_score": score,
                        },
                        format="json",
                    ),
                    201,
                )
        assert ok(api.post(base + "finish/", format="json"))["status"] == "finished"
    standings = ok(api.get(base + "standings/"))["results"]
    assert standings[0]["entry"] == ann
    assert standings[0]["display"].startswith("6/2")  # two skunks: 3 game points each
    assert Round.objects.filter(event_id=event["id"]).count() == 2


def test_a_cut_across_a_tie_waits_for_confirm_lots(td, td_user):
    event = EventFactory(kind=Event.Kind.SANCTIONED, games_planned=1, status=Event.Status.RUNNING)
    event.club.directors.add(td_user)
    entries = [EntryFactory(event=event, player__name=n) for n in "ABCDEFGH"]
    round_ = RoundFactory(event=event, number=1)
    for i in range(4):  # four winners tie on every tiebreaker: 2 GP, 1 win, +20
        table = Table.objects.create(
            round=round_, number=i + 1, seat_a=entries[i + 4], seat_b=entries[i]
        )
        services.record_result(event, table=table, winner=entries[i], loser_score=101)
    field, code, message = errors(
        td.post(url(event, "playoff/"), {"qualifiers": 2}, format="json")
    )[0]
    assert (field, code) == ("confirm_lots", "cut_tie") and "draw of lots" in message
    response = td.post(
        url(event, "playoff/"), {"qualifiers": 2, "confirm_lots": True}, format="json"
    )
    assert response.status_code == 201, response.content
    assert set(response.json()["seeds"]) <= {e.pk for e in entries[:4]}


def test_withdraw_with_the_forfeit_of_the_open_table(td, event):
    """Issue 22 item 3 through the API: the forfeit is offered in the same step."""
    from tournaments import services as tournament_services
    from tournaments.models import GameResult

    round_ = tournament_services.draw_next_game(event)
    table = round_.tables.exclude(seat_b=None).order_by("number").first()
    kept = round_.tables.exclude(seat_b=None).order_by("number").last()
    base = url(event, f"entries/{table.seat_a_id}/")
    assert td.post(base + "withdraw/", {"forfeit_open": True}, format="json").status_code == 200
    result = GameResult.objects.get(table=table)
    assert (result.winner_id, result.kind) == (table.seat_b_id, GameResult.Kind.FORFEIT)
    plain = url(event, f"entries/{kept.seat_a_id}/")
    assert td.post(plain + "withdraw/").status_code == 200  # the default keeps the table open
    assert not GameResult.objects.filter(table=kept).exists()
    assert td.post(base + "reinstate/").json()["withdrawn"] is False
    bad = td.post(plain + "withdraw/", {"forfeit_open": "lots"}, format="json")
    assert bad.status_code == 400
