"""House and regional settings of a Stoppa table (stoppa.md sections 3, 7, 9 and 11).

The rules vary "da zona a zona"; every variant stoppa.md names is a field here, with its
default. An event stores one ``Settings`` (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from .errors import StoppaError

NO_STOP_RULES: tuple[str, ...] = (
    "three_twos_no_king",
    "three_aces_no_king",
    "four_aces_no_king",
    "three_aces",
    "none",
)
NO_BETS_RULES: tuple[str, ...] = ("dealer", "best_hand")


@dataclass(frozen=True, slots=True)
class Settings:
    """Stakes and house rules of a table.

    - ``ante``: each player's stake into the pot (the "misera"), in chips.
    - ``piccolo_value``: each punto piccolo; the punto grosso is the rest of the pot.
    - ``stop_unit``: paid per group of cards left and for misera / four Kings; None = ``ante``.
    - ``cards_per_payment``: 2 (default) or 3 cards per ``stop_unit`` at the close.
    - ``no_stop_rule``: which hand cancels the stop phase without payment.
    - ``three_aces_free``: 3+ Aces and no King may be thrown out of sequence (off by default).
    - ``grosso_no_bets``: who takes the punto grosso when nobody bets: the ``dealer`` (default)
      or the ``best_hand`` of all players by ``grosso_eval`` (stoppa.md 11 #3).
    """

    ante: int = 6
    piccolo_value: int = 1
    stop_unit: int | None = None
    cards_per_payment: int = 2
    no_stop_rule: str = "three_twos_no_king"
    three_aces_free: bool = False
    grosso_no_bets: str = "dealer"

    @property
    def unit(self) -> int:
        """The stop-phase unit actually used (``stop_unit`` or the ante)."""
        return self.ante if self.stop_unit is None else self.stop_unit

    def pot(self, players: int) -> int:
        """Chips in the pot: every player's ante."""
        return players * self.ante

    def grosso_value(self, players: int, iterations: int) -> int:
        """The punto grosso: the pot less the punti piccoli."""
        return self.pot(players) - iterations * self.piccolo_value

    def validate(self, players: int | None = None, iterations: int | None = None) -> None:
        """Raise ``bad_stakes`` / ``bad_setting`` for values outside the rules."""
        for name in ("ante", "piccolo_value"):
            value = getattr(self, name)
            if not _is_int(value) or value <= 0:
                raise StoppaError(
                    "bad_stakes",
                    f"{name} must be a positive integer, got {value!r}",
                    params={"name": name, "value": value},
                )
        if self.stop_unit is not None and (not _is_int(self.stop_unit) or self.stop_unit <= 0):
            raise StoppaError(
                "bad_stakes",
                f"stop_unit must be a positive integer, got {self.stop_unit!r}",
                params={"name": "stop_unit", "value": self.stop_unit},
            )
        if self.cards_per_payment not in (2, 3) or not _is_int(self.cards_per_payment):
            raise StoppaError(
                "bad_setting",
                f"cards_per_payment must be 2 or 3, got {self.cards_per_payment!r}",
                params={"name": "cards_per_payment", "value": self.cards_per_payment},
            )
        if self.no_stop_rule not in NO_STOP_RULES:
            raise StoppaError(
                "bad_setting",
                f"no_stop_rule must be one of {NO_STOP_RULES}, got {self.no_stop_rule!r}",
                params={"name": "no_stop_rule", "value": self.no_stop_rule},
            )
        if not isinstance(self.three_aces_free, bool):
            raise StoppaError("bad_setting", "three_aces_free must be true or false")
        if self.grosso_no_bets not in NO_BETS_RULES:
            raise StoppaError(
                "bad_setting",
                f"grosso_no_bets must be one of {NO_BETS_RULES}, got {self.grosso_no_bets!r}",
                params={"name": "grosso_no_bets", "value": self.grosso_no_bets},
            )
        if players is not None and iterations is not None:
            grosso = self.grosso_value(players, iterations)
            if grosso <= self.piccolo_value:
                raise StoppaError(
                    "bad_stakes",
                    f"punto grosso {grosso} (pot {self.pot(players)} less {iterations} x "
                    f"{self.piccolo_value}) must be above the punto piccolo {self.piccolo_value}",
                    params={
                        "grosso": grosso,
                        "pot": self.pot(players),
                        "iterations": iterations,
                        "piccolo_value": self.piccolo_value,
                    },
                )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Settings:
        """Build from a JSON object; unknown keys are ``bad_setting``, values are validated."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise StoppaError("bad_record", "settings must be an object")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise StoppaError(
                "bad_setting",
                f"unknown setting(s): {', '.join(unknown)}",
                params={"fields": ", ".join(unknown)},
            )
        settings = cls(**data)
        settings.validate()
        return settings

    def but(self, **changes: Any) -> Settings:
        """A copy with some settings changed."""
        return replace(self, **changes)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


DEFAULT = Settings()

# Named variants: only combinations of the variants stoppa.md itself names (sections 7 and 9).
VARIANTS: dict[str, Settings] = {
    "default": DEFAULT,
    "three_aces_no_king": DEFAULT.but(no_stop_rule="three_aces_no_king"),
    "four_aces_no_king": DEFAULT.but(no_stop_rule="four_aces_no_king"),
    "three_aces": DEFAULT.but(no_stop_rule="three_aces"),
    "no_no_stop": DEFAULT.but(no_stop_rule="none"),
    "three_aces_free": DEFAULT.but(three_aces_free=True),
    "pay_per_three": DEFAULT.but(cards_per_payment=3),
}
