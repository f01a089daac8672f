"""``manage.py cribbage``: count a hand, a pegging pile, or verify a whole game record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.cribbage import CardError, format_breakdown, score_hand, score_play, verify_game


class Command(BaseCommand):
    help = (
        "Cribbage counts with their breakdown. Examples:\n"
        "  manage.py cribbage hand 5H 5C 5S JD --starter 5D [--crib]\n"
        "  manage.py cribbage play 7H 8C 7D [--last]\n"
        "  manage.py cribbage game record.json"
    )

    def add_arguments(self, parser):
        sub = parser.add_subparsers(dest="what", required=True)
        hand = sub.add_parser("hand", help="Score a hand or crib with its starter.")
        hand.add_argument("cards", nargs="+", help="Four cards, e.g. 5H 5C 5S JD")
        hand.add_argument("--starter", required=True, help="The starter card, e.g. 5D")
        hand.add_argument("--crib", action="store_true", help="Count it as the crib")
        play = sub.add_parser("play", help="Score the last card of a pegging pile.")
        play.add_argument("cards", nargs="+", help="The cards laid since the last reset, in order")
        play.add_argument("--last", action="store_true", help="It is the last card (or a go)")
        game = sub.add_parser("game", help="Verify a whole-game JSON record.")
        game.add_argument("path", help="A JSON file (games/cribbage/README.md), or - for stdin")
        game.add_argument("--json", action="store_true", help="Print the whole report as JSON")

    def handle(self, *args, what: str, **options):
        try:
            if what == "hand":
                score = score_hand(
                    " ".join(options["cards"]), options["starter"], crib=options["crib"]
                )
                where = "crib" if options["crib"] else "hand"
                self.stdout.write(
                    f"{' '.join(map(str, score.hand))} | starter {score.starter} ({where})"
                )
                self.stdout.write("\n".join(format_breakdown(score)))
            elif what == "play":
                score = score_play(" ".join(options["cards"]), last=options["last"])
                self.stdout.write(f"count {score.count}")
                self.stdout.write("\n".join(format_breakdown(score)))
            else:
                self._game(options["path"], as_json=options["json"])
        except CardError as exc:
            raise CommandError(str(exc)) from None

    def _game(self, path: str, *, as_json: bool) -> None:
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            record = json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None
        report = verify_game(record)
        if as_json:
            self.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
            return
        data = report.to_dict()
        self.stdout.write(
            f"valid: {data['valid']}  claims correct: {data['claims_correct']}  "
            f"scores: {data['scores']}  winner: {data['winner_players']}  "
            f"loser's score: {data['loser_score']}  skunk: {data['skunk_name']}"
        )
        for problem in data["problems"]:
            self.stdout.write(
                f"- deal {problem['deal']} {problem['phase']} event {problem['event']}: "
                f"[{problem['code']}] {problem['message']}"
            )
