"""How big a card looks on this table: from the mat's printed corner markers.

Two cards dealt at once, a few millimetres apart, outline a shape that is still nearly a
rectangle and nearly a card's shape: only its size gives it away. A size learnt from the
deck's enrolment photos is a guess when the camera was moved since, or the deck was learnt
at another kiosk; the mat's corner markers (30 mm, at known places) give the table's
millimetres wherever the camera is. Without a mat in view the tracker falls back on the
enrolment's size and on the cards it has read.

Example::

    scale = TableScale.find(frame)          # None when no mat marker is seen
    scale.card_area_px((640.0, 360.0))      # a card's area, in px, lying there
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.kit import CARD_H_MM, CARD_W_MM, mat_marker_corners_mm
from vision.marks import MAT_IDS, card_dictionary

_MAT_IDS = MAT_IDS["A3"] + MAT_IDS["A4"]
_SIZE_OF = {mid: size for size, ids in MAT_IDS.items() for mid in ids}


@lru_cache(maxsize=1)
def _detector() -> "cv2.aruco.ArucoDetector":
    # only the eight mat markers: nothing on a card can be taken for one
    params = cv2.aruco.DetectorParameters()
    params.minMarkerPerimeterRate = 0.02
    return cv2.aruco.ArucoDetector(card_dictionary(ids=_MAT_IDS), params)


@dataclass(frozen=True)
class TableScale:
    """The table's millimetres in one image's pixels (``to_mm``: a homography, px -> mm)."""

    to_mm: np.ndarray
    markers: int  # how many corner markers it was fitted to (1: one marker's own corners)

    @staticmethod
    def prepare() -> None:
        """Build the marker detector ahead of the first :meth:`find`."""
        _detector()

    @classmethod
    def find(cls, image: np.ndarray) -> "TableScale | None":
        """The scale from the mat's corner markers in ``image`` (BGR or grey), or None."""
        grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        corners, ids, _ = _detector().detectMarkers(grey)
        if ids is None:
            return None
        found: dict[str, list[tuple[int, np.ndarray]]] = {}
        for q, i in zip(corners, ids.ravel()):
            mid = _MAT_IDS[int(i)]
            found.setdefault(_SIZE_OF[mid], []).append((mid, q.reshape(4, 2)))
        size, markers = max(found.items(), key=lambda kv: len(kv[1]))
        model = mat_marker_corners_mm(size)
        px = np.concatenate([q for _, q in markers]).astype(np.float32)
        mm = np.concatenate([model[mid] for mid, _ in markers]).astype(np.float32)
        if len(markers) >= 2:
            hom, _ = cv2.findHomography(px, mm, 0)
        else:
            # one marker's corners are a few pixels apart: their perspective, carried to the
            # pile, is noise. Its size alone (a similarity) is a fair scale nearby.
            sim, _ = cv2.estimateAffinePartial2D(px, mm)
            hom = None if sim is None else np.vstack([sim, [0.0, 0.0, 1.0]])
        return None if hom is None else cls(hom, len(markers))

    def scaled(self, factor: float) -> "TableScale":
        """The same table in an image ``factor`` times as wide."""
        return TableScale(self.to_mm @ np.diag([1 / factor, 1 / factor, 1.0]), self.markers)

    def card_area_px(self, at_px: tuple[float, float]) -> float:
        """The area (px) of a card lying with its centre at ``at_px``."""
        centre = cv2.perspectiveTransform(np.float32([[at_px]]), self.to_mm)[0, 0]
        w, h = CARD_W_MM / 2, CARD_H_MM / 2
        card = np.float32([[[-w, -h], [w, -h], [w, h], [-w, h]]]) + centre
        return float(cv2.contourArea(cv2.perspectiveTransform(card, np.linalg.inv(self.to_mm))[0]))


MAT_AGAIN = 32  # at most so many looks between two searches for the mat's markers when it is not in view


@dataclass
class MatSearch:
    """When a frame is searched for the mat's markers (:meth:`TableScale.find`): in the first settled
    frame; when the mat is not in view, again after 1, 2, 4 ... ``MAT_AGAIN`` looks, in a still frame
    with nothing else to do (a marker search costs as much as a look)."""

    detail_width: int
    due: int = 0  # looks since the last search
    wait: int = 1  # ... before the next one

    def looked(self) -> None:
        """A look was made (the searches are spaced in looks)."""
        self.due += 1

    def search(self, frame: np.ndarray, *, now: bool = False) -> TableScale | None:
        """The mat's scale in ``frame`` (BGR), searched if it is time (``now``: the first settled frame)."""
        if not (now or self.due >= self.wait):
            return None
        self.due, self.wait = 0, (1 if now else min(2 * self.wait, MAT_AGAIN))
        h, w = frame.shape[:2]
        width = min(self.detail_width, w)
        return TableScale.find(cv2.resize(frame, (width, int(round(h * width / w))), interpolation=cv2.INTER_AREA))
