"""``manage.py cribbage``: count a hand, a pegging pile, or verify a whole game record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.cribbage import (
    AdviceError,
    CardError,
    CribbageError,
    ReviewError,
    advise_discard,
    check_table_scores,
    format_breakdown,
    review_game,
    score_hand,
    score_play,
    verify_game,
)
from games.cribbage.discard import format_advice


class Command(BaseCommand):
    help = (
        "Cribbage counts with their breakdown. Examples:\n"
        "  manage.py cribbage hand 5H 5C 5S JD --starter 5D [--crib]\n"
        "  manage.py cribbage play 7H 8C 7D [--last]\n"
        "  manage.py cribbage game record.json\n"
        "  manage.py cribbage discard 5H 5D JS 6C 4H KD [--dealer] [--players 2] [--seen '2C 9S']\n"
        "  manage.py cribbage review record.json\n"
        "  manage.py cribbage table --players 3 121 90 40 [--target 61]"
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
        discard = sub.add_parser(
            "discard", help="Rank every discard by expected points (uniform over unseen cards)."
        )
        discard.add_argument("cards", nargs="+", help="The cards dealt: 6 (2 players) or 5")
        discard.add_argument("--dealer", action="store_true", help="The crib is yours")
        discard.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
        discard.add_argument("--seen", default="", help="Other cards out of play")
        discard.add_argument("--json", action="store_true", help="Print the advice as JSON")
        review = sub.add_parser("review", help="Review every recorded discard of a game record.")
        review.add_argument("path", help="A JSON file (games/cribbage/README.md), or - for stdin")
        review.add_argument("--json", action="store_true", help="Print the review as JSON")
        table = sub.add_parser(
            "table", help="Check a finished table's final scores, one per side, in seat order."
        )
        table.add_argument("scores", nargs="+", type=int, help="2 scores, 3 with three players")
        table.add_argument("--players", type=int, default=2, help="2, 3 or 4 (partners)")
        table.add_argument("--target", type=int, default=121, help="121 or 61")

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
                pile = score_play(" ".join(options["cards"]), last=options["last"])
                self.stdout.write(f"count {pile.count}")
                self.stdout.write("\n".join(format_breakdown(pile)))
            elif what == "discard":
                advice = advise_discard(
                    " ".join(options["cards"]),
                    dealer=options["dealer"],
                    players=options["players"],
                    seen=options["seen"],
                )
                if options["json"]:
                    self.stdout.write(json.dumps(advice.to_dict(), ensure_ascii=False, indent=2))
                else:
                    self.stdout.write("\n".join(format_advice(advice)))
            elif what == "review":
                self._review(options["path"], as_json=options["json"])
            elif what == "table":
                self._table(options["players"], options["scores"], options["target"])
            else:
                self._game(options["path"], as_json=options["json"])
        except AdviceError as exc:
            raise CommandError(f"[{exc.code}] {exc.message}") from None
        except CardError as exc:
            raise CommandError(str(exc)) from None
        except CribbageError as exc:
            raise CommandError(f"[{exc.code}] {exc.message}") from None
        except ReviewError as exc:
            first = exc.problems[0] if exc.problems else {"code": exc.code, "message": exc.message}
            raise CommandError(
                f"the record does not verify: [{first['code']}] {first['message']}"
            ) from None

    def _read(self, path: str):
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
            return json.loads(text)
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from None
        except json.JSONDecodeError as exc:
            raise CommandError(f"{path} is not JSON: {exc}") from None

    def _table(self, players: int, scores: list[int], target: int) -> None:
        result = check_table_scores(players, scores, target)
        seats = " and ".join(str(seat) for seat in result.winner_seats)
        word = "seats" if len(result.winner_seats) > 1 else "seat"
        self.stdout.write(f"winner: side {result.winner} ({word} {seats}) on {target}")
        for loser in result.losers:
            self.stdout.write(
                f"side {loser.side}: {loser.score}, {loser.behind} behind, {loser.skunk_name}"
            )

    def _review(self, path: str, *, as_json: bool) -> None:
        review = review_game(self._read(path))
        data = review.to_dict()
        if as_json:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        self.stdout.write("expected points given away at the discard (uniform over unseen cards)")
        for total in data["totals"]:
            self.stdout.write(
                f"{total['name']}: {total['given_away']:.2f} over {total['decisions']} discards,"
                f" {total['best_choices']} of them the best"
            )
        for d in data["costliest"]:
            self.stdout.write(
                f"- deal {d['deal'] + 1}, {data['players'][d['player']]}: threw"
                f" {' '.join(d['discarded'])}, best {' '.join(d['best_discarded'])}"
                f" (-{d['cost']:.2f})"
            )
        if data["unknown"]:
            self.stdout.write(f"{data['unknown']} hands without their dealt cards: not reviewed")

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
        if len(data["losers"]) > 1:  # three players: both losers, each with their skunk
            for loser in data["losers"]:
                names = ", ".join(data["players"][p] for p in data["sides"][loser["side"]])
                self.stdout.write(f"  {names}: {loser['score']} ({loser['skunk_name']})")
        for problem in data["problems"]:
            self.stdout.write(
                f"- deal {problem['deal']} {problem['phase']} event {problem['event']}: "
                f"[{problem['code']}] {problem['message']}"
            )
