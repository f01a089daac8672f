"""Pages and API of drafts, seating lists, forbidden pairs and playoffs; permissions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.models import Bracket, Event, ForbiddenPair, PlayoffGame, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def playoff(td_user):
    event = event_with_field(8, kind=Event.Kind.PLAYOFF_ONLY, name="Consy Lite à Brașov")
    event.club.directors.add(td_user)
    services.create_playoff(event)
    return event


def test_public_bracket_page_fragment_and_projector(client, playoff):
    bracket = playoff.bracket
    first = bracket.matches.get(code="M1-1")
    for _ in range(2):
        services.record_playoff_game(playoff, match="M1-1", winner=first.seat_a, loser_score=99)
    page = client.get(reverse("event-bracket", args=[playoff.pk]))
    body = page.content.decode()
    assert page.status_code == 200
    assert first.seat_a.player.name in body and "Semifinals" in body and "best of 3" in body
    fragment = client.get(reverse("event-bracket-fragment", args=[playoff.pk]))
    text = fragment.content.decode()
    assert "<html" not in text and 'hx-trigger="every 5s"' in text
    assert (
        "bracket-big"
        in client.get(reverse("event-bracket", args=[playoff.pk]) + "?big=1").content.decode()
    )
    assert "Playoff bracket" in client.get(reverse("event", args=[playoff.pk])).content.decode()


def test_bracket_api_is_public_and_in_the_schema(client, playoff):
    url = reverse("api-bracket", args=[playoff.pk])
    data = client.get(url).json()
    assert data["source"] == "draw" and len(data["seeds"]) == 8
    m = next(m for m in data["matches"] if m["code"] == "M1-1")
    assert m["best_of"] == 3 and [s["wins"] for s in m["seats"]] == [0, 0]
    assert m["seats"][0]["name"]
    other = event_with_field(4)
    services.draw_next_game(other)
    assert client.get(reverse("api-bracket", args=[other.pk])).status_code == 404
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").content.decode()
    assert "/api/v1/events/{event_id}/bracket/" in schema


def test_td_cuts_to_the_playoff_with_a_form_error_first(td_client, td_user):
    event = event_with_field(12, kind=Event.Kind.SANCTIONED, games_planned=1)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    for table in round_.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    url = reverse("td-playoff", args=[event.pk])
    page = td_client.get(url)
    assert page.status_code == 200 and "Draw the bracket" in page.content.decode()
    # Six winners tie on 2 GP / 1 win / +21 for three places: the TD confirms the lots.
    tie = td_client.post(url, {"source": "qualifying", "best_of": "3"})
    assert tie.status_code == 400 and "across the cut line" in tie.content.decode()
    lots = {"source": "qualifying", "confirm_lots": "on"}
    bad = td_client.post(url, lots | {"best_of": "2"})
    assert bad.status_code == 400 and "odd number" in bad.content.decode()
    bad = td_client.post(url, lots | {"best_of": "three"})
    assert bad.status_code == 400 and "Give odd numbers" in bad.content.decode()
    assert not Bracket.objects.exists()
    ok = td_client.post(url, lots | {"best_of": "3", "third_place": "on"})
    assert ok.status_code == 302
    bracket = Bracket.objects.get(event=event)
    assert len(bracket.seeds) == 3 and bracket.third_place  # ceil(12 / 4)
    page = td_client.get(url).content.decode()
    assert "Matches to play" in page and "Rule 13.1" in page
    response = td_client.post(reverse("td-consolation", args=[event.pk]))
    consolation = Event.objects.get(kind=Event.Kind.CONSOLATION)
    assert response.status_code == 302 and consolation.entries.count() == 9


def test_td_records_playoff_games_and_bad_input_is_400(td_client, playoff):
    url = reverse("td-playoff", args=[playoff.pk])
    m = playoff.bracket.matches.get(code="M1-1")
    bad = td_client.post(url, {"match": "M1-1", "winner": m.seat_a_id, "loser_score": "140"})
    assert bad.status_code == 400 and "below 121" in bad.content.decode()
    bad = td_client.post(url, {"match": "M1-1", "loser_score": "90"})
    assert bad.status_code == 400 and "Choose the winner" in bad.content.decode()
    assert not PlayoffGame.objects.exists()
    ok = td_client.post(url, {"match": "M1-1", "winner": m.seat_b_id, "forfeit": "on"})
    assert ok.status_code == 302
    game = PlayoffGame.objects.get()
    assert game.forfeit and game.winner_id == m.seat_b_id
    assert td_client.post(url, {"undo": "M1-1"}).status_code == 302
    assert not PlayoffGame.objects.exists()


def test_draft_game_page_swap_error_and_release(td_client, td_user):
    event = event_with_field(6)
    event.club.directors.add(td_user)
    first = services.draw_next_game(event)
    for table in first.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    response = td_client.post(reverse("td-draw", args=[event.pk]), {"draft": "1"})
    assert response.status_code == 302
    draft = event.rounds.get(number=2)
    assert draft.status == Round.Status.DRAFT
    page = td_client.get(reverse("td-game", args=[event.pk, 2])).content.decode()
    assert "Release to the players" in page and "Swap seats" in page
    assert 'name="loser_score"' not in page
    # The public page does not show the draft.
    public = td_client.get(reverse("event", args=[event.pk])).content.decode()
    assert "Game 2" not in public
    old = first.tables.order_by("number").first()
    x, y = old.seat_a_id, old.seat_b_id
    here = next(t for t in draft.tables.all() if x in (t.seat_a_id, t.seat_b_id))
    z = here.seat_b_id if here.seat_a_id == x else here.seat_a_id
    swap_url = reverse("td-swap", args=[event.pk, 2])
    bad = td_client.post(swap_url, {"player_a": y, "player_b": z})
    assert bad.status_code == 400 and "Confirm to swap anyway" in bad.content.decode()
    ok = td_client.post(swap_url, {"player_a": y, "player_b": z, "confirm": "1"})
    assert ok.status_code == 302
    seating = td_client.get(reverse("td-seating", args=[event.pk, 2])).content.decode()
    assert "@media print" in seating and "By name" in seating
    release = td_client.post(reverse("td-release", args=[event.pk, 2]), follow=True)
    assert "is released" in release.content.decode()
    draft.refresh_from_db()
    assert draft.status == Round.Status.RELEASED


def test_forbidden_pairs_page(td_client, td_user):
    event = event_with_field(4)
    event.club.directors.add(td_user)
    a, b = event.entries.order_by("pk")[:2]
    url = reverse("td-forbidden", args=[event.pk])
    assert td_client.get(url).status_code == 200
    bad = td_client.post(url, {"entry_a": a.pk, "entry_b": a.pk})
    assert bad.status_code == 400 and "two different players" in bad.content.decode()
    assert td_client.post(url, {"entry_a": a.pk, "entry_b": b.pk, "reason": "couple"}).status_code
    pair = ForbiddenPair.objects.get()
    assert pair.reason == "couple" and a.player.name in td_client.get(url).content.decode()
    td_client.post(url, {"remove": pair.pk})
    assert not ForbiddenPair.objects.exists()


def test_td_sets_the_format(td_client, td_user):
    event = event_with_field(4)
    event.club.directors.add(td_user)
    url = reverse("td-format", args=[event.pk])
    data = {"kind": "round_robin", "pairing": "round_robin", "meetings_per_opponent": "1"}
    td_client.post(url, data | {"games_planned": "3"})
    event.refresh_from_db()
    assert (event.kind, event.pairing, event.games_planned) == ("round_robin", "round_robin", 3)
    page = td_client.post(url, data | {"games_planned": "99"}, follow=True).content.decode()
    assert "less than or equal to 40" in page
    assert "Round robin" in td_client.get(reverse("td-event", args=[event.pk])).content.decode()


def test_a_td_of_another_club_gets_404_everywhere(client, playoff):
    stranger = UserFactory(username="other-td")
    ClubFactory().directors.add(stranger)
    client.force_login(stranger)
    round_ = services.draw_next_game(event_with_field(4, club=playoff.club))
    event = round_.event
    for name, args in [
        ("td-playoff", [playoff.pk]),
        ("td-forbidden", [playoff.pk]),
        ("td-seating", [event.pk, 1]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404, name
    for name, args in [
        ("td-playoff", [playoff.pk]),
        ("td-forbidden", [playoff.pk]),
        ("td-format", [event.pk]),
        ("td-release", [event.pk, 1]),
        ("td-swap", [event.pk, 1]),
    ]:
        assert client.post(reverse(name, args=args), {}).status_code == 404, name
    assert not PlayoffGame.objects.exists()


@pytest.mark.parametrize(
    "options",
    [{"double_elimination": True}, {"consolation": True, "third_place": True}],
)
def test_every_section_of_a_bracket_renders(client, td_client, td_user, options):
    import random

    event = event_with_field(11, kind=Event.Kind.INTERNET)
    event.club.directors.add(td_user)
    services.create_playoff(event, **options)
    rng = random.Random(2)
    while ready := list(
        event.bracket.matches.filter(decided=False, seat_a__isnull=False, seat_b__isnull=False)
    ):
        m = rng.choice(ready)
        services.record_playoff_game(
            event, match=m.code, winner=rng.choice([m.seat_a_id, m.seat_b_id]), loser_score=90
        )
    event.bracket.refresh_from_db()
    body = client.get(reverse("event-bracket", args=[event.pk])).content.decode()
    champion = event.bracket.champion.player.name
    assert "Final places" in body and champion in body
    assert ("Losers&#x27; bracket" in body) == ("double_elimination" in options)
    assert ("Consolation bracket" in body) == ("consolation" in options)
    if "third_place" in options:
        assert "3</strong>" in body and "4</strong>" in body
    else:
        assert "3=</strong>" not in body
    assert td_client.get(reverse("td-playoff", args=[event.pk])).status_code == 200
    assert td_client.get(reverse("td-event", args=[event.pk])).status_code == 200
    api = client.get(reverse("api-bracket", args=[event.pk])).json()
    assert api["champion"] == event.bracket.champion_id and api["places"][0]["place"] == 1


def test_a_sanctioned_event_sets_its_cut_size_and_the_cut_page_previews_it(td_client, td_user):
    """Issue 22: the new-event form asks the cut size; the cut page lists who qualifies now,
    the players tied on the cut line marked; the cut takes the size set."""
    from tests.factories import ClubFactory
    from tests.tournaments.test_club_pages import wizard_data

    club = ClubFactory()
    club.directors.add(td_user)
    url = reverse("td-event-new", args=[club.pk])
    assert 'name="qualifiers"' in td_client.get(url).content.decode()
    bad = td_client.post(url, wizard_data(kind="sanctioned", games_planned="1", qualifiers="1"))
    assert bad.status_code == 400 and not Event.objects.filter(club=club).exists()
    assert "greater than or equal to 2" in bad.content.decode()
    td_client.post(url, wizard_data(kind="sanctioned", games_planned="1", qualifiers="4"))
    event = Event.objects.get(club=club)
    assert event.kind == Event.Kind.SANCTIONED and event.qualifiers == 4
    from tests.factories import EntryFactory

    EntryFactory.create_batch(10, event=event)
    round_ = services.draw_next_game(event)
    for i, table in enumerate(round_.tables.order_by("number")):
        # Spreads +31, +21, +21, +11, +1: the 4th qualifier's place is clear, no tie.
        services.record_result(
            event, table=table, winner=table.seat_a, loser_score=[90, 100, 100, 110, 120][i]
        )
    page = td_client.get(reverse("td-playoff", args=[event.pk])).content.decode()
    preview = page[page.index('id="cut-preview"') :]
    assert "4 qualifiers of 10 entrants, 0 byes" in preview
    assert preview.count("<li ") == 4 and "draw of lots" not in preview
    assert 'value="4"' in page  # the cut form starts from the event's cut size
    bracket = services.create_playoff(event)
    assert len(bracket.seeds) == 4


def test_the_cut_preview_marks_a_tie_on_the_cut_line(td_client, td_user):
    event = event_with_field(12, kind=Event.Kind.SANCTIONED, games_planned=1)
    event.club.directors.add(td_user)
    round_ = services.draw_next_game(event)
    for table in round_.tables.all():
        services.record_result(event, table=table, winner=table.seat_a, loser_score=100)
    page = td_client.get(reverse("td-playoff", args=[event.pk])).content.decode()
    preview = page[page.index('id="cut-preview"') :]
    # Six winners tie on every tiebreaker for three places: all six listed, marked.
    assert "3 qualifiers of 12 entrants, 1 byes" in preview
    assert preview.count("<li ") == 6 and preview.count("draw of lots decides") == 6
