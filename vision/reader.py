"""Read the marked cards in a photo of a pile: :class:`PileReader` -> :class:`ReadResult`.

Zero wrong cards comes first, then finding every card:

- the ArUco detector matches only our 56 codes (48 cards + 8 mat corners, pairwise
  distance >= 13 over all rotations) and corrects at most 3 bits, so a misread needs
  10 or more wrong bits landing exactly on another card's code;
- each detection must look like a sticker: a convex, roughly square quad whose size agrees
  with the printed size (on the mat, through its homography, in mm) or with the other
  stickers in the photo;
- a card is reported once however many of its stickers show; a card seen at two places
  further apart than one card is reported once *and* flagged as a problem.

The mat's corner markers give the table region (``mat_corners``) and the homography that
undoes the perspective (``homography``: image -> mat millimetres; ``rectify()``).

QR route (``marks="qr"``, vision.qr): pyzbar reads QR codes whose payload is the card code; payloads
that are not one of the 48 cards are ignored. The mat (ArUco corners) works the same.
"""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.asked import asked_places
from vision.errors import ImageError
from vision.accept import MAT_OF, accept, find_mat
from vision.kit import CARD_H_MM, MAT_SIZES_MM, STICKER_MM, check_marks, code_side_mm, marker_side_mm
from vision.marks import ALL_IDS, card_dictionary
from vision.matregion import MatRegion
from vision.qr import read_qr
from vision.softdecode import SoftDecoder, looks_like_marker
from vision.revisit import LastView, boxes_round, deepest, found_again, in_copy, search_boxes, signature, unchanged
from vision.tiling import detect_parts, detect_tiled
from vision.squares import MIN_SOFT_SIDE_PX, new_squares, sides_of, soft_look, sticker_sized
from vision.result import (CARD_TWICE, HARD_MARGIN, MAT_NOT_FOUND, Detection, LiveAccumulator,  # noqa: F401
                           Problem, ReadResult)


def _to_gray(image: np.ndarray) -> np.ndarray:
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise ImageError("not an image")
    if image.ndim == 2:
        return image
    if image.ndim == 3 and image.shape[2] == 3:
        return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2GRAY)
    if image.ndim == 3 and image.shape[2] == 1:
        return image[..., 0]
    raise ImageError(f"unexpected image shape {image.shape}")


def _refined(gray: np.ndarray, quads: list[np.ndarray]) -> list[np.ndarray]:
    if not quads:
        return quads
    pts = cv2.cornerSubPix(gray, np.concatenate(quads).reshape(-1, 1, 2).astype(np.float32), (2, 2), (-1, -1), SUBPIX)
    return list(pts.reshape(-1, 4, 2))


def load_image(path) -> np.ndarray:
    """Read an image file (BGR); raises ImageError naming the file."""
    if not Path(path).is_file():
        raise ImageError(f"{path}: no such file")
    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"{path}: not an image OpenCV can read")
    return img


# markers at least this big (expected from the mat's corner markers, else the last frame of
# the size): the square search sees the frame through a light blur (sigma DENOISE_SIGMA px).
# The sensor's noise at a bar's gain makes tens of thousands of specks at the detector's
# 5 px threshold, and tracing them is most of a frame's time; markers of 20 px and up keep
# their black ring through the blur (their cells are read on the sharp frame: vision.softdecode)
DENOISE_FROM_PX = 20.0
DENOISE_SIGMA = 0.6
# the mat's corner markers (30 mm) are 3.1 card markers (9.6 mm) wide, and up to 1.31 times
# that where the camera is nearer: the detector reads them too (the mat's homography)
MAT_MARKER_SIDES = 4.2
MIN_SIDE_ON_MAT = 0.6
# markers under DENOISE_FROM_PX (720p): the card's index pip printed a cell or two from the
# sticker's corner joins its black ring at the threshold, and the joined outline is not a
# square at the detector's 3 % polygon tolerance: 3 cards of 852 at 720p were neither read nor
# asked about. At 4.5 % the bump is smoothed over. On the mat and off it: off the mat (a bare
# gingham cloth) a veiled 14 px sticker whose pip joined its ring was left out in silence
# (10B); the cloth's checks the looser outline adds stop at the sticker's size and the cheap
# look (vision.squares.soft_look), as on the mat. Bigger markers keep 3 %: their pips lie
# clear, and more tolerance only brings more squares to look at
SMALL_MARKER_POLY = 0.045
# markers this big on the search copy (px) and over: the next frame of the size is searched on
# a copy COARSE_SCALE as wide, where they are still this big
COARSE_SCALE = 2 / 3
COARSE_FROM_PX = 13.0
COARSE_WIDTH = 1600  # px: a first frame this wide is tried on the copy first (1080p, not 720p)
# the last frame of a size showed this many squares and the view is the same: the next is searched
# a quarter at a time (vision.tiling: the detector's time grows with the squares' number squared),
# on strips STRIP_SIDES card markers wide either side of the cuts (a sticker up to 1.6 of the
# expected size, turned 45 degrees, lies whole in one)
BUSY_SQUARES = 500
STRIP_SIDES = 1.6 * 1.42
SUBPIX = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 0.05)


class PileReader:
    """Reads the cards in one photo. ``marks``: "aruco" (default) or "qr".

    ``sticker_mm``: the printed sticker side, for the size check. ``detect_width``: squares
    are looked for on a copy at most this wide (a 12 MP still shows 60-80 px markers: half
    the size is plenty to find them, at a quarter of the time); the squares not read there
    are decided on the full-resolution image, where their cells are sharpest.
    """

    def __init__(self, marks: str = "aruco", *, sticker_mm: float = STICKER_MM, detect_width: int = 2400):
        self.marks = check_marks(marks)
        self.sticker_mm = float(sticker_mm)
        self.detect_width = int(detect_width)
        self._dictionary = card_dictionary()
        params = cv2.aruco.DetectorParameters()
        params.minMarkerPerimeterRate = 0.02
        params.maxErroneousBitsInBorderRate = 0.35
        params.errorCorrectionRate = 0.5  # 3 of the 6 correctable bits
        # 4 px per cell: the hard decode only has to take the clear markers (a third faster
        # than 8); the soft decision (vision.softdecode) takes the rest from the image itself
        params.perspectiveRemovePixelPerCell = 4
        params.perspectiveRemoveIgnoredMarginPerCell = 0.25
        # two thresholds (5 and 15 px windows), not three: the 25 px pass found no marker the
        # other two missed on the realistic camera's 1080p and 720p shots (1 card in 500),
        # and the candidate search is most of a frame's time (a third less with two)
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 15
        params.adaptiveThreshWinSizeStep = 10
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        # a sticker whose corner lies 1-2 px inside the frame's edge is still a square to read
        # (the soft decision sees past the edge as the edge's own pixels); at the default 3 px
        # it was not even a square seen, and its card was left out in silence
        params.minDistanceToBorder = 1
        self._detector = cv2.aruco.ArucoDetector(self._dictionary, params)
        self._soft = SoftDecoder()
        self._region = MatRegion(self._dictionary)
        self._tuned: tuple[float, float, float] = (0.0, 0.0, 0.0)  # the detector's contour sizes now (_tune)
        self._last_side: dict[tuple[int, int], float] = {}  # frame size -> median card marker side (px)
        self._photo_side: dict[tuple[int, int], float | None] = {}  # photo size -> the same in its own px
        self._squares: dict[tuple[int, int], int] = {}  # search size -> squares the last search found
        self._views: dict[tuple[int, int], LastView] = {}  # frame size -> its last whole search (vision.revisit)

    # -- public -------------------------------------------------------------------------

    def read(self, image: np.ndarray) -> ReadResult:
        """Read one photo (BGR or gray ndarray). Never raises for what is in the photo:
        what is wrong is in ``problems``. Raises ImageError for a non-image."""
        start = time.perf_counter()
        gray = _to_gray(image)
        h, w = gray.shape[:2]
        f = min(1.0, self.detect_width / w)
        # big markers (the last frame of this size): searched on a copy COARSE_SCALE as wide,
        # under half the contours to trace (the squares are still decided on the photo). The
        # first frame of a big size too, searched again whole if its markers are not big
        first = (w, h) not in self._photo_side
        last = self._photo_side.get((w, h))
        # (video frames only: a still is searched on a copy already, COARSE_WIDTH at the least;
        # and no mat seen at either size: on the mat the search keeps to it, and a card veiled
        # by a harsh lamp there was decided on the copy's corners no more)
        copy = (int(round(w * COARSE_SCALE)), int(round(h * COARSE_SCALE)))
        no_mat = self._region.to_mm((w, h)) is None and self._region.to_mm(copy) is None
        coarse = f == 1.0 and no_mat and ((last is not None and last * COARSE_SCALE >= COARSE_FROM_PX)
                                          or (first and w >= COARSE_WIDTH))
        g = f * COARSE_SCALE if coarse else f
        # a video frame that is the last whole search's frame again (a still pile): searched only
        # round what mattered there (vision.revisit), else (or when a square is not found again) whole
        sig = signature(gray) if f == 1.0 and self.marks == "aruco" else None
        view = self._views.get((w, h)) if sig is not None else None
        if view is not None and not (view.left > 0 and view.scale == g and unchanged(view.signature, sig)):
            view = None
        corners, ids, unread, side, boxed = self._search(gray, g, view=view)
        if coarse and first and (side is None or side * g < COARSE_FROM_PX or self._region.to_mm(copy) is not None):
            coarse, g = False, f
            corners, ids, unread, side, boxed = self._search(gray, g)
        f = g
        # back to the photo's pixels (pixel centres when the search copy was scaled)
        if f != 1.0:  # (a cloth's 800 squares: one array operation, not 800)
            corners = list((np.asarray(corners, np.float32).reshape(-1, 4, 2) + 0.5) / f - 0.5)
            unread = list((np.asarray(unread, np.float32).reshape(-1, 4, 2) + 0.5) / f - 0.5)
        if coarse:  # (the corners to the photo's pixel, where they are sharp: the soft decision too)
            corners, unread = _refined(gray, corners), _refined(gray, unread)
        not_read: list[np.ndarray] = []
        doubted: list[np.ndarray] = []
        sized: list[np.ndarray] = []
        margins = [HARD_MARGIN] * len(corners)
        hard = len(corners)  # (read by the detector; the soft decision's come after them)
        if self.marks == "aruco" and len(unread):
            to_mm = self._region.to_mm((int(round(w * f)), int(round(h * f))))
            if to_mm is not None and f < 1:  # the photo's pixels to the search copy's, then mm
                to_mm = to_mm @ np.array([[f, 0, 0.5 * f - 0.5], [0, f, 0.5 * f - 0.5], [0, 0, 1]])
            if sig is not None and not boxed:  # (the squares of a sticker's size, for the boxes)
                u = np.asarray(unread, np.float32).reshape(-1, 4, 2)
                sized = list(u[sticker_sized(gray.shape, corners, ids, u, marker_mm=marker_side_mm(self.sticker_mm),
                                             to_mm=to_mm)])
            more_c, more_i, more_m, not_read, doubted = soft_look(gray, self._soft, corners, ids, unread,
                                                                 marker_mm=marker_side_mm(self.sticker_mm), to_mm=to_mm)
            corners += more_c
            ids += more_i
            margins += more_m
        mats: dict[int, np.ndarray] = {}
        aruco_cards: list[tuple[Card, np.ndarray, float]] = []
        for q, i, margin in zip(corners, ids, margins):
            q = q.reshape(4, 2).astype(np.float32)
            mid = ALL_IDS[i] if 0 <= i < len(ALL_IDS) else None
            if mid in MAT_OF:
                mats[mid] = q
            elif 0 <= i < len(DECK):
                aruco_cards.append((DECK[i], q, margin))
        result = ReadResult(cards=[], detections=[], image_size=(w, h), unread=not_read, doubted=doubted)
        find_mat(mats, result)

        if self.marks == "aruco":
            candidates = aruco_cards
            expected_mm = marker_side_mm(self.sticker_mm)
        else:
            candidates = [(c, q, HARD_MARGIN) for c, q in read_qr(gray, result.mat_corners)]
            expected_mm = code_side_mm(self.sticker_mm) * 21 / 25
        accept(gray, candidates, expected_mm, result, aruco=self.marks == "aruco", sticker_mm=self.sticker_mm)
        result.asked = asked_places(gray, result, sticker_mm=self.sticker_mm)
        if boxed:
            view.left -= 1
        elif sig is not None:  # what mattered: the markers read and the squares decided softly, and
            # round every other square of a sticker's size (the cheap look is swayed by the sensor's
            # noise) and the places asked (a glare patch)
            self._views[(w, h)] = LastView(sig, f, in_copy(corners + not_read, f),
                                           in_copy(sized + [a.corners for a in result.asked], f),
                                           soft=len(corners) + len(not_read) - hard)
        result.ms = (time.perf_counter() - start) * 1000
        return result

    def read_file(self, path) -> ReadResult:
        return self.read(load_image(path))

    def rectify(self, image: np.ndarray, result: ReadResult, *, px_per_mm: float = 2.0) -> np.ndarray | None:
        """The mat seen from straight above (perspective undone), or None without a mat."""
        if result.homography is None or result.mat_size is None:
            return None
        mw, mh = MAT_SIZES_MM[result.mat_size]
        s = np.diag([px_per_mm, px_per_mm, 1.0])
        return cv2.warpPerspective(image, s @ result.homography, (int(mw * px_per_mm), int(mh * px_per_mm)))

    # -- steps --------------------------------------------------------------------------

    def _search(self, gray: np.ndarray, f: float, *, view: LastView | None = None
                ) -> tuple[list, list, list, float | None, bool]:
        """The detector on a copy of ``gray`` scaled by ``f``: (corners, ids, squares not read)
        in the copy's pixels, the card markers' median side in the photo's (None: none), and
        whether only ``view``'s boxes were searched (vision.revisit; ``view``: the last whole
        search of this frame size, the frame unchanged since)."""
        h, w = gray.shape[:2]
        seen = cv2.resize(gray, (int(round(w * f)), int(round(h * f))), interpolation=cv2.INTER_AREA) if f < 1 else gray
        corners, ids, unread, boxed = self._detect(seen, floor_px=MIN_SOFT_SIDE_PX * f, copy=f < 1, view=view)
        side = self._last_side.get(seen.shape[1::-1])
        side = side / f if side is not None and any(i < len(DECK) for i in ids) else None
        self._photo_side[(w, h)] = side
        return corners, ids, unread, side, boxed

    def _detect(self, seen: np.ndarray, *, floor_px: float = MIN_SOFT_SIDE_PX, copy: bool = False,
                view: LastView | None = None) -> tuple[list, list, list, bool]:
        """The detector on the mat's region of ``seen`` (vision.matregion), widened while
        cards turn up near its edge: (corners, ids, squares not read), in ``seen``'s pixels, and
        False. With ``view``: first only in boxes round what mattered in its search (True), and
        whole when a square that mattered there is not found again in them."""
        search, offset = self._region.search_image(seen)
        size = seen.shape[1::-1]
        on_mat = self._region.marker_px(size, marker_side_mm(self.sticker_mm))
        expected = on_mat or self._last_side.get(size)
        denoise = expected is not None and expected >= DENOISE_FROM_PX
        # (no size known yet: a frame under COARSE_WIDTH wide shows markers under 20 px at a table's
        # height; a smaller copy of a bigger frame shows markers that were 20 px and more: 3 %)
        small = (on_mat is not None and on_mat < DENOISE_FROM_PX) if copy else \
            (expected or (DENOISE_FROM_PX if size[0] >= COARSE_WIDTH else 0.0)) < DENOISE_FROM_PX

        def tune(longest: float) -> None:  # (the contour sizes are rates of a part's longest side)
            self._tune(longest, on_mat, floor_px, small=small)

        if view is not None:  # (no widening; the region's squares and sizes stay the whole search's)
            at = np.float32(offset)
            boxes = boxes_round(np.concatenate([view.squares, view.places]) - at, search.shape[1::-1],
                                near=len(view.squares), marker_px=expected)
            if boxes is not None:
                blur = (lambda part: cv2.GaussianBlur(part, (0, 0), DENOISE_SIGMA)) if denoise else None
                # (the squares decided softly first, the refused ones before the read: the noise takes them
                # out of their boxes; None: one was not found again, and the whole search follows)
                found = search_boxes(lambda box: detect_parts(self._detector.detectMarkers, search, [box], tune=tune,
                                                              prepare=blur)[0],
                                     boxes, view.squares[len(view.squares) - view.soft:][::-1] - at)
                if found is not None:
                    c, i, u = deepest(found, boxes, np.concatenate([view.squares, view.places]) - at)
                    if found_again(view.squares - at, c + u).all():
                        return [q.reshape(4, 2) + at for q in c], i, [q.reshape(4, 2) + at for q in u], True
        corners: list[np.ndarray] = []
        ids: list[int] = []
        unread: list[np.ndarray] = []
        # a still view of a checked cloth's hundreds of squares: searched a quarter at a time
        busy = self._region.still and expected is not None and self._squares.get(size, 0) >= BUSY_SQUARES
        for widened in range(2):  # the region, and once widened (a fan beyond the mat)
            self._tune(max(search.shape[:2]), on_mat, floor_px, small=small)
            image = cv2.GaussianBlur(search, (0, 0), DENOISE_SIGMA) if denoise else search
            if busy and not widened:
                avoid = [q - np.float32(offset) for q in self._region.corners_seen(size)]
                c, i, u = detect_tiled(self._detector.detectMarkers, image, avoid=avoid,
                                       strip_px=int(np.ceil(STRIP_SIDES * expected)) + 8,
                                       tune=tune)
            else:
                c, i, u = self._detector.detectMarkers(image)
            seen_before = [q.reshape(4, 2) for q in corners + unread]
            fresh_c = [q.reshape(4, 2) + offset for q in c]
            keep = new_squares(fresh_c, seen_before)
            corners += [q for q, ok in zip(fresh_c, keep) if ok]
            ids += [int(k) for k, ok in zip([] if i is None else i.ravel().tolist(), keep) if ok]
            fresh_u = np.asarray(u, np.float32).reshape(-1, 4, 2) + np.float32(offset)
            unread += list(fresh_u[new_squares(fresh_u, seen_before)])
            cards = [q for q, k in zip(corners, ids) if k < len(DECK)]
            if not cards:
                break
            side = float(np.median(sides_of(cards)))
            self._last_side[size] = side
            if not self._region.can_widen():
                break  # (no region, or the whole frame: what follows only widens one)
            # and the squares of a marker's size that look like one (most are read softly)
            if unread:
                u = np.asarray(unread, np.float32).reshape(-1, 4, 2)
                u_side = sides_of(u)
                like = u[(u_side >= 0.6 * side) & (u_side <= 1.6 * side)]
                if len(like):
                    cards += list(like[looks_like_marker(seen, like)])
            reach = side * CARD_H_MM / marker_side_mm(self.sticker_mm)
            more = self._region.widen(seen, np.array([q.mean(axis=0) for q in cards]), reach)
            if more is None:
                break
            search, offset = more
        self._squares[size] = len(corners) + len(unread)
        return corners, ids, unread, False

    def _tune(self, longest_px: float, on_mat_px: float | None, floor_px: float, *, small: bool) -> None:
        """The detector's contour sizes for this search. Squares under MIN_SOFT_SIDE_PX in
        the photo (``floor_px`` on the search copy) cannot be read: the detector need not
        even follow their contours. With the mat's
        corner markers in view (``on_mat_px``: a card marker's side there) a sticker's side
        lies within 0.86-1.31 of it on the realistic camera (tilt, height, a pile's
        thickness): contours under 0.6 of it, or over a mat corner marker's size, are not
        followed either (a cloth's weave, its stripes, a menu's text lines). ``small``
        markers: a looser polygon (SMALL_MARKER_POLY)."""
        lo = max(floor_px, MIN_SIDE_ON_MAT * on_mat_px) if on_mat_px else floor_px
        hi = MAT_MARKER_SIDES * on_mat_px if on_mat_px else None
        key = (round(4 * lo / longest_px, 6), 4.0 if hi is None else round(4 * hi / longest_px, 6),
               SMALL_MARKER_POLY if small else 0.03)
        if key != self._tuned:
            params = self._detector.getDetectorParameters()
            params.minMarkerPerimeterRate, params.maxMarkerPerimeterRate, params.polygonalApproxAccuracyRate = key
            self._detector.setDetectorParameters(params)
            self._tuned = key
