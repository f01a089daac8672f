"""Paper-card imports in bulk: a few queries whatever the size, every result audited once,
and a malformed file refused with the line it fails on (never a 500, nothing written)."""

from __future__ import annotations

import pytest

from core.errors import ServiceError
from results import services
from tests.factories import UserFactory, event_with_field
from tournaments import services as tournament_services
from tournaments.models import AuditEntry, GameResult, Table

pytestmark = pytest.mark.django_db


def played_event(players: int, games: int):
    event = event_with_field(players, name="Serata di Cribbage")
    rounds = []
    for _ in range(games):
        round_ = tournament_services.draw_next_game(event)
        rounds.append(round_)
        for table in round_.tables.filter(seat_b__isnull=False):
            # Results typed on the TD's page, to be confirmed by the paper cards.
            tournament_services.record_result(
                event, table=table, winner=table.seat_a, loser_score=100
            )
    return event, rounds


def cards_csv(rounds, *, loser_score=95) -> str:
    lines = ["game,table,player,result,spread"]
    for round_ in rounds:
        for table in round_.tables.filter(seat_b__isnull=False).select_related(
            "seat_a__player", "seat_b__player"
        ):
            spread = 121 - loser_score
            lines.append(f"{round_.number},{table.number},{table.seat_a.player.name},W,+{spread}")
            lines.append(f"{round_.number},{table.number},{table.seat_b.player.name},L,-{spread}")
    return "\n".join(lines) + "\n"


def test_a_large_import_takes_a_few_queries_and_audits_every_game(
    django_assert_max_num_queries,
):
    event, rounds = played_event(40, 5)  # 100 games, 200 lines
    text = cards_csv(rounds)
    with django_assert_max_num_queries(25):  # not one query per line or per game
        report = services.import_paper_cards(event, text, user=UserFactory())
    assert len(report.recorded) == 100 and not report.flagged
    first_line = report.recorded[0]
    table = Table.objects.get(
        round__event=event, round__number=first_line["game"], number=first_line["table"]
    )
    result = table.result
    loser = table.seat_b if result.winner_id == table.seat_a_id else table.seat_a
    assert first_line["result"] == (  # the report says who won, by name, and the score
        f"{result.winner.player.name} won, {loser.player.name} {result.loser_score}"
    )
    assert set(
        GameResult.objects.filter(table__round__event=event).values_list("margin", flat=True)
    ) == {26}
    changes = AuditEntry.objects.filter(event=event, action="paper_import")
    assert changes.count() == 100
    first = changes.first()
    assert first.old["loser_score"] == 100 and first.new["loser_score"] == 95
    assert first.reason.startswith("Rule 12.2")
    # The same cards again change nothing and write no audit row.
    services.import_paper_cards(event, text, user=UserFactory())
    assert AuditEntry.objects.filter(event=event, action="paper_import").count() == 100


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("game,table,player,result,spread\n1,1," + "x" * 200_000 + ",W,+5\n", "Line 2"),
        ("game,table,player,result,spread\n1,1,Nobody,W,+5\n", "no player Nobody"),
        ("game,table,player,result,spread\n1,one,Nobody,W,+5\n", "must be numbers"),
        ("game,table,player,result,spread\n", "no lines"),
        ("name,score\nAnn,5\n", "needs the columns"),
        ("game,table,player,result,spread\n1,1,\0,W,+5\n", "Line 2"),
    ],
)
def test_a_malformed_file_is_refused_with_its_line_and_writes_nothing(text, words):
    event, _rounds = played_event(4, 1)
    before = AuditEntry.objects.count()
    with pytest.raises(ServiceError) as caught:
        services.import_paper_cards(event, text, user=None)
    assert caught.value.code == "bad_csv" and words in caught.value.message
    assert AuditEntry.objects.count() == before


def test_a_large_file_is_imported_by_celery_with_its_progress(
    client, td_user, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    from results.models import ImportJob

    event, rounds = played_event(90, 5)  # 225 games: 450 lines, over the inline limit
    event.club.directors.add(td_user)
    client.force_login(td_user)
    upload = SimpleUploadedFile("cards.csv", cards_csv(rounds).encode("utf-8-sig"))
    with django_capture_on_commit_callbacks(execute=True):  # eager Celery runs the job
        response = client.post(reverse("results-import", args=[event.pk]), {"file": upload})
    job = ImportJob.objects.get(event=event)
    assert response.status_code == 302 and response.url.endswith(f"/import/{job.pk}/")
    assert (job.status, job.done, job.total) == ("done", 450, 450)
    assert len(job.report["recorded"]) == 225 and not job.report["flagged"]
    page = client.get(response.url).content.decode()
    assert "225 games recorded, 0 flagged." in page and "every 1s" not in page


def _first_table(rounds, names=("Zoë Lindqvist", "Ștefan Țurcanu")):
    """Game 1's table 1, its players renamed with accents."""
    table = rounds[0].tables.select_related("seat_a__player", "seat_b__player").get(number=1)
    for seat, name in zip((table.seat_a, table.seat_b), names, strict=True):
        seat.player.name = name
        seat.player.save()
    return table


def test_cards_name_players_as_typed_and_the_report_names_them(client, td_user):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    event, rounds = played_event(4, 1)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    table = _first_table(rounds)
    text = (
        "game,table,player,result,spread\n"
        "1,1,zoe lindqvist,W,+12\n"
        '1,1,"Turcanu, Stefan",L,-12\n'  # no accents, surname first
    )
    upload = SimpleUploadedFile("cards.csv", text.encode())
    response = client.post(reverse("results-import", args=[event.pk]), {"file": upload})
    page = response.content.decode()
    assert response.status_code == 200
    assert "The two lines agree: Zoë Lindqvist won by 12." in page
    assert f"{table.seat_a.pk} won by" not in page  # an entry id, never
    table.refresh_from_db()
    assert (table.result.winner_id, table.result.loser_score) == (table.seat_a_id, 109)


def test_every_bad_line_is_reported_with_its_reason_and_nothing_is_imported(client, td_user):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.urls import reverse

    event, rounds = played_event(8, 1)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    good = cards_csv(rounds).splitlines()  # header and 8 good lines
    text = "\n".join(
        [
            *good[:3],
            "1,one,Nobody,W,+5",  # line 4
            "1,2,Nobody,W,+5",  # line 5
            *good[3:5],
            "1,2,x,X,+5",  # line 8: no such player (the first reason found)
            f"1,3,{good[1].split(',')[2]},maybe,+5",  # line 9
            f"1,3,{good[1].split(',')[2]},W,+five",  # line 10
            *good[5:],
        ]
    )
    before = (AuditEntry.objects.count(), list(GameResult.objects.values_list("pk", "margin")))
    with pytest.raises(services.BadLines) as caught:
        services.import_paper_cards(event, text, user=None)
    assert caught.value.lines == [
        (4, "game and table must be numbers."),
        (5, "no player Nobody in this event."),
        (8, "no player x in this event."),
        (9, "the result must be W or L."),
        (10, "the spread must be a number, such as +12 or -12."),
    ]
    upload = SimpleUploadedFile("cards.csv", text.encode())
    response = client.post(reverse("results-import", args=[event.pk]), {"file": upload})
    page = response.content.decode()
    assert response.status_code == 400
    assert "5 lines are not right; nothing was imported." in page
    for number in (4, 5, 8, 9, 10):
        assert f"Line {number}:" in page
    after = (AuditEntry.objects.count(), list(GameResult.objects.values_list("pk", "margin")))
    assert after == before


def test_a_queued_import_with_bad_lines_lists_them_on_its_page(client, td_user):
    from django.urls import reverse

    from results.models import ImportJob

    event, rounds = played_event(4, 1)
    event.club.directors.add(td_user)
    client.force_login(td_user)
    text = cards_csv(rounds) + "1,1,Nobody,W,+5\n1,x,Nobody,W,+5\n"  # lines 6 and 7
    job = ImportJob.objects.create(event=event, user=td_user, text=text, total=6)
    job = services.run_import_job(job.pk)
    assert job.status == "failed" and job.report == {
        "bad_lines": [
            {"line": 6, "reason": "no player Nobody in this event."},
            {"line": 7, "reason": "game and table must be numbers."},
        ]
    }
    page = client.get(reverse("results-import-job", args=[event.pk, job.pk])).content.decode()
    assert "2 lines are not right; nothing was imported." in page
    assert "Line 6: no player Nobody in this event." in page and "Line 7:" in page
