"""The TD's club pages: the club, a new event, its settings, the roster, the players.

Every page: anonymous is sent to the login, a TD of another club (and a scorekeeper) gets a
404; a refused post is a form error with HTTP 400 and writes nothing.
"""

from __future__ import annotations

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from results.models import Scorekeeper
from tests.factories import (
    ClubFactory,
    EntryFactory,
    EventFactory,
    PlayerFactory,
    UserFactory,
    acc_format,
)
from tournaments import services
from tournaments.models import Club, Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def club(td_user):
    club = ClubFactory(name="Brașov Pegs")
    club.directors.add(td_user)
    return club


@pytest.fixture
def event(club):
    return EventFactory(club=club, name="Jeudi soir")


def club_urls(club, event, player):
    return [
        ("get", reverse("td-club", args=[club.pk])),
        ("post", reverse("td-club-directors", args=[club.pk])),
        ("post", reverse("td-club-defaults", args=[club.pk])),
        ("post", reverse("td-club-chain", args=[club.pk, "cribbage"])),
        ("get", reverse("td-event-new", args=[club.pk])),
        ("get", reverse("td-event-settings", args=[event.pk])),
        ("get", reverse("td-players", args=[club.pk])),
        ("post", reverse("td-player-rename", args=[club.pk, player.pk])),
        ("post", reverse("td-player-merge", args=[club.pk])),
        ("get", reverse("td-player-search", args=[event.pk]) + "?name=ann"),
        ("post", reverse("td-check-in-all", args=[event.pk])),
        ("post", reverse("td-import", args=[event.pk])),
        ("get", reverse("td-club-scorekeepers", args=[club.pk])),
    ]


def test_anonymous_is_sent_to_the_login(client, club, event):
    player = PlayerFactory(home_club=club)
    for method, url in club_urls(club, event, player):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_another_clubs_td_and_a_scorekeeper_get_404(client, club, event):
    player = PlayerFactory(home_club=club)
    stranger = UserFactory(username="other-td")
    ClubFactory().directors.add(stranger)
    keeper = UserFactory(username="keeper")
    Scorekeeper.objects.create(club=club, user=keeper)
    for user in (stranger, keeper):
        client.force_login(user)
        for method, url in club_urls(club, event, player):
            response = getattr(client, method)(url, {"name": "Changed", "who": "keeper"})
            assert response.status_code == 404, (user.username, url)
    club.refresh_from_db()
    assert club.name == "Brașov Pegs" and club.directors.count() == 1


def test_home_and_navbar_link_the_club_and_a_new_event(td_client, club):
    body = td_client.get(reverse("home")).content.decode()
    assert reverse("td-club", args=[club.pk]) in body
    assert reverse("td-event-new", args=[club.pk]) in body
    page = td_client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert "Your club" in page and reverse("td-event-new", args=[club.pk]) in page


# --- The club page -------------------------------------------------------------------------------


def test_td_edits_the_club(td_client, club):
    url = reverse("td-club", args=[club.pk])
    response = td_client.post(url, {"name": "Brașov Pegs & Pins", "city": "Brașov"})
    assert response.status_code == 302
    club.refresh_from_db()
    assert (club.name, club.city) == ("Brașov Pegs & Pins", "Brașov")
    response = td_client.post(url, {"name": "", "city": "Cluj"})
    assert response.status_code == 400 and "This field is required" in response.content.decode()
    club.refresh_from_db()
    assert club.city == "Brașov"


def test_td_adds_and_removes_directors(td_client, club, td_user):
    UserFactory(username="marta", email="marta@example.org")
    url = reverse("td-club-directors", args=[club.pk])
    assert td_client.post(url, {"who": "marta@example.org"}).status_code == 302
    marta = club.directors.get(username="marta")
    response = td_client.post(url, {"who": "nobody"})
    assert response.status_code == 400
    assert "No account has the username or email nobody" in response.content.decode()
    page = td_client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert "data-confirm=" in page and f'name="remove" value="{marta.pk}"' in page
    assert td_client.post(url, {"remove": marta.pk}).status_code == 302
    response = td_client.post(url, {"remove": td_user.pk})
    assert response.status_code == 400 and "last tournament director" in response.content.decode()
    assert list(club.directors.all()) == [td_user]


def test_td_sets_the_default_format_and_ranking_chain(td_client, club):
    fmt = acc_format()
    url = reverse("td-club-defaults", args=[club.pk])
    assert td_client.post(url, {"match_point_format": fmt.pk}).status_code == 302
    club.refresh_from_db()
    assert club.default_match_point_format == fmt

    chain_url = reverse("td-club-chain", args=[club.pk, "cribbage"])
    acc = ["game_points", "games_won", "spread"]
    assert td_client.post(chain_url, {"tiebreakers": acc, "chain_op": "up:2"}).status_code == 302
    club.refresh_from_db()
    assert club.default_chain("cribbage") == ("game_points", "spread", "games_won")
    td_client.post(
        chain_url,
        {
            "tiebreakers": list(club.default_chain("cribbage")),
            "chain_op": "add",
            "chain_add": "head_to_head",
        },
    )
    club.refresh_from_db()
    assert club.default_chain("cribbage")[-1] == "head_to_head"
    page = td_client.get(reverse("td-club", args=[club.pk])).content.decode()
    assert 'value="up:1"' in page and 'value="remove:3"' in page

    before = dict(club.default_chains)
    response = td_client.post(
        chain_url, {"tiebreakers": ["game_points", "chips"], "chain_op": "down:0"}
    )
    assert response.status_code == 400 and "Unknown tiebreaker" in response.content.decode()
    club.refresh_from_db()
    assert club.default_chains == before
    assert td_client.post(chain_url, {"chain_op": "reset"}).status_code == 302
    club.refresh_from_db()
    assert club.default_chains == {}


# --- The new-event wizard ------------------------------------------------------------------------


def wizard_data(**changes) -> dict:
    data = {
        "name": "Jeudi soir à Brașov",
        "date": "2026-11-26",
        "game": "cribbage",
        "chain_game": "cribbage",
        "kind": "club_night",
        "pairing": "qualifying",
        "games_planned": "9",
        "meetings_per_opponent": "1",
        "target": "121",
        "match_point_format": str(acc_format().pk),
        "confirmation": "own_keys",
        "tiebreakers": ["game_points", "games_won", "spread"],
        "seed": "",
    }
    return data | changes


def test_the_wizard_creates_an_event_that_draws_game_1(td_client, club):
    url = reverse("td-event-new", args=[club.pk])
    page = td_client.get(url).content.decode()
    assert "Advanced" in page and 'name="tiebreakers"' in page and "Cribbage" in page
    assert f'hx-post="{url}"' in page and "chain_op" in page  # the chain follows the game
    response = td_client.post(url, wizard_data(muggins="on", seed="777"))
    event = Event.objects.get(club=club)
    assert response.status_code == 302
    assert response["Location"] == reverse("td-event", args=[event.pk])
    assert (event.name, event.date, event.muggins, event.seed) == (
        "Jeudi soir à Brașov",
        datetime.date(2026, 11, 26),
        True,
        777,
    )
    for _ in range(5):
        EntryFactory(event=event)
    round_ = services.draw_next_game(event)
    assert round_.tables.count() == 3  # two tables and a bye


def test_the_wizard_starts_from_the_clubs_defaults(td_client, club):
    services.set_club_chain(club, "cribbage", ["game_points", "head_to_head", "spread"])
    page = td_client.get(reverse("td-event-new", args=[club.pk])).content.decode()
    assert page.index('value="head_to_head"') < page.index('value="spread"')


def test_the_chain_buttons_edit_without_saving(td_client, club):
    url = reverse("td-event-new", args=[club.pk])
    response = td_client.post(url, wizard_data(chain_op="remove:1"))
    body = response.content.decode()
    assert response.status_code == 200 and not Event.objects.exists()
    assert 'value="games_won"' not in body.split('name="chain_add"')[0]
    assert 'value="Jeudi soir à Brașov"' in body
    response = td_client.post(url, wizard_data(game="stoppa", chain_op="game"))
    body = response.content.decode()
    assert 'name="tiebreakers" value="chips"' in body and not Event.objects.exists()


def test_a_stoppa_event_hides_the_cribbage_only_settings(td_client, club):
    url = reverse("td-event-new", args=[club.pk])
    cribbage = td_client.get(url).content.decode()
    assert 'for="id_target"' in cribbage and 'for="id_muggins"' in cribbage
    stoppa = td_client.post(url, wizard_data(game="stoppa", chain_op="game")).content.decode()
    for name in ("target", "muggins", "match_point_format", "pairing", "confirmation"):
        assert f'for="id_{name}"' not in stoppa, name  # no label: not shown
        assert f'type="hidden" name="{name}"' in stoppa, name  # but posted back as it was
    stoppa_chain = ["chips", "sessions_won", "best_session"]
    response = td_client.post(
        url,
        wizard_data(game="stoppa", chain_game="stoppa", tiebreakers=stoppa_chain, muggins="False"),
    )
    assert response.status_code == 302
    assert Event.objects.get(club=club).game == "stoppa"


def test_changing_the_game_without_the_chain_asks_to_check_it(td_client, club):
    response = td_client.post(reverse("td-event-new", args=[club.pk]), wizard_data(game="stoppa"))
    assert response.status_code == 400 and "Check it and save again" in response.content.decode()
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"name": ""}, "This field is required"),
        ({"games_planned": "0"}, "greater than or equal to 1"),
        ({"tiebreakers": ["game_points", "luck"]}, "Unknown tiebreaker"),
        (
            {"kind": "sanctioned", "game": "stoppa", "chain_game": "stoppa", "tiebreakers": []},
            "has no playoffs",
        ),
    ],
)
def test_a_bad_wizard_post_is_a_form_error(td_client, club, changes, message):
    response = td_client.post(reverse("td-event-new", args=[club.pk]), wizard_data(**changes))
    assert response.status_code == 400 and message in response.content.decode()
    assert not Event.objects.exists()


def test_settings_show_locked_fields_with_the_reason(td_client, club):
    event = services.create_event(club, name="Night", date=datetime.date(2026, 11, 26), seed=5)
    for _ in range(4):
        EntryFactory(event=event)
    services.draw_next_game(event)
    url = reverse("td-event-settings", args=[event.pk])
    page = td_client.get(url).content.decode()
    assert "Fixed once the first round is drawn" in page
    assert page.count("disabled") >= 5
    data = wizard_data(name="Night, renamed", games_planned="11", target="61", seed="5")
    response = td_client.post(url, data)
    assert response.status_code == 302
    event.refresh_from_db()
    # the posted target is ignored: the field is locked
    assert (event.name, event.games_planned, event.target) == ("Night, renamed", 11, 121)


def test_settings_refuse_fewer_games_than_drawn(td_client, club):
    event = services.create_event(club, name="Night", date=datetime.date(2026, 11, 26), seed=5)
    for _ in range(4):
        EntryFactory(event=event)
    services.draw_next_game(event)
    response = td_client.post(
        reverse("td-event-settings", args=[event.pk]), wizard_data(games_planned="0", seed="5")
    )
    assert response.status_code == 400
    event.refresh_from_db()
    assert event.games_planned == 9


# --- The roster ----------------------------------------------------------------------------------


def test_search_shows_accented_names_as_candidates(td_client, club, event):
    PlayerFactory(name="Ann Whitfield", home_club=club)
    PlayerFactory(name="Jürgen Weiß", home_club=club)
    url = reverse("td-player-search", args=[event.pk])
    body = td_client.get(url, {"name": "ann whitfeld"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Ann Whitfield" in body and "<html" not in body and "Jürgen" not in body
    body = td_client.get(url, {"name": "Jurgen"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Jürgen Weiß" in body and 'name="player"' in body
    page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert 'hx-trigger="input changed delay:200ms"' in page
    ann = services.enter_club_player(event, Player.objects.get(name="Ann Whitfield")).player
    body = td_client.get(url, {"name": "ANN"}, HTTP_HX_REQUEST="true").content.decode()
    assert "Ann Whitfield · entered" in body and f'name="player" value="{ann.pk}"' not in body


def test_picking_a_candidate_enters_that_player(td_client, club, event):
    jurgen = PlayerFactory(name="Jürgen Weiß", home_club=club)
    url = reverse("td-register", args=[event.pk])
    response = td_client.post(url, {"name": "Jurgen", "player": jurgen.pk, "status": "member"})
    assert response.status_code == 302 and response["Location"].endswith("?add=1")
    assert event.entries.get().player == jurgen
    assert Player.objects.filter(name__icontains="rgen").count() == 1
    page = td_client.get(response["Location"]).content.decode()
    assert "autofocus" in page


def test_a_name_like_a_known_player_is_not_duplicated(td_client, club, event):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    url = reverse("td-register", args=[event.pk])
    response = td_client.post(url, {"name": "ann whitfeld", "status": "member"})
    body = response.content.decode()
    assert response.status_code == 400
    assert 'value="ann whitfeld"' in body and "pick one, or add a new player" in body
    assert f'name="player" value="{ann.pk}"' in body and "autofocus" in body
    assert not event.entries.exists()
    # the exact name (accents and case aside) is that player
    td_client.post(url, {"name": "ANN WHITFIELD", "status": "member"})
    assert event.entries.get().player == ann


def test_a_new_player_is_created_when_asked(td_client, club, event):
    PlayerFactory(name="Ann Whitfield", home_club=club)
    url = reverse("td-register", args=[event.pk])
    td_client.post(url, {"name": "Ann Whitfeld", "status": "visitor", "new": "1"})
    assert event.entries.get().player.name == "Ann Whitfeld"


def test_check_in_all_button(td_client, club, event):
    EntryFactory.create_batch(3, event=event, checked_in=False)
    page = td_client.get(reverse("td-event", args=[event.pk])).content.decode()
    assert "Check in all" in page
    response = td_client.post(reverse("td-check-in-all", args=[event.pk]), follow=True)
    assert "Checked in: 3." in response.content.decode()
    assert not event.entries.filter(checked_in=False).exists()


def test_paste_a_list(td_client, club, event):
    PlayerFactory(name="Ann Whitfield", home_club=club, acc_number="12345")
    response = td_client.post(
        reverse("td-import", args=[event.pk]),
        {"names": "Ann W., 12345\nAnn Whitfield\nMaria Popescu\nmaria popescu"},
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "Added 1 new, entered 1 known, skipped 2." in body
    assert "ACC number 12345 belongs to Ann Whitfield" in body and "Listed twice" in body
    assert event.entries.count() == 2


def test_upload_a_csv_file(td_client, club, event):
    upload = SimpleUploadedFile(
        "players.csv", "name,acc\nJürgen Weiß,778\nIon Rusu\n".encode(), "text/csv"
    )
    response = td_client.post(reverse("td-import", args=[event.pk]), {"file": upload})
    assert response.status_code == 200
    assert set(event.entries.values_list("player__name", flat=True)) == {"Jürgen Weiß", "Ion Rusu"}
    assert Player.objects.get(name="Jürgen Weiß").acc_number == "778"


def test_an_empty_list_is_a_form_error(td_client, club, event):
    response = td_client.post(reverse("td-import", args=[event.pk]), {"names": "  \n "})
    assert (
        response.status_code == 400 and "Paste names or choose a file" in response.content.decode()
    )
    assert not event.entries.exists()


# --- The club's players --------------------------------------------------------------------------


def test_rename_and_merge_on_the_players_page(td_client, club):
    ann = PlayerFactory(name="Ann Whitfield", home_club=club)
    typo = PlayerFactory(name="Ann Witfeld", home_club=club)
    EntryFactory(event=EventFactory(club=club), player=typo)
    page = td_client.get(reverse("td-players", args=[club.pk]), {"find": "ann"}).content.decode()
    assert "Ann Witfeld" in page and "data-confirm=" in page
    rename = reverse("td-player-rename", args=[club.pk, ann.pk])
    assert td_client.post(rename, {"name": "Ann Whitfield-Ng"}).status_code == 302
    ann.refresh_from_db()
    assert ann.name == "Ann Whitfield-Ng"
    response = td_client.post(rename, {"name": ""})
    assert response.status_code == 400
    merge = reverse("td-player-merge", args=[club.pk])
    response = td_client.post(merge, {"keep": ann.pk, "merged": ann.pk})
    assert response.status_code == 400 and "two different players" in response.content.decode()
    assert td_client.post(merge, {"keep": ann.pk, "merged": typo.pk}).status_code == 302
    assert not Player.objects.filter(pk=typo.pk).exists()
    assert ann.entries.count() == 1


def test_another_clubs_player_cannot_be_renamed(td_client, club):
    stranger = PlayerFactory(name="Someone", home_club=ClubFactory())
    response = td_client.post(
        reverse("td-player-rename", args=[club.pk, stranger.pk]), {"name": "Hacked"}
    )
    assert response.status_code == 404
    stranger.refresh_from_db()
    assert stranger.name == "Someone"
    assert Club.objects.count() == 2


def test_a_name_too_long_gets_that_error_alone(td_client, event):
    url = reverse("td-register", args=[event.pk])
    response = td_client.post(url, {"name": "N" * 121, "status": "member"})
    body = response.content.decode()
    assert response.status_code == 400
    assert "at most 120 characters" in body and "A player needs a name" not in body
    blank = td_client.post(url, {"name": "   ", "status": "member"}).content.decode()
    assert "A player needs a name" in blank
    assert not event.entries.exists()
