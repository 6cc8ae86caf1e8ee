"""The lamp's reflection on a card: where it clips the picture.

A glossy card under a bar's lamp shows the lamp's mirror image as a patch where every
channel clips. Where it clips white paper nothing is lost (the learnt card is white there
too), so the whole card is still compared as it is: the print the patch washes out lowers
the score and the margin, and the margin rule asks again rather than guess. What the patch
changes is what the kiosk says and what it looks at:

- the rank index under a reflection is not used to decide between ranks (the other
  corner, which carries the same index, decides alone);
- where the reflection burnt the print out (:func:`burnt_cells`), the card is compared, as a
  last look, on what is left (:func:`kept`: those cells left out on both sides, the faint print
  around them by local contrast), with stricter margins (``model.KEPT_STRICT``, ``KEPT_MARGIN``);
- a card left unnamed with a reflection on it is asked to be MOVED ("mou la carta:
  reflex"): showing it again in the same place would give the same picture. (With a
  camera that can change its exposure the tracker first reads it from a darker frame:
  :mod:`vision.deck.darker`.)
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


def _chroma_valid(cells: np.ndarray, chroma_hw: tuple[int, int]) -> np.ndarray:
    """A chroma block is spared when no cell inside it is glared (per channel, interleaved)."""
    h, w = chroma_hw
    hit = cv2.resize(cells.astype(np.float32), (w, h), interpolation=cv2.INTER_AREA) > 0
    return np.repeat(~hit.ravel(), 2)


def _plane_removed(x: np.ndarray, valid: np.ndarray, cells_hw: tuple[int, int]) -> np.ndarray:
    h, w = cells_hw
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = np.stack([xx.ravel(), yy.ravel(), np.ones(h * w, np.float32)], axis=1)[valid]
    xv = x[:, valid]
    xv = xv - (xv @ np.linalg.pinv(a).T) @ a.T
    xv -= xv.mean(axis=1, keepdims=True)
    out = np.zeros_like(x)
    out[:, valid] = xv / np.maximum(np.linalg.norm(xv, axis=1, keepdims=True), 1e-6)
    return out


def spared(features: np.ndarray, cells: np.ndarray, chroma_hw: tuple[int, int]) -> np.ndarray:
    """``features`` (rows: whole-card features, [lightness cells, chroma blocks]) compared
    only where ``cells`` (True: glare) spared the card: glared cells and chroma blocks
    zeroed, the rest normalised again. Removing a plane and a mean are projections, so
    redoing them on the spared cells gives what the raw cells would have given."""
    n_light = cells.size
    light = features[:, :n_light]
    # the chroma part's own weight: the lightness part was unit before the row was scaled
    norm = 1.0 / np.maximum(np.linalg.norm(light, axis=1, keepdims=True), 1e-6)
    chroma = features[:, n_light:] * norm
    valid = ~cells.ravel()
    light = _plane_removed(light, valid, cells.shape)
    keep = _chroma_valid(cells, chroma_hw)
    chroma = np.where(keep, chroma, 0.0)
    for c in (0, 1):  # each chroma channel relative to the spared blocks' mean again
        sel = keep.copy()
        sel[1 - c::2] = False
        if sel.any():
            chroma[:, sel] -= chroma[:, sel].mean(axis=1, keepdims=True)
    out = np.concatenate([light, chroma], axis=1)
    return (out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)).astype(np.float32)


# Burnt-out cells: where the reflection clipped this share of a cell's pixels, nothing of the
# print is left to compare (the learnt card has print there, the seen one flat white).
BURNT_SHARE = 0.5


def burnt_cells(bgr: np.ndarray, cells_hw: tuple[int, int]) -> np.ndarray:
    """Which cells (bool, ``cells_hw``) of a flat card image the reflection burnt out: most of
    their pixels clipped in every channel. Not grown: the print around them, faint but there,
    is still compared (by local contrast)."""
    clipped = (np.min(bgr, axis=2) >= GLARE_LEVEL).astype(np.float32)
    h, w = cells_hw
    return cv2.resize(clipped, (w, h), interpolation=cv2.INTER_AREA) >= BURNT_SHARE


def kept(local: np.ndarray, burnt: np.ndarray, chroma_hw: tuple[int, int]) -> np.ndarray:
    """Local-contrast features (``views.local_contrast`` rows) compared only where the
    reflection left something: the burnt cells, and the chroma blocks they touch, zeroed on
    this side and the other; the rest taken relative to its own mean and brought to unit
    length again (the chroma keeps its weight against the lightness)."""
    n_light = burnt.size
    valid = ~burnt.ravel()
    light = np.where(valid, local[:, :n_light], 0.0)
    light[:, valid] -= light[:, valid].mean(axis=1, keepdims=True)
    norm = np.maximum(np.linalg.norm(local[:, :n_light], axis=1, keepdims=True), 1e-6)
    light /= np.maximum(np.linalg.norm(light, axis=1, keepdims=True), 1e-6)
    keep = _chroma_valid(burnt, chroma_hw)
    chroma = np.where(keep, local[:, n_light:] / norm, 0.0)
    for c in (0, 1):
        sel = keep.copy()
        sel[1 - c::2] = False
        if sel.any():
            chroma[:, sel] -= chroma[:, sel].mean(axis=1, keepdims=True)
    out = np.concatenate([light, chroma], axis=1)
    return (out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)).astype(np.float32)
