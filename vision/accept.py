"""What a read keeps of the markers the detector and the soft decision found: the mat from its
corner markers (``find_mat``: homography, outline, one corner or none), and the card markers
that pass the shape, size and pair checks (``accept``), each card once."""

from __future__ import annotations

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.fusion import STICKERS_DISAGREE, doubtful_pairs
from vision.kit import CARD_H_MM, CARD_W_MM, MAT_SIZES_MM, mat_marker_corners_mm
from vision.marks import MAT_IDS
from vision.result import CARD_TWICE, MAT_NOT_FOUND, Detection, Problem, ReadResult
from vision.squares import quad_ok

CARD_DIAGONAL_MM = float(np.hypot(CARD_W_MM, CARD_H_MM))
MAT_OF = {mid: size for size, ids in MAT_IDS.items() for mid in ids}


def find_mat(mats: dict[int, np.ndarray], result: ReadResult) -> None:
    by_size: dict[str, list[int]] = {}
    for mid in mats:
        by_size.setdefault(MAT_OF[mid], []).append(mid)
    if not by_size:
        result.problems.append(Problem(MAT_NOT_FOUND, "No es veu el tapet (cantonades)"))
        return
    size, found = max(by_size.items(), key=lambda kv: len(kv[1]))
    model = mat_marker_corners_mm(size)
    img_pts = np.concatenate([mats[m] for m in found])
    mm_pts = np.concatenate([model[m] for m in found])
    if len(found) >= 2:
        hom, _ = cv2.findHomography(img_pts, mm_pts, 0)
    else:  # one marker: its own four corners (weaker, but gives the scale)
        hom = cv2.getPerspectiveTransform(img_pts, mm_pts)
    if hom is None:
        result.problems.append(Problem(MAT_NOT_FOUND, "No es veu el tapet (cantonades)"))
        return
    mw, mh = MAT_SIZES_MM[size]
    outline = np.float32([[[0, 0], [mw, 0], [mw, mh], [0, mh]]])
    result.mat_found = len(found) >= 2
    result.mat_size = size
    result.homography = hom
    result.mat_corners = cv2.perspectiveTransform(outline, np.linalg.inv(hom))[0]
    if not result.mat_found:
        result.problems.append(Problem(MAT_NOT_FOUND, "Només es veu una cantonada del tapet"))


def accept(gray: np.ndarray, candidates: list[tuple[Card, np.ndarray, float]],
            expected_mm: float, result: ReadResult, *, aruco: bool, sticker_mm: float) -> None:
    hom = result.homography
    shaped: list[tuple[Card, np.ndarray, float, float]] = []
    for card, q, margin in candidates:
        ok, side_px, why = quad_ok(q)
        if not ok:
            result.rejected.append((q, why))
            continue
        shaped.append((card, q, side_px, margin))
    # size: in mm on the mat, or against the other stickers in the photo
    sized: list[tuple[Card, np.ndarray, float, float]] = []
    median_px = float(np.median([s[2] for s in shaped])) if len(shaped) >= 3 else None
    for card, q, side_px, margin in shaped:
        # in mm only with two mat corners or more: one corner's own homography, carried
        # across the mat, gives sizes off by 3x and threw out whole piles
        if hom is not None and result.mat_found:
            mm = cv2.perspectiveTransform(q.reshape(1, 4, 2), hom)[0]
            side_mm = float(np.linalg.norm(mm - np.roll(mm, -1, axis=0), axis=1).mean())
            if not 0.6 * expected_mm <= side_mm <= 1.6 * expected_mm:
                result.rejected.append((q, f"size {side_mm:.1f} mm"))
                continue
        elif median_px is not None and not 0.6 * median_px <= side_px <= 1.6 * median_px:
            result.rejected.append((q, "size"))
            continue
        sized.append((card, q, side_px, margin))
    found = [Detection(card, q, margin) for card, q, _side, margin in sized]
    if aruco:
        # two stickers at the two places of one card naming different cards: either one is
        # misread, or another card lies over this one's corner turned round (it happens in
        # 1 still in 6 on the realistic camera). Two sure reads (hard decodes) are the
        # latter; a soft read in the pair is the doubt: the pair counts neither
        refused = doubtful_pairs(found, sticker_mm)
        for k in sorted(refused):
            result.unread.append(found[k].corners)
        if refused:
            result.problems.append(Problem(STICKERS_DISAGREE, "Els dos adhesius d'una carta no diuen el "
                                           "mateix: mireu la carta marcada"))
        found = [d for k, d in enumerate(found) if k not in refused]
    result.detections.extend(found)
    # each card once; a card at two places further apart than a card is flagged
    seen: dict[Card, list[Detection]] = {}
    for d in result.detections:
        seen.setdefault(d.card, []).append(d)
    for card, ds in seen.items():
        if len(ds) < 2:
            continue
        px_per_mm = float(np.mean([quad_ok(d.corners)[1] for d in ds])) / expected_mm
        far = max(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
                  for a in ds for b in ds) / px_per_mm
        if len(ds) > 2 or far > CARD_DIAGONAL_MM * 1.05:
            result.problems.append(Problem(CARD_TWICE, f"{card.code} apareix dues vegades", (card,)))
    result.cards = [c for c in DECK if c in seen]
