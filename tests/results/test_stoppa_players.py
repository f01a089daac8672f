"""Stoppa players served by their private links: table, seat, session nets and running chips;
the table's nets reported by one player and confirmed by every other (or entered by the TD);
the printed score card and the results desk in Stoppa's terms (issue 22, item 7)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import ServiceError
from results import services
from results.models import NetSheet
from results.selectors_sheets import player_seat
from tests.factories import stoppa_event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, StoppaTable
from tournaments.stoppa import services as services_stoppa

pytestmark = pytest.mark.django_db


def _session(players: int = 4):
    """A Stoppa event with one released session at one table of ``players``."""
    event = stoppa_event_with_field(players, table_size=players, min_table_size=3)
    round_ = tournament_services.draw_next_game(event)
    table = round_.stoppa_tables.get(number=1)
    seats = list(table.seats.select_related("entry__player").order_by("position"))
    return event, table, seats


def _key(seat) -> str:
    return services.key_for(seat.entry).key


def test_the_private_page_shows_table_seat_and_no_cribbage():
    event, table, seats = _session()
    page = _client_get(_key(seats[1]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "No game has been released yet" not in text
    assert "Session 1 · table 1 · seat 2" in text
    for seat in seats:
        assert seat.entry.player.name in text
    assert "Opponent" not in text and "Loser" not in text


def _client_get(key: str):
    from django.test import Client

    return Client().get(reverse("player-page", args=[key]))


def test_every_player_confirms_the_sheet_then_the_nets_are_recorded():
    event, table, seats = _session()
    nets = {seats[0].entry_id: 12, seats[1].entry_id: -5, seats[2].entry_id: -4}
    nets[seats[3].entry_id] = -3
    sheet = services.report_nets(_key(seats[0]), table=table.pk, nets=nets)
    assert sheet.confirmed_by == [seats[0].entry_id]
    assert player_seat(seats[1].entry).state == "confirm"
    assert player_seat(seats[0].entry).state == "waiting"
    for seat in seats[1:3]:
        services.confirm_nets(_key(seat), table=table.pk, sheet=sheet.pk)
    table.refresh_from_db()
    assert not table.has_result
    last = services.confirm_nets(_key(seats[3]), table=table.pk, sheet=sheet.pk)
    assert last.status == NetSheet.Status.RECORDED
    table.refresh_from_db()
    assert table.has_result
    assert dict(table.seats.values_list("entry_id", "net")) == nets
    here = player_seat(seats[0].entry)
    assert here.state == "recorded" and here.chips == 12
    assert [(s.session, s.table, s.seat, s.net, s.running) for s in here.sessions] == [
        (1, 1, 1, 12, 12)
    ]
    recorded = AuditEntry.objects.filter(event=event, action="stoppa_nets").get()
    assert recorded.actor == "players of table 1"


def test_a_sheet_must_sum_to_zero_and_name_every_player():
    event, table, seats = _session(3)
    with pytest.raises(ServiceError) as exc:
        services.report_nets(
            _key(seats[0]),
            table=table.pk,
            nets={seats[0].entry_id: 5, seats[1].entry_id: -2, seats[2].entry_id: -2},
        )
    assert exc.value.code == "nets_not_zero"
    with pytest.raises(ServiceError) as exc:
        services.report_nets(
            _key(seats[0]), table=table.pk, nets={seats[0].entry_id: 5, seats[1].entry_id: -5}
        )
    assert exc.value.code == "net_missing"
    assert not NetSheet.objects.exists()


def test_a_confirmation_of_a_replaced_sheet_is_refused_by_name():
    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    first = services.report_nets(_key(seats[0]), table=table.pk, nets={a: 4, b: -2, c: -2})
    services.report_nets(_key(seats[1]), table=table.pk, nets={a: 2, b: 0, c: -2})
    with pytest.raises(ServiceError) as exc:
        services.confirm_nets(_key(seats[2]), table=table.pk, sheet=first.pk)
    assert exc.value.code == "sheet_changed"
    assert seats[1].entry.player.name in exc.value.message
    table.refresh_from_db()
    assert not table.has_result


def test_a_player_of_another_table_cannot_report():
    event = stoppa_event_with_field(6, table_size=3, min_table_size=3)
    round_ = tournament_services.draw_next_game(event)
    one, two = round_.stoppa_tables.filter(number__isnull=False).order_by("number")
    stranger = two.seats.first()
    nets = {pk: 0 for pk in one.seats.values_list("entry_id", flat=True)}
    with pytest.raises(ServiceError) as exc:
        services.report_nets(_key(stranger), table=one.pk, nets=nets)
    assert exc.value.code == "not_your_table"


def test_the_td_entry_closes_the_players_sheet():
    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    services.report_nets(_key(seats[0]), table=table.pk, nets={a: 4, b: -2, c: -2})
    services_stoppa.record_session_nets(event, table=table, nets={a: 3, b: -1, c: -2})
    assert player_seat(seats[1].entry).state == "recorded"
    with pytest.raises(ServiceError) as exc:
        services.report_nets(_key(seats[1]), table=table.pk, nets={a: 4, b: -2, c: -2})
    assert exc.value.code == "already_recorded"
    assert StoppaTable.objects.get(pk=table.pk).seats.get(entry_id=a).net == 3


# --- The printed card -------------------------------------------------------------------------


def test_the_score_card_has_sessions_tables_seats_nets_and_chips():
    from results import printables

    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    services_stoppa.record_session_nets(event, table=table, nets={a: 7, b: -2, c: -5})
    round_ = tournament_services.draw_next_game(event)
    second = round_.stoppa_tables.get(number=1)
    nets = {s.entry_id: 0 for s in second.seats.all()}
    nets[a], nets[c] = 3, -3
    services_stoppa.record_session_nets(event, table=second, nets=nets)
    cards = {c["entry"].pk: c for c in printables.score_cards(event, "http://hall/")}
    card = cards[a]
    assert card["link"] == "http://hall/k/" + _key(seats[0]) + "/"
    seat_two = second.seats.get(entry_id=a).position
    assert card["rows"][:2] == [
        {"session": 1, "table": 1, "seat": 1, "net": "+7", "chips": "+7"},
        {"session": 2, "table": 1, "seat": seat_two, "net": "+3", "chips": "+10"},
    ]
    assert card["rows"][2] == {"session": 3, "table": "", "seat": "", "net": "", "chips": ""}
    assert len(card["rows"]) == event.games_planned


def test_the_printed_pdf_is_the_session_card_not_the_cribbage_card(
    client, td_user, django_capture_on_commit_callbacks
):
    from django.template.loader import render_to_string

    from results import printables
    from results.models import PrintJob

    event, table, seats = _session(4)
    event.club.directors.add(td_user)
    cards = printables.score_cards(event, "http://hall/")
    html = render_to_string(
        printables.CARD_PAGES[event.game_kind.result_shape], {"event": event, "cards": cards}
    )
    for word in ("Session", "Seat", "Net", "Chips"):
        assert f"<th>{word}</th>" in html
    for word in ("Opponent", "Points", "Plus", "Minus"):
        assert f"<th>{word}</th>" not in html
    assert "report and confirm your table" in html
    tables = printables.table_cards(event, "http://hall/")
    assert [[s["entry"].pk for s in t["seats"]] for t in tables] == [[s.entry_id for s in seats]]
    client.force_login(td_user)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("results-print", args=[event.pk]))
    job = PrintJob.objects.get(event=event)
    assert (job.status, job.total) == ("done", 5)  # 4 score cards + 1 table card
    assert bytes(job.pdf).startswith(b"%PDF")


# --- The desk -------------------------------------------------------------------------------


def test_the_stoppa_desk_shows_sheets_and_no_cribbage_tools(client, td_user):
    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    services.report_nets(_key(seats[1]), table=table.pk, nets={a: 4, b: -1, c: -3})
    event.club.directors.add(td_user)
    client.force_login(td_user)
    page = client.get(reverse("results-desk", args=[event.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    for cribbage in (
        "Import paper cards",
        "result (W or L)",
        "Missed points at the discard",
        "Correct a confirmed result",
        "loser_score",
        "Every table of the current game",
    ):
        assert cribbage not in text, cribbage
    assert "Nets waiting for the players" in text
    assert f"reported by {seats[1].entry.player.name}" in text
    assert reverse("td-session", args=[event.pk, 1]) in text
    refused = client.post(reverse("results-import", args=[event.pk]), {})
    assert refused.status_code == 302
    assert not AuditEntry.objects.filter(event=event, action="paper_import").exists()


def test_the_cribbage_desk_keeps_its_tools(client, td_user):
    from tests.factories import event_with_field

    event = event_with_field(4)
    tournament_services.draw_next_game(event)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    text = client.get(reverse("results-desk", args=[event.pk])).content.decode()
    assert "Import paper cards" in text and "Missed points at the discard" in text
    assert "Nets waiting" not in text


def test_the_desk_asks_the_kind_for_its_tools_not_the_games_name(client, td_user):
    """A kind of two-player tables with neither W/L paper cards nor hand records (a made-up
    one, registered here) gets the winner-and-score desk without those tools."""
    from django.utils.translation import gettext_lazy as _

    from tests.factories import EventFactory
    from tournaments import kinds
    from tournaments.kinds.cribbage import Cribbage

    class Plain(Cribbage):
        key = "plain_two_seats"
        label = _("Plain")
        paper_import = False
        hand_records = False

    kind = kinds.register(Plain())
    try:
        event = EventFactory(game=kind.key)
        event.club.directors.add(td_user)
        client.force_login(td_user)
        text = client.get(reverse("results-desk", args=[event.pk])).content.decode()
        assert "Correct a confirmed result" in text  # the winner-and-score shape's tool
        assert "Import paper cards" not in text
        assert "Missed points at the discard" not in text
    finally:
        kinds.unregister(kind.key)


# --- The API ----------------------------------------------------------------------------------


def test_the_api_sends_and_confirms_a_tables_nets():
    from rest_framework.test import APIClient

    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    api = APIClient()
    where = {"session": 1, "table": 1}
    bad = api.post(
        reverse("api-results-nets"),
        {"key": _key(seats[0]), **where, "nets": [{"entry": a, "net": 3}, {"entry": b, "net": -1}]},
        format="json",
    )
    assert bad.status_code == 400 and "net_missing" in bad.content.decode()
    nets = [{"entry": a, "net": 3}, {"entry": b, "net": -1}, {"entry": c, "net": -2}]
    sent = api.post(
        reverse("api-results-nets"), {"key": _key(seats[0]), **where, "nets": nets}, format="json"
    )
    assert sent.status_code == 201
    assert sent.json()["state"] == "open" and sent.json()["confirmed_by"] == [a]
    sheet = sent.json()["sheet"]
    stale = api.post(
        reverse("api-results-nets-confirm"),
        {"key": _key(seats[1]), **where, "sheet": sheet + 1000},
        format="json",
    )
    assert stale.status_code == 400 and "sheet_changed" in stale.content.decode()
    for seat in seats[1:]:
        done = api.post(
            reverse("api-results-nets-confirm"),
            {"key": _key(seat), **where, "sheet": sheet},
            format="json",
        )
        assert done.status_code == 201
    assert done.json()["state"] == "recorded"
    table.refresh_from_db()
    assert dict(table.seats.values_list("entry_id", "net")) == {a: 3, b: -1, c: -2}


def test_before_the_draw_and_sitting_out_the_page_says_so(client):
    event = stoppa_event_with_field(5, table_size=4, min_table_size=4)
    entry = event.entries.first()
    key = services.key_for(entry).key
    text = client.get(reverse("player-page", args=[key])).content.decode()
    assert "No session has been released yet." in text
    round_ = tournament_services.draw_next_game(event)
    out = round_.stoppa_tables.get(number__isnull=True).seats.get()
    text = client.get(reverse("player-page", args=[_key(out)])).content.decode()
    assert "You sit out this session." in text and "Send the table" not in text
    assert player_seat(out.entry).sessions[0].table is None


def test_a_sheet_left_open_does_not_survive_the_tds_entry_and_clearing():
    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    old = services.report_nets(_key(seats[0]), table=table.pk, nets={a: 4, b: -2, c: -2})
    services_stoppa.record_session_nets(event, table=table, nets={a: 3, b: -1, c: -2})
    old.refresh_from_db()
    assert old.status == NetSheet.Status.REPLACED
    from results.selectors_sheets import open_sheets

    assert open_sheets(event) == []
    services_stoppa.clear_session_nets(event, table=table)  # the TD takes the nets back
    assert player_seat(seats[1].entry).state == "report"
    with pytest.raises(ServiceError) as exc:
        services.confirm_nets(_key(seats[1]), table=table.pk, sheet=old.pk)
    assert exc.value.code == "sheet_changed"


def test_the_td_session_page_offers_the_players_nets_to_save_as_they_are(client, td_user):
    event, table, seats = _session(3)
    a, b, c = (s.entry_id for s in seats)
    services.report_nets(_key(seats[0]), table=table.pk, nets={a: 9, b: -4, c: -5})
    event.club.directors.add(td_user)
    client.force_login(td_user)
    url = reverse("td-session", args=[event.pk, 1])
    text = client.get(url).content.decode()
    waiting = f"{seats[1].entry.player.name}, {seats[2].entry.player.name}"
    assert (
        f"Prefilled from {seats[0].entry.player.name}'s report: check it before saving. "
        f"Still waiting for {waiting} to confirm."
    ) in text
    assert f'name="net_{a}"' in text and 'value="9"' in text and 'value="-5"' in text
    saved = client.post(
        url, {"table": table.pk, "kind": "nets", f"net_{a}": 9, f"net_{b}": -4, f"net_{c}": -5}
    )
    assert saved.status_code == 302
    table.refresh_from_db()
    assert dict(table.seats.values_list("entry_id", "net")) == {a: 9, b: -4, c: -5}
    assert not NetSheet.objects.filter(status=NetSheet.Status.OPEN).exists()
    assert "Prefilled from" not in client.get(url).content.decode()
