"""Tap the cards of every player's pile (a game without pairs): choose a player, tap the
cards of his pile; the last player left with none takes the rest. Only the game's deck is
offered (three players: 36 cards, no 2, 3 or 4); the core checks whole tricks and the
whole deck."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from kiosk.game import Card, card_points
from kiosk.game.variants import VARIANTS
from kiosk.table.variants import piles_result
from kiosk.ui import theme
from kiosk.ui.i18n import ngettext, points_text, tally
from kiosk.ui.icons import SuitIcon
from kiosk.ui.screens.base import KioskScreen, load_kv
from kiosk.ui.screens.variant_board import SEAT_COLOURS, seat_name
from kiosk.ui.viewmodels.cards import SUIT_ROWS
from kiosk.ui.widgets import KButton

load_kv(__file__)


def completed(piles: list[list[str]], deck) -> list[list[str]]:
    """The piles as tapped; one pile left empty takes the cards nobody has."""
    empty = [s for s, p in enumerate(piles) if not p]
    if len(empty) == 1 and len(piles) > 1:
        taken = {c for p in piles for c in p}
        piles = [list(p) for p in piles]
        piles[empty[0]] = [c.code for c in deck if c.code not in taken]
    return piles


def fill_seat_piles(row, state, piles: list[list[str]], seat: int, deck, choose) -> None:
    """A button per player in ``row``: his name, his pile's cards and points (* = he takes
    the cards nobody has); ``choose(seat)`` when tapped. The buttons already there (as many
    players) are given their new words in place: a card tapped builds no button (a button
    keeps the ``choose`` it was built with)."""
    values = []
    for s, pile in enumerate(completed(piles, deck)):
        shown = piles[s] or pile
        values.append((seat_name(state, s) + "\n" + ngettext("{n} card", "{n} cards", len(shown)).format(
            n=len(shown)) + " · " + points_text(card_points(Card.parse(c) for c in shown))
            + ("" if piles[s] else " *"), s == seat))
    buttons = list(reversed(row.children))
    if len(buttons) == len(values):
        for b, (text, selected) in zip(buttons, values):
            b.text, b.selected = text, selected
        return
    row.clear_widgets()
    for s, (text, selected) in enumerate(values):
        row.add_widget(Factory.SeatPileButton(text=text, action=f"seat_{s}", selected=selected,
                                              on_release=lambda b, chosen=s: choose(chosen)))


class VariantCardsScreen(KioskScreen):
    count = StringProperty("")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._grid_for: tuple | None = None
        self._buttons: dict[str, KButton] = {}

    def _piles(self) -> list[list[str]]:
        state = self.session.state
        n = state.game.seats
        have = [list(p) for p in (state.draft.piles if state.draft else ())]
        return (have + [[] for _ in range(n)])[:n]

    def _deck(self):
        return VARIANTS[self.session.state.game.key].deck

    def refresh(self) -> None:
        state = self.session.state
        if state.game is None:
            return
        portrait = self.height > self.width
        if self._grid_for != (state.game.key, portrait):
            self._build_grid(portrait)
        piles = self._piles()
        seat = state.draft.seat if state.draft else 0
        owner = {c: s for s, p in enumerate(piles) for c in p}
        for code, b in self._buttons.items():
            b.selected = owner.get(code) == seat
            s = owner.get(code)
            b.color_bg = SEAT_COLOURS[s][:3] + (0.55,) if s is not None and s != seat else \
                theme.SUIT[Card.parse(code).suit.catalan][:3] + (0.25,)
        deck, game = self._deck(), VARIANTS[state.game.key]
        fill_seat_piles(self.ids.seats, state, piles, seat, deck, lambda chosen: self.session.update_draft(seat=chosen))
        mine = piles[seat] if seat < len(piles) else []
        cp, tricks = card_points(Card.parse(c) for c in mine), len(mine) // game.trick_size
        self.count = tally(cards=len(mine), card_points=cp, tricks=tricks,
                           total=cp + tricks // game.tricks_per_point)

    def _build_grid(self, portrait: bool) -> None:
        state = self.session.state
        deck = self._deck()
        ranks = sorted({c.rank for c in deck})
        grid = self.ids.grid
        grid.clear_widgets()
        self._buttons.clear()
        self._grid_for = (state.game.key, portrait)
        grid.cols = len(ranks) + 1
        for suit in SUIT_ROWS:
            grid.add_widget(SuitIcon(suit=suit.catalan))
            for rank in ranks:
                code = Card(rank, suit).code
                b = KButton(text=str(rank), action=code)
                b.bind(on_release=lambda w: self.tap(w.action))
                self._buttons[code] = b
                grid.add_widget(b)

    def on_size(self, *args) -> None:
        if self._grid_for is not None and self._grid_for[1] != (self.height > self.width):
            self.refresh()

    def tap(self, code: str) -> None:
        state = self.session.state
        seat = state.draft.seat if state.draft else 0
        piles = [[c for c in p if c != code] for p in self._piles()]
        if code not in self._piles()[seat]:
            piles[seat].append(code)  # from nobody's pile, or moved from another's
        self.session.update_draft(piles=piles)

    def clear(self) -> None:
        self.session.update_draft(piles=[])

    def done(self) -> None:
        piles = completed(self._piles(), self._deck())
        draft = self.session.state.draft
        if draft is not None and draft.source == "camera":  # a camera read corrected by hand
            result = piles_result(piles, source="camera", evidence=draft.evidence)
        else:
            result = piles_result(piles)
        self.app.act(self.session.propose, result)

    def on_confirm_button(self):
        self.done()
        return True
