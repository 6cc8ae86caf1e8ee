"""The outline search's shortcut of round 16 (speed16) against the search it stands for, on drawn
tables through real OpenCV (the speed itself is the bench's, never a timed test): the sizes around
the expected one tried only at the direction where it scored best (:func:`vision.deck.placing.search`,
``every``)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import Card
from tests.vision import deckdraw
from vision.deck.exposure import compare
from vision.deck.locate import CARD_ASPECT, shrunk
from vision.deck.outline import _angles, grey
from vision.deck.pile import CHANGE_LEVEL
from vision.deck.placing import search

LONG = 95.0 * 1.8 * 960 / 1280  # (deckdraw's card at 1.8 px/mm, seen at the detail width)


@lru_cache(maxsize=1)
def _pairs() -> list[tuple[np.ndarray, np.ndarray]]:
    """(the table before, the table with the new card) at detail size, for each of three cards
    dealt askew (deckdraw: the empty mat 4 frames, then 10 frames a card, the last 4 still)."""
    deal = deckdraw.deal([Card.parse(c) for c in ("7C", "2E", "12B")], seed=5)
    detail = [shrunk(f, 960, 3) for f in deal.frames]
    return [(detail[3 + 10 * k], detail[13 + 10 * k]) for k in range(3)]


def _patch(before: np.ndarray, after: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """The half-size grey patch round the change, its reference and change mask, and the level."""
    change = compare(before, after, floor=CHANGE_LEVEL)
    x, y, w, h = cv2.boundingRect(cv2.findNonZero(change.mask))
    g = int(0.4 * LONG)
    x0, y0 = max(x - g, 0), max(y - g, 0)
    x1, y1 = min(x + w + g, after.shape[1]), min(y + h + g, after.shape[0])
    half = lambda im: cv2.resize(grey(im[y0:y1, x0:x1]), ((x1 - x0) // 2, (y1 - y0) // 2),  # noqa: E731
                                 interpolation=cv2.INTER_AREA)
    mask = cv2.resize((change.mask[y0:y1, x0:x1] > 0).astype(np.uint8), ((x1 - x0) // 2, (y1 - y0) // 2),
                      interpolation=cv2.INTER_NEAREST)
    return half(after), half(before), mask, change.edge


def _sizes(ks: tuple[float, ...]) -> list[tuple[int, int]]:
    out = []
    for k in ks:
        long_, short = int(round(LONG * k / 2)), int(round(LONG * k / CARD_ASPECT / 2))
        out += [(long_, short), (short, long_)]
    return out


def test_the_sizes_around_the_expected_one_are_tried_where_it_scored_best():
    """On each new card's patch: with the expected size first, the search that tries the other
    sizes only at the direction where it scored best finds what the search of every size at
    every direction finds (the same rectangle, size, place and score). With a wrong size first
    (15 % short), the right one is still found, at that direction: the sizes after the first
    are tried (a search of the first size alone keeps the short one)."""
    for before, after in _pairs():
        cur, ref, mask, level = _patch(before, after)
        angles = _angles(cur, ref, level, mask.astype(np.float32), 3)
        assert len(angles) >= 2
        full = search(cur, ref, mask, angles, _sizes((1.0, 0.95, 1.05)), level)
        lead = search(cur, ref, mask, angles, _sizes((1.0, 0.95, 1.05)), level, every=2)
        assert full is not None and lead is not None
        assert full[:7] == lead[:7] and full[8] == lead[8] and np.array_equal(full[7], lead[7])
        short_first = search(cur, ref, mask, angles, _sizes((0.85, 1.0)), level, every=2)
        short_only = search(cur, ref, mask, angles, _sizes((0.85,)), level)
        assert max(short_first[5:7]) == round(LONG / 2) and max(short_only[5:7]) == round(LONG * 0.85 / 2)
        assert short_first[8] == full[8]
