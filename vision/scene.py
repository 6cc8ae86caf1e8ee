"""Synthetic table photos for tests, the benchmark and the demo camera.

``make_scene(seed, ...)`` draws a 1920x1080 photo taken from above a bar table: the capture
mat with its corner markers, and piles of marked cards fanned in rows so that about 2 cm of
each card shows (its top-left sticker), optional face-down cards, seen from 50-75 cm
(2.1-3.0 px/mm), rotated, with up to 10 % perspective, uneven light with a glare spot,
focus blur, slight motion blur, sensor noise and JPEG. Everything comes from ``seed``:
the same arguments give the same pixels.

Cards are drawn directly into the photo (one small warp per card), so a scene takes a few
tens of milliseconds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import DECK, Card, Suit
from vision.kit import (CARD_H_MM, CARD_W_MM, MAT_SIZES_MM, STICKER_INSET_MM, STICKER_MM, code_side_mm,
                        mat_image, sticker_image)

FAN_STEP_MM = 20.0
ROW_STEP_MM = 100.0
PER_ROW = 12
TEX_PX_PER_MM = 6.0  # texture resolution before the camera warp
SIZE = (1920, 1080)
LIGHT_BAND = 120  # rows per band of the light pass
SUIT_BGR = {Suit.OROS: (40, 170, 220), Suit.COPES: (40, 40, 200), Suit.ESPASES: (170, 90, 30),
            Suit.BASTOS: (40, 120, 40)}


@dataclass
class Scene:
    image: np.ndarray  # BGR, 1920x1080, after JPEG
    cards: list[Card]  # face-up cards with a sticker wholly inside the photo
    face_down: int
    px_per_mm: float
    params: dict = field(default_factory=dict)
    jpeg: bytes = b""
    edge_cards: list[Card] = field(default_factory=list)  # a sticker cut by the photo's edge:
    # may or may not be read, never counted as missed nor as wrong

    @property
    def allowed(self) -> set[Card]:
        """Cards a reader may report without being wrong."""
        return set(self.cards) | set(self.edge_cards)

    def write(self, path) -> None:
        """Write the photo exactly as generated (the JPEG bytes)."""
        with open(path, "wb") as f:
            f.write(self.jpeg)


@lru_cache(maxsize=256)
def _face_texture(card: Card, marks: str, sticker_mm: float) -> np.ndarray:
    p = TEX_PX_PER_MM
    w, h = int(CARD_W_MM * p), int(CARD_H_MM * p)
    img = np.full((h, w, 3), (236, 240, 242), np.uint8)
    colour = SUIT_BGR[card.suit]
    # frame line with the suit's "pauses", pips, the rank in the middle
    cv2.rectangle(img, (int(4 * p), int(4 * p)), (w - int(4 * p), h - int(4 * p)), colour, 2)
    rng = np.random.default_rng(DECK.index(card))
    for _ in range(min(card.rank, 9)):
        c = (int(rng.uniform(16, CARD_W_MM - 16) * p), int(rng.uniform(24, CARD_H_MM - 24) * p))
        cv2.circle(img, c, int(rng.uniform(3, 7) * p), colour, -1, cv2.LINE_AA)
    cv2.putText(img, str(card.rank), (int(22 * p), int(55 * p)), cv2.FONT_HERSHEY_DUPLEX, 3.0, colour, 4)
    st = sticker_image(card, marks=marks, sticker_mm=sticker_mm, px_per_mm=p)
    st = cv2.cvtColor(st, cv2.COLOR_GRAY2BGR)
    s, i = st.shape[0], int(round(STICKER_INSET_MM * p))
    img[i:i + s, i:i + s] = st
    img[h - i - s:h - i, w - i - s:w - i] = cv2.rotate(st, cv2.ROTATE_180)
    return img


@lru_cache(maxsize=4)
def _back_texture() -> np.ndarray:
    p = TEX_PX_PER_MM
    w, h = int(CARD_W_MM * p), int(CARD_H_MM * p)
    img = np.full((h, w, 3), (50, 40, 160), np.uint8)
    for k in range(-h, w + h, int(5 * p)):  # a lattice of diamonds: many small quads
        cv2.line(img, (k, 0), (k + h, h), (230, 230, 240), 3)
        cv2.line(img, (k, h), (k + h, 0), (230, 230, 240), 3)
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (240, 240, 240), int(3 * p))
    return img


@lru_cache(maxsize=4)
def _card_mask() -> np.ndarray:
    p = TEX_PX_PER_MM
    w, h = int(CARD_W_MM * p), int(CARD_H_MM * p)
    m = np.zeros((h, w), np.uint8)
    r = int(3 * p)
    cv2.rectangle(m, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(m, (0, r), (w, h - r), 255, -1)
    for c in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(m, c, r, 255, -1)
    return m


@lru_cache(maxsize=4)
def _mat_texture(size: str) -> np.ndarray:
    g = mat_image(size, px_per_mm=4.0)
    tex = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    tex[g > 128] = (205, 225, 215)  # printed on light green paper
    return tex


def clear_caches() -> None:
    """Drop the cached card, back, mask and mat textures (about 16 MB after a 16-card
    scene); the next scene draws them again. For long-lived processes that are done
    drawing scenes (the demo camera once its loop is generated)."""
    for fn in (_face_texture, _back_texture, _card_mask, _mat_texture):
        fn.cache_clear()


def _paste(dst: np.ndarray, tex: np.ndarray, mask: np.ndarray, h_mm_to_px: np.ndarray,
           tex_px_per_mm: float) -> None:
    """Warp ``tex`` (mm-scaled by ``tex_px_per_mm``) through ``h_mm_to_px`` onto ``dst``, only
    inside the warped bounding box."""
    th, tw = tex.shape[:2]
    s = np.diag([1 / tex_px_per_mm, 1 / tex_px_per_mm, 1.0])
    h = h_mm_to_px @ s
    pts = cv2.perspectiveTransform(np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), h)[0]
    x0, y0 = np.floor(pts.min(0)).astype(int) - 1
    x1, y1 = np.ceil(pts.max(0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, dst.shape[1]), min(y1, dst.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    t = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64) @ h
    # pre-blur so the downscale does not alias (a lens would not either)
    ratio = tw / max(float(np.linalg.norm(pts[1] - pts[0])), 1.0)
    src = cv2.GaussianBlur(tex, (0, 0), 0.35 * ratio) if ratio > 1.5 else tex
    roi = dst[y0:y1, x0:x1]
    warped = cv2.warpPerspective(src, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(mask, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) * (1 / 255)
    roi[:] = cv2.blendLinear(warped, roi, a, 1 - a)


def _in_frame(quad: np.ndarray, w: int, h: int, margin: float = 3.0) -> str:
    """"in": the code and its quiet zone are inside the photo; "edge": partly; "out"."""
    if quad.min() >= margin and quad[:, 0].max() < w - margin and quad[:, 1].max() < h - margin:
        return "in"
    inside = (quad[:, 0] > 0) & (quad[:, 0] < w) & (quad[:, 1] > 0) & (quad[:, 1] < h)
    return "edge" if inside.any() else "out"


def _rot(deg: float) -> np.ndarray:
    a = math.radians(deg)
    return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])


def _move(x: float, y: float) -> np.ndarray:
    return np.array([[1, 0, x], [0, 1, y], [0, 0, 1]], np.float64)


def make_scene(seed: int = 0, *, cards: list[Card] | int | None = None, face_down: int = 0,
               marks: str = "aruco", mat: str | None = "A3", px_per_mm: float | None = None,
               sticker_mm: float = STICKER_MM, rotation: float | None = None,
               perspective: float | None = None, blur: float | None = None,
               motion: float | None = None, glare: float | None = None,
               noise: float | None = None, jpeg_quality: int | None = None,
               light: float | None = None, offset_mm: tuple[float, float] | None = None,
               pile_offset_mm: tuple[float, float] = (0.0, 0.0)) -> Scene:
    """A seeded table photo. ``cards`` = the face-up cards, or how many to draw at random
    (default: 0-24 at random). Every other parameter left at None is drawn from ``seed``
    inside the issue's ranges. ``offset_mm`` moves the whole table under the camera,
    ``pile_offset_mm`` the cards on the mat (a pile being slid in). px_per_mm 2.1-3.0,
    rotation (degrees) any, perspective
    0-0.10, blur sigma 0.3-1.0 px, motion 0-1.2 px, glare 0-1, noise sigma 2-5, JPEG 75-92."""
    rng = np.random.default_rng(seed)
    if cards is None:
        cards = int(rng.integers(0, 25))
    if isinstance(cards, int):
        cards = [DECK[i] for i in rng.permutation(len(DECK))[:cards]]
    cards = list(cards)
    ppm = px_per_mm if px_per_mm is not None else float(rng.uniform(2.1, 3.0))
    rotation = rotation if rotation is not None else float(rng.uniform(0, 360))
    perspective = perspective if perspective is not None else float(rng.uniform(0, 0.10))
    blur = blur if blur is not None else float(rng.uniform(0.3, 1.0))
    motion = motion if motion is not None else float(rng.uniform(0, 1.2))
    glare = glare if glare is not None else float(rng.uniform(0, 1.0))
    noise = noise if noise is not None else float(rng.uniform(2, 5))
    jpeg_quality = jpeg_quality if jpeg_quality is not None else int(rng.integers(75, 93))
    light = light if light is not None else float(rng.uniform(0.25, 0.5))
    w, h = SIZE

    # camera: mm on the table (origin = centre of the layout) -> pixels
    mat_w, mat_h = MAT_SIZES_MM[mat] if mat else (420.0, 297.0)
    off = offset_mm if offset_mm is not None else (float(rng.uniform(-20, 20)), float(rng.uniform(-15, 15)))
    sim = _move(w / 2, h / 2) @ np.diag([ppm, ppm, 1.0]) @ _rot(rotation) @ _move(*off)
    # perspective: scale changes by `perspective` across the frame in a random direction
    ang = rng.uniform(0, 2 * math.pi)
    k = perspective / max(w, h)
    proj = _move(w / 2, h / 2) @ np.array([[1, 0, 0], [0, 1, 0], [k * math.cos(ang), k * math.sin(ang), 1]]) @ _move(-w / 2, -h / 2)
    cam = proj @ sim

    # table: dark wood with grain
    base = np.array((40, 70, 110), np.float32)
    grain = cv2.resize(rng.normal(0, 1, (h // 8, 6)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img = np.empty((h, w, 3), np.uint8)
    for y0 in range(0, h, LIGHT_BAND):  # in bands: small float temporaries, the same pixels
        g = grain[y0:y0 + LIGHT_BAND]
        img[y0:y0 + LIGHT_BAND] = cv2.convertScaleAbs(cv2.merge([(1 + 0.25 * g) * float(b) for b in base]))
    del grain

    if mat:
        tex = _mat_texture(mat)
        _paste(img, tex, np.full(tex.shape[:2], 255, np.uint8), cam @ _move(-mat_w / 2, -mat_h / 2), 4.0)

    # layout: rows of up to PER_ROW cards, fanned left to right, the whole block turned a little
    # (only when the mat's orientation matters: the block stays on the mat)
    all_cards = [(c, True) for c in cards] + [(None, False)] * face_down
    order = rng.permutation(len(all_cards)) if face_down else np.arange(len(all_cards))
    items = [all_cards[i] for i in order]
    rows = [items[i:i + PER_ROW] for i in range(0, len(items), PER_ROW)]
    block_w = (min(len(items), PER_ROW) - 1) * FAN_STEP_MM + CARD_W_MM if items else 0
    block_h = (len(rows) - 1) * ROW_STEP_MM + CARD_H_MM if rows else 0
    block = _move(*pile_offset_mm) @ _rot(float(rng.uniform(-8, 8)) + (180 if rng.random() < 0.5 else 0))
    mask = _card_mask()
    in_view: list[Card] = []
    quiet = code_side_mm(sticker_mm)  # the code with its quiet zone, on the sticker
    qx0, qy0 = STICKER_INSET_MM + (sticker_mm - quiet) / 2, STICKER_INSET_MM
    sticker_mm_quad = np.float32([[[qx0, qy0], [qx0 + quiet, qy0], [qx0 + quiet, qy0 + quiet], [qx0, qy0 + quiet]]])
    at_edge: list[Card] = []
    for r, row in enumerate(rows):
        for c, (card, up) in enumerate(row):
            x = -block_w / 2 + c * FAN_STEP_MM + rng.uniform(-1.5, 1.5)
            y = -block_h / 2 + r * ROW_STEP_MM + rng.uniform(-2, 2)
            place = block @ _move(x + CARD_W_MM / 2, y + CARD_H_MM / 2) @ _rot(rng.uniform(-3, 3)) \
                @ _move(-CARD_W_MM / 2, -CARD_H_MM / 2)
            tex = _face_texture(card, marks, float(sticker_mm)) if up else _back_texture()
            # soft shadow then the card
            _paste(img, np.zeros_like(tex), (mask * 0.35).astype(np.uint8), cam @ _move(1.2, 1.5) @ place, TEX_PX_PER_MM)
            _paste(img, tex, mask, cam @ place, TEX_PX_PER_MM)
            if up:  # the top-left sticker, and the bottom-right one of a row's top card
                quads = [sticker_mm_quad]
                if c == len(row) - 1:
                    quads.append(np.float32([[CARD_W_MM, CARD_H_MM]]) - sticker_mm_quad)
                where = [_in_frame(cv2.perspectiveTransform(q, cam @ place)[0], w, h) for q in quads]
                if "in" in where:
                    in_view.append(card)
                elif "edge" in where:
                    at_edge.append(card)

    # light: a gradient across the frame and a glare spot; computed in bands of rows so the
    # float temporaries stay small (the same pixels as one pass over the whole frame)
    la = rng.uniform(0, 2 * math.pi)
    gx, gy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
    rad = rng.uniform(60, 140)
    for y0 in range(0, h, LIGHT_BAND):
        y1 = min(y0 + LIGHT_BAND, h)
        yy, xx = np.mgrid[y0:y1, 0:w].astype(np.float32)
        grad = 1 - light * (0.5 + 0.5 * ((xx - w / 2) * math.cos(la) + (yy - h / 2) * math.sin(la)) / (w / 2))
        gain = grad.clip(0.3, 1.2)
        if glare > 0:
            spot = cv2.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) * (1 / (2 * rad ** 2)))
            add = cv2.merge([spot * (glare * 170)] * 3)
        else:
            add = 0
        img[y0:y1] = cv2.convertScaleAbs(img[y0:y1].astype(np.float32) * cv2.merge([gain] * 3) + add)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if motion >= 0.5:
        n = int(round(motion)) * 2 + 1
        kern = np.zeros((n, n), np.float32)
        ma = rng.uniform(0, math.pi)
        c = n // 2
        cv2.line(kern, (int(round(c - c * math.cos(ma))), int(round(c - c * math.sin(ma)))),
                 (int(round(c + c * math.cos(ma))), int(round(c + c * math.sin(ma)))), 1.0, 1)
        img = cv2.filter2D(img, -1, kern / kern.sum())
    grain_n = np.empty(img.shape, np.int16)
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))  # OpenCV's RNG is per thread: deterministic
    cv2.randn(grain_n, 0, noise)
    img = cv2.add(img, grain_n, dtype=cv2.CV_8U)
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
    jpeg = enc.tobytes()
    params = dict(seed=seed, px_per_mm=ppm, rotation=rotation, perspective=perspective, blur=blur,
                  motion=motion, glare=glare, noise=noise, jpeg_quality=jpeg_quality, marks=marks,
                  sticker_mm=sticker_mm, mat=mat, out_of_view=[c.code for c in cards if c not in in_view])
    return Scene(cv2.imdecode(enc, cv2.IMREAD_COLOR), in_view, face_down, ppm, params, jpeg, at_edge)
