"""Where on the frame the pile can lie: the capture mat and a card's length around it.

A checked tablecloth, a textured table or a printed menu fills the frame around the mat with
squares that the marker detector traces and tries one by one (a gingham cloth: hundreds per
frame, most of a frame's time). The cards lie on the mat, or hang over its edge: the search
for markers is kept to the mat's outline widened by ``margin_mm`` (a card's length), the
rest of the frame laid flat grey before the detector sees it. The corner markers' size also
tells the reader how big a card's marker is (``marker_px``).

The mat is found from its four corner markers (30 mm: big enough to be found on a copy of
the frame a quarter as wide, a sixteenth of the work) and kept between frames: each next frame
of the same size only checks that the corner markers are still where they were (a small
crop round each one), and the mat is looked for afresh when they moved, when they are lost
(a hand over one is not lost while two others stay) or every ``refind_every`` frames.
Without a mat the whole frame is searched.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.kit import CARD_H_MM, MAT_CODE_MM, MAT_SIZES_MM, mat_marker_corners_mm
from vision.marks import ALL_IDS, MAT_IDS

_MAT_OF = {ALL_IDS.index(mid): (size, mid) for size, ids in MAT_IDS.items() for mid in ids}
FILL = 128  # what the frame outside the region becomes: flat, no edge, no square
FULL_SHARE = 0.8  # a region over this share of the frame: the whole frame is searched


@dataclass(frozen=True)
class Region:
    """The part of one frame size to search: ``box`` (x0, y0, x1, y1) round ``polygon``
    (image px), and the mat markers it was found from (dictionary index -> corners).
    ``whole``: the region is most of the frame, and the whole frame is searched."""
    size: tuple[int, int]
    polygon: np.ndarray
    box: tuple[int, int, int, int]
    markers: dict[int, np.ndarray]
    whole: bool = False


class MatRegion:
    """Finds and keeps the search region (see the module's doc). ``dictionary``: the card
    dictionary (vision.marks.card_dictionary), whose mat corner markers are looked for.

    Example::

        region = MatRegion(card_dictionary())
        search, (dx, dy) = region.search_image(gray)  # the frame cropped and masked, its offset
    """

    def __init__(self, dictionary, *, margin_mm: float = CARD_H_MM, refind_every: int = 30,
                 small_width: int = 480) -> None:
        self.margin_mm, self.refind_every, self.small_width = float(margin_mm), int(refind_every), int(small_width)
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        # the corner markers are big: one threshold, and no contour shorter than a third of
        # theirs at 75 cm (the small copy's contours are most of its time)
        params.adaptiveThreshWinSizeMin = params.adaptiveThreshWinSizeMax = 7
        params.minMarkerPerimeterRate = 0.06
        self._detector = cv2.aruco.ArucoDetector(dictionary, params)
        self._region: Region | None = None
        self._corner_px: tuple[tuple[int, int], float] | None = None  # frame size, corner markers' side (px)
        self._to_mm: np.ndarray | None = None  # image px -> mat mm, from the corner markers of that size
        self._age = 0
        self.refound = 0  # how many times the mat was looked for on the whole frame
        # the corner markers of the last frame (its size, dictionary index -> corners), and
        # whether this frame's are where those were (``still``: the same view, a still pile)
        self._seen: tuple[tuple[int, int], dict[int, np.ndarray]] | None = None
        self.still = False

    def search_image(self, gray: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
        """The part of ``gray`` to search (a crop, flat grey outside the region) and the
        crop's top-left in ``gray``; the whole frame where no mat is seen."""
        region = self.region(gray)
        if region is None or region.whole:
            return gray, (0, 0)
        return _masked(gray, region.polygon, region.box)

    def widen(self, gray: np.ndarray, centres: np.ndarray, reach_px: float) -> tuple[np.ndarray, tuple[int, int]] | None:
        """Cards found (``centres``, image px) less than ``reach_px`` (a card's length) from
        the region's edge: the pile goes on beyond the mat (a wide fan). The region takes in
        ``reach_px`` round every one of them, from now on; returns what this frame has yet to
        search: the new part only (with an overlap a marker wide), or None."""
        region = self._region
        if region is None or region.whole or not len(centres):
            return None
        poly = region.polygon.astype(np.float32)
        inside = [cv2.pointPolygonTest(poly.reshape(-1, 1, 2), (float(x), float(y)), True) for x, y in centres]
        if min(inside) > reach_px:
            return None
        square = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * reach_px
        pts = np.concatenate([poly] + [c + square for c in np.asarray(centres, np.float32)])
        w, h = region.size
        hull = cv2.convexHull(pts)[:, 0].astype(np.float32)
        hull = np.clip(hull, -reach_px, (w + reach_px, h + reach_px)).astype(np.float32)
        if cv2.contourArea(hull) < 1.02 * cv2.contourArea(poly):
            return None
        self._region = Region(region.size, hull, _box(hull, w, h), region.markers)
        centre = poly.mean(axis=0)
        overlap = 0.2 * reach_px  # two markers' width: a marker across the old edge is searched whole
        reach = np.linalg.norm(poly - centre, axis=1, keepdims=True)
        searched = centre + (poly - centre) * np.maximum(reach - overlap, 0) / np.maximum(reach, 1e-6)
        # this frame: only round the cards near the old edge, what the old search left out
        near = np.asarray(centres, np.float32)[np.array(inside) <= reach_px]
        box = _box(np.concatenate([near - reach_px, near + reach_px]), w, h)
        return _masked(gray, hull, box, searched)

    def can_widen(self) -> bool:
        """A region kept that ``widen`` could take further (not the whole frame, not none)."""
        return self._region is not None and not self._region.whole

    def region(self, gray: np.ndarray) -> Region | None:
        """This frame's region: the kept one while the mat stays put, else found afresh."""
        h, w = gray.shape[:2]
        kept = self._region
        if kept is not None and kept.size == (w, h) and self._age < self.refind_every and self._stays(gray, kept):
            self._age += 1
            self.still = True
            return kept
        self._corner_px = None
        before = self._seen
        self._region, self._age = self._find(gray), 0
        self.refound += 1
        self.still = _same(before, self._seen)
        return self._region

    def corners_seen(self, size: tuple[int, int]) -> list[np.ndarray]:
        """The corner markers of the mat in the last frame of ``size`` (image px), one or more."""
        seen = self._seen
        return list(seen[1].values()) if seen is not None and seen[0] == tuple(size) else []

    def marker_px(self, size: tuple[int, int], side_mm: float) -> float | None:
        """How many px a marker of ``side_mm`` lying on the mat spans in frames of ``size``
        (from the kept corner markers' size), or None without a mat."""
        seen = self._corner_px
        if seen is None or seen[0] != tuple(size):
            return None
        return seen[1] * side_mm / MAT_CODE_MM

    def to_mm(self, size: tuple[int, int]) -> np.ndarray | None:
        """The homography from image px to the mat's mm (the table's plane) in frames of
        ``size``, from the kept corner markers (also when the whole frame is searched), or None."""
        seen = self._corner_px
        return self._to_mm if seen is not None and seen[0] == tuple(size) else None

    def forget(self) -> None:
        self._region = None

    def _detect(self, img: np.ndarray) -> dict[int, np.ndarray]:
        corners, ids, _ = self._detector.detectMarkers(img)
        if ids is None:
            return {}
        return {int(i): q.reshape(4, 2) for q, i in zip(corners, ids.ravel()) if int(i) in _MAT_OF}

    def _stays(self, gray: np.ndarray, kept: Region) -> bool:
        """Two of the kept corner markers found where they were, and none elsewhere."""
        h, w = gray.shape[:2]
        same = 0
        for index, q in kept.markers.items():
            side = float(np.linalg.norm(q[1] - q[0]))
            pad = 0.4 * side
            x0, y0 = np.maximum(np.floor(q.min(axis=0) - pad), 0).astype(int)
            x1, y1 = np.minimum(np.ceil(q.max(axis=0) + pad), (w, h)).astype(int)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            found = self._detect(gray[y0:y1, x0:x1]).get(index)
            if found is None:
                continue  # covered for now (a hand): the others decide
            if float(np.abs(found + (x0, y0) - q).max()) > 0.15 * side:
                return False
            same += 1
        return same >= 2

    def _find(self, gray: np.ndarray) -> Region | None:
        h, w = gray.shape[:2]
        f = min(1.0, self.small_width / w)
        small = cv2.resize(gray, (int(round(w * f)), int(round(h * f))), interpolation=cv2.INTER_AREA) \
            if f < 1 else gray
        found = {i: (q + 0.5) / f - 0.5 for i, q in self._detect(small).items()}
        self._seen = ((w, h), found) if found else None
        by_size: dict[str, list[int]] = {}
        for i in found:
            by_size.setdefault(_MAT_OF[i][0], []).append(i)
        if not by_size:
            return None
        size, ids = max(by_size.items(), key=lambda kv: len(kv[1]))
        sides = [float(np.linalg.norm(found[i] - np.roll(found[i], 1, axis=0), axis=1).mean()) for i in ids]
        self._corner_px = ((w, h), float(np.median(sides)))
        if len(ids) < 2:
            # one corner marker: its size still tells a card marker's (``marker_px``: the
            # detector follows no contour of another size), but its own homography is too rough
            # to crop by or to measure in mm: the whole frame is searched, no mm
            self._to_mm = None
            return None
        model = mat_marker_corners_mm(size)
        hom, _ = cv2.findHomography(np.concatenate([model[_MAT_OF[i][1]] for i in ids]),
                                    np.concatenate([found[i] for i in ids]), 0)
        if hom is None:
            self._corner_px = None
            return None
        self._to_mm = np.linalg.inv(hom)
        mw, mh = MAT_SIZES_MM[size]
        m = self.margin_mm
        outline = np.float32([[[-m, -m], [mw + m, -m], [mw + m, mh + m], [-m, mh + m]]])
        poly = cv2.perspectiveTransform(outline, hom)[0]
        if not cv2.isContourConvex(poly.reshape(-1, 1, 2)):
            return None  # a homography from two markers gone wrong: search everything
        box = _box(poly, w, h)
        if box[2] - box[0] < 16 or box[3] - box[1] < 16:
            return None
        inside = cv2.contourArea(cv2.convexHull(np.clip(poly, 0, (w, h)).astype(np.float32)))
        # most of the frame: searching it whole costs less than the mask. Kept all the same:
        # the next frames only check the corner markers, not look for the mat afresh
        whole = inside > FULL_SHARE * w * h
        return Region((w, h), poly, box, {i: found[i] for i in ids}, whole)


def _same(before, now) -> bool:
    """The same corner markers (frame size, indices) at the same places, within 0.15 of a side."""
    if before is None or now is None or before[0] != now[0] or set(before[1]) != set(now[1]):
        return False
    return all(float(np.abs(now[1][i] - q).max()) <= 0.15 * float(np.linalg.norm(q[1] - q[0]))
               for i, q in before[1].items())


def _box(poly: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
    x0, y0 = np.maximum(np.floor(poly.min(axis=0)), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(poly.max(axis=0)) + 1, (w, h)).astype(int)
    return int(x0), int(y0), int(x1), int(y1)


def _masked(gray: np.ndarray, poly: np.ndarray, box: tuple[int, int, int, int],
            searched: np.ndarray | None = None) -> tuple[np.ndarray, tuple[int, int]]:
    """``gray`` cropped to ``box``, flat grey outside ``poly`` and inside ``searched``."""
    x0, y0, x1, y1 = box
    keep = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(keep, np.round(poly - (x0, y0)).astype(np.int32), 255)
    if searched is not None:
        cv2.fillConvexPoly(keep, np.round(searched - (x0, y0)).astype(np.int32), 0)
    # crop where kept, FILL elsewhere: two whole-array operations, no boolean indexing
    crop = cv2.bitwise_and(gray[y0:y1, x0:x1], keep)
    return cv2.add(crop, cv2.bitwise_and(np.full_like(keep, FILL), cv2.bitwise_not(keep))), (x0, y0)
