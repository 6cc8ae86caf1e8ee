"""Is anything moving on the table? Two consecutive frames, small and blurred.

Not everything that changes between two frames is movement that matters:

- the exposure and gain wander a few per cent (mains flicker, the camera's control): the
  previous frame is brought to the current exposure first (:mod:`vision.deck.exposure`);
- in dim light every pixel carries noise: the threshold is measured from the two frames;
- where the lamp's reflection clips the picture (in either frame), a swaying reflection
  washes a card's print out and back in: that is light, and it is not counted (a card
  landing there still shows its sides where the reflection does not reach);
- a lamp's reflection that sways or flickers changes the light smoothly, without the
  edges a hand or a card in flight brings: the frames are compared as detail (each minus
  its own local mean), where a smooth change of light leaves little;
- the dealer's hand resting at the view's edge twitches, away from the pile: once the
  pile's place is known, only movement that comes near it counts (before, only movement
  that is not all at the frame's edge).
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.deck.exposure import NOISE_K, gain_matched
from vision.deck.locate import CARD_ASPECT, channel_max, quad_mask
from vision.deck.recent import recent

MOTION_LEVEL = 16  # least change of detail between two frames that is movement
DETAIL_SIGMA = 6.0  # px (motion size): the local mean taken off each frame
MIN_SPECK = 3  # px: a moving region smaller is noise
JOIN = 3  # px (motion size): moving pieces this close are one region (a hand's fingers and its arm)
HAND_OVER = 0.03  # of the card's area under a change that reaches the frame's edge: a hand over it
HAND_LEAST = 0.05  # of a card's area: a change from the frame's edge at least this big is a hand
NEAR_PILE = 1.0  # of a card's long side around the pile's outline: movement there counts
APART = 0.35  # of a card's long side: a hand at the view's edge no nearer the pile's outline lingers apart from it
LINGER = 0.5  # of a card's area moving at most, for such a hand: its fingers twitching, not the dealing arm
RESTING = 0.75  # ... for one that moved at the view's edge a frame before too: resting there, not just come in
RESTING_APART = 0.15  # ... and the nearest such a resting hand may lie (its fingers twitch in place)
CLIPPING = 228  # every channel this bright (motion size, blurred): the reflection, whose sway is light
VEILED = 0.3  # of the pile's top where the reflection clips: its print washed out, only its outline shows
VEILED_CARD = 0.015  # of a card's area moving there between two frames, the clipping counted: a card landed on it


@recent(4)  # (a frame is compared with the one before it and, as that one, with the next; and with the last look)
def _detail(small: np.ndarray) -> np.ndarray:
    return cv2.subtract(small, cv2.GaussianBlur(small, (0, 0), DETAIL_SIGMA), dtype=cv2.CV_16S)


@recent(2)  # (a frame's movement asked with the clipping left out, then counted: :func:`landed_veiled`)
def _moved(previous: np.ndarray, current: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the table moved between two motion-size frames, the clipping counted (uint8 0/1), and
    the frame before brought to the current one's exposure."""
    before = gain_matched(previous, current)
    d = cv2.absdiff(_detail(before), _detail(current))
    d = channel_max(np.minimum(d, 255).astype(np.uint8))
    noise = float(np.median(d[::2, ::2]))
    return (d > max(MOTION_LEVEL, NOISE_K * noise)).astype(np.uint8), before


def moving_mask(previous: np.ndarray, current: np.ndarray, *, glare_is_light: bool = True) -> np.ndarray:
    """Where the table moved between two motion-size frames (uint8 0/1). ``glare_is_light``
    False: where the reflection clips counts too (a card may have landed under it)."""
    moved, before = _moved(previous, current)
    if not moved.any() or not glare_is_light:
        return moved
    bright = cv2.bitwise_or(_clipping(before), _clipping(current))
    if not bright.any():
        return moved
    return cv2.bitwise_and(moved, 1 - cv2.dilate(bright, np.ones((3, 3), np.uint8)))


def landed_veiled(previous: np.ndarray, current: np.ndarray, pile: np.ndarray, card_long: float,
                  least: float) -> bool:
    """Whether a card may have landed on the pile's top (``pile``: its outline, motion px) where the
    reflection washes its print out: a card dealt squared on it, with no hand seen, changes there
    only a few px of outline between two frames (the sweep's 26051 at reflection 2.0: 13-22 px,
    where movement counts from ``least``, 27); where the picture clips there is no noise. The
    clipping, whose sway is light elsewhere, is counted here; up to ``least`` (more is the
    reflection swaying, light; a card landing on its own moves a card's worth, looked at as any)."""
    if clipped_share(current, pile) < VEILED:
        return False
    moved = counts(moving_mask(previous, current, glare_is_light=False), pile, card_long)
    return veiled_least(card_long) < moved <= least


def veiled_least(card_long: float) -> float:
    """The least movement (motion px) that may be a card landed where the reflection washes the top out."""
    return VEILED_CARD * card_long * card_long / CARD_ASPECT


def clipped_share(small: np.ndarray, quad: np.ndarray) -> float:
    """The share of ``quad`` (motion px) where the reflection clips the picture: over the
    pile's top card, its print washed out, only its outline shows."""
    inside = quad_mask(small.shape, quad, 1)
    n = int(np.count_nonzero(inside))
    return float(np.count_nonzero(cv2.bitwise_and(_clipping(small), inside))) / n if n else 0.0


@recent(4)
def _clipping(small: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(small)
    return (cv2.min(cv2.min(b, g), r) >= CLIPPING).astype(np.uint8)


def counts(moving: np.ndarray, pile: np.ndarray | None, card_long: float) -> int:
    """How many moving pixels matter (:func:`movement`)."""
    return movement(moving, pile, card_long)[0]


def movement(moving: np.ndarray, pile: np.ndarray | None, card_long: float, *,
             linger: float = LINGER, apart: float = APART) -> tuple[int, bool, bool]:
    """How many moving pixels matter, whether a hand is among them, and whether anything
    moved at the view's edge at all. A region's pieces a
    few px apart are joined first (a twitching hand's fingers move apart from its arm; specks
    of noise left out). The regions that matter come near the pile (``pile``: its outline,
    motion px; ``card_long``: a card's long side there), or without one, do not touch the
    frame's edge or reach well inside. A hand is one of them that reaches the view's edge (a
    hand and its arm always do); one all inside the view is the light (the lamp's reflection
    swaying or flickering) or a card landing on its own. A hand lingering at the frame's
    edge, away from the pile, does not matter at all, unless it moves more than a twitch; nor
    does one whose moving fingers stay ``apart`` from the pile's outline, moving less than
    ``linger`` of a card (a hand resting near the pile, twitching: the dealing hand, its arm
    sliding, moves more, and comes over the pile). A hand that was at the view's edge a frame
    before already may twitch more (``RESTING``; the tracker's card may be a few per cent short)
    and nearer the pile (``RESTING_APART``: 48007's dealer rested a hand 0.2-0.4 of a card from it
    for two cards) than one just come in with the next card (``LINGER``, ``APART``: that hand, its
    card blurred in the air, moves no more than a twitch, 0.3 of a card from the pile)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(moving, connectivity=8)
    if n <= 1:
        return 0, False, False
    h, w = moving.shape
    kept = np.concatenate([[False], stats[1:, 4] >= MIN_SPECK])[labels].astype(np.uint8)
    joined = cv2.dilate(kept, np.ones((2 * JOIN + 1, 2 * JOIN + 1), np.uint8))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
    x, y, bw, bh = (stats[1:, i] for i in range(4))
    area = np.bincount(labels[kept > 0], minlength=n)[1:]
    edge = (x <= 0) | (y <= 0) | (x + bw >= w) | (y + bh >= h)
    lingering = np.zeros_like(edge)
    if pile is not None:
        grow = NEAR_PILE * card_long + JOIN
        px0, py0 = pile.min(axis=0) - grow
        px1, py1 = pile.max(axis=0) + grow
        matter = (x <= px1) & (x + bw >= px0) & (y <= py1) & (y + bh >= py0)
        # (near the pile's outline itself, not its box: a card lying turned fills its box's corners with table)
        zone = cv2.dilate(quad_mask(moving.shape, pile, 1), _disc(int(round(apart * card_long)) + JOIN))
        close = np.bincount(labels[zone > 0], minlength=n)[1:] > 0
        lingering = edge & ~close & (area < linger * card_long * card_long / CARD_ASPECT)
        matter &= ~lingering
    else:
        band = 0.3 * min(h, w) + JOIN
        matter = ~edge | ((x + bw > band) & (x < w - band) & (y + bh > band) & (y < h - band))
    # (a hand's sleeve is plain: its outline at the view's edge may move apart from the card
    # it deals; more than a twitch there is the dealing hand, whatever else moves)
    big = (area >= HAND_LEAST * card_long * card_long / CARD_ASPECT) & ~lingering
    edge &= area > 0
    return int(area[matter].sum()), bool((edge & (matter | big)).any()), bool(edge.any())


@lru_cache(maxsize=8)
def _disc(radius: int) -> np.ndarray:
    """A round structuring element of ``radius`` px (made once per size: :func:`movement` runs every frame)."""
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


@recent(2)  # (a look asks of one change whether a hand is over the card, and anywhere)
def _pieces(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-connected pieces of a change (a mask the tracker made): their labels and stats."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    return labels, stats


def hand_over(mask: np.ndarray, quad: np.ndarray | None, area: float, *, least: float | None = None) -> bool:
    """A change that reaches the frame's edge (a hand and arm always do) over the card
    at ``quad`` (or anywhere, without one): ``least`` px of it inside the card (default
    :data:`HAND_OVER` of ``area``)."""
    labels, stats = _pieces(mask)
    h, w = mask.shape
    x, y, bw, bh, count = (stats[:, i] for i in range(5))
    edge = (x <= 1) | (y <= 1) | (x + bw >= w - 1) | (y + bh >= h - 1)
    edge[0] = False
    edge &= count >= HAND_LEAST * area
    if not edge.any():
        return False
    if quad is None:
        return True
    # (counted over the quad's box only: nothing outside it is inside)
    pts = np.round(quad).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0), 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return 0 >= (HAND_OVER * area if least is None else least)  # (nothing of the view inside: a count of 0)
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [pts - (x0, y0)], 1)
    return int(np.count_nonzero(edge[labels[y0:y1, x0:x1]] & (inside > 0))) >= (HAND_OVER * area if least is None else least)
