"""Points per player for a game without pairs: tap a player, type what his pile made; the
points add up to 72 (the last player left empty gets what remains)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout

from kiosk.table.variants import points_result
from kiosk.ui.i18n import _
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.variant_board import seat_name

HAND_POINTS = 72


class SeatPad(GridLayout):
    """The number pad of a seat's points: ``on_key(key)`` with 0-9, clear or back."""
    __events__ = ("on_key",)

    def on_key(self, key: str) -> None:
        pass


load_kv(__file__)


def seat_values(digits: tuple[str, ...], seats: int) -> list[int | None]:
    """Each seat's points as typed (None: nothing yet); one seat left empty gets the rest."""
    values = [int(d) if d else None for d in (tuple(digits) + ("",) * seats)[:seats]]
    empty = [s for s, v in enumerate(values) if v is None]
    if len(empty) == 1 and seats > 1:
        rest = HAND_POINTS - sum(v for v in values if v is not None)
        if rest >= 0:
            values[empty[0]] = rest
    return values


def pad_key(now: str, key: str) -> str:
    """One seat's digits after a key of the pad (C, <, or a digit: at most 72)."""
    if key == "clear":
        return ""
    if key == "back":
        return now[:-1]
    if key.isdigit() and len(now) < 2 and int(now + key) <= HAND_POINTS:
        return str(int(now + key))
    return now


class VariantPointsScreen(KioskScreen):
    hint = StringProperty("")
    seat = NumericProperty(0)

    def _digits(self) -> tuple[str, ...]:
        state = self.session.state
        n = state.game.seats if state.game else 0
        draft = state.draft
        return ((tuple(draft.seat_points) if draft else ()) + ("",) * n)[:n]

    def refresh(self) -> None:
        state = self.session.state
        if state.game is None:
            return
        n = state.game.seats
        digits = self._digits()
        self.seat = min(state.draft.seat if state.draft else 0, n - 1)
        values = seat_values(digits, n)
        rows = self.ids.seats
        rows.clear_widgets()
        for s in range(n):
            typed = digits[s] or (f"({values[s]})" if values[s] is not None else "?")
            rows.add_widget(Factory.SeatPointsButton(
                text=f"{seat_name(state, s)}:  {typed}", action=f"seat_{s}", selected=s == self.seat,
                on_release=lambda b, seat=s: self.choose(seat)))
        total = sum(v for v in values if v is not None)
        self.hint = _("Points (cards + tricks)") + f": {total} / {HAND_POINTS}"

    def choose(self, seat: int) -> None:
        self.session.update_draft(seat=seat)

    def press(self, key: str) -> None:
        digits = list(self._digits())
        digits[self.seat] = pad_key(digits[self.seat], key)
        self.session.update_draft(seat_points=tuple(digits))

    def done(self) -> None:
        values = seat_values(self._digits(), len(self._digits()))
        if any(v is None for v in values):
            self.app.show_message(_("Type every player's points: they add up to 72."))
            return
        self.app.act(self.session.propose, points_result(values))

    def on_confirm_button(self):
        self.done()
        return True
