"""Reads of the scoring app: standings snapshots, always scoped by event."""

from __future__ import annotations

from django.db import connection
from django.db.models import QuerySet

from tournaments import selectors as tournament_selectors
from tournaments.hooks import RankedEntry
from tournaments.models import PRIVATE_STATUSES, Event
from tournaments.selectors import UserLike

from .models import STANDINGS_ORDER, Standing, StandingsSnapshot
from .places import FinalPlaces, final_places


def snapshot_for_event(event_id: int, after_game: int | None = None) -> StandingsSnapshot | None:
    """The latest snapshot of an event, or the one after game ``after_game``."""
    snapshots = StandingsSnapshot.objects.filter(event_id=event_id)
    if after_game is not None:
        return snapshots.filter(after_game=after_game).first()
    return snapshots.order_by("-after_game").first()


def standings_for_event(event_id: int, after_game: int | None = None) -> QuerySet[Standing]:
    """The rows of the latest snapshot (or of game ``after_game``), best first, with players."""
    snapshot = snapshot_for_event(event_id, after_game)
    if snapshot is None:
        return Standing.objects.none()
    return (
        Standing.objects.filter(event_id=event_id, snapshot=snapshot)
        .select_related("entry__player", "entry__partner", "snapshot")
        .order_by(*STANDINGS_ORDER)
    )


def placed_standings(
    event_id: int, after_game: int | None = None
) -> tuple[QuerySet[Standing], FinalPlaces]:
    """The rows of the latest snapshot (or of game ``after_game``), each annotated with its
    final ``place``, in the order of the final standings once the playoff is decided (its
    places first, then the qualifying order), and the :class:`FinalPlaces` they come from."""
    places = final_places(event_id, after_game)
    rows = standings_for_event(event_id, after_game).annotate(place=places.expression())
    if places.decided:
        rows = rows.order_by("place", *STANDINGS_ORDER)
    return rows, places


def with_place_labels(rows: list[Standing], places: FinalPlaces) -> list[Standing]:
    """``rows`` each given ``place_label``, the place as the standings write it ("3="), and
    ``by_playoff``: whether the decided playoff placed the rows (the pages then say so)."""
    for row in rows:
        row.place_label = places.label(row.entry_id, row.rank, row.tied)  # type: ignore[attr-defined]
        row.by_playoff = places.decided  # type: ignore[attr-defined]
    return rows


def movement(event_id: int, rows: list[Standing]) -> dict[int, int]:
    """Places gained (+) or lost (-) by each entry since the snapshot of the game before."""
    if not rows:
        return {}
    current = rows[0].snapshot.after_game
    before = (
        StandingsSnapshot.objects.filter(event_id=event_id, after_game__lt=current)
        .order_by("-after_game")
        .first()
    )
    if before is None:
        return {}
    previous = dict(
        before.rows.filter(entry_id__in=[row.entry_id for row in rows]).values_list(
            "entry_id", "rank"
        )
    )
    return {
        row.entry_id: previous[row.entry_id] - row.rank for row in rows if row.entry_id in previous
    }


def standings_version(event_id: int, after_game: int | None = None) -> str | None:
    """What the public standings of an event show right now, in one short query: the
    snapshot, its version and when it was computed, plus the event's state that changes the
    page (status, published, chain), which counts even before the first snapshot, and its
    random seed: SQLite gives a deleted event's id to the next one, whose cached pages must
    not be the deleted event's. Equal
    values mean an unchanged page, so a poller can be answered 304 and a rendered table
    reused. ``None`` when the public may not see the event (none, or a draft).

    Written as SQL on purpose: every poll of every phone runs it, and building the same
    query through the ORM cost more than running it.
    """
    from tournaments.models import Bracket, Event

    after = "AND after_game = %s" if after_game is not None else ""
    # The bracket's last change counts too: a decided playoff reorders the final standings.
    sql = f"""
        SELECT e.status, e.standings_published, e.tiebreakers, e.seed,
               s.id, s.version, s.complete, s.computed_at, b.champion_id, b.updated_at
          FROM {Event._meta.db_table} e
          LEFT JOIN {StandingsSnapshot._meta.db_table} s ON s.id = (
                SELECT id FROM {StandingsSnapshot._meta.db_table}
                 WHERE event_id = e.id {after} ORDER BY after_game DESC LIMIT 1)
          LEFT JOIN {Bracket._meta.db_table} b ON b.event_id = e.id
         WHERE e.id = %s"""
    with connection.cursor() as cursor:
        cursor.execute(sql, [*([after_game] if after_game is not None else []), event_id])
        found = cursor.fetchone()
    if found is None or found[0] in PRIVATE_STATUSES:
        return None
    return "-".join(str(part) for part in found)


def seating_version(event_id: int) -> str | None:
    """What the public seating of an event shows right now, in one short query: the event's
    status, seed (an id SQLite reused is another event) and ``results_version`` (bumped by
    every result, correction, redraw, withdrawal and rename) and its released games (a
    release bumps it only when it scored byes).
    Equal values mean an unchanged seating, so a poll can be answered 304 and a rendered
    seating reused. ``None`` when the public may not see the event (none, or a draft).
    """
    from tournaments.models import Round

    sql = f"""
        SELECT e.status, e.results_version, e.seed,
               (SELECT COUNT(*) FROM {Round._meta.db_table} r
                 WHERE r.event_id = e.id AND r.status = %s),
               (SELECT MAX(r.id) FROM {Round._meta.db_table} r
                 WHERE r.event_id = e.id AND r.status = %s)
          FROM {Event._meta.db_table} e
         WHERE e.id = %s"""
    released = Round.Status.RELEASED.value
    with connection.cursor() as cursor:
        cursor.execute(sql, [released, released, event_id])
        found = cursor.fetchone()
    if found is None or found[0] in PRIVATE_STATUSES:
        return None
    return "-".join(str(part) for part in found)


def games_with_snapshots(event_id: int) -> list[int]:
    """The game numbers an event has standings after, in order."""
    return list(
        StandingsSnapshot.objects.filter(event_id=event_id)
        .order_by("after_game")
        .values_list("after_game", flat=True)
    )


def standings_with_movement(
    event_id: int, after_game: int | None = None, *, limit: int | None = None, find: str = ""
) -> list[Standing]:
    """The rows of a snapshot in the order of the final standings (the first ``limit``, if
    given; with ``find``, only the players whose name has it), each with its ``place``,
    ``place_label`` and ``movement``: places gained since the game before (none once the
    playoff decided the places: the final standings do not move)."""
    standings, places = placed_standings(event_id, after_game)
    if find:
        # The stored folded name: "zoe", "STEFAN" or "Dolores Ibanez" find Zoë, Ștefan and
        # Dolores Ibáñez on SQLite and PostgreSQL alike, in the database.
        standings = standings.filter(tournament_selectors.entry_name_search("entry__", find))
    elif limit is not None and not places.decided:
        # The top rows by the (snapshot, rank) index first: ordering a 20,000-row snapshot
        # by rank and name sorted every row to show 100 of them.
        cutoff = list(standings.order_by("rank").values_list("rank", flat=True)[limit - 1 : limit])
        if cutoff:
            standings = standings.filter(rank__lte=cutoff[0])
    rows = with_place_labels(list(standings[:limit]), places)
    if places.decided:
        for row in rows:
            row.movement = 0  # type: ignore[attr-defined]
        return rows
    return with_movement(event_id, rows)


def entrants_and_no_shows(event_id: int, after_game: int | None = None) -> tuple[int, list[str]]:
    """How many entries the snapshot ranks (the entrants), and the names of the others (they
    never played and are not counted as checked in): listed apart, not ranked. Nothing
    before the first snapshot."""
    snapshot = snapshot_for_event(event_id, after_game)
    if snapshot is None:
        return 0, []
    from tournaments.models import Entry, entry_names

    ranked = Standing.objects.filter(snapshot=snapshot)
    names = tournament_selectors.by_name(
        entry_names(
            Entry.objects.filter(event_id=event_id).exclude(pk__in=ranked.values("entry_id"))
        ).values(),
        name=str,
    )
    return ranked.count(), names


def no_shows(event_id: int, after_game: int | None = None) -> list[str]:
    """The names of the entries the snapshot does not rank (see :func:`entrants_and_no_shows`)."""
    return entrants_and_no_shows(event_id, after_game)[1]


def with_movement(event_id: int, rows: list[Standing]) -> list[Standing]:
    """``rows`` (of one snapshot, e.g. a page of it), each given ``movement``: places gained
    since the game before; two queries whatever the number of rows."""
    moved = movement(event_id, rows)
    for row in rows:
        row.movement = moved.get(row.entry_id, 0)  # type: ignore[attr-defined]
    return rows


def standings_public(event: Event) -> bool:
    """The publication rule, asked by every public reader of standings (the public page and
    its projector, the exports, the API): may the public see ``event``'s standings? Once the
    event is past its draft (and not cancelled) and its TD has published them."""
    return event.status not in PRIVATE_STATUSES and event.standings_published


def standings_event(user: UserLike, event_id: int) -> Event | None:
    """The event whose standings ``user`` may read: the event's TD always, anyone else when
    :func:`standings_public` says so; None otherwise."""
    event = tournament_selectors.events_directed_by(user).filter(pk=event_id).first()
    if event is None:
        event = tournament_selectors.public_events().filter(pk=event_id).first()
        if event is not None and not standings_public(event):
            return None
    return event


def current_ranking(event_id: int) -> list[RankedEntry]:
    """The event's ranking on every committed result (the provider of
    ``tournaments.hooks.current_ranking``): the snapshots are brought up to date first, in
    the caller's transaction, so the cut and the Swiss draw never read a stale table."""
    from .services import recompute_standings

    recompute_standings(event_id)
    rows = standings_for_event(event_id).values_list(
        "entry_id", "rank", "game_points", "chips", "entry__withdrawn"
    )
    return [
        RankedEntry(entry_id=pk, rank=rank, score=points if chips is None else chips, withdrawn=w)
        for pk, rank, points, chips, w in rows
    ]
