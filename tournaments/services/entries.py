"""Entries: entering and registering players, check-in, withdrawal, forbidden pairs."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tournaments import hooks, names, selectors
from tournaments import pairing_bridge as bridge
from tournaments.audit_chain import append_audit
from tournaments.models import (
    ACC_NUMBER,
    AuditEntry,
    Bracket,
    Entry,
    Event,
    ForbiddenPair,
    Player,
)

from ..error_codes import TournamentsError
from ._common import UserLike, acting_user, actor_name, locked_event
from .members import check_acc_number
from .results import record_result


@transaction.atomic
def enter_player(
    event: Event,
    player: Player,
    *,
    checked_in: bool = False,
    partner: Player | None = None,
    same_as_waiting: bool | None = None,
) -> Entry:
    """Enter ``player`` in ``event`` (a late entry joins at the next game drawn); with
    ``partner``, the two as one team, in a kind played by teams of two.

    When the player waits on the online list, the TD says whether the person entered is the
    one who registered (``same_as_waiting``): a registration's link acts only for an entry it
    made or one the TD vouched was theirs, never for someone who gave the same name."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(
            TournamentsError.EVENT_FINISHED, _("The event has finished; no more entries.")
        )
    check_team(event, player, partner)
    entry, created = Entry.objects.get_or_create(
        event=event, player=player, defaults={"checked_in": checked_in, "partner": partner}
    )
    if not created:
        raise ServiceError(
            TournamentsError.ALREADY_ENTERED,
            _("%(name)s is already entered.") % {"name": player.name},
            field="name",
        )
    # One who waits on the online list and is entered by the TD leaves the list.
    from .registration import seat_from_waiting_list  # registration enters through here

    seat_from_waiting_list(event, entry, same_as_waiting)
    return entry


def check_team(event: Event, player: Player, partner: Player | None) -> None:
    """Refuse an entry of the wrong size for the event's kind (a partner where players play
    alone, none where they play in teams), a team of one player twice, and a player already
    in another team of the event (as its player or its partner)."""
    team_size = event.game_kind.team_size
    if partner is not None and team_size == 1:
        raise ServiceError(
            TournamentsError.NOT_TEAM_GAME,
            _("%(game)s is not played in teams: enter each player alone.")
            % {"game": event.game_kind.label},
            field="partner",
        )
    if partner is None and team_size > 1:
        raise ServiceError(
            TournamentsError.PARTNER_REQUIRED,
            _("%(game)s is played in teams of two: enter %(name)s with a partner.")
            % {"game": event.game_kind.label, "name": player.name},
            field="partner",
        )
    if partner is None:
        return
    if partner.pk == player.pk:
        raise ServiceError(
            TournamentsError.SAME_PLAYER,
            _("A team needs two different players."),
            field="partner",
        )
    for who, beside in ((player, "name"), (partner, "partner")):
        taken = (
            event.entries.filter(Q(player=who) | Q(partner=who))
            .select_related("player", "partner")
            .first()
        )
        if taken is not None:
            raise ServiceError(
                TournamentsError.ALREADY_IN_TEAM,
                _("%(name)s already plays in this event: %(team)s.")
                % {"name": who.name, "team": taken.name},
                field=beside,
            )


@transaction.atomic
def register_player(
    event: Event,
    *,
    name: str,
    acc_number: str = "",
    status: str = Player.Status.MEMBER,
    checked_in: bool = True,
    same_as_waiting: bool | None = None,
) -> Entry:
    """Find or create a player by ACC number (else by name in the club) and enter them."""
    player = find_or_make_player(event, name=name, acc_number=acc_number, status=status)
    return enter_player(event, player, checked_in=checked_in, same_as_waiting=same_as_waiting)


def find_or_make_player(
    event: Event, *, name: str, acc_number: str = "", status: str = Player.Status.MEMBER
) -> Player:
    """The player a typed name (and ACC number) stands for: by ACC number, else the club's
    player of that name (accents and case aside, or written surname first), else a new
    one. Callers run it in their transaction."""
    name = " ".join(name.split())
    acc_number = check_acc_number(acc_number)  # the ACC's format, as for a membership
    if not name:
        raise ServiceError(
            TournamentsError.NAME_REQUIRED, _("A player needs a name."), field="name"
        )
    if len(name) > 120:
        raise ServiceError(
            TournamentsError.NAME_TOO_LONG, _("At most 120 characters."), field="name"
        )
    if status not in Player.Status.values:
        raise ServiceError(TournamentsError.BAD_STATUS, _("Unknown player status."), field="status")
    # The name as typed, accents and case aside, or read surname first ("Lindqvist, Zoë").
    swapped = names.surname_first(name)
    readings = [names.fold(name)] + ([names.fold(swapped)] if swapped else [])
    player = None
    if acc_number:
        player = Player.objects.filter(acc_number=acc_number).first()
        if player is not None and player.name_folded not in readings:
            raise ServiceError(
                TournamentsError.ACC_NUMBER_TAKEN,
                _("ACC number %(number)s belongs to %(name)s.")
                % {"number": acc_number, "name": player.name},
                field="acc_number",
            )
    if player is None and not acc_number:
        known = {
            p.name_folded: p
            for p in Player.objects.filter(name_folded__in=readings, home_club=event.club).order_by(
                "-pk"
            )  # of two namesakes, the first registered (kept last)
        }
        player = next((known[r] for r in readings if r in known), None)
    if player is None and swapped is not None:
        raise ServiceError(
            TournamentsError.SURNAME_FIRST,
            _(
                "Is this %(name)s? The club has no such player: write the name as it should "
                "be shown (given name first, no comma) to add them."
            )
            % {"name": swapped},
            field="name",
        )
    if player is None:
        player = Player.objects.create(
            name=name,
            acc_number=acc_number,
            status=status,
            home_club=event.club if status == Player.Status.MEMBER else None,
        )
    return player


@transaction.atomic
def set_checked_in(
    entry: Entry, checked_in: bool, *, how: str = Entry.CheckIn.TD, user: UserLike = None
) -> Entry:
    """Mark an entry present (or not) for the next draw (and, where the event counts the
    checked-in as entrants, in or out of the standings); ``how`` (an ``Entry.CheckIn``) is
    kept for the TD to see. A change made by a person (the TD, a treasurer at the door) is
    audited with who made it (``checked_in`` / ``checked_out``); a player's own check-in is
    audited by the door's service."""
    ranks_check_in = entry.event.entrants == Event.Entrants.CHECKED_IN
    by_person = how == Entry.CheckIn.TD
    event = locked_event(entry.event) if ranks_check_in or by_person else entry.event
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.withdrawn and checked_in:
        raise ServiceError(
            TournamentsError.WITHDRAWN, _("%(name)s has withdrawn.") % {"name": entry.name}
        )
    changed = entry.checked_in != checked_in
    entry.checked_in = checked_in
    entry.checked_in_how = how if checked_in else ""
    entry.save(update_fields=["checked_in", "checked_in_how"])
    if changed and by_person:
        append_audit(
            event,
            [
                AuditEntry(
                    event=event,
                    user=acting_user(user),
                    actor=actor_name(user),
                    action="checked_in" if checked_in else "checked_out",
                    old={"player": entry.name, "checked_in": not checked_in},
                    new={"player": entry.name, "checked_in": checked_in},
                )
            ],
        )
    if ranks_check_in:
        hooks.results_changed(entry.event_id)
    return entry


@transaction.atomic
def withdraw_entry(entry: Entry, *, forfeit_open: bool = False, user=None) -> Entry:
    """Withdraw an entry from later games; games already played stand.

    A draft game that seats them is drawn again without them, and in a playoff their open
    match (and any they would reach) becomes a walkover for the opponent. A table of a
    released game they sit at without a result stays open for the TD to enter, unless
    ``forfeit_open``: then the opponent is given the forfeit win there, through the one
    result service (audited as ``withdrawn``); ``selectors.open_tables`` finds what is left.
    """
    event = locked_event(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk, event=event)
    entry.withdrawn = True
    entry.checked_in = False
    entry.save(update_fields=["withdrawn", "checked_in"])
    kind = event.game_kind
    latest = event.rounds.order_by("-number").first()
    if latest is not None and latest.is_draft and entry.pk in kind.seated(latest):
        number = latest.number
        latest.delete()
        try:
            with transaction.atomic():
                kind.draw(event, number, draft=True)
        except ServiceError:
            pass  # the field left cannot be seated now: the TD draws again when it can
    bracket = Bracket.objects.select_for_update().filter(event=event).first()
    if bracket is not None and entry.pk in bracket.seeds:
        bridge.save_bracket(bracket, bridge.pure_bracket(bracket))
    if forfeit_open:
        forfeit_open_tables(entry, user=user)
    if latest is None:
        # Before the first draw a freed place goes to the first on the waiting list.
        from .registration import fill_from_waiting_list

        fill_from_waiting_list(event)
    hooks.results_changed(entry.event_id)
    return entry


@transaction.atomic
def forfeit_open_tables(entry: Entry, *, user=None) -> list:
    """Give the opponents of a withdrawn ``entry`` the forfeit win at every table of a
    released game the entry left without a result; returns the results recorded."""
    if not entry.withdrawn:
        raise ServiceError(
            TournamentsError.NOT_WITHDRAWN,
            _("Only a withdrawn player's open games are forfeited."),
        )
    event = locked_event(entry.event)
    recorded = []
    for table in selectors.open_tables(event, [entry]).values():
        opponent = table.seat_b_id if table.seat_a_id == entry.pk else table.seat_a_id
        if opponent is None:  # open_tables has two players at every table it gives
            continue
        recorded.append(
            record_result(
                event,
                table=table,
                winner=opponent,
                forfeit=True,
                user=user,
                action="withdrawn",
                reason=_("%(name)s withdrew.") % {"name": entry.name},
            )
        )
    return recorded


@transaction.atomic
def add_forbidden_pair(
    event: Event, entry_a: Entry | int, entry_b: Entry | int, *, reason: str = ""
) -> ForbiddenPair:
    """Never seat these two entries together (family, partners) from the next draw on."""
    event = locked_event(event)
    ids = [e.pk if isinstance(e, Entry) else e for e in (entry_a, entry_b)]
    if ids[0] == ids[1]:
        raise ServiceError(
            TournamentsError.SAME_PLAYER,
            _("A forbidden pair needs two different players."),
            field="entry_b",
        )
    if event.entries.filter(pk__in=ids).count() != 2:
        raise ServiceError(
            TournamentsError.UNKNOWN_PLAYER,
            _("Both players must be entered in this event."),
            field="entry_a",
        )
    low, high = sorted(ids)
    pair, created = ForbiddenPair.objects.get_or_create(
        event=event, entry_a_id=low, entry_b_id=high, defaults={"reason": reason.strip()[:120]}
    )
    if not created:
        raise ServiceError(
            TournamentsError.ALREADY_FORBIDDEN,
            _("These two are already a forbidden pair."),
            field="entry_b",
        )
    return pair


@transaction.atomic
def remove_forbidden_pair(event: Event, pair_id: int) -> None:
    """Lift a forbidden pair (from the next draw on)."""
    event = locked_event(event)
    deleted, _rows = ForbiddenPair.objects.filter(event=event, pk=pair_id).delete()
    if not deleted:
        raise ServiceError(TournamentsError.UNKNOWN_PAIR, _("There is no such forbidden pair."))


@transaction.atomic
def enter_club_player(
    event: Event,
    player: Player | int,
    *,
    checked_in: bool = True,
    same_as_waiting: bool | None = None,
) -> Entry:
    """Enter one of the club's existing players (picked from the search), checked in."""
    pk = player.pk if isinstance(player, Player) else player
    found = selectors.club_players(event.club).filter(pk=pk).first()
    if found is None:
        raise ServiceError(
            TournamentsError.UNKNOWN_PLAYER, _("Choose one of the club's players."), field="name"
        )
    return enter_player(event, found, checked_in=checked_in, same_as_waiting=same_as_waiting)


@transaction.atomic
def check_in_all(event: Event) -> int:
    """Check in every entry that has not withdrawn; returns how many were checked in now."""
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(TournamentsError.EVENT_FINISHED, _("The event has finished."))
    checked = event.entries.filter(withdrawn=False, checked_in=False).update(
        checked_in=True, checked_in_how=Entry.CheckIn.TD
    )
    if checked and event.entrants == Event.Entrants.CHECKED_IN:
        hooks.results_changed(event.pk)
    return checked


MAX_IMPORT_LINES = 2000
HEADER_WORDS = {"name", "names", "player", "players", "nome", "giocatore"}


@dataclass
class RosterLine:
    """What the list import did with one line."""

    line: int
    name: str
    acc_number: str
    outcome: str  # "added" (a new player), "matched" (an existing one entered) or "skipped"
    reason: str = ""


@dataclass
class RosterReport:
    """The list import's report, line by line."""

    lines: list[RosterLine] = field(default_factory=list)

    def of(self, outcome: str) -> list[RosterLine]:
        return [line for line in self.lines if line.outcome == outcome]

    @property
    def added(self) -> list[RosterLine]:
        return self.of("added")

    @property
    def matched(self) -> list[RosterLine]:
        return self.of("matched")

    @property
    def skipped(self) -> list[RosterLine]:
        return self.of("skipped")


def parse_roster(text: str) -> list[tuple[int, str, str]]:
    """(line number, name, ACC number) for each non-empty line: one name a line, an ACC
    number after a tab or the last comma (a header line ``name,...`` is left out)."""
    rows: list[tuple[int, str, str]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        cells = raw.split("\t") if "\t" in raw else next(csv.reader([raw]), [])
        cells = [c.strip() for c in cells]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            continue
        if not rows and names.fold(cells[0]) in HEADER_WORDS:
            continue  # a spreadsheet's header row
        acc = ""
        if len(cells) > 1 and ACC_NUMBER.match(cells[-1]):
            acc = cells.pop()
        name = names.clean(", ".join(c for c in cells if c))
        rows.append((number, name, acc))
    return rows


@transaction.atomic
def import_roster(event: Event, text: str, *, checked_in: bool = False) -> RosterReport:
    """Enter a pasted or uploaded list of players in one transaction.

    Each line is matched to an existing player by ACC number, else by exact name (accents
    and case aside) among the club's players, else a new club member is created. Lines
    listed twice, players already entered, unknown names under a taken ACC number and
    ambiguous names are skipped, each with the reason.
    """
    event = locked_event(event)
    if event.status == Event.Status.FINISHED:
        raise ServiceError(
            TournamentsError.EVENT_FINISHED, _("The event has finished; no more entries.")
        )
    if event.game_kind.team_size > 1:  # a list of names says nothing of who partners whom
        raise ServiceError(
            TournamentsError.PARTNER_REQUIRED,
            _("%(game)s is played in teams of two: register each team with its partner.")
            % {"game": event.game_kind.label},
            field="names",
        )
    rows = parse_roster(text)
    if not rows:
        raise ServiceError(TournamentsError.EMPTY_LIST, _("The list has no names."), field="names")
    if len(rows) > MAX_IMPORT_LINES:
        raise ServiceError(
            TournamentsError.LIST_TOO_LONG,
            _("At most %(n)s names at once.") % {"n": MAX_IMPORT_LINES},
            field="names",
        )
    # The club's players of the listed names only, by the stored folded name (an index).
    listed = {names.fold(name) for _n, name, _acc in rows}
    listed |= {names.fold(s) for _n, name, _acc in rows if (s := names.surname_first(name))}
    by_name: dict[str, list[Player]] = {}
    for known in selectors.club_players(event.club).filter(name_folded__in=listed):
        by_name.setdefault(known.name_folded, []).append(known)
    numbers = [acc for _n, _name, acc in rows if acc]
    by_number = {p.acc_number: p for p in Player.objects.filter(acc_number__in=numbers)}
    entered = set(event.entries.values_list("player_id", flat=True))
    seen_names: set[str] = set()
    seen_numbers: set[str] = set()
    report = RosterReport()
    for number, name, acc in rows:
        line = RosterLine(number, name, acc, "skipped")
        report.lines.append(line)
        folded = names.fold(name)
        if len(name) > 120:
            line.reason = _("The name is longer than 120 characters.")
            continue
        # "Lindqvist, Zoë" (or a sheet's surname and given-name columns) is Zoë Lindqvist.
        swapped = names.surname_first(name)
        readings = [folded] if swapped is None else [folded, names.fold(swapped)]
        if seen_names.intersection(readings) or (acc and acc in seen_numbers):
            line.reason = _("Listed twice.")
            continue
        seen_names.update(readings)
        if acc:
            seen_numbers.add(acc)
        player: Player | None = by_number.get(acc) if acc else None
        if player is not None and names.fold(player.name) not in readings:
            line.reason = _("ACC number %(number)s belongs to %(name)s.") % {
                "number": acc,
                "name": player.name,
            }
            continue
        if player is None:
            same = next((found for reading in readings if (found := by_name.get(reading))), [])
            same = [p for p in same if not acc or not p.acc_number]
            if len(same) > 1:
                line.reason = _("Several of the club's players are called %(name)s.") % {
                    "name": name
                }
                continue
            player = same[0] if same else None
        if player is not None and player.pk in entered:
            line.reason = _("%(name)s is already entered.") % {"name": player.name}
            continue
        if player is None and swapped is not None:
            # Never a new player named "Lindqvist, Zoë" without asking.
            line.reason = _(
                "Is this %(name)s? The club has no such player: write the name as it should "
                "be shown (given name first, no comma) to add them."
            ) % {"name": swapped}
            continue
        if player is None:
            player = Player.objects.create(
                name=name, acc_number=acc, status=Player.Status.MEMBER, home_club=event.club
            )
            line.outcome = "added"
        else:
            line.outcome = "matched"
            if acc and not player.acc_number:
                player.acc_number = acc
                player.save(update_fields=["acc_number"])
        line.name = player.name
        Entry.objects.create(event=event, player=player, checked_in=checked_in)
        entered.add(player.pk)
    return report
