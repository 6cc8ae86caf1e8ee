"""Learning an ordinary deck at the kiosk, one card at a time (no Kivy, no threads here:
the screen calls :meth:`LearnDeck.learn` on a worker thread and shows the outcome).

Each card's views are kept as it is learnt (not the photos: 48 full frames would not fit
on a Pi); a card shown twice, or one the reader could not tell from another, is refused
and flagged in the 4 x 12 grid. Any card can be learnt again alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from kiosk.game import DECK, Card, Suit
from vision.deck.errors import EnrolmentError
from vision.deck.learnspot import find_card_on_mat
from vision.deck.model import DeckModel
from vision.deck.store import DeckStore
from vision.deck.views import order_quad, views_both_ways

SUIT_ROWS = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)


@dataclass(frozen=True)
class Learnt:
    """What happened to one photo: ``card`` learnt (``ok``) or why not (``problem``, and
    ``like``: the card it was taken for)."""

    card: Card
    ok: bool
    problem: str = ""  # "no_card" | "no_edge" | "cut" | "glare" | "two_cards" | "duplicate"
    like: Card | None = None
    where: np.ndarray | None = None  # where on the photo the problem is (4x2 px), if known


class LearnDeck:
    """Learning deck ``name``: ``current`` is the card to show next."""

    def __init__(self, name: str, store: DeckStore) -> None:
        self.name = name
        self.store = store
        self._rows: dict[Card, tuple[np.ndarray, np.ndarray]] = {}
        self._sizes: list[float] = []
        self.flagged: dict[Card, Card] = {}  # refused card -> the card it looked like
        self.current: Card | None = DECK[0]

    @property
    def learnt(self) -> set[Card]:
        return set(self._rows)

    @property
    def complete(self) -> bool:
        return len(self._rows) == len(DECK)

    def choose(self, card: Card) -> None:
        """Learn ``card`` next (again, if it was learnt)."""
        self.current = card

    def grid(self) -> list[list[tuple[Card, str]]]:
        """4 rows (oros, copes, espases, bastos) x 12 ranks: each ``(card, state)`` with
        state ``flagged``, ``current``, ``learnt`` or ``todo`` (the first that applies)."""
        def state(card: Card) -> str:
            if card in self.flagged:  # stays red until learnt right
                return "flagged"
            if card == self.current:
                return "current"
            return "learnt" if card in self._rows else "todo"
        return [[(Card(rank, suit), state(Card(rank, suit))) for rank in range(1, 13)] for suit in SUIT_ROWS]

    def model(self) -> DeckModel:
        cards = [c for c in DECK if c in self._rows]
        return DeckModel(self.name, [c.code for c in cards],
                         np.concatenate([self._rows[c][0] for c in cards]),
                         np.concatenate([self._rows[c][1] for c in cards]),
                         card_long_frac=float(np.median(self._sizes)) if self._sizes else 0.0)

    def learn(self, frame: np.ndarray) -> Learnt:
        """Learn the current card from one camera frame (slow: run it off the UI thread)."""
        card = self.current
        if card is None:
            raise EnrolmentError("every card is learnt")
        try:
            quad = order_quad(find_card_on_mat(frame))
        except EnrolmentError as exc:
            return Learnt(card, False, exc.reason or "no_card", where=exc.where)
        views = views_both_ways(frame, quad)
        rows = (np.stack([v.whole for v in views]), np.stack([v.corners for v in views]))
        previous = self._rows.get(card)
        self._rows[card] = rows
        twin = next((s.first if s.second == card else s.second for s in self.model().similar_pairs()
                     if card in (s.first, s.second)), None)
        if twin is not None:
            if previous is None:
                del self._rows[card]
            else:
                self._rows[card] = previous
            self.flagged[card] = twin
            return Learnt(card, False, "duplicate", twin)
        self.flagged.pop(card, None)
        self._sizes.append(float(np.linalg.norm(quad[1] - quad[2])) / frame.shape[1])
        self.current = next((c for c in DECK if c not in self._rows), None)
        return Learnt(card, True)

    def save(self) -> Path:
        if not self.complete:
            missing = [c.code for c in DECK if c not in self._rows]
            raise EnrolmentError(f"{len(missing)} cards not learnt yet: {' '.join(missing)}")
        return self.store.save(self.model())
