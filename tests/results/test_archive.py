"""The event archive (issue #14): export an event to one JSON document and import it into an
empty Pegboard; the standings and the bracket come out the same. Bad archives are refused
with a message, never a traceback."""

from __future__ import annotations

import copy
import json
import time

import pytest
from django.core.management import CommandError, call_command
from django.core.serializers.json import DjangoJSONEncoder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import ServiceError
from results.archive import SCHEMA, export_event, import_event
from results.models import Dispute, Submission
from results.services import keys as keys_service
from results.services import reports
from results.services.desk import rule
from scoring.models import MasterPoints, SpecialHand, Standing
from scoring.selectors import games_with_snapshots
from scoring.services import recompute_standings
from tests.factories import ClubFactory, UserFactory, event_with_field
from tournaments import services
from tournaments.demo import load_demo
from tournaments.models import AuditEntry, Bracket, Club, Event, Player, PlayoffMatch, Table

pytestmark = pytest.mark.django_db


def standings_table(event: Event) -> dict[int, list[tuple]]:
    """Every snapshot's rows as (rank, tied, name, GP, played, won, lost, spread, skunks,
    byes), the way a reader compares two standings."""
    out = {}
    for after in games_with_snapshots(event.pk):
        out[after] = list(
            Standing.objects.filter(event=event, snapshot__after_game=after)
            .order_by("rank", "entry__player__name")
            .values_list(
                "rank",
                "tied",
                "entry__player__name",
                "game_points",
                "games_played",
                "games_won",
                "games_lost",
                "spread",
                "skunks_won",
                "skunks_suffered",
                "byes",
            )
        )
    return out


def bracket_table(event: Event) -> dict:
    """The bracket as names: every match's players, games won and winner, and the places."""
    bracket = Bracket.objects.select_related("champion__player").get(event=event)  # not cached

    def name(entry) -> str | None:
        return entry.player.name if entry else None

    matches = [
        (
            m.code,
            m.section,
            m.round,
            name(m.seat_a),
            name(m.seat_b),
            m.wins_a,
            m.wins_b,
            name(m.winner),
            m.decided,
            m.games.count(),
        )
        for m in PlayoffMatch.objects.filter(bracket=bracket)
        .select_related("seat_a__player", "seat_b__player", "winner__player")
        .order_by("position")
    ]
    names = dict(event.entries.values_list("pk", "player__name"))
    places = sorted((names[int(pk)], place) for pk, place in bracket.places.items())
    seeds = [names[pk] for pk in bracket.seeds]
    return {
        "matches": matches,
        "places": places,
        "seeds": seeds,
        "champion": name(bracket.champion),
    }


def without_users(data):
    """The archive without the names of the users who entered things (users are not
    imported: they are people with passwords of one Pegboard)."""
    if isinstance(data, dict):
        return {
            k: without_users(v)
            for k, v in data.items()
            if k not in ("entered_by", "by_user", "ruled_by")
        }
    if isinstance(data, list):
        return [without_users(v) for v in data]
    return data


def through_json(data: dict) -> dict:
    """What a file on disk gives back."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder, ensure_ascii=False))


@pytest.fixture
def demo_night():
    """The demo night played to the end, with a disputed table ruled, a corrected result, a
    29 hand, master points and a best-of-one playoff of the top 8 played to its champion."""
    event, _created = load_demo()
    td = event.club.directors.get()
    open_tables = list(
        Table.objects.filter(round__event=event, result__isnull=True, seat_b__isnull=False)
    )
    disputed, *rest = open_tables
    keys = keys_service.keys_for([disputed.seat_a, disputed.seat_b])
    reports.submit(
        keys[disputed.seat_a_id], table=disputed, winner=disputed.seat_a, loser_score=101
    )
    reports.submit(
        keys[disputed.seat_b_id],
        table=disputed,
        winner=disputed.seat_b,
        loser_score=95,
        reason="I pegged out first",
    )
    rule(event, table=disputed, user=td, winner=disputed.seat_b, loser_score=95, note="Seen")
    for table in rest:
        services.record_result(event, table=table, winner=table.seat_a, loser_score=88)
    corrected = rest[0]
    services.record_result(
        event, table=corrected, winner=corrected.seat_b, loser_score=110, reason="Wrong card"
    )
    zoe = event.entries.get(player__name="Zoë Lindqvist")
    SpecialHand.objects.create(event=event, entry=zoe, points=29, game_number=3, note="5♣")
    MasterPoints.objects.create(event=event, place=1, points="2.25")
    services.create_playoff(event, qualifiers=8, best_of=(1,), third_place=True)
    while True:
        ready = list(
            event.bracket.matches.filter(
                decided=False, seat_a__isnull=False, seat_b__isnull=False
            ).order_by("position")
        )
        if not ready:
            break
        services.record_playoff_game(
            event, match=ready[0].code, winner=ready[0].seat_b, loser_score=100
        )
    recompute_standings(event.pk)
    event.refresh_from_db()
    return event


def test_the_demo_night_round_trips_into_an_empty_pegboard(demo_night):
    before_standings = standings_table(demo_night)
    before_bracket = bracket_table(demo_night)
    audit = sorted(
        AuditEntry.objects.filter(event=demo_night).values_list("action", "actor", "reason")
    )
    submissions = sorted(
        Submission.objects.filter(event=demo_night).values_list("status", "source")
    )
    data = through_json(export_event(demo_night))
    assert data["schema"] == SCHEMA and data["version"] == 1
    assert len(data["players"]) == 24 and len(data["games"]) == 5
    assert {"Zoë Lindqvist", "Ștefan Țurcanu"} <= {p["name"] for p in data["players"]}
    assert all("key" not in json.dumps(e) for e in data["entries"])  # private keys stay home
    assert data["disputes"][0]["ruled_by"] == "td" and data["disputes"][0]["ruling"] is not None

    # As in an empty Pegboard, nothing of the club's is found: its members' ACC numbers (one
    # person everywhere) are taken off the originals, and the import goes to a new club.
    Player.objects.filter(home_club=demo_night.club).update(acc_number="")
    fresh = ClubFactory(name="Club nou din Brașov", slug="brasov")
    event = import_event(data, club=fresh)
    assert event.club == fresh and event.name == "Thursday Club Night"
    assert Player.objects.filter(home_club=fresh).count() == 24
    assert Player.objects.get(name="Zoë Lindqvist", home_club=fresh).acc_number == "A10021"
    assert standings_table(event) == before_standings
    assert bracket_table(event) == before_bracket
    assert bracket_table(event)["champion"] is not None
    assert (
        sorted(AuditEntry.objects.filter(event=event).values_list("action", "actor", "reason"))
        == audit
    )
    assert (
        sorted(Submission.objects.filter(event=event).values_list("status", "source"))
        == submissions
    )
    dispute = Dispute.objects.get(event=event)
    assert dispute.ruling is not None and dispute.ruled_at is not None and dispute.note == "Seen"
    assert SpecialHand.objects.get(event=event).entry.player.name == "Zoë Lindqvist"
    assert str(MasterPoints.objects.get(event=event).points) == "2.25"
    # The archive of the import is the archive of the original, but for when it was made
    # and the audit chain's digests: the import chains the entries anew (issue 27; the
    # digests cover the new database ids), in the archive's order.
    again = through_json(export_event(event))
    assert again["audit_digest"] and again["audit_digest"] != data["audit_digest"]
    for rows in (again["audit"], data["audit"]):
        for row in rows:
            del row["digest"], row["previous_digest"]
    for part in (
        "players",
        "entries",
        "games",
        "audit",
        "submissions",
        "playoff",
        "final_standings",
        "special_hands",
        "master_points",
    ):
        assert without_users(again[part]) == without_users(data[part]), part


def test_importing_next_to_the_original_matches_players_by_acc_number(demo_night):
    data = through_json(export_event(demo_night))
    players = Player.objects.count()
    event = import_event(data, club=ClubFactory())
    # 21 demo players have an ACC number (one person everywhere); 3 without are new players
    # of the importing club.
    assert Player.objects.count() == players + 3
    assert event.entries.filter(player__home_club=demo_night.club).count() == 21
    assert standings_table(event) == standings_table(demo_night)


def test_export_and_import_commands(demo_night, tmp_path):
    path = tmp_path / "night.json"
    call_command("export_event", str(demo_night.pk), "-o", str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["schema"] == SCHEMA
    club = ClubFactory()
    call_command("import_event", str(path), "--club", str(club.pk))
    assert Event.objects.filter(club=club, name=demo_night.name).exists()
    with pytest.raises(CommandError, match="No event"):
        call_command("export_event", "999999")
    with pytest.raises(CommandError, match="No club"):
        call_command("import_event", str(path), "--club", "999999")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_event", str(bad))
    bad.write_text(json.dumps({"schema": "something.else"}), encoding="utf-8")
    with pytest.raises(CommandError, match="not a valid event archive"):
        call_command("import_event", str(bad))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(version=2), "version 2"),
        (lambda d: d.pop("event"), "event should be an object"),
        (lambda d: d["event"].update(game="chess"), "event.game"),
        (lambda d: d["players"][0].update(name=""), r"players\[0\].name"),
        (lambda d: d["entries"][0].update(player=9999), r"entries\[0\].player"),
        (lambda d: d["games"][0]["tables"][0]["result"].update(winner=9999), "result.winner"),
        (lambda d: d["games"][0]["tables"][0]["result"].update(margin="lots"), "result.margin"),
        (lambda d: d["games"][0]["tables"][0].update(b=None), "number exactly when"),
        (lambda d: d["audit"][0].update(at="yesterday"), r"audit\[0\].at"),
    ],
)
def test_a_bad_archive_is_refused_with_a_message_and_writes_nothing(demo_night, change, message):
    data = through_json(export_event(demo_night))
    change(data)
    events, players, clubs = Event.objects.count(), Player.objects.count(), Club.objects.count()
    with pytest.raises(ServiceError, match=message) as refused:
        import_event(data, club=ClubFactory())
    assert refused.value.code in ("bad_archive", "archive_version")
    assert (Event.objects.count(), Player.objects.count()) == (events, players)
    assert Club.objects.count() == clubs + 1  # the factory's club only


def test_not_an_archive_at_all():
    for data in (None, [], "x", {"schema": SCHEMA}):
        with pytest.raises(ServiceError):
            import_event(data, club=ClubFactory())


def test_a_thousand_player_event_round_trips_quickly(capsys):
    """1,000 players, 9 games (4,500 results) and a 64-player playoff, built in bulk as the
    benches do. Prints the archive's size and the export and import times (no wall-clock
    assert: the machine is shared)."""
    from bench._field import build_event

    event = build_event(1000, 9, name="Campionato Țării 1000")
    recompute_standings(event.pk)
    services.create_playoff(event, qualifiers=64, best_of=(1,))
    for code in list(
        event.bracket.matches.filter(round=1, section="main")
        .exclude(seat_b__isnull=True)
        .values_list("code", flat=True)
    )[:10]:
        match = event.bracket.matches.get(code=code)
        services.record_playoff_game(event, match=code, winner=match.seat_a, loser_score=90)
    before_standings = standings_table(event)
    before_bracket = bracket_table(event)

    started = time.perf_counter()
    text = json.dumps(export_event(event), cls=DjangoJSONEncoder, ensure_ascii=False)
    exported = time.perf_counter() - started
    started = time.perf_counter()
    copy = import_event(json.loads(text), club=ClubFactory(name="Fresh", slug="fresh"))
    imported = time.perf_counter() - started

    assert copy.entries.count() == 1000
    assert standings_table(copy) == before_standings
    assert bracket_table(copy) == before_bracket
    with capsys.disabled():
        print(
            f"\n1,000-player archive: {len(text.encode()) / 1e6:.2f} MB, "
            f"export {exported:.2f} s, import (with the standings recompute) {imported:.2f} s"
        )


def test_the_td_downloads_the_archive_and_imports_it_on_the_club_console(client, demo_night):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    td = demo_night.club.directors.get()
    url = reverse("td-event-archive", args=[demo_night.pk])
    assert client.get(url).status_code == 302  # signed-in TDs only
    client.force_login(UserFactory(username="other-club"))
    assert client.get(url).status_code == 404
    client.force_login(td)
    page = client.get(reverse("td-event", args=[demo_night.pk])).content.decode()
    assert (
        url in page and reverse("td-event-export", args=[demo_night.pk, "results", "csv"]) in page
    )
    response = client.get(url)
    assert response.status_code == 200 and "attachment" in response["Content-Disposition"]
    assert json.loads(response.content)["schema"] == SCHEMA

    other = ClubFactory(name="Două")
    other.directors.add(td)
    club_page = client.get(reverse("td-club", args=[other.pk])).content.decode()
    target = reverse("td-club-import", args=[other.pk])
    assert target in club_page and reverse("club-archive", args=[other.pk]) in club_page
    assert client.get(target).status_code == 200
    bad = client.post(target, {"file": SimpleUploadedFile("x.json", b"{nope")})
    assert bad.status_code == 400 and "not JSON" in bad.content.decode()
    wrong = client.post(target, {"file": SimpleUploadedFile("x.json", b'{"schema": "x"}')})
    assert wrong.status_code == 400 and "not a valid event archive" in wrong.content.decode()
    done = client.post(target, {"file": SimpleUploadedFile("night.json", response.content)})
    event = Event.objects.get(club=other)
    assert done.status_code == 302 and done.url == reverse("td-event", args=[event.pk])
    assert standings_table(event) == standings_table(demo_night)
    client.force_login(UserFactory(username="stranger"))
    assert client.get(target).status_code == 404


def test_a_stoppa_event_round_trips_with_its_chip_nets():
    import random

    from tests.factories import stoppa_event_with_field
    from tournaments.stoppa import services as services_stoppa

    event = stoppa_event_with_field(9, names=("Zoë Lindqvist", "Ștefan Țurcanu"))
    rng = random.Random(5)
    for _session in range(2):
        round_ = services.draw_next_game(event)
        for table in round_.stoppa_tables.filter(number__isnull=False):
            seats = list(table.seats.values_list("entry_id", flat=True))
            nets = {pk: rng.randint(-20, 20) for pk in seats[:-1]}
            nets[seats[-1]] = -sum(nets.values())
            services_stoppa.record_session_nets(event, table=table, nets=nets)
    recompute_standings(event.pk)

    def chips(e: Event) -> list[tuple]:
        return list(
            Standing.objects.filter(event=e, snapshot__after_game=2)
            .order_by("rank", "entry__player__name")
            .values_list("rank", "entry__player__name", "chips", "sessions_won", "best_session")
        )

    data = through_json(export_event(event))
    assert data["event"]["game"] == "stoppa" and data["games"][0]["stoppa_tables"]
    copy = import_event(data, club=ClubFactory())
    assert chips(copy) == chips(event) and len(chips(copy)) == 9
    assert copy.game_kind.key == "stoppa"


def _paths(value, prefix=()):
    """Every place in a JSON tree, as a tuple of keys and indexes."""
    yield prefix
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):  # the first few items of each list
            yield from _paths(item, (*prefix, index))


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@pytest.fixture
def small_archive():
    event = event_with_field(4, name="Fuzz night")
    round_ = services.draw_next_game(event)
    table = round_.tables.order_by("number").first()
    services.record_result(event, table=table, winner=table.seat_a, loser_score=91)
    services.record_result(
        event, table=table, winner=table.seat_b, loser_score=100, reason="Wrong card"
    )
    recompute_standings(event.pk)
    return through_json(export_event(event))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_damage_to_an_archive_is_a_service_error_or_an_import(small_archive, data):
    archive = copy.deepcopy(small_archive)
    paths = [p for p in _paths(archive) if p]
    where = data.draw(st.sampled_from(paths))
    parent = archive
    for step in where[:-1]:
        parent = parent[step]
    if data.draw(st.booleans()) and isinstance(parent, dict):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(JSON_VALUES)
    try:
        event = import_event(archive, club=ClubFactory())
    except ServiceError as exc:
        assert exc.code in ("bad_archive", "archive_version") and exc.message
    else:
        assert event.pk is not None


def test_the_cut_draw_of_lots_and_the_entrants_rule_survive_the_archive():
    from tests.factories import EntryFactory, EventFactory, RoundFactory
    from tests.tournaments.test_cut_ties import WINNERS  # the four tied winners' night

    event = EventFactory(
        kind=Event.Kind.SANCTIONED,
        games_planned=1,
        status=Event.Status.RUNNING,
        entrants=Event.Entrants.CHECKED_IN,
    )
    losers = ["Bo", "Cy", "Di", "Ed"]
    by_name = {n: EntryFactory(event=event, player__name=n) for n in [*WINNERS, *losers]}
    round_ = RoundFactory(event=event, number=1)
    for i, (winner, loser) in enumerate(zip(WINNERS, losers, strict=True), start=1):
        table = Table.objects.create(
            round=round_, number=i, seat_a=by_name[loser], seat_b=by_name[winner]
        )
        services.record_result(event, table=table, winner=by_name[winner], loser_score=101)
    bracket = services.create_playoff(event, qualifiers=2, confirm_lots=True)
    drawn = [
        (by_name_of(e["entry"]), e["lot"], e["qualified"]) for e in bracket.cut_lots[0]["entries"]
    ]

    copy_ = import_event(through_json(export_event(event)), club=ClubFactory())
    assert copy_.entrants == Event.Entrants.CHECKED_IN
    lots = copy_.bracket.cut_lots[0]
    assert [(by_name_of(e["entry"]), e["lot"], e["qualified"]) for e in lots["entries"]] == drawn
    assert lots["straddles"] is True


def by_name_of(entry_id: int) -> str:
    from tournaments.models import Entry

    return Entry.objects.get(pk=entry_id).player.name
