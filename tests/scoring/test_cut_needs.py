"""The "what I need" (issue 28) on the player's private page and through the API, from the real
standings of a sanctioned event before its last qualifying game."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results import services as result_services
from scoring.services import recompute_standings
from tests.factories import event_with_field
from tournaments import services
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def before_the_last_game():
    """8 players, 2 qualifying games, a cut of 2. Game 1: table 1 won 121-50 (a double skunk:
    3 game points in ACC play), the others 121-100 (2 points). Game 2 drawn, nothing reported.
    Returns the event and the game-1 winners and losers by table."""
    event = event_with_field(8, kind=Event.Kind.SANCTIONED, games_planned=2, qualifiers=2)
    tables = list(services.draw_next_game(event).tables.order_by("number"))
    for table in tables:
        score = 50 if table.number == 1 else 100
        services.record_result(event, table=table, winner=table.seat_a, loser_score=score)
    services.draw_next_game(event)
    recompute_standings(event.pk)
    return event, [t.seat_a for t in tables], [t.seat_b for t in tables]


def _page(client, entry) -> str:
    key = result_services.key_for(entry).key
    response = client.get(reverse("player-page", args=[key]))
    assert response.status_code == 200
    return response.content.decode()


def _api(api, entry) -> dict:
    key = result_services.key_for(entry).key
    response = api.post(reverse("api-results-cut"), {"key": key}, format="json")
    assert response.status_code == 200
    return response.json()


def test_the_leader_needs_a_win_and_a_skunk(client, api, before_the_last_game):
    event, winners, _losers = before_the_last_game
    # 3/1 against three players on 2/1 who can reach 5/2: only 6/2 is beyond them all.
    page = _page(client, winners[0])
    assert 'id="cut-need"' in page and "You need a win and a skunk." in page
    data = _api(api, winners[0])
    assert data == {
        "entry": winners[0].pk,
        "event": event.pk,
        "need": "skunks",
        "text": "You need a win and a skunk.",
        "games_left": 1,
        "wins": 1,
        "skunk_level": 1,
        "level_with": [],
        "tiebreak": "",
    }


def test_a_player_on_two_points_can_only_be_sure_short_of_a_tie(api, before_the_last_game):
    _event, winners, _losers = before_the_last_game
    data = _api(api, winners[1])
    # A skunk win gives 5/2: only the leader (6/2 at best) can pass; the leader and the two
    # other 2/1 players can finish level on 5/2, and then spread decides.
    assert (data["need"], data["wins"], data["skunk_level"]) == ("tiebreak", 1, 1)
    others = {w.player.name for w in (winners[0], winners[2], winners[3])}
    assert set(data["level_with"]) == others and data["tiebreak"] == "spread"
    names = ", ".join(data["level_with"])
    assert data["text"] == (
        f"A win and a skunk puts you in unless you finish level with {names}: then it comes "
        "down to net spread."
    )


def test_a_player_without_a_point_is_still_in_the_running(client, api, before_the_last_game):
    _event, _winners, losers = before_the_last_game
    text = "A win keeps you in the running, and the other tables decide."
    assert text in _page(client, losers[0])
    assert _api(api, losers[0])["need"] == "open"


def test_nothing_is_said_once_every_game_is_played_or_without_a_cut(client, api, night):
    _event, _table, key_a, _key_b = night  # a club night: no cut
    assert 'id="cut-need"' not in client.get(reverse("player-page", args=[key_a])).content.decode()
    assert (
        api.post(reverse("api-results-cut"), {"key": key_a}, format="json").json()["need"] is None
    )


def test_an_unknown_key_is_a_400_not_a_500(api):
    response = api.post(reverse("api-results-cut"), {"key": "nope"}, format="json")
    assert 400 <= response.status_code < 500


def test_a_thousand_player_field_is_answered_in_a_few_queries(django_assert_max_num_queries):
    from scoring.cut_needs import need_of, needs
    from tests.scoring.test_crosstable import _thousand_player_event

    event = _thousand_player_event()  # sanctioned, 3 of 9 games played, a cut of 250
    first = event.standings.filter(snapshot__after_game=3).order_by("rank").first()
    # The bracket check, the snapshot, the released games, the latest game's open tables,
    # the field's rows, the match-point format.
    with django_assert_max_num_queries(6):
        verdict = need_of(event, first.entry_id)
    assert verdict is not None and verdict.games_left == 6
    assert len(needs(event)) == 1000
