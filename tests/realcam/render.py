"""One photo of the table through the modelled camera, with its ground truth.

``render(seed, mode=..., ...)`` lays the capture mat, the cards (drawn deck + the kit's
printed stickers) and the distractors on a wooden table, lights them and takes the picture
with ``tests.realcam.camera``. Every parameter left at None is drawn from ``seed``; the
same arguments give the same pixels.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from kiosk.game import DECK, Card
from tests.realcam import camera, props
from tests.realcam.deck import CARD_H_MM, CARD_W_MM
from tests.realcam.reuse import Reuse, reuse_for
from tests.realcam.table import (CARD_ID0, HAND_ID, MAT_ID, PROP_ID0, Canvas, Item, _smear, card_item,
                                 mat_item, marked_card, sticker_places, texture_ppm)

__all__ = ["CARD_ID0", "HAND_ID", "MAT_ID", "PROP_ID0", "CardTruth", "Item", "Shot", "ShotMeta", "card_item",
           "draw_exposure", "draw_pose", "marked_card", "mat_item", "render", "shoot", "sticker_places",
           "texture_ppm"]


@dataclass(frozen=True)
class CardTruth:
    """One face-up card of the shot.

    ``marker_px``: side of the card's biggest wholly visible marker in the delivered image
    (black border included; 0 when none is visible). ``stickers_visible``: 0-2 stickers
    wholly inside the frame and uncovered. ``glare``: specular light added over that marker
    (linear units, 1 = a white card). ``contrast``: grey levels between its dark and light
    cells as delivered (under about 60 the sticker is washed out). ``occluded``: a sticker is
    partly covered. ``marker_quads``: the visible markers' corners (output px, the marker's
    own top-left first)."""

    code: str
    marker_px: float
    stickers_visible: int
    glare: float
    occluded: bool
    contrast: int
    marker_quads: tuple[np.ndarray, ...] = ()
    card_corners: np.ndarray | None = None  # the card's corners (output px), its top-left first

    @property
    def visible(self) -> bool:
        return self.stickers_visible > 0


@dataclass(frozen=True)
class ShotMeta:
    seed: int
    mode: str
    size: tuple[int, int]
    height_cm: float
    tilt_deg: float
    px_per_mm: float  # at the image centre, delivered image
    layout: str
    deck_style: str
    marks: str | None  # None: an ordinary deck, no stickers
    distractors: tuple[str, ...]
    face_down: int
    glare_peak: float
    exposure: camera.Exposure
    pose: camera.Pose


@dataclass
class Shot:
    """A delivered frame (BGR uint8, after JPEG; ``jpeg`` = its bytes) and its truth."""

    image: np.ndarray
    truth: list[CardTruth]
    meta: ShotMeta
    jpeg: bytes = b""
    face_up: tuple[str, ...] = field(default_factory=tuple)  # every face-up card on the table

    @property
    def visible(self) -> set[str]:
        """Cards with at least one sticker wholly in view: a reader should find these."""
        return {t.code for t in self.truth if t.visible}

    def wrong(self, reported) -> set[str]:
        """Reported codes that are not a face-up card on the table."""
        return {str(c) for c in reported} - set(self.face_up)



def _quad_cover(label: np.ndarray, quad: np.ndarray, want: int) -> float:
    """Share of the quad's pixels that show object ``want`` (1.0 = wholly visible)."""
    h, w = label.shape
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    if x0 < 2 or y0 < 2 or x1 > w - 2 or y1 > h - 2:
        inside = ((quad[:, 0] > 0) & (quad[:, 0] < w) & (quad[:, 1] > 0) & (quad[:, 1] < h)).any()
        return -1.0 if inside else 0.0  # cut by the frame's edge / out of the frame
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, np.round((quad - (x0, y0)) * 16).astype(np.int32), 1, cv2.LINE_8, 4)
    sel = m > 0
    return float((label[y0:y1, x0:x1][sel] == want).mean()) if sel.any() else 0.0



def _contrast(grey: np.ndarray, quad: np.ndarray) -> int:
    dst = np.float32([[0, 0], [31, 0], [31, 31], [0, 31]])
    patch = cv2.warpPerspective(grey, cv2.getPerspectiveTransform(np.float32(quad), dst), (32, 32))
    lo, hi = np.percentile(patch, (5, 95))
    return int(round(hi - lo))


def shoot(items: list[Item], *, mode: str, pose: camera.Pose, lighting, exposure: camera.Exposure,
          rng: np.random.Generator, table_seed: int = 0, motion: tuple[float, float] = (0.0, 0.0),
          static: int = 0, cache: dict | None = None, exposure_scale: float = 1.0, reuse: Reuse | None = None):
    """Lay ``items`` on the table and take the picture. Returns (image, jpeg, truth).

    ``static``: the first items do not change from frame to frame (a dealing sequence);
    their canvas is kept in ``cache`` and copied, not drawn again. ``exposure_scale``: the
    exposure time against the automatic one at the same gain (the kiosk's darker still is
    0.4): fewer electrons for the same read noise, so a noisier, darker picture where the
    glare clips less; the motion blur shortens with it. ``reuse``: the photos it takes differ
    only in the items after the ``static`` ones (nothing moving), under the same camera,
    light and sensor noise: it develops again only round them (the same pixels)."""
    from tests.realcam import light as lightmod

    rsize, osize = camera.MODES[camera.check_mode(mode)]
    hm = pose.table_to_image(rsize)
    key = tuple(it.label for it in items[:static])
    if cache is not None and key in cache:
        cv = cache[key].copy()
    else:
        cv = Canvas(rsize, hm, np.random.default_rng(table_seed))
        for it in items[:static]:
            cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss, darken=it.darken)
        if cache is not None:
            cache.clear()  # a dealt pile only grows: the previous state is not needed again
            cache[key] = cv.copy()
    for it in items[static:]:
        cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss, darken=it.darken)
    if any(it.moving for it in items) and math.hypot(*motion) > 0.5:
        _smear(cv, [it.label for it in items if it.moving], motion)
    irr, glare = lightmod.light_maps(lighting, pose, rsize)
    w, h = rsize
    # light varies slowly: the coarse maps scaled up; glare x gloss keeps the objects' edges.
    # The lamp's colour is one gain per channel: the sensor applies it (camera.develop).
    irr = cv2.resize(irr, (w + lightmod.GRID * 2, h + lightmod.GRID * 2), interpolation=cv2.INTER_LINEAR)[:h, :w]
    glare_up = cv2.resize(glare, (w + lightmod.GRID * 2, h + lightmod.GRID * 2),
                          interpolation=cv2.INTER_LINEAR)[:h, :w]
    glare_full = cv2.multiply(glare_up, cv.gloss, scale=0.01, dtype=cv2.CV_32F)
    if exposure_scale != 1.0:
        exposure = dataclasses.replace(exposure, motion_px=exposure.motion_px * exposure_scale)
    lamp = camera.lamp_colour(lighting.warmth)
    if reuse is not None:
        image, jpeg = reuse.develop(cv, items[static:], irr, glare_up, glare_full, exposure, exposure_scale, osize,
                                    rng, lamp)
    else:
        linear = camera.linear_light(cv.albedo, irr, glare_full, exposure_scale)
        del cv.albedo, irr
        linear = camera.blur_optics(linear, exposure)
        image, jpeg = camera.develop(linear, exposure, osize, rng, lamp=lamp)
        del linear
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    k = osize[0] / rsize[0]
    truth = []
    for it in items:
        if it.code is None:
            continue
        quads, covers, glares = [], [], []
        for q in it.markers_mm:
            px = cv2.perspectiveTransform(q.reshape(1, -1, 2), hm @ it.place)[0]
            # visible = every code cell shows: a quiet zone running off the card's own edge onto
            # the mat still reads, and one under another card counts as a miss, not as invisible
            c = px.mean(0)
            cover = _quad_cover(cv.label, px, it.label)
            covers.append(cover)
            if cover >= 0.995:
                quads.append(px * k)
                cx, cy = np.clip(c.astype(int), 0, (w - 1, h - 1))
                glares.append(float(glare_full[cy, cx]))
        sides = [float(np.mean([np.linalg.norm(q[i] - q[(i + 1) % 4]) for i in range(4)])) for q in quads]
        best = int(np.argmax(sides)) if sides else -1
        truth.append(CardTruth(
            code=it.code, marker_px=sides[best] if sides else 0.0, stickers_visible=len(quads),
            glare=glares[best] if sides else 0.0,
            occluded=any(0.0 < cv_ < 0.995 for cv_ in covers),
            contrast=_contrast(grey, quads[best]) if sides else 0,
            marker_quads=tuple(quads),
            card_corners=cv2.perspectiveTransform(
                np.float32([[[0, 0], [CARD_W_MM, 0], [CARD_W_MM, CARD_H_MM], [0, CARD_H_MM]]]), hm @ it.place)[0] * k))
    return image, jpeg, truth


def draw_exposure(mode: str, rng: np.random.Generator, *, lighting: str = "bar") -> camera.Exposure:
    """The camera's settings for one frame. Video: the binned sensor's pixels, high gain
    (short exposure against motion); stills: full-sensor pixels, lower gain, a longer exposure."""
    video = mode != "still"
    dim = lighting != "even"
    return camera.Exposure(
        # focus error. Video: a blur disk of 1-5 sensor pixels' radius (continuous autofocus
        # hunting, or a focus set for another height), halved by the 2x2 binning. A still
        # runs an autofocus cycle first: 0.5-2.5 sensor pixels left.
        defocus_px=float(rng.uniform(0.5, 2.5) if video else rng.uniform(0.5, 2.5)),
        motion_px=float(rng.uniform(0.0, 1.2) if video else rng.uniform(0.0, 2.5)),
        motion_deg=float(rng.uniform(0, 180)),
        gain=float(rng.uniform(4, 16) if video and dim else rng.uniform(1.5, 6)),
        warmth=0.0,  # set from the lighting by the caller
        awb=float(rng.uniform(0.5, 0.9)),
        sharpen=float(rng.uniform(0.4, 1.2)),
        sharpen_sigma=float(rng.uniform(0.8, 1.5) if video else rng.uniform(1.0, 2.0)),
        jpeg_quality=int(rng.integers(70, 91)))


def draw_pose(rng: np.random.Generator, *, height_cm: float | None, tilt_deg: float | None,
              target_mm: tuple[float, float] = (0.0, 0.0)) -> camera.Pose:
    h = float(height_cm if height_cm is not None else rng.uniform(50, 75))
    t = float(tilt_deg if tilt_deg is not None else rng.uniform(0, 15))
    return camera.Pose(h * 10, t, float(rng.uniform(0, 360)), float(rng.uniform(0, 360)),
                       (target_mm[0] + float(rng.uniform(-40, 40)), target_mm[1] + float(rng.uniform(-30, 30))))


def render(seed: int, *, mode: str = "1080p", height_cm: float | None = None, tilt_deg: float | None = None,
           layout: str | None = None, cards: int | list[str] | None = None,
           distractors: tuple[str, ...] | None = None, face_down: int | None = None,
           deck_style: str | None = None, marks: str | None = "aruco", lighting: str = "bar",
           glare: float | None = None, mat: str | None = "A3", exposure_scale: float = 1.0) -> Shot:
    """A seeded photo of a pile on the mat through the modelled camera.

    ``mode``: "720p", "1080p" or "still" (4608x2592). ``cards``: how many face-up cards
    (4-48 when None; 0 = an empty mat) or their codes. ``layout``: "fan", "spread", "rows" or
    "stack". ``distractors``: kinds from ``props.DISTRACTORS`` (None = a random few; "face_down"
    adds ``face_down`` backs). ``lighting``: "bar", "even" or "harsh"; ``glare`` overrides its
    peak. ``exposure_scale``: the SAME scene at that share of the automatic exposure time
    (0.4: the kiosk's darker still when it sees glare); its sensor noise is drawn afresh.
    Raises ValueError for an unknown mode, layout, style, lighting or distractor.

    >>> shot = render(3, mode="720p", cards=8, layout="spread")
    >>> shot.image.shape, len(shot.truth)
    ((720, 1280, 3), 8)
    """
    from tests.realcam import light as lightmod
    from tests.realcam.deck import STYLES, style as check_style

    camera.check_mode(mode)
    rng = np.random.default_rng([seed, 1])
    style = deck_style if deck_style is not None else STYLES[int(rng.integers(0, len(STYLES)))]
    check_style(style)
    kind = layout if layout is not None else props.LAYOUTS[int(rng.integers(0, len(props.LAYOUTS)))]
    if cards is None:
        cards = int(rng.integers(4, 49))
    codes = [DECK[i].code for i in rng.permutation(48)[:cards]] if isinstance(cards, int) else \
        [Card.parse(c).code for c in cards]
    if distractors is None:
        distractors = tuple(d for d in props.DISTRACTORS if rng.random() < 0.3)
    for d in distractors:
        if d not in props.DISTRACTORS:
            raise ValueError(f"unknown distractor {d!r}: use one of {props.DISTRACTORS}")
    n_down = (face_down if face_down is not None else int(rng.integers(1, 5))) if "face_down" in distractors else 0
    pose = draw_pose(rng, height_cm=height_cm, tilt_deg=tilt_deg)
    light = lightmod.draw_lighting(rng, lighting, glare=glare, target_mm=pose.target_mm)
    ex = draw_exposure(mode, rng, lighting=lighting)
    ex = camera.Exposure(**{**ex.__dict__, "warmth": light.warmth})
    ppm = texture_ppm(mode, pose)

    items: list[Item] = [mat_item(mat)] if mat else []
    under: list[Item] = []
    over: list[Item] = []
    kinds = [d for d in distractors if d != "face_down"] + ["face_down"] * n_down
    for i, d in enumerate(kinds):
        p = props.distractor(d, rng, ppm, deck_style=style)
        w_mm, h_mm = props.prop_size_mm(p)
        where = props.move(rng.uniform(-280, 280), rng.uniform(-180, 180)) @ props.rot(rng.uniform(0, 360)) \
            @ props.move(-w_mm / 2, -h_mm / 2)
        it = Item(p.texture, p.alpha, p.px_per_mm, where, PROP_ID0 + i, p.gloss, darken=p.darken_only)
        (over if d in ("phone", "menu") and rng.random() < 0.3 else under).append(it)
    pile = props.move(rng.uniform(-30, 30), rng.uniform(-25, 25)) @ props.rot(rng.uniform(0, 360))
    cards_items = [card_item(code, pile @ place, rng, style=style, ppm=ppm, marks=marks)
                   for code, place in zip(codes, props.layout(kind, len(codes), rng))]
    items += under + cards_items + over
    if exposure_scale != 1.0:
        # a second exposure is a new draw of the sensor's noise, not the first one's scaled
        rng = np.random.default_rng([seed, 2, int(round(exposure_scale * 1000))])
    # the same arguments but the cards' codes (one enrolment photo a card): the same table,
    # camera, light and noise, developed again round the cards only
    reuse = None if over else reuse_for((seed, mode, height_cm, tilt_deg, kind, tuple(distractors), n_down, style,
                                         marks, lighting, glare, mat, exposure_scale, len(codes)))
    static = len(items) - len(cards_items) if reuse is not None else 0
    image, jpeg, truth = shoot(items, mode=mode, pose=pose, lighting=light, exposure=ex, rng=rng,
                               table_seed=seed, exposure_scale=exposure_scale, static=static,
                               cache=reuse.canvas if reuse is not None else None, reuse=reuse)
    osize = camera.MODES[mode][1]
    meta = ShotMeta(seed, mode, osize, pose.height_mm / 10, pose.tilt_deg, pose.px_per_mm(osize), kind, style,
                    marks, tuple(distractors), n_down, light.glare_peak, ex, pose)
    return Shot(image, truth, meta, jpeg, tuple(codes))
