"""The lamp's reflection on a card: where it clips the picture.

A glossy card under a bar's lamp shows the lamp's mirror image as a patch where every
channel clips. Where it clips white paper nothing is lost (the learnt card is white there
too), so the whole card is still compared as it is: the print the patch washes out lowers
the score and the margin, and the margin rule asks again rather than guess. What the patch
changes is what the kiosk says and what it looks at:

- the rank index under a reflection is not used to decide between ranks (the other
  corner, which carries the same index, decides alone);
- a card left unnamed with a reflection on it is asked to be MOVED ("mou la carta:
  reflex"): showing it again in the same place would give the same picture.
"""

from __future__ import annotations

import cv2
import numpy as np

GLARE_LEVEL = 250  # a pixel this bright in every channel is a reflection, not the card
GROW_CELLS = 2  # the halo around a clipped patch, and the alignment search's reach


def glare_cells(bgr: np.ndarray, cells_hw: tuple[int, int]) -> np.ndarray:
    """Which cells (bool, ``cells_hw``) of a flat card image hold a reflection, grown."""
    clipped = (np.min(bgr, axis=2) >= GLARE_LEVEL).astype(np.float32)
    h, w = cells_hw
    cells = cv2.resize(clipped, (w, h), interpolation=cv2.INTER_AREA) > 0.02
    if cells.any():
        k = 2 * GROW_CELLS + 1
        cells = cv2.dilate(cells.astype(np.uint8), np.ones((k, k), np.uint8)) > 0
    return cells
