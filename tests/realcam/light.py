"""The light over the table: a warm lamp with fall-off, its specular glare, hand shadows.

The lamp is a point source ``lamp_h_mm`` above a spot on the table: irradiance on the table
falls as cos^3 of the angle (Lambert x inverse square). Its glare is the lamp's mirror image
in the glossy cards: it sits where the camera-lamp reflection meets the table, spread by
the lampshade's size and the cards' curl. Shadows are hands and arms between lamp and table:
soft, dark polygons. Everything is computed on a coarse grid and scaled up (light varies
slowly), except glare x gloss, whose edges are the objects' edges.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from tests.realcam.camera import Pose

LIGHTINGS = ("bar", "even", "harsh")
GRID = 16  # render pixels per light-grid cell


@dataclass(frozen=True)
class Lighting:
    lamp_xy_mm: tuple[float, float]
    lamp_h_mm: float
    glare_peak: float  # specular peak on a gloss-1 surface (linear; 1 = a white card)
    glare_sigma_mm: float
    vignette: float  # light lost at the frame's corners (lens shading left after the ISP)
    warmth: float
    shadows: tuple[np.ndarray, ...]  # polygons in table mm
    shadow_depth: float  # share of the light a shadow takes away


def hand_polygon(tip_mm: tuple[float, float], angle_deg: float, scale: float = 1.0) -> np.ndarray:
    """A flat hand with an arm behind it, fingers at ``tip_mm``, arm going ``angle_deg`` away."""
    pts = [(-40, 0), (-42, 55), (-30, 75), (-35, 400), (35, 400), (32, 80), (45, 40), (55, 20),
           (40, 15), (38, -15), (26, -60), (14, -20), (8, -75), (-2, -22), (-10, -70), (-18, -18),
           (-28, -55)]
    a = math.radians(angle_deg)
    ca, sa = math.cos(a), math.sin(a)
    return np.float32([(tip_mm[0] + scale * (x * ca - (y + 70) * sa), tip_mm[1] + scale * (x * sa + (y + 70) * ca))
                       for x, y in pts])


def draw_lighting(rng: np.random.Generator, kind: str = "bar", *, glare: float | None = None,
                  target_mm: tuple[float, float] = (0.0, 0.0), shadows: int | None = None) -> Lighting:
    """A lighting drawn from ``rng``: "bar" (one warm lamp, glare somewhere, maybe a hand's
    shadow), "even" (diffuse light, weak glare), "harsh" (a low lamp, strong glare)."""
    if kind not in LIGHTINGS:
        raise ValueError(f"unknown lighting {kind!r}: use one of {LIGHTINGS}")
    d = {"bar": rng.uniform(150, 650), "even": rng.uniform(0, 300), "harsh": rng.uniform(100, 400)}[kind]
    a = rng.uniform(0, 2 * math.pi)
    lamp = (target_mm[0] + d * math.cos(a), target_mm[1] + d * math.sin(a))
    lamp_h = {"bar": rng.uniform(600, 1200), "even": rng.uniform(1500, 2500), "harsh": rng.uniform(400, 700)}[kind]
    peak = glare if glare is not None else {"bar": rng.uniform(0.0, 1.3), "even": rng.uniform(0.0, 0.3),
                                            "harsh": rng.uniform(0.8, 1.8)}[kind]
    n_sh = shadows if shadows is not None else int(rng.random() < (0.5 if kind != "even" else 0.2))
    polys = tuple(hand_polygon((target_mm[0] + rng.uniform(-250, 250), target_mm[1] + rng.uniform(-150, 150)),
                               rng.uniform(0, 360), rng.uniform(0.9, 1.2)) for _ in range(n_sh))
    return Lighting(lamp, lamp_h, float(peak), float(rng.uniform(18, 55)), float(rng.uniform(0.15, 0.4)),
                    float(rng.uniform(0.55, 1.0) if kind != "even" else rng.uniform(0.2, 0.6)),
                    polys, float(rng.uniform(0.35, 0.7)))


def light_maps(lighting: Lighting, pose: Pose, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """(irradiance, glare) on the coarse grid (float32, ~size/GRID): irradiance 1 = full light
    at the image centre's table point; glare before each surface's gloss."""
    w, h = size
    gw, gh = w // GRID + 2, h // GRID + 2
    hm = pose.table_to_image(size)
    inv = np.linalg.inv(hm)
    ys, xs = np.mgrid[0:gh, 0:gw].astype(np.float32)
    px = np.stack([xs * GRID, ys * GRID], -1).reshape(1, -1, 2)
    mm = cv2.perspectiveTransform(px, inv)[0].reshape(gh, gw, 2)
    lx, ly = lighting.lamp_xy_mm
    hl = lighting.lamp_h_mm

    def fall(x, y):
        return (hl / np.sqrt(hl * hl + (x - lx) ** 2 + (y - ly) ** 2)) ** 3

    centre = cv2.perspectiveTransform(np.float32([[[w / 2, h / 2]]]), inv)[0, 0]
    irr = fall(mm[..., 0], mm[..., 1]) / fall(centre[0], centre[1])
    rr = ((xs * GRID - w / 2) ** 2 + (ys * GRID - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)
    irr = irr * (1 - lighting.vignette * rr)
    if lighting.shadows:
        mask = np.ones((gh, gw), np.float32)
        for poly in lighting.shadows:
            p = cv2.perspectiveTransform(poly.reshape(1, -1, 2), hm)[0] / GRID
            cv2.fillPoly(mask, [np.round(p * 16).astype(np.int32)], 1 - lighting.shadow_depth, cv2.LINE_AA, 4)
        mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, 25 * pose.px_per_mm(size) / GRID))
        irr = irr * mask
    # the lamp's mirror image: on the line camera->lamp reflected in the table plane
    cam_xy = cv2.perspectiveTransform(np.float32([[[w / 2, h / 2]]]), inv)[0, 0]  # near enough below the lens
    hc = pose.height_mm
    mx = cam_xy[0] + (lx - cam_xy[0]) * hc / (hc + hl)
    my = cam_xy[1] + (ly - cam_xy[1]) * hc / (hc + hl)
    s = lighting.glare_sigma_mm
    glare = lighting.glare_peak * np.exp(-((mm[..., 0] - mx) ** 2 + (mm[..., 1] - my) ** 2) / (2 * s * s))
    return irr.astype(np.float32), glare.astype(np.float32)


def up(grid: np.ndarray, size: tuple[int, int], y0: int, y1: int) -> np.ndarray:
    """Rows y0:y1 of the grid map scaled to full resolution (bilinear)."""
    w, _ = size
    ys = (np.arange(y0, y1, dtype=np.float32) / GRID)
    xs = (np.arange(w, dtype=np.float32) / GRID)
    mx, my = np.meshgrid(xs, ys)
    return cv2.remap(grid, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
