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

QR route (``marks="qr"``): pyzbar reads QR codes whose payload is the card code; payloads
that are not one of the 48 cards are ignored. The mat (ArUco corners) works the same.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np

from kiosk.game import DECK, Card, InvalidCardError
from vision.errors import ImageError
from vision.kit import (CARD_H_MM, CARD_W_MM, MAT_SIZES_MM, STICKER_MM, check_marks, code_side_mm,
                        marker_side_mm, mat_marker_corners_mm)
from vision.marks import ALL_IDS, MAT_IDS, card_dictionary

CARD_DIAGONAL_MM = float(np.hypot(CARD_W_MM, CARD_H_MM))
_MAT_OF = {mid: size for size, ids in MAT_IDS.items() for mid in ids}

# Problem kinds (the UI shows ``message``; Catalan first)
MAT_NOT_FOUND = "mat_not_found"
CARD_TWICE = "card_twice"


@dataclass(frozen=True)
class Detection:
    """One sticker seen: its card and its four corners in the image (pixels)."""
    card: Card
    corners: np.ndarray  # (4, 2) float32, the code's own top-left, top-right, ...

    @property
    def centre(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


@dataclass(frozen=True)
class Problem:
    """A failed check, to show on the photo (``cards`` are outlined) and offer for correction."""
    kind: str
    message: str
    cards: tuple[Card, ...] = ()


@dataclass
class ReadResult:
    cards: list[Card]  # each card once, in deck order
    detections: list[Detection]  # every sticker accepted (a card may have two)
    mat_found: bool = False
    mat_size: str | None = None
    mat_corners: np.ndarray | None = None  # (4, 2) image pixels of the mat's paper corners
    homography: np.ndarray | None = None  # image pixels -> mat millimetres
    rejected: list[tuple[np.ndarray, str]] = field(default_factory=list)  # candidate corners, why
    problems: list[Problem] = field(default_factory=list)
    image_size: tuple[int, int] = (0, 0)  # (width, height) of the image read
    ms: float = 0.0

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]

    def detections_of(self, card: Card) -> list[Detection]:
        return [d for d in self.detections if d.card == card]

    def scaled(self, factor: float) -> "ReadResult":
        """The same result for an image ``factor`` times bigger (recognition on a
        downscaled frame, annotation on the full one)."""
        s = np.diag([1 / factor, 1 / factor, 1.0])
        return ReadResult(
            cards=list(self.cards),
            detections=[Detection(d.card, d.corners * factor) for d in self.detections],
            mat_found=self.mat_found, mat_size=self.mat_size,
            mat_corners=None if self.mat_corners is None else self.mat_corners * factor,
            homography=None if self.homography is None else self.homography @ s,
            rejected=[(c * factor, why) for c, why in self.rejected],
            problems=list(self.problems),
            image_size=(int(round(self.image_size[0] * factor)), int(round(self.image_size[1] * factor))),
            ms=self.ms)

    def annotate(self, image: np.ndarray, *, problems: Iterable[Problem] = (),
                 show_rejected: bool = True) -> np.ndarray:
        """A copy of ``image`` (BGR or gray) with the mat outline, every card found (green,
        with its code), rejected candidates (orange) and the cards of failed checks (red, with
        the messages listed at the top). ``problems`` adds checks made later (vision.checks)."""
        out = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image.copy()
        scale = max(out.shape[1] / 1920, 0.5)
        thick = max(1, int(round(2 * scale)))
        all_problems = list(self.problems) + list(problems)
        bad = {c for p in all_problems for c in p.cards}
        if self.mat_corners is not None:
            cv2.polylines(out, [self.mat_corners.astype(np.int32)], True, (255, 200, 0), thick, cv2.LINE_AA)
        if show_rejected:
            for corners, _why in self.rejected:
                cv2.polylines(out, [corners.astype(np.int32)], True, (0, 140, 255), thick, cv2.LINE_AA)
        for d in self.detections:
            colour = (0, 0, 255) if d.card in bad else (0, 200, 0)
            cv2.polylines(out, [d.corners.astype(np.int32)], True, colour, thick + 1, cv2.LINE_AA)
            x, y = d.corners[:, 0].max() + 4, d.corners[:, 1].min()
            cv2.putText(out, d.card.code, (int(x), int(y) + int(14 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6 * scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
            cv2.putText(out, d.card.code, (int(x), int(y) + int(14 * scale)), cv2.FONT_HERSHEY_SIMPLEX,
                        0.6 * scale, colour, thick, cv2.LINE_AA)
        lines = [f"{len(self.cards)} cartes"] + [p.message for p in all_problems]
        for i, text in enumerate(lines):
            y = int((30 + 30 * i) * scale)
            colour = (0, 0, 255) if i else (255, 255, 255)
            cv2.putText(out, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, (0, 0, 0),
                        thick + 3, cv2.LINE_AA)
            cv2.putText(out, text, (int(12 * scale), y), cv2.FONT_HERSHEY_SIMPLEX, 0.8 * scale, colour,
                        thick, cv2.LINE_AA)
        return out


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


def load_image(path) -> np.ndarray:
    """Read an image file (BGR); raises ImageError naming the file."""
    if not Path(path).is_file():
        raise ImageError(f"{path}: no such file")
    data = np.fromfile(str(path), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"{path}: not an image OpenCV can read")
    return img


def _quad_ok(q: np.ndarray) -> tuple[bool, float, str]:
    """Convex, roughly square; returns (ok, mean side in px, why not)."""
    sides = np.linalg.norm(q - np.roll(q, -1, axis=0), axis=1)
    if sides.min() < 4:
        return False, 0.0, "tiny"
    if sides.max() / sides.min() > 1.6:
        return False, float(sides.mean()), "not square"
    if not cv2.isContourConvex(q.astype(np.float32).reshape(-1, 1, 2)):
        return False, float(sides.mean()), "not convex"
    diag = np.linalg.norm(q[0] - q[2]), np.linalg.norm(q[1] - q[3])
    if max(diag) / min(diag) > 1.4:
        return False, float(sides.mean()), "skewed"
    return True, float(sides.mean()), ""


class PileReader:
    """Reads the cards in one photo. ``marks``: "aruco" (default) or "qr".

    ``sticker_mm``: the printed sticker side, for the size check.
    """

    def __init__(self, marks: str = "aruco", *, sticker_mm: float = STICKER_MM):
        self.marks = check_marks(marks)
        self.sticker_mm = float(sticker_mm)
        self._dictionary = card_dictionary()
        params = cv2.aruco.DetectorParameters()
        params.minMarkerPerimeterRate = 0.02
        params.maxErroneousBitsInBorderRate = 0.35
        params.errorCorrectionRate = 0.5  # 3 of the 6 correctable bits
        params.perspectiveRemovePixelPerCell = 8  # measured: small cells read better
        params.perspectiveRemoveIgnoredMarginPerCell = 0.25
        params.adaptiveThreshWinSizeMin = 5
        params.adaptiveThreshWinSizeMax = 25
        params.adaptiveThreshWinSizeStep = 10
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        self._detector = cv2.aruco.ArucoDetector(self._dictionary, params)

    # -- public -------------------------------------------------------------------------

    def read(self, image: np.ndarray) -> ReadResult:
        """Read one photo (BGR or gray ndarray). Never raises for what is in the photo:
        what is wrong is in ``problems``. Raises ImageError for a non-image."""
        start = time.perf_counter()
        gray = _to_gray(image)
        h, w = gray.shape[:2]
        corners, ids, unread = self._detector.detectMarkers(gray)
        corners = list(corners)
        ids = [] if ids is None else ids.ravel().tolist()
        if self.marks == "aruco" and len(unread):
            more_c, more_i = self._second_look(gray, corners, ids, unread)
            corners += more_c
            ids += more_i
        mats: dict[int, np.ndarray] = {}
        aruco_cards: list[tuple[Card, np.ndarray]] = []
        for q, i in zip(corners, ids):
            q = q.reshape(4, 2).astype(np.float32)
            mid = ALL_IDS[i] if 0 <= i < len(ALL_IDS) else None
            if mid in _MAT_OF:
                mats[mid] = q
            elif 0 <= i < len(DECK):
                aruco_cards.append((DECK[i], q))
        result = ReadResult(cards=[], detections=[], image_size=(w, h))
        self._find_mat(mats, result)

        if self.marks == "aruco":
            candidates = aruco_cards
            expected_mm = marker_side_mm(self.sticker_mm)
        else:
            candidates = self._read_qr(gray, result)
            expected_mm = code_side_mm(self.sticker_mm) * 21 / 25
        self._accept(gray, candidates, expected_mm, result)
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

    def _find_mat(self, mats: dict[int, np.ndarray], result: ReadResult) -> None:
        by_size: dict[str, list[int]] = {}
        for mid in mats:
            by_size.setdefault(_MAT_OF[mid], []).append(mid)
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

    def _read_qr(self, gray: np.ndarray, result: ReadResult) -> list[tuple[Card, np.ndarray]]:
        """pyzbar on the frame, then on the table region upscaled 2x and binarised (zbar
        misses small rotated codes at camera resolution). Payloads must name a card."""
        from pyzbar.pyzbar import ZBarSymbol, decode

        found: dict[Card, np.ndarray] = {}

        def scan(img: np.ndarray, scale: float, dx: int, dy: int) -> None:
            for sym in decode(img, symbols=[ZBarSymbol.QRCODE]):
                try:
                    card = Card.parse(sym.data.decode("ascii", "replace"))
                except InvalidCardError:
                    continue
                pts = np.float32([(p.x, p.y) for p in sym.polygon])
                if len(pts) != 4:
                    x, y, w, h = sym.rect
                    pts = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])
                found.setdefault(card, pts / scale + (dx, dy))

        scan(gray, 1.0, 0, 0)
        h, w = gray.shape[:2]
        x0, y0, x1, y1 = 0, 0, w, h
        if result.mat_corners is not None:
            x0, y0 = np.maximum(result.mat_corners.min(axis=0).astype(int), 0)
            x1, y1 = np.minimum(result.mat_corners.max(axis=0).astype(int), (w, h))
        if x1 - x0 > 16 and y1 - y0 > 16:
            up = cv2.resize(gray[y0:y1, x0:x1], None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC)
            up = cv2.adaptiveThreshold(up, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 31, 5)
            scan(up, 2.0, int(x0), int(y0))
        return list(found.items())

    def _second_look(self, gray: np.ndarray, corners, ids, unread) -> tuple[list, list]:
        """Squares the detector found but could not read, of a sticker's size: look again
        at 3x on a sharpened crop (small, blurred stickers). Same dictionary, same checks."""
        sides = [float(np.linalg.norm(q.reshape(4, 2) - np.roll(q.reshape(4, 2), -1, 0), axis=1).mean())
                 for q, i in zip(corners, ids) if i < len(DECK)]
        typical = float(np.median(sides)) if sides else None
        lo, hi = (0.6 * typical, 1.6 * typical) if typical else (12.0, 90.0)
        h, w = gray.shape[:2]
        out_c, out_i = [], []
        for q in unread[:60]:
            q = q.reshape(4, 2)
            side = float(np.linalg.norm(q - np.roll(q, -1, 0), axis=1).mean())
            if not lo <= side <= hi:
                continue
            c = q.mean(axis=0)
            x0, y0 = (np.maximum(c - 1.2 * side, 0)).astype(int)
            x1, y1 = (np.minimum(c + 1.2 * side, (w, h))).astype(int)
            if x1 - x0 < 8 or y1 - y0 < 8:
                continue
            up = cv2.resize(gray[y0:y1, x0:x1], None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC)
            up = cv2.addWeighted(up, 1.8, cv2.GaussianBlur(up, (0, 0), 3), -0.8, 0)
            cs, found, _ = self._detector.detectMarkers(up)
            if found is None:
                continue
            for qq, i in zip(cs, found.ravel().tolist()):
                qq = qq.reshape(4, 2) / 3.0 + (x0, y0)
                if np.linalg.norm(qq.mean(axis=0) - c) < 0.5 * side:
                    out_c.append(qq.astype(np.float32))
                    out_i.append(int(i))
        return out_c, out_i

    def _accept(self, gray: np.ndarray, candidates: list[tuple[Card, np.ndarray]], expected_mm: float,
                result: ReadResult) -> None:
        hom = result.homography
        shaped: list[tuple[Card, np.ndarray, float]] = []
        for card, q in candidates:
            ok, side_px, why = _quad_ok(q)
            if not ok:
                result.rejected.append((q, why))
                continue
            shaped.append((card, q, side_px))
        # size: in mm on the mat, or against the other stickers in the photo
        sized: list[tuple[Card, np.ndarray, float]] = []
        median_px = float(np.median([s for _, _, s in shaped])) if len(shaped) >= 3 else None
        for card, q, side_px in shaped:
            if hom is not None:
                mm = cv2.perspectiveTransform(q.reshape(1, 4, 2), hom)[0]
                side_mm = float(np.linalg.norm(mm - np.roll(mm, -1, axis=0), axis=1).mean())
                if not 0.6 * expected_mm <= side_mm <= 1.6 * expected_mm:
                    result.rejected.append((q, f"size {side_mm:.1f} mm"))
                    continue
            elif median_px is not None and not 0.6 * median_px <= side_px <= 1.6 * median_px:
                result.rejected.append((q, "size"))
                continue
            sized.append((card, q, side_px))
        for card, q, _side in sized:
            result.detections.append(Detection(card, q))
        # each card once; a card at two places further apart than a card is flagged
        seen: dict[Card, list[Detection]] = {}
        for d in result.detections:
            seen.setdefault(d.card, []).append(d)
        for card, ds in seen.items():
            if len(ds) < 2:
                continue
            px_per_mm = float(np.mean([_quad_ok(d.corners)[1] for d in ds])) / expected_mm
            far = max(np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1])
                      for a in ds for b in ds) / px_per_mm
            if len(ds) > 2 or far > CARD_DIAGONAL_MM * 1.05:
                result.problems.append(Problem(CARD_TWICE, f"{card.code} apareix dues vegades", (card,)))
        result.cards = [c for c in DECK if c in seen]


class LiveAccumulator:
    """Cards accumulate as the pile slides under the camera: a card is counted once it has
    been seen in ``frames_needed`` frames (not necessarily consecutive). ``add`` returns the
    cards counted by that frame (for the beep and the tick on screen)."""

    def __init__(self, *, frames_needed: int = 2):
        self.frames_needed = int(frames_needed)
        self._seen: dict[Card, int] = {}
        self._counted: list[Card] = []

    def add(self, result: ReadResult) -> list[Card]:
        new: list[Card] = []
        for card in result.cards:
            n = self._seen.get(card, 0) + 1
            self._seen[card] = n
            if n == self.frames_needed:
                self._counted.append(card)
                new.append(card)
        return new

    @property
    def cards(self) -> list[Card]:
        """Counted cards, in the order they were counted."""
        return list(self._counted)

    @property
    def pending(self) -> list[Card]:
        """Seen, but not yet in enough frames."""
        return [c for c, n in self._seen.items() if n < self.frames_needed]

    def reset(self) -> None:
        self._seen.clear()
        self._counted.clear()
