"""Two frames of the same table compared as light, not as levels.

Between two settled frames a bar's camera changes its exposure and gain by a few per cent
(mains flicker, its own control), and in dim light (analogue gain 4-8) every pixel carries
noise of several levels: a fixed threshold on the difference takes the first for a change
of the whole table and joins the specks of the second into a change bigger than a card.

So the reference is first brought to the current frame's exposure (one gain per channel,
the median ratio over the view: most of the table did not change), and the threshold is
measured from the two frames themselves (the median difference, which is the noise: the
changed part is a minority), never below the level a card's print makes.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.deck.locate import change_mask, channel_max, every, quad_mask
from vision.deck.recent import recent

NOISE_K = 4.5  # x the median difference: above the noise of two frames
EDGE_K = 0.8  # an edge's step per pixel over the median difference
MIN_EDGE = 3.0
LOW, HIGH = 24, 240  # levels a ratio is measured between (noise below, clipping above)
MAX_GAIN = 1.5
RECENT = 4  # comparisons remembered (vision.deck.recent): a look asks the same one again


@dataclass(frozen=True)
class Change:
    """What changed between a reference and the current frame (detail size)."""

    mask: np.ndarray  # uint8 0/255
    level: float  # the difference that counted as a change (levels)
    edge: float  # an edge's least step per pixel in these frames (above their noise)
    reference: np.ndarray  # the reference at the current frame's exposure


def _ratios() -> tuple[np.ndarray, np.ndarray]:
    """Every pair of levels a gain is measured from (``a << 8 | b``, LOW < a, b < HIGH) and
    its ratio b / a (float32, as a pixel's own), in the ratios' order."""
    a, b = np.meshgrid(np.arange(LOW + 1, HIGH), np.arange(LOW + 1, HIGH), indexing="ij")
    ratio = (b.astype(np.float32) / a.astype(np.float32)).ravel()
    order = np.argsort(ratio, kind="stable")
    return (a << 8 | b).ravel()[order], ratio[order]


PAIRS, RATIOS = _ratios()


@recent(RECENT)
def gain_matched(reference: np.ndarray, current: np.ndarray) -> np.ndarray:
    """``reference`` (BGR uint8) at ``current``'s exposure: one robust gain per channel."""
    gains = np.ones(3)
    # (each channel of the sample apart: the median of its pixels' ratios b / a between the
    # levels, from how many pixels hold each pair of levels: exactly np.median's value)
    for c, (a, b) in enumerate(zip(cv2.split(every(reference, 4)), cv2.split(every(current, 4)))):
        held = np.bincount((a.astype(np.int32) << 8 | b).ravel(), minlength=1 << 16)[PAIRS]
        n = int(held.sum())
        if n >= 200:
            below = np.cumsum(held)
            middle = RATIOS[[np.searchsorted(below, (n - 1) // 2, side="right"), np.searchsorted(below, n // 2, side="right")]]
            gains[c] = float(np.clip(np.median(middle), 1 / MAX_GAIN, MAX_GAIN))
    if np.all(np.abs(gains - 1) < 0.004):
        return reference
    return cv2.transform(reference, np.diag(gains))


@recent(RECENT)
def noise_of(reference: np.ndarray, current: np.ndarray) -> float:
    """The median difference of the brightest channel between two frames of one exposure."""
    d = channel_max(cv2.absdiff(every(reference, 2), every(current, 2)))
    # (np.median of the levels, from their histogram: a third of the time; cv2.calcHist's counts
    # are exact, a float32 holding any count of a frame's pixels)
    below = np.cumsum(cv2.calcHist([d], [0], None, [256], [0, 256]).ravel().astype(int))
    n = d.size
    return (int(np.searchsorted(below, (n - 1) // 2, side="right")) + int(np.searchsorted(below, n // 2, side="right"))) / 2


def _edge(noise: float) -> float:
    """An edge's least step per pixel over frames whose median difference is ``noise``."""
    return max(MIN_EDGE, EDGE_K * noise)


def edge_level(reference: np.ndarray, current: np.ndarray) -> float:
    """An edge's least step per pixel in ``current``, above the noise measured against ``reference``
    (the same view, lying still): :attr:`Change.edge` without the change worked out."""
    return _edge(noise_of(gain_matched(reference, current), current))


@recent(RECENT)
def compare(reference: np.ndarray, current: np.ndarray, *, floor: float, min_pixels: int = 6) -> Change:
    """Where ``current`` differs from ``reference`` by more than the light and the noise."""
    ref = gain_matched(reference, current)
    med = noise_of(ref, current)
    level = max(floor, NOISE_K * med)
    mask = change_mask(ref, current, level=int(round(level)), min_pixels=min_pixels)
    return Change(mask, level, _edge(med), ref)


def changed_inside(reference: np.ndarray, current: np.ndarray, quad: np.ndarray, *, floor: float,
                   min_pixels: int = 6) -> float:
    """The share of ``quad``'s area (px, 4x2) where ``current`` differs from ``reference``
    (:func:`compare` over the quad's box and a margin: the light and the noise measured there)."""
    h, w = current.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)) - 8, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)) + 8, (w, h)).astype(int)
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0
    change = compare(reference[y0:y1, x0:x1], current[y0:y1, x0:x1], floor=floor, min_pixels=min_pixels)
    inside = np.zeros_like(change.mask)
    cv2.fillPoly(inside, [np.round(quad - (x0, y0)).astype(np.int32)], 255)
    return cv2.countNonZero(cv2.bitwise_and(change.mask, inside)) / max(cv2.countNonZero(inside), 1)


def changed_share(reference: np.ndarray, current: np.ndarray, quad: np.ndarray, *, floor: float,
                  min_pixels: int = 6) -> float:
    """The share of ``quad``'s area where ``current`` differs from ``reference``, the light and the
    noise measured over the whole view (:func:`compare`). Where a card came, or went, it fills its own
    box: measured there (:func:`changed_inside`), its change is taken for the light and the noise."""
    change = compare(reference, current, floor=floor, min_pixels=min_pixels)
    inside = quad_mask(change.mask.shape, quad)
    return cv2.countNonZero(cv2.bitwise_and(change.mask, inside)) / max(cv2.countNonZero(inside), 1)
