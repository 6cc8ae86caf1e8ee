"""The number pad: one pair's points (0-72), the quickest way to score a hand."""

from __future__ import annotations

from kiosk.game import HandResult
from kiosk.ui.i18n import _

MAX_POINTS = 72


class PointsPad:
    def __init__(self, team: str = "A") -> None:
        self.team = team
        self.digits = ""

    def press(self, key: str) -> None:
        if key == "back":
            self.digits = self.digits[:-1]
        elif key == "clear":
            self.digits = ""
        elif key.isdigit() and len(self.digits) < 2:
            self.digits = (self.digits + key).lstrip("0") or ("0" if key == "0" else "")

    @property
    def value(self) -> int | None:
        return int(self.digits) if self.digits else None

    @property
    def problem(self) -> str | None:
        if self.value is None:
            return _("Type the points of one pair")
        if self.value > MAX_POINTS:
            return _("At most 72 points in a hand")
        return None

    def result(self) -> HandResult:
        """The typed points as the hand's result to confirm."""
        return HandResult.scored(points={self.team: self.value}, source="points")
