"""The discard review of a stored game record (``games.cribbage.review_game``).

A submission that carries a whole-game record is reviewed after it commits, by the Celery task
``results.review_record`` (queued on commit, so the task always sees the stored record). The
review is stored per submission (``DiscardReview``); the player's page and the results desk
read it through ``results.reviews``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.cribbage import ReviewError, review_game

from ..models import DiscardReview, Submission


def is_game_record(record: Any) -> bool:
    """A whole-game record (the format ``verify_game`` reads), not single counts."""
    return isinstance(record, dict) and isinstance(record.get("deals"), list)


def queue_review(submission_id: int) -> None:
    """Review the submission's record once the current transaction commits.

    robust: the submission is committed whatever happens to the review; a broker hiccup is
    logged, never an error for the player who reported.
    """

    def send() -> None:
        from ..tasks import review_record

        review_record.delay(submission_id)

    transaction.on_commit(send, robust=True)


def _entries(submission: Submission, players: list[str]) -> list[int | None]:
    """The entry of each record player: by name when the names are the seats' names, else
    player 0 is whoever submitted (the player's own record form puts them first)."""
    table = submission.table
    seats = [seat for seat in (table.seat_a, table.seat_b) if seat is not None]
    if len(players) != 2 or len(seats) != 2:
        return [None] * len(players)
    by_name = {seat.name.strip().casefold(): seat.pk for seat in seats}
    named = [by_name.get(str(name).strip().casefold()) for name in players]
    if None not in named and len(set(named)) == 2:
        return named
    first = submission.by_entry_id if submission.by_entry_id in {s.pk for s in seats} else None
    first = first or seats[0].pk
    second = next(seat.pk for seat in seats if seat.pk != first)
    return [first, second]


@transaction.atomic
def review_submission(submission_id: int) -> DiscardReview | None:
    """Review one submission's whole-game record and store it (again, if it was already);
    None when the submission is gone or carries no whole-game record."""
    submission = (
        Submission.objects.select_related(
            "table__seat_a__player",
            "table__seat_a__partner",
            "table__seat_b__player",
            "table__seat_b__partner",
        )
        .filter(pk=submission_id)
        .first()
    )
    if submission is None or not is_game_record(submission.record):
        return None
    try:
        data = review_game(submission.record).to_dict()
        data["entries"] = _entries(submission, data["players"])
        status = DiscardReview.Status.DONE
    except ReviewError as exc:
        data = {"code": exc.code, "problems": exc.problems[:5]}
        status = DiscardReview.Status.REFUSED
    review, _created = DiscardReview.objects.update_or_create(
        submission=submission,
        defaults={
            "event_id": submission.event_id,
            "table_id": submission.table_id,
            "status": status,
            "review": data,
        },
    )
    return review
