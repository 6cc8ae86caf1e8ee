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

from dataclasses import dataclass

import cv2
import numpy as np

from vision.deck.glare import GLARE_LEVEL
from vision.deck.locate import Blob, channel_max

DARKER_SCALE = 0.4  # of the automatic exposure: a reflection twice as bright as the card's white keeps its print
NEAR = 0.5  # the reflection counts within this share of a card's long side around the change
MIN_CLIPPED = 12  # clipped pixels (detail size) that are a reflection, not a speck of noise
STILL_SHARE = 0.01  # of the view: more changed between the look and the darker frame is a hand coming
MIN_SAMPLES = 30  # pixels a level needs to fit the tone mapping at that level


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


def glare_near(detail: np.ndarray, blobs: list[Blob], card_long: float) -> bool:
    """Whether the reflection clips the picture around the changed regions ``blobs`` (grown
    by ``NEAR`` of a card's long side): where the new card and the one it lies on are."""
    if not blobs:
        return False
    pts = np.concatenate([b.quad for b in blobs])
    h, w = detail.shape[:2]
    grow = NEAR * card_long
    x0, y0 = np.maximum(pts.min(axis=0) - grow, 0).astype(int)
    x1, y1 = np.minimum(pts.max(axis=0) + grow, (w, h)).astype(int)
    return int(cv2.countNonZero(clipped(detail[y0:y1, x0:x1]))) >= MIN_CLIPPED if x1 > x0 and y1 > y0 else False


def tone_map(normal: np.ndarray, darker: np.ndarray) -> np.ndarray:
    """``normal`` (a frame at the automatic exposure) as it would look at ``darker``'s
    exposure: per channel, each level goes to the median level the same pixels have in
    ``darker`` (most of the view did not change), monotonic; clipped pixels of ``normal``
    (unknown: the reflection) take ``darker``'s own values, so they never show as a change."""
    out = np.empty_like(normal)
    lost = clipped(normal).astype(bool)
    keep = ~lost[::2, ::2].ravel()
    levels = np.arange(256, dtype=np.float64)
    for c in range(3):
        a = normal[::2, ::2, c].ravel()[keep].astype(np.int64)
        b = darker[::2, ::2, c].ravel()[keep].astype(np.int64)
        joint = np.bincount(a * 256 + b, minlength=65536).reshape(256, 256)
        counts = joint.sum(axis=1)
        cum = np.cumsum(joint, axis=1)
        median = np.argmax(cum >= (counts[:, None] + 1) // 2, axis=1).astype(np.float64)
        good = counts >= MIN_SAMPLES
        if good.sum() < 2:  # nothing to fit from: the frames are not of one scene
            lut = levels
        else:
            lut = np.interp(levels, levels[good], median[good])
            lut = np.maximum.accumulate(lut)
        out[..., c] = cv2.LUT(normal[..., c], np.clip(lut + 0.5, 0, 255).astype(np.uint8))
    out[lost] = darker[lost]
    return out


def still_between(normal_small: np.ndarray, darker_small: np.ndarray, level: int = 20) -> bool:
    """Whether the darker frame shows the same still table as the normal frame just looked
    at (both at motion size): nothing but the exposure changed (a hand coming in between is
    a change of a part of the view)."""
    moved = channel_max(cv2.absdiff(tone_map(normal_small, darker_small), darker_small)) > level
    return np.count_nonzero(moved) <= STILL_SHARE * moved.size
