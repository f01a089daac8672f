"""Partners' cribbage (four-handed): teams of two as one entry, seated, scored and named."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from scoring.selectors import standings_for_event
from scoring.services import recompute_standings
from tests.factories import EventFactory, PlayerFactory
from tournaments import kinds, selectors, services
from tournaments.error_codes import TournamentsError
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db

NAMES = [
    ("Anna Rossi", "Ștefan Pop"),
    ("Łucja Nowak", "Jürgen Weiß"),
    ("Niccolò Bianchi", "Zoë Lindqvist"),
    ("Ann Whitfield", "Dolores Ibáñez"),
]


def partners_event(teams=NAMES, **kwargs) -> Event:
    """A partners' event with ``teams`` registered (checked in) through the service."""
    event = EventFactory(game="partners", pairing=Event.Pairing.SWISS, games_planned=3, **kwargs)
    for name, partner in teams:
        services.register_team(event, name=name, partner_name=partner)
    return event


def test_the_kind_is_registered_and_says_what_it_needs():
    kind = kinds.get("partners")
    assert kind.team_size == 2
    assert kinds.get("cribbage").team_size == 1
    assert kinds.get("stoppa").team_size == 1
    assert (kind.acc_points, kind.seasons, kind.playoffs) == (False, False, False)
    assert ("partners", kind.label) in kinds.choices()


def test_a_team_is_one_entry_named_by_both_partners():
    event = partners_event(NAMES[:1])
    entry = Entry.objects.get(event=event)
    assert entry.player.name == "Anna Rossi"
    assert entry.partner.name == "Ștefan Pop"
    assert entry.name == "Anna Rossi & Ștefan Pop"
    assert str(entry) == "Anna Rossi & Ștefan Pop"
    assert entry.checked_in is True
    assert entry.player_ids == (entry.player_id, entry.partner_id)


@pytest.mark.parametrize(
    "name, partner, code, field",
    [
        ("Anna Rossi", "anna rossi", TournamentsError.SAME_PLAYER, "partner"),
        ("Anna Rossi", "Mara Dinu", TournamentsError.ALREADY_IN_TEAM, "name"),
        ("Mara Dinu", "Ștefan Pop", TournamentsError.ALREADY_IN_TEAM, "partner"),
        ("Mara Dinu", "Anna Rossi", TournamentsError.ALREADY_IN_TEAM, "partner"),
    ],
)
def test_a_bad_team_is_refused_and_nothing_is_written(name, partner, code, field):
    event = partners_event(NAMES[:1])
    players = PlayerFactory._meta.model.objects.count()
    with pytest.raises(ServiceError) as refused:
        services.register_team(event, name=name, partner_name=partner)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert event.entries.count() == 1
    assert PlayerFactory._meta.model.objects.count() == players  # no player left behind


def test_a_partner_on_a_two_player_event_and_a_lone_player_on_a_partners_event_are_refused():
    crib = EventFactory()
    with pytest.raises(ServiceError) as refused:
        services.register_team(crib, name="Anna Rossi", partner_name="Ștefan Pop")
    assert refused.value.code == TournamentsError.NOT_TEAM_GAME
    event = partners_event(())
    with pytest.raises(ServiceError) as refused:
        services.register_player(event, name="Mara Dinu")
    assert refused.value.code == TournamentsError.PARTNER_REQUIRED
    with pytest.raises(ServiceError) as refused:
        services.import_roster(event, "Mara Dinu\nIon Popa")
    assert refused.value.code == TournamentsError.PARTNER_REQUIRED
    assert event.entries.count() == 0


def test_the_database_keeps_a_partner_in_one_team_and_apart_from_the_player():
    from django.db import IntegrityError, transaction

    event = partners_event(NAMES[:1])
    team = event.entries.get()
    other = PlayerFactory(home_club=event.club)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, player=other, partner=team.partner)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(event=event, player=other, partner=other)


def test_teams_are_seated_two_a_table_and_ranked_as_teams():
    event = partners_event()
    round_ = services.draw_next_game(event)
    tables = list(round_.tables.order_by("number"))
    assert len(tables) == 2 and all(t.seat_b_id for t in tables)
    lines = event.game_kind.seat_lines(event, 1)
    assert len(lines) == 8  # both partners of each team find their table
    by_name = {line.name: line.table for line in lines}
    anna = event.entries.get(player__name="Anna Rossi")
    anna_table = next(t.number for t in tables if anna.pk in (t.seat_a_id, t.seat_b_id))
    assert by_name["Anna Rossi"] == by_name["Ștefan Pop"] == anna_table
    for table in tables:  # Anna's team wins its table, seat A wins the other
        winner = anna if anna.pk in (table.seat_a_id, table.seat_b_id) else table.seat_a
        services.record_result(event, table=table, winner=winner, loser_score=100)
    recompute_standings(event.pk)
    rows = standings_for_event(event.pk)
    assert len(rows) == 4
    top = next(r for r in rows if r.entry_id == anna.pk)
    assert (top.games_won, top.game_points, top.spread) == (1, 2, 21)
    assert top.entry.name == "Anna Rossi & Ștefan Pop"


def test_either_partner_finds_the_team():
    event = partners_event()
    services.draw_next_game(event)
    for typed in ("stefan", "ANNA"):
        rounds = selectors.rounds_with_tables(event, released_only=True, find=typed)
        tables = [t for r in rounds for t in r.tables.all()]
        assert len(tables) == 1
        assert "Anna Rossi & Ștefan Pop" in (tables[0].seat_a.name, tables[0].seat_b.name)


def _play_a_game(event) -> Entry:
    """Draw the next game and let Anna Rossi's team win its table, seat A the others."""
    anna = event.entries.get(player__name="Anna Rossi")
    for table in services.draw_next_game(event).tables.order_by("number"):
        winner = anna if anna.pk in (table.seat_a_id, table.seat_b_id) else table.seat_a
        services.record_result(event, table=table, winner=winner, loser_score=90)
    return anna


def test_the_archive_carries_the_teams_both_ways():
    import json

    from results.archive import export_event, import_event
    from tests.factories import ClubFactory

    event = partners_event()
    _play_a_game(event)
    data = json.loads(json.dumps(export_event(event)))
    assert len(data["players"]) == 8
    assert all("partner" in row for row in data["entries"])
    copy = import_event(data, club=ClubFactory())
    names = sorted(e.name for e in copy.entries.select_related("player", "partner"))
    assert names == sorted(f"{a} & {b}" for a, b in NAMES)
    assert copy.game == "partners"
    bad = json.loads(json.dumps(data))
    bad["entries"][1]["partner"] = bad["entries"][0]["player"]
    with pytest.raises(ServiceError) as refused:
        import_event(bad, club=ClubFactory())
    assert "enter one player twice" in refused.value.message


def test_exports_name_both_partners():
    from scoring import exports

    event = partners_event()
    _play_a_game(event)
    recompute_standings(event.pk)
    team = "Anna Rossi & Ștefan Pop"
    for export in (
        exports.standings_export(event),
        exports.seating_export(event, 1),
        exports.results_export(event),
    ):
        text = exports.render_csv(export).decode("utf-8-sig")
        assert team in text, text


def test_ratings_rate_a_table_as_two_teams_of_two():
    from scoring import ratings
    from scoring.models import PlayerRating

    event = partners_event()
    anna = _play_a_game(event)
    _play_a_game(event)
    assert ratings.update_club(event.club_id) == "scratch"
    rows = {r.player.name: r for r in PlayerRating.objects.select_related("player")}
    assert len(rows) == 8 and all(r.games == 2 for r in rows.values())
    # Partners won and lost together: the same change from the same start.
    assert rows["Anna Rossi"].mu == pytest.approx(rows["Ștefan Pop"].mu)
    assert rows["Anna Rossi"].mu > 25  # won both
    assert ratings.player_game_counts(anna.partner_id) == (2, 2)
    again = {
        p: (mu, sigma)
        for p, mu, sigma in PlayerRating.objects.values_list("player_id", "mu", "sigma")
    }
    assert ratings.update_club(event.club_id, from_scratch=True) == "scratch"
    assert again == {
        p: (mu, sigma)
        for p, mu, sigma in PlayerRating.objects.values_list("player_id", "mu", "sigma")
    }
    seeds = ratings.entry_ratings(event.pk)
    anna_rating = rows["Anna Rossi"]
    assert seeds[anna.pk] == pytest.approx(anna_rating.mu - 3 * anna_rating.sigma)


def test_a_players_page_shows_the_record_with_each_partner(client):
    from scoring.partners import partner_record

    event = partners_event()
    anna = _play_a_game(event)
    _play_a_game(event)
    lines = partner_record(anna.partner_id)
    assert [(line.name, line.games, line.won, line.events) for line in lines] == [
        ("Anna Rossi", 2, 2, 1)
    ]
    others = partner_record(event.entries.get(player__name="Łucja Nowak").partner_id)
    assert [(line.name, line.games) for line in others] == [("Łucja Nowak", 2)]
    html = client.get(f"/players/{anna.partner_id}/").content.decode()
    assert "With partners" in html and "Anna Rossi" in html
    assert '<span id="games-won-played">2 / 2</span>' in html


def test_the_projector_and_find_your_table_name_both_partners(client):
    event = partners_event()
    anna = _play_a_game(event)
    recompute_standings(event.pk)
    assert client.get(f"/events/{event.pk}/projector/").status_code == 200
    rows = client.get(f"/events/{event.pk}/standings/?projector=1").content.decode()
    assert f'<a href="/players/{anna.player_id}/">Anna Rossi</a> &amp; <a' in rows
    seats = client.get(f"/events/{event.pk}/projector/seating/").content.decode()
    assert "Ștefan Pop" in seats and "Anna Rossi" in seats  # each partner finds the table
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert f'<a href="/players/{anna.partner_id}/">Ștefan Pop</a>' in page
    assert "<th>Team</th>" in page
    found = client.get(f"/events/{event.pk}/standings/?find=stefan").content.decode()
    assert "Anna Rossi" in found and "Łucja Nowak" not in found


def test_score_cards_and_table_cards_name_both_partners():
    from results import printables

    event = partners_event()
    _play_a_game(event)
    cards = printables.score_cards(event, "http://testserver")
    anna = next(c for c in cards if c["entry"].player.name == "Anna Rossi")
    assert anna["entry"].name == "Anna Rossi & Ștefan Pop"
    assert all(" & " in row["opponent"] for row in anna["rows"] if row["opponent"])


def test_a_clone_keeps_the_teams_and_a_merge_follows_a_partner():
    import datetime

    event = partners_event(NAMES[:2])
    copy = services.clone_event(
        event, name="Next week", date=event.date + datetime.timedelta(days=7), with_players=True
    )
    assert sorted(e.name for e in copy.entries.select_related("player", "partner")) == sorted(
        f"{a} & {b}" for a, b in NAMES[:2]
    )
    twin = PlayerFactory(name="Stefan Pop", home_club=event.club)
    later = EventFactory(club=event.club, game="partners", name="Later")
    services.register_team(later, name="Mara Dinu", partner=twin.pk)
    assert later.entries.get().partner_id == twin.pk
    stefan = event.entries.get(player__name="Anna Rossi").partner
    services.merge_players(event.club, keep=stefan, merged=twin)
    team = later.entries.select_related("player", "partner").get()
    assert team.name == "Mara Dinu & Ștefan Pop"
    with pytest.raises(ServiceError) as refused:  # both in one event: two people
        services.merge_players(
            event.club, keep=stefan, merged=event.entries.get(player__name="Łucja Nowak").partner
        )
    assert refused.value.code == TournamentsError.BOTH_ENTERED


def test_a_draw_asks_for_teams_in_the_kinds_words():
    event = partners_event(NAMES[:1])
    with pytest.raises(ServiceError) as refused:
        services.draw_next_game(event)
    assert refused.value.message == "At least 2 checked-in teams are needed."


def test_a_round_robin_of_pairs_meets_every_other_team_once():
    event = partners_event()
    event.pairing = Event.Pairing.ROUND_ROBIN
    event.save()
    met = set()
    for _game in range(3):
        _play_a_game(event)
    for a, b in event.rounds.values_list("tables__seat_a_id", "tables__seat_b_id"):
        met.add(frozenset((a, b)))
    assert len(met) == 6  # 4 teams: every pair once
    recompute_standings(event.pk)
    top = standings_for_event(event.pk)[0]
    # Three skunks (the losers stopped at 90): 3 game points each.
    assert (top.entry.name, top.games_won, top.game_points) == ("Anna Rossi & Ștefan Pop", 3, 9)


def test_the_td_page_withdraws_a_team_in_a_teams_words(td_client, td_user):
    event = partners_event()
    event.club.directors.add(td_user)
    services.draw_next_game(event)
    page = td_client.get(f"/td/events/{event.pk}/").content.decode()
    assert "Withdraw this team and give" in page
    assert "Withdraw this team from the remaining games? Table" in page
    assert "Withdraw this player" not in page
    assert "ACC report" not in page  # partners' games earn no ACC points


def test_the_crosstable_counts_teams(client):
    event = partners_event()
    _play_a_game(event)
    recompute_standings(event.pk)
    html = client.get(f"/events/{event.pk}/crosstable/").content.decode()
    assert "4 teams, in standings order." in html and "Anna Rossi &amp; Ștefan Pop" in html


def test_a_cribbage_event_page_keeps_its_acc_report(td_client, td_user):
    event = EventFactory(game="cribbage")
    event.club.directors.add(td_user)
    page = td_client.get(f"/td/events/{event.pk}/").content.decode()
    assert "ACC report (PDF)" in page and "ACC report (CSV)" in page
