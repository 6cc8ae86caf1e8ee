"""A card's outline fitted to a learnt card's print, for a second look.

The tracker's outline can be a few per cent small or large (the printed frame inside a
Spanish card's edge taken for the edge, a size kept from the first card) or turned a few
degrees; the first look searches shifts and three sizes only, and a whole-card comparison
loses much of its score to a misalignment it does not search (a card 10 % too small scores
0.5 where its true outline scores 0.9). Here the lightness of the card as seen, with some of
its surroundings, is aligned to one learnt card's lightness by an affine motion (ECC, the
enhanced correlation coefficient: gain and offset do not matter), at the learnt template's
own scale (its cells), and the card's corners are carried back to the frame: an outline,
nothing more. The card is then named there by the ordinary rules, against every learnt card
alike, so the fit favours no card by its score; only motions a card lying on the table can
show are accepted (a few degrees, a few per cent, a few millimetres).

Example::

    quad = fitted_quad(view, model.light_template(i, o))
    if quad is not None:
        naming = model.identify(views_around(view.frame, quad, reach=CELL, scales=(1.0,)))
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.deck.views import CELL, WHOLE_H, WHOLE_W, CardView, card_in_warp, warp_and_back

FIT_PAD_CELLS = 4  # of the card's surroundings on every side (8 mm): room for the motion
MAX_SIZE = 0.15  # the fitted card's sides at most this much longer or shorter
MAX_STRETCH = 0.08  # one side against the other (a tilt of the camera: a few per cent)
MAX_TURN_DEG = 10.0
MAX_SHIFT_CELLS = 3.0  # the card's middle moved at most this far (6 mm)
LOCAL_CELLS = 4.0  # the neighbourhood (about 8 mm)
SIZES = (0.88, 0.91, 0.94, 0.97, 1.0, 1.03, 1.06, 1.09, 1.12)  # sizes the search starts from
_CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 15, 1e-3)


def fitted_quad(view: CardView, template: np.ndarray) -> np.ndarray | None:
    """The outline (frame px, portrait order) at which ``view``'s card lines up with
    ``template`` (a learnt card's lightness cells, WHOLE_H x WHOLE_W, in the orientation it
    matched in), or None when the fit did not converge or moved the card further than a card
    lying on the table can be off."""
    pad = FIT_PAD_CELLS * CELL
    flat, back = warp_and_back(view.frame, view.quad, pad)
    luma = cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY)
    h, w = luma.shape
    cells = cv2.resize(luma, (w // CELL, h // CELL), interpolation=cv2.INTER_AREA).astype(np.float32)
    learnt, seen = _local(np.ascontiguousarray(template, np.float32)), _local(cells)
    start = _start(learnt, seen)
    try:
        _, warp = cv2.findTransformECC(learnt, seen, start, cv2.MOTION_AFFINE, _CRITERIA, None, 1)
    except cv2.error:  # no convergence
        return None
    if not _plausible(warp):
        return None
    # the card's corners: warp px -> template cells -> padded cells (the motion) -> warp px -> frame
    corners = (card_in_warp(0) - (CELL - 1) / 2) / CELL
    moved = corners @ warp[:, :2].T + warp[:, 2]
    px = moved * CELL + (CELL - 1) / 2
    return cv2.perspectiveTransform(px.reshape(1, 4, 2).astype(np.float32), back).reshape(4, 2)


def _local(cells: np.ndarray) -> np.ndarray:
    """Lightness against its neighbourhood (the lamp's gradient, a reflection's veil out)."""
    return cells - cv2.GaussianBlur(cells, (0, 0), LOCAL_CELLS)


def _start(template: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Where the motion search starts: the size (``SIZES``) and shift that match best."""
    best, start = -2.0, np.float32([[1, 0, FIT_PAD_CELLS], [0, 1, FIT_PAD_CELLS]])
    th, tw = template.shape
    for size in SIZES:
        small = cv2.resize(seen, None, fx=1 / size, fy=1 / size, interpolation=cv2.INTER_LINEAR)
        if small.shape[0] < th or small.shape[1] < tw:
            continue
        res = cv2.matchTemplate(small, template, cv2.TM_CCOEFF_NORMED)
        _, score, _, (x, y) = cv2.minMaxLoc(res)
        if score > best:
            best, start = score, np.float32([[size, 0, size * x], [0, size, size * y]])
    return start


def _plausible(warp: np.ndarray) -> bool:
    """A motion a card's outline can be off by: sizes, stretch, turn and shift bounded."""
    a = warp[:, :2].astype(np.float64)
    sizes = np.linalg.svd(a, compute_uv=False)
    if sizes.max() > 1 + MAX_SIZE or sizes.min() < 1 - MAX_SIZE or sizes.max() / sizes.min() > 1 + MAX_STRETCH:
        return False
    if np.linalg.det(a) <= 0 or abs(np.degrees(np.arctan2(a[1, 0] - a[0, 1], a[0, 0] + a[1, 1]))) > MAX_TURN_DEG:
        return False
    middle = np.float64([(WHOLE_W - 1) / 2, (WHOLE_H - 1) / 2])
    shift = a @ middle + warp[:, 2] - (middle + FIT_PAD_CELLS)
    return bool(np.linalg.norm(shift) <= MAX_SHIFT_CELLS)
