"""Places where a card may lie unread: what the kiosk asks the player to move.

A sticker under a strong veiling reflection (the lamp's mirror image on a glossy card) is
burnt out: too little contrast is left for any decision, and often not even its square is
found. Such a card must never be left out in silence. Two kinds of evidence are asked
about, each once per place:

- ``"unread"``: a square that looks like a marker (vision.softdecode.looks_like_marker)
  and that the soft decision refused: a sticker seen but not read;
- ``"glare"``: a burnt-out patch on the mat's region at least half a marker across
  (vision.setup_check.glare_squares), or a square in glare that was not read.

A place is not asked about when a card read explains it: it overlaps a sticker read, or it
is where the other sticker of a card read lies (vision.fusion.partner_offset: that card is
read by its other corner). Places closer than a sticker apart are one place.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.fusion import partner_offset
from vision.result import Ask, ReadResult
from vision.setup_check import GLARE_CONTRAST, glare_squares

UNREAD, GLARE = "unread", "glare"

__all__ = ["Ask", "GLARE", "UNREAD", "asked_places"]


@dataclass(frozen=True)
class _Read:
    """The read stickers' squares and where their partners lie, for the tests below."""
    boxes: list[tuple[np.ndarray, np.ndarray]]  # (min xy, max xy) of each sticker read
    partners: np.ndarray  # (n, 2) centres of the other sticker of each card read
    side: float

    @classmethod
    def of(cls, result: ReadResult, sticker_mm: float) -> "_Read":
        boxes = [(d.corners.min(axis=0), d.corners.max(axis=0)) for d in result.detections]
        if not result.detections:
            return cls(boxes, np.zeros((0, 2), np.float32), 0.0)
        q = np.array([d.corners for d in result.detections], np.float32)
        ux = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2
        uy = (q[:, 3] - q[:, 0] + q[:, 2] - q[:, 1]) / 2
        off = partner_offset(sticker_mm)
        # the partner's own top-left, then half a marker back along its turned axes
        start = q[:, 0] + off[0] * ux + off[1] * uy
        partners = start - 0.5 * ux - 0.5 * uy
        side = float(np.median(np.linalg.norm(ux, axis=1)))
        return cls(boxes, partners, side)

    def explains(self, quad: np.ndarray, *, patch: bool = False) -> bool:
        """A square on a sticker read, or where a read card's other sticker lies; a burnt-out
        ``patch`` only when stickers read cover half of it (a patch wider than the stickers
        in it may veil another card's sticker beside them)."""
        c = quad.mean(axis=0)
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        covered = 0.0
        for blo, bhi in self.boxes:
            inter = float(np.clip(np.minimum(hi, bhi) - np.maximum(lo, blo), 0, None).prod())
            covered += inter
            if not patch and inter >= 0.3 * min((hi - lo).prod(), (bhi - blo).prod()):
                return True
        if patch:
            return covered >= 0.5 * float((hi - lo).prod())
        if len(self.partners) and self.side:
            return bool((np.linalg.norm(self.partners - c, axis=1) < 0.75 * self.side).any())
        return False


def _washed_out(gray: np.ndarray, quad: np.ndarray) -> bool:
    """Too little contrast left in the square to be a sticker in plain light: a sharp,
    dark print that is not one of our codes (a QR code's corner, another family's marker on
    a flyer) is not a card; a sticker of ours at that contrast is always read."""
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    patch = gray[y0:y1, x0:x1]
    if patch.size < 16:
        return False
    lo, hi = np.percentile(patch, (5, 95))
    return bool(hi - lo < GLARE_CONTRAST)


def asked_places(image: np.ndarray, result: ReadResult, *, sticker_mm: float) -> list[Ask]:
    """The places of ``image`` (read as ``result``) where a card may lie unread, glare first.
    ``sticker_mm``: the printed sticker side (where a card's other sticker lies)."""
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    read = _Read.of(result, sticker_mm)
    side = read.side or (float(np.median([np.linalg.norm(q[1] - q[0]) for q in result.unread]))
                         if result.unread else 0.0)
    seen = []
    for q in glare_squares(gray, result):  # burnt-out patches big enough to hide a sticker
        wh = q.max(axis=0) - q.min(axis=0)
        if wh.min() >= 0.8 * side:
            seen.append((q, GLARE))
    seen += [(q, UNREAD) for q in result.unread if _washed_out(gray, q)]
    out: list[Ask] = []
    for quad, why in seen:
        quad = np.asarray(quad, np.float32).reshape(4, 2)
        if read.explains(quad, patch=why == GLARE):
            continue
        ask = Ask(quad, why)
        c = np.float32(ask.centre)
        if any(float(np.hypot(*(c - np.float32(a.centre)))) + 0.5 * ask.radius < max(side, a.radius) for a in out):
            continue  # mostly inside a place already asked about
        out.append(ask)
    return out


def squares_in_glare(gray: np.ndarray, patches: list[np.ndarray], detector, side: float,
                     known: list[np.ndarray]) -> list[np.ndarray]:
    """Squares of a sticker's size in and round the burnt-out ``patches`` (corner quads,
    image px) that the detector did not see in the frame (``known``: squares it did see).
    A sticker veiled by a reflection keeps 10-40 grey levels of contrast just under the
    white: too little for the detector's threshold, plenty once the patch's own levels are
    stretched (CLAHE on the patch). The squares go to the soft decision, which reads the
    original pixels (it fits the contrast itself), or to the player as "unread"."""
    h, w = gray.shape[:2]
    found: list[np.ndarray] = []
    centres = [np.reshape(q, (4, 2)).mean(axis=0) for q in known]
    clahe = cv2.createCLAHE(clipLimit=6.0, tileGridSize=(2, 2))
    for patch in patches:
        x0, y0 = np.maximum(np.floor(patch.min(axis=0) - side), 0).astype(int)
        x1, y1 = np.minimum(np.ceil(patch.max(axis=0) + side), (w, h)).astype(int)
        if x1 - x0 < 2 * side or y1 - y0 < 2 * side:
            continue
        crop = clahe.apply(gray[y0:y1, x0:x1])
        corners, _ids, unread = detector.detectMarkers(crop)
        for q in list(corners) + list(unread):
            q = q.reshape(4, 2) + (x0, y0)
            s = float(np.linalg.norm(q[1] - q[0]))
            c = q.mean(axis=0)
            if not 0.6 * side <= s <= 1.6 * side:
                continue
            if any(float(np.hypot(*(c - o))) < 0.5 * side for o in centres):
                continue
            centres.append(c)
            found.append(q.astype(np.float32))
    return found
