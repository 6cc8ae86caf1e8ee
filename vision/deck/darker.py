"""A darker second exposure for the cards under the lamp's reflection.

A glossy card under a low lamp mirrors it: the reflection is light added before the sensor
clips, so where it is strong the print is washed out to white, and so are the card's edges
over the card below (white over white). Nothing computed from that frame can bring the
print back; the same scene at a fraction of the exposure time can: the reflection no longer
clips, the print shows through it (noisier, as fewer electrons were gathered).

So when the tracker's look at a still table finds the lamp's reflection where the table
changed, it asks its caller for ONE darker frame (:class:`DarkerRequest`, answered through
``DealTracker.feed_darker``) while the card still lies there, and does the whole look on
it: where the new card is (against the table before it, at the same exposure), and which
card it is. The darker frame is kept with the table's state as the reference for the next
card, which lies under the same reflection.

Light: the learnt deck was photographed at the normal exposure; the card's features are
normalised for light (a plane and the mean removed, unit length; colour relative to the
card's mean), which a shorter exposure changes by a gain and a tone curve only. Where a
darker frame must be compared with a frame of the normal exposure (the table before the
first card under the reflection), the tone mapping between the two is fitted from the
pixels that did not change (most of the view), not assumed from a camera model.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.deck.exposure import Change, compare
from vision.deck.glare import GLARE_LEVEL
from vision.deck.locate import CARD_ASPECT, change_at_edge, channel_max, every, off_edge, quad_mask
from vision.deck.motion import hand_over
from vision.deck.recent import recent

DARKER_SCALE = 0.4  # of the automatic exposure: a reflection twice as bright as the card's white keeps its print
NEAR = 0.5  # the reflection counts within this share of a card's long side around the change
MIN_CLIPPED = 12  # clipped pixels (detail size) that are a reflection, not a speck of noise
CLIPPED_SHARE = 0.02  # of a card's area clipped around the change: the darker frame is worth taking
MIN_SAMPLES = 100  # pixels to measure the exposures' ratio on
_RING = np.ones((5, 5), np.uint8)
MIN_LEVEL = 16  # darker than this a pixel is mostly noise: no ratio taken from it
IN_HAND = 0.8  # of a card's outline inside what came in from the view's edge: it came with the hand (all of it moved)
RECENT = 4  # results kept (:func:`vision.deck.recent.recent`: a darker frame's look compares the same
# two frames up to three times: did a card come between, what changed, the hand come in)


@dataclass(frozen=True)
class DarkerRequest:
    """The tracker's request for one darker frame of the table as it lies now: the look at
    frame ``frame_number`` found a reflection where the table changed."""

    frame_number: int
    exposure_scale: float = DARKER_SCALE


def clipped(bgr: np.ndarray) -> np.ndarray:
    """Where every channel clips (uint8 0/1): the reflection, not the card."""
    b, g, r = cv2.split(bgr)
    return (cv2.min(cv2.min(b, g), r) >= GLARE_LEVEL).astype(np.uint8)


def reflection_in_view(detail: np.ndarray) -> bool:
    """Whether any channel clips anywhere (the empty mat: its colour clips one channel
    before the others where the lamp's reflection falls on it)."""
    return int(cv2.countNonZero((channel_max(detail) >= GLARE_LEVEL).astype(np.uint8))) >= MIN_CLIPPED


def glare_near(detail: np.ndarray, quads: list[np.ndarray], card_area: float) -> bool:
    """Whether the reflection clips a good part of the picture around ``quads`` (the
    changed regions, or the card on top; grown by ``NEAR`` of a card's long side). A few
    clipped pixels of a grazing reflection leave the card readable at the normal exposure,
    which is less noisy; a reflection that washes a card out clips a third of it or more."""
    if not quads:
        return False
    pts = np.concatenate(quads)
    h, w = detail.shape[:2]
    grow = NEAR * float(np.sqrt(card_area * CARD_ASPECT))
    x0, y0 = np.maximum(pts.min(axis=0) - grow, 0).astype(int)
    x1, y1 = np.minimum(pts.max(axis=0) + grow, (w, h)).astype(int)
    if x1 <= x0 or y1 <= y0:
        return False
    return int(cv2.countNonZero(clipped(detail[y0:y1, x0:x1]))) >= max(MIN_CLIPPED, CLIPPED_SHARE * card_area)


def _srgb_to_linear() -> np.ndarray:
    x = np.arange(256, dtype=np.float64) / 255
    return np.where(x <= 0.04045, x / 12.92, ((x + 0.055) / 1.055) ** 2.4)


_LINEAR = _srgb_to_linear()


def _ratios() -> tuple[np.ndarray, np.ndarray]:
    """Every pair of levels a ratio is taken from (``a << 8 | b``: MIN_LEVEL <= a < GLARE_LEVEL,
    MIN_LEVEL <= b) and its ratio of light (float64, as a pixel's own), in the ratios' order."""
    a, b = np.meshgrid(np.arange(MIN_LEVEL, GLARE_LEVEL), np.arange(MIN_LEVEL, 256), indexing="ij")
    ratio = (_LINEAR[b] / _LINEAR[a]).ravel()
    order = np.argsort(ratio, kind="stable")
    return (a << 8 | b).ravel()[order], ratio[order]


PAIRS, RATIOS = _ratios()


def _linear_to_srgb(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0, 1)
    return 255 * np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def _median_ratio(a: np.ndarray, b: np.ndarray) -> float:
    """The median ratio of light b / a over the pixels of one channel whose levels a ratio is taken
    from (1 with fewer than :data:`MIN_SAMPLES`): from how many pixels hold each pair of levels,
    exactly np.median's value over the pixels' own ratios, without a ratio per pixel nor a
    partition of them."""
    held = np.bincount((a.astype(np.int32) << 8 | b).ravel(), minlength=1 << 16)[PAIRS]
    below = np.cumsum(held)
    n = int(below[-1])
    if n < MIN_SAMPLES:
        return 1.0
    middle = RATIOS[[np.searchsorted(below, (n - 1) // 2, side="right"), np.searchsorted(below, n // 2, side="right")]]
    return float(np.median(middle))


@recent(RECENT)
def tone_map(normal: np.ndarray, darker: np.ndarray) -> np.ndarray:
    """``normal`` (a frame at the automatic exposure) as it would look at ``darker``'s
    exposure: a shorter exposure scales the light by one factor per channel, measured as the
    median ratio of the two frames' light over the view (most of it did not change; where
    the new card lies is a minority, and the lamp's hot spot is where it lies, so a
    level-by-level fit would learn the card there). A channel clipped in ``normal`` is
    unknown there (the reflection; under a warm lamp the red of white paper too): it takes
    ``darker``'s own value, so it never shows as a change; the other channels still do."""
    luts = []
    for a, b in zip(cv2.split(every(normal, 4)), cv2.split(every(darker, 4))):  # (a sample is plenty for a median)
        lut = _linear_to_srgb(_median_ratio(a, b) * _LINEAR)
        luts.append(np.clip(lut + 0.5, 0, 255).astype(np.uint8))
    # (every channel at once, by its own table: the frames are never split apart)
    mapped = cv2.LUT(normal, cv2.merge(luts))
    # (grown: the camera's sharpening rings around a clipped patch, differently in each exposure.
    # Grown only in the box around every clipped level, found in the frame's rows of levels, 3 a
    # pixel: the rest of the view lies beyond the ring's reach of any, and keeps its mapped value)
    hot = cv2.compare(normal, GLARE_LEVEL, cv2.CMP_GE)
    h, w = normal.shape[:2]
    x, y, bw, bh = cv2.boundingRect(hot.reshape(h, -1))
    if bw == 0:
        return mapped
    r = _RING.shape[0] // 2
    x0, x1 = max(x // 3 - r, 0), min((x + bw - 1) // 3 + r + 1, w)
    y0, y1 = max(y - r, 0), min(y + bh + r, h)
    lost = cv2.dilate(hot[y0:y1, x0:x1], _RING)
    mapped[y0:y1, x0:x1] = cv2.copyTo(darker[y0:y1, x0:x1], lost, mapped[y0:y1, x0:x1])
    return mapped


@recent(RECENT)
def came_in(normal: np.ndarray, dark: np.ndarray, *, level: int, min_pixels: int) -> np.ndarray:
    """What came into view from the frame's edge between the frame that asked for a darker
    frame (``normal``) and the darker frame (``dark``), both detail copies: a brisk dealer's
    next hand, already in the darker frame. It is not the card, and over the card it would
    join the two into one change touching the edge ("a hand"), and the card would be passed
    over. Grown by a few px (the hand's blur and its shadow's edge)."""
    return cv2.dilate(change_at_edge(tone_map(normal, dark), dark, level=level, min_pixels=min_pixels), _RING)


def changed_either(change: Change, reference: np.ndarray, normal: np.ndarray, *, floor: float, least: float) -> Change:
    """A darker frame's change against the table before (``change``) with where the frame that asked
    (``normal``) differs from that table at the normal exposure (``reference``) added, when that is at
    least ``least`` px (a card's share): there a card came, and the darker frame is where to name it.
    A shorter exposure at a high gain is noisier, so its change is thinner: a card dealt white on white
    changed too few of its pixels there to be looked for at all (seen on the rough camera: 8C on 3O at
    gain 6.8, 276 px changed in the darker frame, 967 in the frame that asked, 347 needed). What reaches the
    view's edge there is left out: a hand, whose change joined to the darker frame's answers "a hand is there"
    where the darker look would read the frame that asked (41001's 7C, passed over in silence)."""
    mask = off_edge(compare(reference, normal, floor=floor).mask)  # (a hand reaches the view's edge)
    if cv2.countNonZero(mask) < least:
        return change
    return replace(change, mask=cv2.bitwise_or(change.mask, mask))


def hand_came_over(normal: np.ndarray, dark: np.ndarray, quad: np.ndarray | None, card_area: float, *,
                   level: int, min_pixels: int) -> bool:
    """Whether the next hand came in from the view's edge over the pile (``quad``: its last
    outline, detail px) between the frame that asked for a darker frame and the darker frame:
    a brisk dealer's next card may be in the air over the pile there, hiding the card the look
    was for. Such a darker frame shows nothing of that card: the look is done as with none."""
    return hand_over(came_in(normal, dark, level=level, min_pixels=min_pixels), quad, card_area)


def in_hand(normal: np.ndarray, dark: np.ndarray, quad: np.ndarray, *, level: int, min_pixels: int) -> bool:
    """Whether the card at ``quad`` (detail px) in the darker frame came in with the next hand:
    all but its margins (:data:`IN_HAND`) inside what came in from the view's edge since the frame that
    asked (:func:`came_in`), joined to the hand that holds it. A brisk dealer's next card in
    the air over the pile, blurred and not yet down, is never counted there: the darker frame
    shows nothing of the card the look was for, which is read in the frame that asked
    (:meth:`vision.deck.darklook.DarkerLook._spoiled`), and the new one once it lies still. A
    card that lay there already, a hand reaching over part of it, is not in the hand."""
    arrived = came_in(normal, dark, level=level, min_pixels=min_pixels)
    inside = quad_mask(arrived.shape, quad)
    return cv2.countNonZero(cv2.bitwise_and(arrived, inside)) >= IN_HAND * max(cv2.countNonZero(inside), 1)
