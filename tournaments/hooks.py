"""What tournaments tells the apps above it, without importing them.

Tournaments sits below scoring and results: it never imports them. When something that the
standings depend on changes (a result, an entry, the ranking chain, the status), a service
calls :func:`results_changed`; the scoring app subscribes to :data:`results_changed_signal`
in its ``AppConfig.ready()`` and queues the recompute once the transaction commits.

The other direction (tournaments asking for a ranking: the cut to a playoff, a Swiss draw)
goes through :func:`current_ranking`, whose provider the scoring app registers at start-up,
so there is one ranking code path: the standings snapshot.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from django.db.models import F
from django.dispatch import Signal

# Sent with ``event_id``: the results of that event (or what ranks them) changed.
results_changed_signal = Signal()


def results_changed(event_id: int) -> None:
    """Announce that the standings of ``event_id`` need recomputing (after commit).

    The event's ``results_version`` is bumped in the caller's transaction, so whatever
    happens to the announcement (a lost task, a broker outage) the standings job can see
    that it is behind and catch up.
    """
    from .models import Event

    Event.objects.filter(pk=event_id).update(results_version=F("results_version") + 1)
    results_changed_signal.send(sender=results_changed, event_id=event_id)


# Sent with ``event_id`` and ``table_id`` inside the transaction that took back the table's
# result (an undo): what the apps above keep of that result (the reports that confirmed it)
# must no longer count.
result_removed_signal = Signal()


def result_removed(event_id: int, table_id: int) -> None:
    """Announce that the result of ``table_id`` was taken back (the table is open again)."""
    result_removed_signal.send(sender=result_removed, event_id=event_id, table_id=table_id)


# Sent with ``event_id`` and ``table_id`` (a StoppaTable) inside the transaction that wrote
# or cleared a table's nets: the players' sheets of that table still waiting for
# confirmations (results) no longer count.
table_nets_changed_signal = Signal()


def table_nets_changed(event_id: int, table_id: int) -> None:
    """Announce that the nets of Stoppa table ``table_id`` were written or cleared."""
    table_nets_changed_signal.send(sender=table_nets_changed, event_id=event_id, table_id=table_id)


# Sent with ``kept_id`` and ``merged_id`` inside the merge's transaction, before the merged
# player is deleted: what the apps above keep per player (season ledgers) must follow.
players_merged_signal = Signal()


def players_merged(kept_id: int, merged_id: int) -> None:
    """Announce that player ``merged_id`` is being merged into ``kept_id``."""
    players_merged_signal.send(sender=players_merged, kept_id=kept_id, merged_id=merged_id)


# Sent with ``event_id`` after an event finished, was cancelled, or was marked as counting or
# not for the season: the seasons its date falls in must be rebuilt (after commit).
event_season_changed_signal = Signal()

# Sent with ``source_id`` and ``event_id`` inside the transaction that cloned an event
# (``services.clone_event``): the apps above copy what they keep of it (fees, side pools).
event_cloned_signal = Signal()

# The weekly night saved as a template (``services.templates``), beside the clone: sent with
# ``source_id`` and ``template`` (an EventTemplate, saved after) when an event is saved as one,
# the apps above putting what they keep of the event in ``template.extras[<their name>]``
# (JSON); and with ``template`` and ``event_id`` when an event is made from it, the apps
# copying it back (the money desk: its fees and pools). Both inside the writer's transaction.
event_template_saved_signal = Signal()
event_from_template_signal = Signal()


def event_season_changed(event_id: int) -> None:
    """Announce that whether ``event_id`` counts for its club's seasons may have changed."""
    event_season_changed_signal.send(sender=event_season_changed, event_id=event_id)


@dataclass(frozen=True, slots=True)
class RankedEntry:
    """One entry of an event's current ranking, best first."""

    entry_id: int
    rank: int
    score: int  # the event's primary score (game points for cribbage, chips for Stoppa)
    withdrawn: bool


RankingProvider = Callable[[int], list[RankedEntry]]
_ranking_provider: RankingProvider | None = None


def register_ranking_provider(provider: RankingProvider) -> None:
    """Called once by the scoring app: how to rank an event's entries right now."""
    global _ranking_provider
    _ranking_provider = provider


def current_ranking(event_id: int) -> list[RankedEntry]:
    """The event's ranking on every committed result, by its own ranking chain."""
    if _ranking_provider is None:
        raise RuntimeError("No ranking provider: is the scoring app installed?")
    return _ranking_provider(event_id)


# --- What keeps an event from being deleted ------------------------------------------------------

# Each app above may say why an event must be kept rather than deleted (the money desk: money
# was taken at its door). A draft event nothing of the kind holds may still be deleted.
KeepReason = Callable[[int], "str | None"]
_keep_reasons: list[KeepReason] = []


def register_keep_reason(check: KeepReason) -> None:
    """Called by an app above at start-up: ``check(event_id)`` says why to keep it, or None."""
    if check not in _keep_reasons:
        _keep_reasons.append(check)


def reason_to_keep(event_id: int) -> str | None:
    """Why the event must not be deleted (cancel it instead), or None."""
    for check in _keep_reasons:
        reason = check(event_id)
        if reason:
            return reason
    return None


# --- The results desk's marks on the TD's pages --------------------------------------------------


class DeskMark(StrEnum):
    """A table's state at the results desk, as the marks on the TD's game page show it."""

    DISPUTED = "disputed"  # the players' versions disagree
    TO_CHECK = "to_check"  # two agreeing reports wait for the desk's check
    WAITING = "waiting"  # one player reported; the opponent has not confirmed yet
    PLAYERS = "players"  # the result stands on the players' own reports


@dataclass(frozen=True, slots=True)
class DeskMarks:
    """What the results desk holds for an event, for the badges and marks on the TD's pages.

    ``tables`` maps a table's id to its :class:`DeskMark` (disputed, to check, waiting for
    the opponent, or standing on the players' own reports).
    """

    disputes: int = 0
    to_check: int = 0
    tables: dict[int, DeskMark] | None = None
    # A table's pending player report, to accept from the game page: "version" (its id),
    # "by" (who reported), "winner" (the winner's name), "loser_score", "forfeit".
    reports: dict[int, dict] | None = None

    @property
    def attention(self) -> int:
        """How many tables need the TD at the desk (disputes and checks)."""
        return self.disputes + self.to_check


DeskProvider = Callable[[int, "int | None"], DeskMarks]
_desk_provider: DeskProvider | None = None


def register_desk_provider(provider: DeskProvider) -> None:
    """Called once by the results app: how to read the desk's state of an event."""
    global _desk_provider
    _desk_provider = provider


def desk_marks(event_id: int, round_id: int | None = None) -> DeskMarks:
    """The desk's counts for the event and, for ``round_id``, each of that game's tables.

    Without the results app (no provider) there is no desk: nothing to mark.
    """
    if _desk_provider is None:
        return DeskMarks(tables={})
    return _desk_provider(event_id, round_id)


# --- Nets the players reported, for the TD's session page ----------------------------------------


@dataclass(frozen=True, slots=True)
class ReportedNets:
    """A table's nets as one player sent them, still waiting for the others' confirmations:
    the TD's session page offers them to save as they are."""

    by: str  # the player who sent them
    nets: dict[int, int]  # entry id -> net
    waiting: tuple[str, ...]  # the players who have yet to confirm


NetsProvider = Callable[[int], dict[int, ReportedNets]]
_nets_provider: NetsProvider | None = None


def register_nets_provider(provider: NetsProvider) -> None:
    """Called once by the results app: the reported nets of a session's tables."""
    global _nets_provider
    _nets_provider = provider


def reported_nets(round_id: int) -> dict[int, ReportedNets]:
    """The open sheets of session ``round_id`` by table id (none without the results app)."""
    return {} if _nets_provider is None else _nets_provider(round_id)


# --- Club ratings, for seeding draws by rating ----------------------------------------------------

RatingProvider = Callable[[int], dict[int, float]]
_rating_provider: RatingProvider | None = None


def register_rating_provider(provider: RatingProvider) -> None:
    """Called once by the scoring app: each entry of an event by its player's club rating."""
    global _rating_provider
    _rating_provider = provider


def entry_ratings(event_id: int) -> dict[int, float]:
    """Entry id -> the player's conservative club rating (higher is better); empty when no
    ratings are kept (no provider), so a draw seeded by rating falls back to its own order."""
    if _rating_provider is None:
        return {}
    return _rating_provider(event_id)
