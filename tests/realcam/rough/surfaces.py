"""What the cards lie on: the capture mat, bare felt, glossy or rough wood, white marble, checked
(gingham) cloths, printed menus. Drawn in code, in table millimetres, so any camera pose and
resolution sees the same table.

``table_surface(kind, rng)`` gives a :class:`Surface`; ``canvas(surface, size, hm)`` paints it
at a camera's delivered resolution (``hm``: table mm -> pixels) into a
:class:`tests.realcam.table.Canvas` that cards are then pasted onto. Every texture is evaluated
at each pixel's table point (no texture bitmap warped), so a 1080p table costs a few tens of ms.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tests.realcam import props
from tests.realcam.signs import _Pen
from tests.realcam.table import PROP_ID0, Canvas, Item, mat_item

DEALING = ("mat", "felt", "wood", "marble")  # what a pile is dealt on (issue 21's learning and dealing)
HARD = ("gingham", "wood_textured", "marble", "menus")  # what costs a marker search most
KINDS = ("mat", "felt", "wood", "wood_textured", "marble", "gingham", "menus")
GINGHAM = {"red": (45, 45, 190), "blue": (160, 90, 40), "green": (60, 140, 50), "black": (50, 45, 45),
           "wine": (60, 40, 120)}
WHITE = np.float32([232, 236, 238])


@dataclass(frozen=True)
class Surface:
    """A table top. ``gloss``: its specular share (cards 0.6-1.3). ``seed``: its texture.
    ``square_mm``/``colour``: a gingham's check and colour name (else 0 / "")."""

    kind: str
    seed: int
    gloss: float
    square_mm: float = 0.0
    colour: str = ""

    def albedo(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """sRGB BGR uint8 of the table at table points (``x``, ``y`` mm, float32, any shape)."""
        rng = np.random.default_rng([self.seed, 5])
        noise = _Noise(rng, x, y)
        if self.kind in ("mat", "wood", "wood_textured", "menus"):
            rough = self.kind == "wood_textured"
            dark = self.kind == "mat"
            out = _wood(rng, noise, x, y, rough=rough, dark=dark)
        elif self.kind == "felt":
            base = np.float32([45, 105, 25]) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
            f = 1 + 0.05 * noise(20.0) + 0.07 * noise(0.5)
            out = _times(base, f)
        elif self.kind == "marble":
            out = _marble(rng, noise, x, y)
        elif self.kind == "gingham":
            out = _gingham(noise, x, y, self.square_mm, GINGHAM[self.colour], rng)
        else:
            raise ValueError(f"unknown surface {self.kind!r}: use one of {KINDS}")
        return np.clip(out, 0, 255).astype(np.uint8)

    def items(self, ppm: float, view_mm: tuple[float, float, float, float]) -> list[Item]:
        """What lies on the table top besides the cards: the mat, menus (bottom first)."""
        if self.kind == "mat":
            return [mat_item("A3")]
        if self.kind != "menus":
            return []
        rng = np.random.default_rng([self.seed, 6])
        x0, y0, x1, y1 = view_mm
        out = []
        for i in range(int(rng.integers(2, 5))):
            tex, alpha = _menu(rng, ppm)
            h, w = (s / ppm for s in tex.shape[:2])
            cx, cy = rng.uniform(x0, x1), rng.uniform(y0, y1)
            place = props.move(cx, cy) @ props.rot(rng.uniform(0, 360)) @ props.move(-w / 2, -h / 2)
            out.append(Item(tex, alpha, ppm, place, PROP_ID0 + i, float(rng.uniform(0.3, 1.0))))
        return out


def table_surface(kind: str, rng: np.random.Generator) -> Surface:
    """A table top of ``kind`` (one of :data:`KINDS`) drawn from ``rng``: a gingham's check is
    6-25 mm of one of five colours, wood is varnished (gloss 0.4-0.8) or rough (0.15-0.3),
    marble polished (0.6-0.9), felt matt. Raises ValueError for an unknown kind."""
    if kind not in KINDS:
        raise ValueError(f"unknown surface {kind!r}: use one of {KINDS}")
    seed = int(rng.integers(1 << 30))
    gloss = {"mat": 0.3, "felt": 0.03, "wood": rng.uniform(0.4, 0.8), "wood_textured": rng.uniform(0.15, 0.3),
             "marble": rng.uniform(0.6, 0.9), "gingham": 0.05, "menus": rng.uniform(0.3, 0.7)}[kind]
    if kind == "gingham":
        colour = list(GINGHAM)[int(rng.integers(len(GINGHAM)))]
        return Surface(kind, seed, float(gloss), float(rng.uniform(6, 25)), colour)
    return Surface(kind, seed, float(gloss))


def table_points(size: tuple[int, int], hm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each pixel's table point (mm): two float32 arrays of the image's shape."""
    w, h = size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = cv2.perspectiveTransform(np.stack([xs, ys], -1).reshape(1, -1, 2), np.linalg.inv(hm))[0]
    return pts[:, 0].reshape(h, w).copy(), pts[:, 1].reshape(h, w).copy()


def view_box(size: tuple[int, int], hm: np.ndarray) -> tuple[float, float, float, float]:
    """The table rectangle (mm) the camera sees: x0, y0, x1, y1."""
    w, h = size
    c = cv2.perspectiveTransform(np.float32([[[0, 0], [w, 0], [w, h], [0, h]]]), np.linalg.inv(hm))[0]
    return float(c[:, 0].min()), float(c[:, 1].min()), float(c[:, 0].max()), float(c[:, 1].max())


def canvas(surface: Surface, size: tuple[int, int], hm: np.ndarray, ppm: float) -> Canvas:
    """The table at ``size`` (delivered pixels), with the surface's own items (mat, menus)
    pasted on; cards go on top with ``Canvas.paste``."""
    x, y = table_points(size, hm)
    cv = Canvas.__new__(Canvas)
    cv.size, cv.hm = size, hm
    cv.albedo = surface.albedo(x, y)
    cv.label = np.zeros(x.shape, np.uint16)
    cv.gloss = np.full(x.shape, int(round(surface.gloss * 100)), np.uint8)
    for it in surface.items(ppm, view_box(size, hm)):
        cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss, darken=it.darken)
    return cv


class _Noise:
    """Smooth value noise (mean 0, sd about 1) at table points, one fresh grid per call."""

    def __init__(self, rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> None:
        self.rng, self.x, self.y = rng, x, y
        self.x0, self.y0 = float(x.min()), float(y.min())
        self.w, self.h = float(x.max()) - self.x0, float(y.max()) - self.y0

    def __call__(self, cell_mm: float, cell_y_mm: float | None = None, u=None, v=None) -> np.ndarray:
        cy = cell_y_mm if cell_y_mm is not None else cell_mm
        x, y = (self.x, self.y) if u is None else (u, v)
        x0, y0 = float(x.min()), float(y.min())
        nx = int((float(x.max()) - x0) / cell_mm) + 4
        ny = int((float(y.max()) - y0) / cy) + 4
        grid = self.rng.standard_normal((ny, nx)).astype(np.float32)
        mx = ((x - x0) / cell_mm + 1).astype(np.float32)
        my = ((y - y0) / cy + 1).astype(np.float32)
        return cv2.remap(grid, mx, my, cv2.INTER_CUBIC, borderMode=cv2.BORDER_REFLECT)


def _times(base: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``base * f[..., None]`` (a colour times a map), a channel at a time: the same products,
    without numpy's loop over 3 values at a time (four times faster on a 1080p table)."""
    return _channels([base[c] * f for c in range(3)])


def _channels(planes: list[np.ndarray]) -> np.ndarray:
    return np.stack(planes, axis=-1)


def _turned(rng: np.random.Generator, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    a = rng.uniform(0, math.pi)
    ca, sa = math.cos(a), math.sin(a)
    return x * ca + y * sa, -x * sa + y * ca


def _wood(rng, noise: _Noise, x, y, *, rough: bool, dark: bool) -> np.ndarray:
    """Planks with growth rings and fibres along them; varnished (even) or rough (strong grain, knots)."""
    u, v = _turned(rng, x, y)
    if dark:
        base = np.float32([45, 75, 115])
    else:
        base = np.float32([[60, 105, 160], [85, 140, 190], [45, 80, 125]][int(rng.integers(3))])
    plank = rng.uniform(90, 160)
    idx = np.floor(v / plank)
    shade = 1 + 0.12 * np.sin(idx * 12.9898 + rng.uniform(0, 6))  # each plank its own tone
    period = rng.uniform(3, 8)
    warp = 20 * noise(80.0, 25.0, u, v) + 4 * noise(15.0, 6.0, u, v)
    rings = np.sin(2 * math.pi * (v + warp) / period)
    k = rng.uniform(0.3, 0.45) if rough else rng.uniform(0.08, 0.18)
    fibres = noise(30.0, 0.7, u, v)
    f = shade * (1 - k * np.clip(rings, 0, 1) ** 2) * (1 + (0.12 if rough else 0.04) * fibres)
    if rough:  # knots: dark rings of a few cm
        for _ in range(int(rng.integers(2, 6))):
            cx, cy = rng.uniform(u.min(), u.max()), rng.uniform(v.min(), v.max())
            r = np.hypot((u - cx) / 2.5, v - cy)
            f *= 1 - 0.35 * np.exp(-r / rng.uniform(4, 10)) * (0.6 + 0.4 * np.sin(r * 1.5))
    seam = np.abs(v - (idx + 0.5) * plank) > plank / 2 - 0.6
    f = np.where(seam, f * 0.45, f)
    return _times(base, f)


def _marble(rng, noise: _Noise, x, y) -> np.ndarray:
    """White marble: grey veins along a turbulent line field, faint clouds."""
    u, _ = _turned(rng, x, y)
    turb = noise(90.0) + 0.5 * noise(30.0) + 0.25 * noise(9.0)
    s = np.abs(np.sin(2 * math.pi * (u + rng.uniform(30, 70) * turb) / rng.uniform(60, 160)))
    vein = np.exp(-s / rng.uniform(0.03, 0.09)) * rng.uniform(0.3, 0.6)
    vein = vein + 0.25 * np.exp(-np.abs(noise(25.0)) / 0.05)  # thin branches
    cloud = 1 + 0.03 * noise(40.0)
    grey = np.float32([150, 152, 155])
    base = WHITE * np.float32(rng.uniform(0.96, 1.0))
    v = np.clip(vein, 0, 1)
    # (base * (1 - v) + grey * v) * cloud, a channel at a time (``_times``)
    return _channels([(base[c] * (1 - v) + grey[c] * v) * cloud for c in range(3)])


def _gingham(noise: _Noise, x, y, square_mm: float, colour, rng) -> np.ndarray:
    """A checked cloth: coloured bands both ways over white, full colour where they cross,
    woven (fine texture), a little creased (the squares bend, the folds shade)."""
    u, v = _turned(rng, x, y)
    u = u + 2.5 * noise(60.0)
    v = v + 2.5 * noise(60.0)
    edge = 1.6 * square_mm  # soft edges about 0.4 mm wide

    def band(t):
        return 0.5 + 0.5 * np.clip(np.sin(math.pi * t / square_mm) * edge, -1, 1)

    a, b = band(u), band(v)
    share = 0.55 * (a + b) - 0.1 * a * b  # one band: half the colour's threads
    col = np.float32(colour)
    weave = 1 + 0.06 * noise(0.6) + 0.05 * noise(40.0)
    # (WHITE * (1 - share) + col * share) * weave, a channel at a time (``_times``)
    return _channels([(WHITE[c] * (1 - share) + col[c] * share) * weave for c in range(3)])


def _menu(rng: np.random.Generator, ppm: float) -> tuple[np.ndarray, np.ndarray]:
    """A printed menu (A5 or A4): title, dish names and prices in columns, rules, boxes, a
    photo and a QR code; laminated or plain paper."""
    w, h = ((148.0, 210.0), (210.0, 297.0))[int(rng.integers(2))]
    paper = tuple(int(c) for c in rng.integers(215, 250, 3))
    tex = np.empty((int(h * ppm), int(w * ppm), 3), np.uint8)
    tex[:] = paper
    pen = _Pen(tex, ppm)
    ink = (30, 30, 30) if rng.random() < 0.6 else (40, 40, 130)
    pen.text(("CARTA", "MENU", "TAPES", "BEGUDES")[int(rng.integers(4))], 12, 22, 12, ink,
             cv2.FONT_HERSHEY_TRIPLEX, 1.2)
    y = 35.0
    while y < h - 50:
        props._words(pen, rng, 10, y, w * 0.72, y + 18, 3.0, ink)
        for k in range(3):  # prices at the right
            pen.text(f"{rng.uniform(2, 18):.2f}", w * 0.78, y + 4.5 + k * 4.8, 3, ink, cv2.FONT_HERSHEY_SIMPLEX, 0.4)
        y += 22
        if rng.random() < 0.4:
            pen.line((10, y - 2), (w - 10, y - 2), ink, 0.4)
        if rng.random() < 0.25:  # a box, a photo of a dish
            colour = tuple(int(c) for c in rng.integers(20, 200, 3))
            pen.rect(10, y, 60, y + 30, colour)
            y += 34
    qr = cv2.QRCodeEncoder.create().encode(f"https://bar{int(rng.integers(100, 999))}.cat/carta")
    side = int(25 * ppm)
    img = cv2.resize(qr, (side, side), interpolation=cv2.INTER_NEAREST)
    y0, x0 = int((h - 35) * ppm), int((w - 35) * ppm)
    tex[y0:y0 + side, x0:x0 + side] = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    return tex, np.full(tex.shape[:2], 255, np.uint8)
