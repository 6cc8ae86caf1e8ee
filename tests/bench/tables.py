"""Realistic frames of marked piles on the tables bars have: what the sticker read's speed is
measured on (``tests.bench.bench_tables``) and what its tests draw.

``table_shot(seed, mode, table)`` lays a tablecloth or a table top under the capture mat, then
the cards and a few printed menus, and takes the picture with the project's realistic camera
(``tests.realcam.render.shoot``: pose, bar lighting with glare, defocus, Bayer noise, ISP,
JPEG). Tables:

- ``gingham``: the bar's red (or blue, green) and white checked cloth, 6-25 mm checks, the
  woven overlap of two stripes darker than either;
- ``checked``: a black-and-white checked cloth, 6-20 mm squares (every square looks like a
  marker's black border to a square finder);
- ``wood``: a varnished top with strong grain and knots;
- ``marble``: white marble with grey veins;
- ``menus``: the plain wood with four to seven printed menus and flyers around the mat;
- ``plain``: the realistic camera's own dark wood (the reference row).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from tests.realcam import camera, props
from tests.realcam import light as lightmod
from tests.realcam.render import Item, Shot, ShotMeta, card_item, draw_exposure, draw_pose, mat_item, shoot
from tests.realcam.table import PROP_ID0, texture_ppm

from kiosk.game import DECK

TABLES = ("plain", "gingham", "checked", "wood", "marble", "menus")
CLOTH_MM = (1400.0, 1000.0)  # more than the widest view at 75 cm
CLOTH_PPM = 2.0


def _checks(rng: np.random.Generator, colour: tuple[int, int, int], white: tuple[int, int, int],
            cell_mm: float, mix: float) -> np.ndarray:
    """A woven check: stripes of ``colour`` both ways; where two cross, darker (``mix``)."""
    w, h = int(CLOTH_MM[0] * CLOTH_PPM), int(CLOTH_MM[1] * CLOTH_PPM)
    cell = cell_mm * CLOTH_PPM
    xs = (np.arange(w) // cell).astype(int) % 2 == 0
    ys = (np.arange(h) // cell).astype(int) % 2 == 0
    a = xs[None, :].astype(np.float32) + ys[:, None].astype(np.float32)  # 0, 1 or 2 stripes
    c, wh = np.float32(colour), np.float32(white)
    one = wh + (c - wh) * mix
    img = np.where((a == 0)[..., None], wh, np.where((a == 1)[..., None], one, c))
    weave = rng.normal(0, 6, (h, w)).astype(np.float32)  # the threads
    return np.clip(img + weave[..., None], 0, 255).astype(np.uint8)


def _wood(rng: np.random.Generator) -> np.ndarray:
    w, h = int(CLOTH_MM[0] * CLOTH_PPM), int(CLOTH_MM[1] * CLOTH_PPM)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    wobble = cv2.resize(rng.normal(0, 1, (8, 12)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    rings = np.sin((yy / CLOTH_PPM) * 0.9 + 9 * wobble + 0.02 * xx)  # grain lines along x
    fine = cv2.resize(rng.normal(0, 1, (h // 2, w // 40)).astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    grain = 0.55 * rings + 0.35 * fine
    for _ in range(int(rng.integers(3, 7))):  # knots: dark rings round a point
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(10, 30) * CLOTH_PPM
        d = np.hypot((xx - cx) / 1.8, yy - cy)
        grain += 1.2 * np.exp(-d / r) * np.sin(d / (1.5 * CLOTH_PPM))
    base = np.float32(rng.choice([(40, 80, 130), (60, 110, 160), (30, 55, 90)]))
    return np.clip(base * (1 + 0.35 * grain[..., None]), 0, 255).astype(np.uint8)


def _marble(rng: np.random.Generator) -> np.ndarray:
    w, h = int(CLOTH_MM[0] * CLOTH_PPM), int(CLOTH_MM[1] * CLOTH_PPM)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    turb = sum(cv2.resize(rng.normal(0, 1, (4 * 2 ** k, 6 * 2 ** k)).astype(np.float32), (w, h),
                          interpolation=cv2.INTER_CUBIC) / 2 ** k for k in range(5))
    a = rng.uniform(0, math.pi)
    veins = np.abs(np.sin((xx * math.cos(a) + yy * math.sin(a)) / (40 * CLOTH_PPM) + 3.0 * turb))
    dark = np.clip(1 - veins / 0.12, 0, 1) * 0.55 + 0.06 * turb
    base = np.float32((232, 236, 238))
    return np.clip(base * (1 - dark[..., None]), 0, 255).astype(np.uint8)


def cloth(table: str, rng: np.random.Generator) -> Item | None:
    """The table's surface as one item under everything (None: the camera's own wood)."""
    if table in ("plain", "menus"):
        return None
    if table == "gingham":
        colour = [(40, 40, 190), (150, 70, 30), (50, 120, 40)][int(rng.integers(0, 3))]
        tex = _checks(rng, colour, (235, 238, 240), rng.uniform(6, 25), 0.5)
    elif table == "checked":
        tex = _checks(rng, (25, 25, 25), (235, 235, 235), rng.uniform(6, 20), 1.0)
    elif table == "wood":
        tex = _wood(rng)
    elif table == "marble":
        tex = _marble(rng)
    else:
        raise ValueError(f"unknown table {table!r}: use one of {TABLES}")
    w, h = CLOTH_MM
    place = props.rot(float(rng.uniform(0, 360))) @ props.move(-w / 2, -h / 2)
    gloss = 0.15 if table in ("gingham", "checked") else 0.5
    return Item(tex, np.full(tex.shape[:2], 255, np.uint8), CLOTH_PPM, place, PROP_ID0 - 1, gloss)


def table_shot(seed: int, *, mode: str = "1080p", table: str = "gingham", cards: int | None = None,
               height_cm: float | None = None, glare: float | None = None) -> Shot:
    """A seeded photo of a marked pile on the mat on ``table`` (see the module's doc)."""
    rng = np.random.default_rng([seed, 21])
    surface = cloth(table, rng)
    n = int(cards if cards is not None else rng.integers(6, 33))
    codes = [DECK[i].code for i in rng.permutation(48)[:n]]
    pose = draw_pose(rng, height_cm=height_cm if height_cm is not None else float(rng.uniform(50, 65)),
                     tilt_deg=None)
    light = lightmod.draw_lighting(rng, "bar", glare=glare, target_mm=pose.target_mm)
    ex = draw_exposure(mode, rng)
    ex = camera.Exposure(**{**ex.__dict__, "warmth": light.warmth})
    ppm = texture_ppm(mode, pose)
    items: list[Item] = ([surface] if surface is not None else []) + [mat_item("A3")]
    n_menus = int(rng.integers(4, 8)) if table == "menus" else int(rng.integers(0, 2))
    for i in range(n_menus):
        kind = "menu" if i % 3 != 2 else "fake_markers"
        p = props.distractor(kind, rng, ppm)
        w_mm, h_mm = props.prop_size_mm(p)
        # round the mat (A3: 420 x 297): the menus lie beside it, as on a bar table
        ang = rng.uniform(0, 2 * math.pi)
        at = (math.cos(ang) * rng.uniform(280, 340), math.sin(ang) * rng.uniform(200, 250))
        where = props.move(*at) @ props.rot(rng.uniform(0, 360)) @ props.move(-w_mm / 2, -h_mm / 2)
        items.append(Item(p.texture, p.alpha, p.px_per_mm, where, PROP_ID0 + i, p.gloss))
    kind = props.LAYOUTS[int(rng.integers(0, 3))]  # fan, spread or rows: every card shows
    pile = props.move(rng.uniform(-30, 30), rng.uniform(-25, 25)) @ props.rot(rng.uniform(0, 360))
    items += [card_item(code, pile @ place, rng, style="fournier", ppm=ppm)
              for code, place in zip(codes, props.layout(kind, n, rng))]
    image, jpeg, truth = shoot(items, mode=mode, pose=pose, lighting=light, exposure=ex, rng=rng, table_seed=seed)
    osize = camera.MODES[mode][1]
    meta = ShotMeta(seed, mode, osize, pose.height_mm / 10, pose.tilt_deg, pose.px_per_mm(osize), kind, "fournier",
                    "aruco", (table,), 0, light.glare_peak, ex, pose)
    return Shot(image, truth, meta, jpeg, tuple(codes))
