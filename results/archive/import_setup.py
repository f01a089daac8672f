"""What an imported event hangs on: the club it goes into, its match-point format, its players
(matched to this Pegboard's, or created) and the event's own settings; and the helper that
puts back the archive's timestamps after a bulk insert."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Model
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from tournaments import kinds
from tournaments.models import Club, Event, MatchPointFormat, Player

from .schema import BATCH, FORMAT_FIELDS, MAX_PLAYERS
from .validate import _Check


def _keep_times(model: type[Model], objs: list, field: str, times: list) -> None:
    """Put back the archive's timestamps that ``auto_now``/``auto_now_add`` replaced on
    insert (``bulk_update`` writes the values as given)."""
    for obj, when in zip(objs, times, strict=True):
        if when is not None:
            setattr(obj, field, when)
    keep = [obj for obj, when in zip(objs, times, strict=True) if when is not None]
    if keep:
        model._default_manager.bulk_update(keep, [field], batch_size=BATCH)


def _match_format(data: dict, club: Club, check: _Check) -> MatchPointFormat:
    """The format the archive's event was scored with: the one with its code when its points
    are the same, else a club format with those points (created if there is none)."""
    path = "match_point_format"
    values = {
        name: (
            check.bool(data, name, path)
            if name == "triple_skunk_wins_match"
            else check.text(data, name, path, max_length=100 if name == "name" else 40, blank=False)
            if name in ("code", "name")
            else check.int(data, name, path, high=1000)
        )
        for name in FORMAT_FIELDS
    }
    points = {k: v for k, v in values.items() if k not in ("code", "name")}
    same = MatchPointFormat.objects.filter(code=values["code"], **points).first()
    if same is None:
        same = MatchPointFormat.objects.filter(club=club, **points).order_by("pk").first()
    if same is None:
        code = str(values["code"])[:30]
        n = 1
        while MatchPointFormat.objects.filter(code=f"{code}-{n}").exists():
            n += 1
        same = MatchPointFormat.objects.create(
            code=f"{code}-{n}", name=values["name"], club=club, **points
        )
    return same


def _target_club(data: dict, club: Club | None, check: _Check) -> Club:
    if club is not None:
        return club
    info = check.obj(data.get("club"), "club")
    name = check.text(info, "name", "club", max_length=120, blank=False)
    slug = check.text(info, "slug", "club", max_length=60, blank=False)
    # get_or_create: two imports of one club's archive at once make one club, not a clash.
    found, _created = Club.objects.get_or_create(
        slug=slug, defaults={"name": name, "city": check.text(info, "city", "club", max_length=120)}
    )
    return found


def _players(data: dict, club: Club, check: _Check) -> dict[int, Player]:
    """The archive's players as players of this Pegboard: the one with the same ACC number
    (a member number is one person everywhere), else the club's player of that name, else a
    new player of the club. Two archived players never become one."""
    rows = check.items(data.get("players"), "players", limit=MAX_PLAYERS)
    wanted = []
    for i, row in enumerate(rows):
        path = f"players[{i}]"
        check.obj(row, path)
        wanted.append(
            (
                check.new_ref(row, path),
                check.text(row, "name", path, max_length=120, blank=False),
                check.text(row, "acc_number", path, max_length=20),
                check.choice(row, "status", path, Player.Status.values, Player.Status.MEMBER),
            )
        )
    refs = [r for r, *_rest in wanted]
    if len(set(map(repr, refs))) != len(refs):
        raise check.bad("players", _("has two players with the same ref"))
    from tournaments.selectors import club_players

    by_acc = {
        p.acc_number: p
        for p in Player.objects.filter(acc_number__in=[acc for _r, _n, acc, _s in wanted if acc])
    }
    by_name: dict[str, list[Player]] = {}
    for p in club_players(club).filter(name__in=[n for _r, n, _a, _s in wanted]):
        by_name.setdefault(p.name, []).append(p)
    used: set[int] = set()
    found: dict[Any, Player] = {}
    new: list[tuple[Any, Player]] = []
    for ref, name, acc, status in wanted:
        player = by_acc.get(acc) if acc else None
        if player is None:
            player = next(
                (
                    p
                    for p in by_name.get(name, [])
                    if p.pk not in used and (not acc or not p.acc_number)
                ),
                None,
            )
        if player is not None and player.pk not in used:
            used.add(player.pk)
            found[ref] = player
        else:
            new.append(
                (
                    ref,
                    Player(
                        name=name,
                        acc_number=acc if acc not in by_acc else "",
                        home_club=club,
                        status=status,
                    ),
                )
            )
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create([p for _r, p in new], batch_size=BATCH)
    except IntegrityError:
        raise check.bad("players", _("gives two players one ACC number")) from None
    for (ref, _p), player in zip(new, created, strict=True):
        found[ref] = player
    return found


def _import_settings(data: dict, club: Club, fmt: MatchPointFormat, check: _Check) -> Event:
    path = "event"
    game = check.choice(data, "game", path, [k.key for k in kinds.all_kinds()])
    try:
        date = parse_date(data["date"]) if isinstance(data.get("date"), str) else None
    except ValueError:  # well formed, but no such day
        date = None
    if date is None:
        raise check.bad("event.date", _("should be a date (YYYY-MM-DD)"))
    chain = data.get("tiebreakers") or []
    try:
        chain = list(kinds.get(game).validate_chain(chain)) if chain else []
    except (TypeError, ValueError):
        raise check.bad("event.tiebreakers", _("is not a ranking chain of this game")) from None
    return Event.objects.create(
        club=club,
        name=check.text(data, "name", path, max_length=120, blank=False),
        date=date,
        game=game,
        kind=check.choice(data, "kind", path, Event.Kind.values),
        games_planned=check.int(data, "games_planned", path, low=1, high=40),
        target=check.choice(data, "target", path, Event.Target.values),
        match_point_format=fmt,
        muggins=check.bool(data, "muggins", path),
        pairing=check.choice(data, "pairing", path, Event.Pairing.values),
        meetings_per_opponent=check.choice(data, "meetings_per_opponent", path, [1, 2]),
        status=check.choice(data, "status", path, Event.Status.values),
        seed=check.int(data, "seed", path, low=-(2**62), high=2**62),
        standings_published=check.bool(data, "standings_published", path, True),
        confirmation=check.choice(
            data, "confirmation", path, Event.Confirmation.values, Event.Confirmation.OWN_KEYS
        ),
        entrants=check.choice(data, "entrants", path, Event.Entrants.values, Event.Entrants.PLAYED),
        language=check.choice(
            data, "language", path, ["", *(code for code, _name in settings.LANGUAGES)], ""
        ),
        seed_by_rating=check.bool(data, "seed_by_rating", path, False),
        qualifiers=check.int(data, "qualifiers", path, low=2, high=4_096, null=True),
        tiebreakers=chain,
        table_size=check.int(data, "table_size", path, low=3, high=6),
        min_table_size=check.int(data, "min_table_size", path, low=3, high=6),
    )
