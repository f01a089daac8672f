"""``manage.py stoppa``: who wins a punto piccolo or grosso, the deck of a table, or verify a
whole deal record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.stoppa import StoppaError, deck_info, verify_deal
from games.stoppa.checker import compare_contest


class Command(BaseCommand):
    help = (
        "Stoppa checks. Examples:\n"
        '  manage.py stoppa piccolo "Kc Jc 3c" "As 7b 5b" [--names A B] [--table 4]\n'
        '  manage.py stoppa grosso "6d 7s Ab 5d 4d 7c Ac Kc" "7d 5b Jb 3d 6c 2c Ad 4c"\n'
        "  manage.py stoppa deck 3 --removed-king d\n"
        "  manage.py stoppa deal record.json [--json]   (exit status 1 when it does not verify)"
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        for phase, what in (
            ("piccolo", "the cards of one iteration"),
            ("grosso", "every card received"),
        ):
            contest = sub.add_parser(phase, help=f"Who wins the punto {phase} ({what}).")
            contest.add_argument(
                "hands", nargs="+", help=f"Each player's cards ({what}), quoted, in priority order"
            )
            contest.add_argument("--names", nargs="+", help="The players' names (default A B C)")
            contest.add_argument("--table", type=int, help="Table size (3-6): check the deck")
            contest.add_argument("--removed-king", help="3 players: the King out of play")
        deck = sub.add_parser("deck", help="The deck, cards each and iterations of a table.")
        deck.add_argument("players", type=int, help="3 to 6")
        deck.add_argument("--removed-king", help="3 players: the King out of play (Kd or d)")
        deal = sub.add_parser("deal", help="Verify a deal JSON record (games/stoppa/README.md).")
        deal.add_argument("path", help="A JSON file, or - for stdin")
        deal.add_argument("--json", action="store_true", help="Print the whole report as JSON")

    def handle(self, *args, what: str, **options):
        try:
            if what in ("piccolo", "grosso"):
                self._contest(what, options)
            elif what == "deck":
                info = deck_info(options["players"], options["removed_king"])
                self.stdout.write(
                    f"{info.players} players: {len(info.cards)} cards, {info.per_player} each, "
                    f"iterations {'-'.join(map(str, info.schedule))}, top rank {info.top_rank}"
                    + (
                        f", removed {' '.join(c.text for c in info.removed)}"
                        if info.removed
                        else ""
                    )
                )
            else:
                self._deal(options["path"], as_json=options["json"])
        except StoppaError as exc:
            raise CommandError(str(exc)) from None

    def _contest(self, phase: str, options: dict) -> None:
        hands = options["hands"]
        names = options["names"] or []
        if names and len(names) != len(hands):
            raise CommandError(f"{len(names)} names for {len(hands)} hands")
        result = compare_contest(
            phase,
            [(names[i] if names else None, cards) for i, cards in enumerate(hands)],
            table_size=options["table"],
            removed_king=options["removed_king"],
        )
        self.stdout.write(f"winner: {result['winner']} (decided by {result['decided_by']})")
        for standing in result["ranking"]:
            ev = standing["eval"]
            why = f"  - {standing['reason']}" if standing["reason"] else ""
            self.stdout.write(
                f"{standing['place']}. {standing['player']}: {' '.join(ev['cards'])} "
                f"= {ev['count']} card(s), {ev['points']} points{why}"
            )

    def _deal(self, path: str, *, as_json: bool) -> None:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            record = json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None
        report = verify_deal(record)
        if as_json:
            self.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
        else:
            self._print_report(report)
        if not report.ok:
            first = report.errors[0]
            raise CommandError(f"the deal does not verify: [{first.code}] {first.message}")

    def _print_report(self, report) -> None:
        s = report.settlement
        self.stdout.write(
            f"ok: {report.ok}  errors: {len(report.errors)}  warnings: {len(report.warnings)}"
        )
        if s is not None:
            self.stdout.write(
                f"order: {' '.join(s.order)}  pot {s.pot} = "
                f"{len(s.piccoli)} x {s.settings.piccolo_value} + {s.grosso_value}"
            )
            for i, c in enumerate(s.piccoli, start=1):
                self.stdout.write(f"punto piccolo {i}: {c.winner} ({c.decided_by})")
            self.stdout.write(f"punto grosso: {s.grosso.winner} ({s.grosso.decided_by})")
            for player, kind in s.declarations.declarations:
                self.stdout.write(f"declaration: {player} {kind}")
            if s.closer is not None:
                self.stdout.write(
                    f"stop phase: {s.closer} closes; payments "
                    + " ".join(f"{p} {v:+d}" for p, v in s.stop_payments.items())
                )
            self.stdout.write("nets: " + " ".join(f"{p} {v:+d}" for p, v in s.nets.items()))
        good = sum(1 for check in report.checks if check.ok)
        self.stdout.write(f"claims checked: {len(report.checks)}, correct: {good}")
        for check in report.checks:
            if not check.ok:
                self.stdout.write(
                    f"BAD {check.item}: claimed {check.claimed!r}, actual {check.actual!r}"
                )
        for issue in report.errors:
            self.stdout.write(f"- error [{issue.code}] {issue.where}: {issue.message}")
        for issue in report.warnings:
            self.stdout.write(f"- warning [{issue.code}] {issue.where}: {issue.message}")
