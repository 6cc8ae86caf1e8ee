"""What counts as a change on this table: thresholds from the camera's noise measured on it.

A card on a pale mat or on white marble differs from it by a few grey levels only, less
than a dark wood's grain noise; so the least change taken as a thing is a multiple of the
noise measured frame to frame (:func:`frame_sigma`), in grey and in colour, within bounds
(:class:`Thresholds`). vision/tricks/zones.py measures it each frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

CHANGE_LEVEL = 32  # grey against the settled table, at most: a card on the wood, on another card's print
GREY_NOISE = (6.0, 12.0)  # a grey change: this many times the table's noise, and at least this
COLOUR_NOISE = (4.0, 4.0, 24.0)  # a colour change (|da| + |db|): times the noise, at least, at most
NOISE_FRAMES = 15  # frames the noise is the median over


@dataclass(frozen=True)
class Thresholds:
    """The least change taken as a thing, from the table's measured noise (levels)."""

    grey: float
    colour: float

    @classmethod
    def from_noise(cls, grey_sigma: float, colour_sigma: float) -> "Thresholds":
        grey = min(max(GREY_NOISE[0] * grey_sigma, GREY_NOISE[1]), CHANGE_LEVEL)
        colour = min(max(COLOUR_NOISE[0] * colour_sigma, COLOUR_NOISE[1]), COLOUR_NOISE[2])
        return cls(grey, colour)


def frame_sigma(d: np.ndarray) -> float:
    """A difference of two noisy frames -> one frame's noise: the mean of the smaller 90 % of
    |d| is 0.657 of d's sigma for Gaussian noise, and d's sigma is sqrt(2) the frame's."""
    a = np.abs(d).ravel()
    small = a[a <= np.percentile(a, 90)]
    return float(small.mean()) / 0.657 / np.sqrt(2) if len(small) else 0.0
