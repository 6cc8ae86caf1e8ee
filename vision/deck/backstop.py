"""The deal-through's backstop: a card is never passed over in silence.

The tracker (:mod:`vision.deck.tracker`) may say nothing about a card that came: a still
spell that a lingering hand or a far-swaying reflection fills, or a look whose darker frame
finds no change. So each card landing is an episode: the table in the last still frame
before the movement against the table once it lies still again (a still spell long enough
for a look; or one whose look answered "a hand is there", a resting hand at the view's edge,
cut short by the next movement before the look again: a card landed all the same). When the tracker
said nothing in that still spell (no card, no ask: the pile's last state is the one it had
before the movement) up to the next movement, or for ``WAIT`` frames past its look, and the
pile's region brought new edges (:func:`vision.deck.outline.new_edge_share`, exposures
matched and above the frames' noise: :func:`vision.deck.exposure.compare`), the kiosk asks
to show the card again. Never a guessed card. A hand that passed over the pile and left it
as it was brings no new edges there, and a hand still lying there (a change that reaches the
view's edge, as a hand and its arm always do) is left out: nothing is said.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.deck.exposure import Change, compare
from vision.deck.locate import CARD_ASPECT, off_edge
from vision.deck.motion import NEAR_PILE
from vision.deck.outline import iou, new_edge_share
from vision.deck.pile import CHANGE_LEVEL, NOT_NEW, SAME_CARD, SAME_PLACE, Pile

WAIT = 2  # still frames past the look (still_frames) with nothing said: checked without waiting for movement
LEVEL = 18  # least change, in levels of the brightest channel (the tracker's CHANGE_LEVEL)
UNSAID_EDGES = 0.3  # card perimeters of new edges: the gate (movement, then silence) already says "maybe a card"


@dataclass
class Backstop:
    """The episode kept between frames. ``step`` is told of every frame the tracker read (not
    those it answered "hand" about) and returns the two frames to compare when a check is due."""

    _before: np.ndarray | None = None  # the last still frame before the movement (as fed)
    _after: np.ndarray | None = None  # the last still frame seen
    _top: object = None  # the pile's state (the tracker's last settled entry) at the last frame
    _spoke: bool = False  # the pile's state changed since the movement (a card, an ask, one taken back)
    _spell: int = 0  # still frames in the current spell
    _moved: bool = False  # movement came since ``_before``
    _checked: bool = False
    _cut: bool = False  # a look in this still spell answered "a hand is there" (its card not read yet)

    def hand(self, *, apart: bool) -> None:
        """The tracker answered "a hand is there": it looks again once the hand keeps still.
        ``apart``: the hand lingers at the view's edge apart from the pile (a resting hand that
        moved), not over it: the card may lie there unread, its look cut short."""
        self._spell, self._cut = 0, apart

    def said(self, top: object) -> None:
        """The backstop's own ask was made (``top``: the pile's state after it): not the tracker
        speaking about what comes next (the next card's landing is an episode of its own)."""
        self._top = top

    def step(self, frame: np.ndarray, moved: bool, top: object, still_frames: int) -> tuple | None:
        changed = top is not self._top
        self._spoke |= changed
        changed &= self._top is not None  # (the table first lying still is no speaking)
        self._top = top
        if moved:
            # (a card landed in the spell: it lay still for a look, or a look at it answered
            # "hand" and the next movement came before the look again; each is an episode)
            landed = self._spell >= still_frames or self._cut
            due = self._due() if landed else None
            if landed or self._before is None:
                # (the pile's state changed since the last still frame, which starts the new
                # episode: the tracker spoke after it, on a darker frame, about what it shows)
                self._before, self._spoke, self._checked = self._after, changed, False
            self._moved, self._spell, self._cut = True, 0, False
            return due
        self._spell += 1
        self._after = frame
        if self._before is None:
            self._before = frame
        return self._due() if self._spell == still_frames + WAIT else None

    def end(self, frame: np.ndarray, top: object) -> tuple | None:
        """Dealing is declared done ("Fet"): the last card's landing ends its episode now (a
        hand lingering by the pile may have kept it from lying still for a look, or its look
        answered "hand"): the two frames to compare when the tracker said nothing since the
        movement, else None."""
        self._spoke |= top is not self._top
        self._top, self._after = top, frame
        return self._due()

    def _due(self) -> tuple | None:
        if not self._moved or self._checked or self._spoke or self._before is None or self._after is None:
            return None
        self._checked = True
        return self._before, self._after


def unsaid(before: np.ndarray, after: np.ndarray, pile: np.ndarray | None, long_px: float,
           change: Change | None = None) -> bool:
    """Did the pile's region (around ``pile``, its last outline; the whole view without one)
    gain a card's share of new edges from ``before`` to ``after`` (detail size)? ``change``:
    ``after`` against ``before`` at :data:`LEVEL`, when the caller has it."""
    change = change if change is not None else compare(before, after, floor=LEVEL)
    mask = off_edge(change.mask)
    if pile is not None:
        grow = NEAR_PILE * long_px
        x0, y0 = np.maximum(pile.min(axis=0) - grow, 0).astype(int)
        x1, y1 = (pile.max(axis=0) + grow).astype(int)
        region = np.zeros_like(mask)
        region[y0:y1 + 1, x0:x1 + 1] = 255
        mask = cv2.bitwise_and(mask, region)
    if not mask.any():
        return False
    return new_edge_share(after, change.reference, mask, long_px, level=change.edge,
                          aspect=CARD_ASPECT) >= UNSAID_EDGES


def came_unread(pile: Pile, detail: np.ndarray, frame: np.ndarray | None = None) -> bool:
    """Whether a card came onto the pile since its last state that the look at ``detail``
    (detail size, the normal exposure) did not read: the pile's region gained a card's share
    of new edges (:func:`unsaid`), and what lies on top is not the last card found again
    (its outline where that card lay: the lamp's reflection swayed over it, no card came).
    For a look whose darker frame the next hand spoiled (the next card in the air over the
    pile): that card will cover this one, so it is asked about now or never. With ``frame``
    (``detail`` as fed, to name from): not when the last card read still lies on top, uncovered
    (:meth:`Pile.last_on_top`)."""
    last = pile.settled[-1]
    if last.detail is None:
        return False
    long_px = pile.long_px(detail)
    change = compare(last.detail, detail, floor=CHANGE_LEVEL)
    if not unsaid(last.detail, detail, last.where, long_px, change):
        return False
    found = pile.find(detail, change, long_px)
    if found and last.where is not None \
            and iou(found[0].quad, last.where) > (SAME_PLACE if found[0].new < NOT_NEW else SAME_CARD):
        return False
    # (with the frame to name from: the last card still on top, uncovered, is no card come over it)
    return frame is None or not pile.last_on_top(frame, detail)
