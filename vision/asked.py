"""Places where a card may lie unread: what the kiosk asks the player to move.

A sticker under a strong veiling reflection (the lamp's mirror image on a glossy card) is
burnt out: too little contrast is left for any decision, and often not even its square is
found. Such a card must never be left out in silence. Two kinds of evidence are asked
about, each once per place:

- ``"unread"``: a square that looks like a marker (vision.softdecode.looks_like_marker)
  and that the soft decision refused, washed out, or fitted by a card's code but for a cell
  or two however sharp (``ReadResult.doubted``): a sticker seen but not read;
- ``"glare"``: a burnt-out patch on the mat at least a sticker across
  (vision.highlights.glare_patches) that stickers read do not cover.

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
from vision.highlights import GLARE_CONTRAST, glare_patches

UNREAD, GLARE = "unread", "glare"

__all__ = ["Ask", "GLARE", "UNREAD", "asked_places"]


@dataclass(frozen=True)
class _Read:
    """The read stickers' boxes and where their partners lie, for the tests below."""
    lo: np.ndarray  # (n, 2) top-left of each sticker read's box
    hi: np.ndarray  # (n, 2) bottom-right
    partners: np.ndarray  # (n, 2) centres of the other sticker of each card read
    side: float

    @classmethod
    def of(cls, result: ReadResult, sticker_mm: float) -> "_Read":
        if not result.detections:
            none = np.zeros((0, 2), np.float32)
            return cls(none, none, none, 0.0)
        q = np.array([d.corners for d in result.detections], np.float32)
        ux = (q[:, 1] - q[:, 0] + q[:, 2] - q[:, 3]) / 2
        uy = (q[:, 3] - q[:, 0] + q[:, 2] - q[:, 1]) / 2
        off = partner_offset(sticker_mm)
        # the partner's own top-left, then half a marker back along its turned axes
        partners = q[:, 0] + off[0] * ux + off[1] * uy - 0.5 * ux - 0.5 * uy
        side = float(np.median(np.linalg.norm(ux, axis=1)))
        return cls(q.min(axis=1), q.max(axis=1), partners, side)

    def explains(self, quad: np.ndarray, *, patch: bool = False) -> bool:
        """A square on a sticker read, or where a read card's other sticker lies; a burnt-out
        ``patch`` only when stickers read cover half of it (a patch wider than the stickers
        in it may veil another card's sticker beside them)."""
        if not len(self.lo):
            return False
        lo, hi = quad.min(axis=0), quad.max(axis=0)
        inter = np.clip(np.minimum(hi, self.hi) - np.maximum(lo, self.lo), 0, None).prod(axis=1)
        area = float((hi - lo).prod())
        if patch:
            return float(inter.sum()) >= 0.5 * area
        if (inter >= 0.3 * np.minimum(area, (self.hi - self.lo).prod(axis=1))).any():
            return True
        return bool((np.linalg.norm(self.partners - quad.mean(axis=0), axis=1) < 0.75 * self.side).any())


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
    # burnt-out patches big enough to hide a sticker (a sticker read in glare was read)
    seen = [(q, GLARE) for q in glare_patches(gray, result, 0.8 * side)
            if (q.max(axis=0) - q.min(axis=0)).min() >= 0.8 * side]
    seen += [(q, UNREAD) for q in result.unread if _washed_out(gray, q)]
    # (a sharp square one card's code fits but for a cell: that card's sticker, dust or a glint
    # on a cell; left out in silence before: a 17 px sticker in plain light, 8C)
    seen += [(np.asarray(q), UNREAD) for q in result.doubted]
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

