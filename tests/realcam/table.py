"""What lies on the table, at render resolution: the scene's albedo, which object each pixel
shows, and how glossy it is (``Canvas``), and the things laid on it (``Item``): cards with
the kit's printed stickers stuck on, the capture mat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import DECK, Card
from tests.realcam import camera, props
from tests.realcam.deck import CARD_H_MM, CARD_W_MM, card_alpha, card_face
from tests.realcam.stickers import marker_corners_mm, printed_stickers
from vision import kit

MAT_ID, PROP_ID0, CARD_ID0, HAND_ID = 1, 10, 100, 999
STICKER_INSET_MM = kit.STICKER_INSET_MM


class Canvas:
    """The scene at render resolution: albedo (sRGB BGR), object ids, gloss (x100)."""

    def __init__(self, size: tuple[int, int], table_to_px: np.ndarray, rng: np.random.Generator) -> None:
        w, h = size
        self.size, self.hm = size, table_to_px
        base = np.array((45, 75, 115), np.float32)  # dark wood, grain along x
        grain = rng.normal(0, 1, (max(h // 16, 2), 8)).astype(np.float32)
        grain = cv2.resize(grain, (w // 4, h // 4), interpolation=cv2.INTER_CUBIC)
        small = np.clip(base[None, None, :] * (1 + 0.22 * grain[..., None]), 0, 255).astype(np.uint8)
        self.albedo = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
        self.label = np.zeros((h, w), np.uint16)
        self.gloss = np.full((h, w), 35, np.uint8)

    def copy(self) -> "Canvas":
        out = Canvas.__new__(Canvas)
        out.size, out.hm = self.size, self.hm
        out.albedo, out.label, out.gloss = self.albedo.copy(), self.label.copy(), self.gloss.copy()
        return out

    def paste(self, tex: np.ndarray, alpha: np.ndarray, place_mm: np.ndarray, tex_ppm: float,
              label: int, gloss: float, *, darken: bool = False) -> None:
        """Warp ``tex`` (``tex_ppm`` px per mm, placed by ``place_mm``) into the scene."""
        th, tw = tex.shape[:2]
        h = self.hm @ place_mm @ np.diag([1 / tex_ppm, 1 / tex_ppm, 1.0])
        pts = cv2.perspectiveTransform(np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), h)[0]
        x0, y0 = np.floor(pts.min(0)).astype(int) - 1
        x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, self.size[0]), min(y1, self.size[1])
        if x1 <= x0 or y1 <= y0:
            return
        t = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ h
        ratio = tw / max(float(np.linalg.norm(pts[1] - pts[0])), 1.0)
        src = cv2.GaussianBlur(tex, (0, 0), 0.4 * ratio) if ratio > 1.4 else tex
        warped = cv2.warpPerspective(src, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        af = a.astype(np.float32) * (1 / 255)
        roi = self.albedo[y0:y1, x0:x1]
        if darken:  # multiply: a wet ring darkens what lies under it
            mul = 1 - af[..., None] * (1 - warped.astype(np.float32) / 255)
            roi[:] = np.clip(roi * mul, 0, 255).astype(np.uint8)
        else:
            roi[:] = cv2.blendLinear(warped, roi, af, 1 - af)
            self.label[y0:y1, x0:x1][a > 127] = label
        g = self.gloss[y0:y1, x0:x1]
        g[a > 127] = int(min(255, gloss * 100))


def sticker_places(rng: np.random.Generator, sticker_mm: float) -> list[np.ndarray]:
    """Where a hand sticks the two stickers (sticker mm -> card mm): top-left and bottom-right,
    2 mm from the edges as the kit says, off by up to 0.8 mm and 4 degrees."""
    s = sticker_mm
    out = []
    for corner in (0, 1):
        ox = STICKER_INSET_MM + rng.uniform(-0.6, 0.8)
        oy = STICKER_INSET_MM + rng.uniform(-0.6, 0.8)
        a = rng.uniform(-4, 4) + 180 * corner
        cx, cy = (ox + s / 2, oy + s / 2) if corner == 0 else (CARD_W_MM - ox - s / 2, CARD_H_MM - oy - s / 2)
        out.append(props.move(cx, cy) @ props.rot(a) @ props.move(-s / 2, -s / 2))
    return out


def marked_card(code: str, style: str, ppm: float, places: list[np.ndarray], marks: str = "aruco",
                sticker_mm: float = kit.STICKER_MM) -> np.ndarray:
    """The card face with the printed stickers stuck on at ``places`` (BGR, ``ppm``)."""
    face = card_face(code, style=style, px_per_mm=ppm).copy()
    sheet = printed_stickers(marks, sticker_mm)
    for which, place in enumerate(places):
        raster = sheet.sticker(code, which)
        small = cv2.resize(raster, None, fx=ppm / sheet.px_per_mm, fy=ppm / sheet.px_per_mm,
                           interpolation=cv2.INTER_AREA)
        ink = cv2.convertScaleAbs(small, alpha=(238 - 30) / 255, beta=30)  # print black, label white
        a = np.full(small.shape, 255, np.uint8)
        # sticker raster px -> sticker mm -> card mm -> face px, drawn only around the sticker
        m = (np.diag([ppm, ppm, 1.0]) @ place
             @ np.diag([sticker_mm / small.shape[1], sticker_mm / small.shape[0], 1.0]))
        fh, fw = face.shape[:2]
        box = cv2.transform(np.float32([[[0, 0], [small.shape[1], 0], [small.shape[1], small.shape[0]],
                                          [0, small.shape[0]]]]), m[:2])[0]
        x0, y0 = np.maximum(np.floor(box.min(0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(box.max(0)).astype(int) + 2, (fw, fh))
        m = (props.move(-x0, -y0) @ m)[:2]
        st = cv2.warpAffine(cv2.cvtColor(ink, cv2.COLOR_GRAY2BGR), m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
        al = cv2.warpAffine(a, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) * (1 / 255)
        roi = face[y0:y1, x0:x1]
        roi[:] = cv2.blendLinear(st, roi, al, 1 - al)
    return face


@dataclass
class Item:
    """One thing laid on the table for a shot (drawn in this order)."""

    texture: np.ndarray
    alpha: np.ndarray
    ppm: float
    place: np.ndarray  # item mm -> table mm
    label: int
    gloss: float
    darken: bool = False
    code: str | None = None  # a face-up card
    markers_mm: tuple[np.ndarray, ...] = ()  # its markers' corners, card mm
    moving: bool = False  # smeared by ``motion`` (a card being dealt, a hand)


def card_item(code: str, place: np.ndarray, rng: np.random.Generator, *, style: str, ppm: float,
              marks: str | None = "aruco", sticker_mm: float = kit.STICKER_MM,
              gloss: float | None = None) -> Item:
    places = sticker_places(rng, sticker_mm)
    if marks is None:  # an ordinary deck: no stickers
        tex, quads = card_face(code, style=style, px_per_mm=ppm), ()
    else:
        tex = marked_card(code, style, ppm, places, marks, sticker_mm)
        corners = marker_corners_mm(sticker_mm, marks).reshape(1, -1, 2)
        quads = tuple(cv2.perspectiveTransform(corners, p)[0] for p in places)
    g = gloss if gloss is not None else float(rng.uniform(0.6, 1.3))  # curl: each card its own
    return Item(tex, card_alpha(ppm), ppm, place, CARD_ID0 + DECK.index(Card.parse(code)), g,
                code=code, markers_mm=quads)


def mat_item(size: str = "A3") -> Item:
    tex, alpha = _mat_texture(size)
    w, h = kit.MAT_SIZES_MM[size]
    return Item(tex, alpha, 4.0, props.move(-w / 2, -h / 2), MAT_ID, 0.25)


@lru_cache(maxsize=2)
def _mat_texture(size: str) -> tuple[np.ndarray, np.ndarray]:
    """The mat's texture and alpha, drawn once a process: every shot lays the same mat, and
    drawing it was 84 ms of CPU a shot (an enrolment photo takes about 330). Read-only,
    shared by every Item."""
    g = kit.mat_image(size, px_per_mm=4.0)
    tex = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    tex[g > 128] = (190, 215, 200)  # printed on light green paper
    alpha = np.full(g.shape, 255, np.uint8)
    tex.setflags(write=False)
    alpha.setflags(write=False)
    return tex, alpha


def texture_ppm(mode: str, pose: camera.Pose) -> float:
    """Texture resolution: about twice the camera's, so the warp never aliases."""
    render_size = camera.MODES[mode][0]
    return float(np.clip(round(2 * pose.px_per_mm(render_size)), 5, 14))


def _smear(cv: Canvas, labels: list[int], motion: tuple[float, float]) -> None:
    """Smear the moving objects along ``motion`` (render px over the exposure): the average of
    shifted copies, only in their neighbourhood, kept where they (smeared) are."""
    mask = np.isin(cv.label, labels)
    rows, cols = np.flatnonzero(mask.any(1)), np.flatnonzero(mask.any(0))
    if not len(cols):
        return
    length = math.hypot(*motion)
    pad = int(math.ceil(length / 2)) + 2
    h, w = cv.label.shape
    x0, x1 = max(cols[0] - pad, 0), min(cols[-1] + pad + 1, w)
    y0, y1 = max(rows[0] - pad, 0), min(rows[-1] + pad + 1, h)
    roi = cv.albedo[y0:y1, x0:x1].astype(np.float32)
    m = mask[y0:y1, x0:x1].astype(np.float32)
    n = int(min(max(3, math.ceil(length)), 24))
    acc, macc = np.zeros_like(roi), np.zeros_like(m)
    moving = roi * m[..., None]  # (the same for every shift: taken once)
    for k in range(n):
        f = k / (n - 1) - 0.5
        shift = np.float32([[1, 0, f * motion[0]], [0, 1, f * motion[1]]])
        acc += cv2.warpAffine(moving, shift, (x1 - x0, y1 - y0), borderMode=cv2.BORDER_REPLICATE)
        macc += cv2.warpAffine(m, shift, (x1 - x0, y1 - y0))
    acc /= n
    macc /= n
    # over the background: the smeared object (premultiplied) + what shows through it
    out = acc + roi * (1 - macc)[..., None]
    cv.albedo[y0:y1, x0:x1] = np.clip(out, 0, 255).astype(np.uint8)
