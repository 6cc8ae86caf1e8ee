"""A player counting a pile by dealing it face up, one card at a time (issue 11), and the
photos a deck is learnt from. Ordinary cards: no stickers.

``deal(seed, ...)`` gives a :class:`Deal`: its ``truth`` (the order dealt, when each card
lies still with no hand in view) is known at once; ``frames()`` renders the video frames
in time order on demand (one 720p frame is a few tenths of a second of CPU), so a long
sequence never sits in memory.

One card's cycle (``period_s``, about a second): the hand comes in from the dealer's side
holding the card (both smeared by their motion), lays it on the pile and covers it, leaves,
then the pile lies still until the next hand comes. No card lands exactly on the last one
(a few mm and degrees off); the hand casts its shadow, someone's arm may shade the table all
along, and the lamp's reflection is wherever its mirror image falls (``DealtCard.glare``
says how bright it is on each card: above about 0.6 the card's print is washed out).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from typing import Iterator

import cv2
import numpy as np

from kiosk.game import DECK, Card
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deck import STYLES
from tests.realcam.render import (HAND_ID, Item, Shot, ShotMeta, card_item, draw_exposure, draw_pose, mat_item,
                                  render, shoot, texture_ppm)

HAND_PPM = 3.0
SKIN = (120, 160, 215)
SLEEVE = (90, 60, 50)


@dataclass(frozen=True)
class DealtCard:
    code: str
    lands_s: float  # laid on the pile (the hand still over it)
    still_s: float  # from here it lies still with no hand in view ...
    until_s: float  # ... until the next hand comes into view (end of sequence: the last frame)
    together_with: str | None = None  # dealt at once with another card (the reader should ask)
    glare: float = 0.0  # the lamp's reflection at its brightest on this card (1 = as bright as a white card)


@dataclass(frozen=True)
class DealFrame:
    t_s: float
    image: np.ndarray  # BGR uint8 after JPEG
    jpeg: bytes
    hand_in_view: bool
    moving: bool  # a card or a hand is moving in this frame


@dataclass
class Deal:
    """A dealing sequence: ``truth`` now, ``frames()`` rendered on demand."""

    seed: int
    mode: str
    fps: float
    deck_style: str
    lighting: str
    truth: list[DealtCard]
    duration_s: float
    _plan: dict = dataclasses.field(repr=False, default_factory=dict)

    @property
    def order(self) -> list[str]:
        return [c.code for c in self.truth]

    def __len__(self) -> int:
        return int(math.floor(self.duration_s * self.fps)) + 1

    def frames(self, *, use_cache: bool = True) -> Iterator[DealFrame]:
        """Every frame in time order (deterministic). Frames are kept on disk after their first
        render, like the benchmark's shots (``tests.realcam.dataset.cache_dir``)."""
        from tests.realcam.dataset import cache_dir, generator_version

        folder = cache_dir() / generator_version() / f"deal-{self._plan['key']}"
        canvas: dict = {}
        for n in range(len(self)):
            t = n / self.fps
            jpg, flags = folder / f"{n:05d}.jpg", folder / f"{n:05d}.hand"
            if use_cache and jpg.exists():
                jpeg = jpg.read_bytes()
                hand = flags.exists()
                yield DealFrame(t, cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR), jpeg, hand, hand)
                continue
            frame = self._frame(t, n, canvas)
            if use_cache:
                try:
                    folder.mkdir(parents=True, exist_ok=True)
                    if frame.hand_in_view:
                        flags.touch()
                    tmp = jpg.with_suffix(".tmp")
                    tmp.write_bytes(frame.jpeg)
                    tmp.replace(jpg)
                except OSError:
                    pass  # a read-only cache: render every time
            yield frame

    def _frame(self, t: float, n: int, cache: dict) -> DealFrame:
        p = self._plan
        rng = np.random.default_rng([self.seed, 7, n])
        items: list[Item] = [p["mat"]]
        moving: list[Item] = []
        hand_poly = None
        motion = (0.0, 0.0)
        for k, step in enumerate(p["steps"]):
            t0, t_land, t_gone = step["t0"], step["t_land"], step["t_gone"]
            if t < t0:
                break
            if t >= t_land:
                items.extend(step["items"])  # lies on the pile
            else:  # in the hand, on its way: ease in, from off the frame to the pile
                u = (t - t0) / (t_land - t0)
                e = 1 - (1 - u) ** 2
                du = 1 / self.fps / (t_land - t0)
                off = step["from_mm"] * (1 - e)
                off_prev = step["from_mm"] * (1 - (1 - (1 - max(u - du, 0)) ** 2))
                for it in step["items"]:
                    moving.append(dataclasses.replace(it, place=props.move(*off) @ it.place, moving=True))
                hand_poly = lightmod.hand_polygon(tuple(step["grip_mm"] + off), step["arm_deg"], step["hand_scale"])
                motion_mm = off - off_prev
                motion = _px(p, step["grip_mm"], motion_mm * 0.5)  # the shutter is open half the frame time
            if t_land <= t < t_gone:  # the hand lets go and leaves the way it came
                v = (t - t_land) / (t_gone - t_land)
                off = step["from_mm"] * v * v
                hand_poly = lightmod.hand_polygon(tuple(step["grip_mm"] + off), step["arm_deg"], step["hand_scale"])
                motion = _px(p, step["grip_mm"], step["from_mm"] * (2 * v / (t_gone - t_land) / self.fps) * 0.5)
        static = len(items)
        items.extend(moving)
        lighting = p["lighting"]
        if hand_poly is not None:
            items.append(_hand_item(hand_poly))
            # the hand's own shadow, a little off towards the far side from the lamp
            shift = (np.array(hand_poly.mean(0)) - np.array(lighting.lamp_xy_mm)) * 0.08
            lighting = dataclasses.replace(lighting, shadows=lighting.shadows + (hand_poly + shift.astype(np.float32),))
        image, jpeg, _ = shoot(items, mode=self.mode, pose=p["pose"], lighting=lighting, exposure=p["exposure"],
                               rng=rng, table_seed=self.seed, motion=motion, static=static, cache=cache)
        hand = hand_poly is not None and _in_view(hand_poly, p["hm"], camera.MODES[self.mode][0])
        return DealFrame(t, image, jpeg, hand, hand or bool(moving))


def _glare_on(card: Item, pose: camera.Pose, lighting: lightmod.Lighting) -> float:
    """The brightest reflection of the lamp on a card lying at ``card.place`` (the same mirror
    image as ``light.light_maps``, sampled over the card's face, times its gloss)."""
    size = camera.MODES["720p"][0]
    inv = np.linalg.inv(pose.table_to_image(size))
    cam = cv2.perspectiveTransform(np.float32([[[size[0] / 2, size[1] / 2]]]), inv)[0, 0]
    lx, ly = lighting.lamp_xy_mm
    k = pose.height_mm / (pose.height_mm + lighting.lamp_h_mm)
    mirror = cam + (np.float32([lx, ly]) - cam) * k
    xs, ys = np.meshgrid(np.linspace(2, 59, 12), np.linspace(2, 93, 18))
    pts = np.stack([xs.ravel(), ys.ravel(), np.ones(xs.size)], axis=1) @ np.asarray(card.place, np.float64).T
    d2 = ((pts[:, :2] / pts[:, 2:3] - mirror) ** 2).sum(axis=1).min()
    return float(lighting.glare_peak * np.exp(-d2 / (2 * lighting.glare_sigma_mm ** 2)) * card.gloss)


def _px(plan: dict, at_mm, d_mm) -> tuple[float, float]:
    """A small move on the table (mm) as seen in the render (px)."""
    a = np.float32([[at_mm, np.asarray(at_mm) + d_mm]])
    b = cv2.perspectiveTransform(a, plan["hm"])[0]
    return float(b[1, 0] - b[0, 0]), float(b[1, 1] - b[0, 1])


def _in_view(poly_mm: np.ndarray, hm: np.ndarray, size: tuple[int, int]) -> bool:
    """Whether any of the hand shows in the frame (drawn on a coarse grid)."""
    w, h = size
    px = cv2.perspectiveTransform(poly_mm.reshape(1, -1, 2), hm)[0] / 8
    grid = np.zeros((h // 8 + 1, w // 8 + 1), np.uint8)
    cv2.fillPoly(grid, [np.round(px).astype(np.int32)], 1)
    return bool(grid.any())


def _hand_item(poly_mm: np.ndarray) -> Item:
    x0, y0 = poly_mm.min(0) - 2
    x1, y1 = poly_mm.max(0) + 2
    w, h = int((x1 - x0) * HAND_PPM) + 1, int((y1 - y0) * HAND_PPM) + 1
    alpha = np.zeros((h, w), np.uint8)
    pts = np.round((poly_mm - (x0, y0)) * HAND_PPM * 16).astype(np.int32)
    cv2.fillPoly(alpha, [pts], 255, cv2.LINE_AA, 4)
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = SLEEVE
    # skin up to the wrist (150 mm from the fingertips), the sleeve beyond
    tip = (poly_mm[12] - (x0, y0)) * HAND_PPM
    cv2.circle(tex, (int(tip[0]), int(tip[1])), int(150 * HAND_PPM), SKIN, -1)
    return Item(tex, alpha, HAND_PPM, props.move(x0, y0), HAND_ID, 0.3, moving=True)


def deal(seed: int, *, mode: str = "720p", deck_style: str = "fournier", cards: int | list[str] = 24,
         lighting: str = "bar", fps: float = 10.0, height_cm: float | None = None,
         period_s: float = 1.0, doubles: tuple[int, ...] = ()) -> Deal:
    """A player dealing ``cards`` (how many, drawn from the seed, or the codes in order) face up
    onto one pile on the mat, one about every ``period_s``. ``doubles``: indexes of deals where
    two cards land together (the second slightly offset). Ordinary cards, no stickers.

    >>> d = deal(1, cards=2, fps=4)
    >>> len(d.order), len(list(d.frames())) == len(d)
    (2, True)
    """
    camera.check_mode(mode)
    if deck_style not in STYLES:
        raise ValueError(f"unknown deck style {deck_style!r}: use one of {STYLES}")
    rng = np.random.default_rng([seed, 3])
    codes = [DECK[i].code for i in rng.permutation(48)[:cards]] if isinstance(cards, int) else \
        [Card.parse(c).code for c in cards]
    pose = draw_pose(rng, height_cm=height_cm if height_cm is not None else float(rng.uniform(50, 65)),
                     tilt_deg=None)
    # someone's arm may shade part of the table all along (a static shadow), as in the shots
    light = lightmod.draw_lighting(rng, lighting, target_mm=pose.target_mm)
    ex = draw_exposure(mode, rng, lighting=lighting)
    ex = dataclasses.replace(ex, warmth=light.warmth, motion_px=0.0)  # only moving things smear
    ppm = texture_ppm(mode, pose)
    seat = rng.uniform(0, 360)  # the dealer's side of the table
    pile_xy = np.array([rng.uniform(-40, 40), rng.uniform(-30, 30)])
    steps, truth = [], []
    t = 0.3
    i = 0
    while i < len(codes):
        per = period_s * rng.uniform(0.8, 1.25)
        two = len(truth) in doubles and i + 1 < len(codes)
        group = codes[i:i + (2 if two else 1)]
        a = math.radians(seat + rng.uniform(-25, 25))
        from_mm = np.array([math.cos(a), math.sin(a)]) * rng.uniform(380, 480)
        its = []
        # no card lands exactly on the last one: a few millimetres off, a few degrees turned
        lands = pile_xy + rng.uniform(-4, 4, 2)
        glares = []
        for j, code in enumerate(group):
            place = props.move(*(lands + (j * rng.uniform(8, 15), j * rng.uniform(5, 10)))) \
                @ props.rot(seat - 90 + rng.uniform(-6, 6)) @ props.move(-30.5, -47.5)
            its.append(card_item(code, place, rng, style=deck_style, ppm=ppm, marks=None))
            glares.append(_glare_on(its[-1], pose, light))
        t_land = t + per * rng.uniform(0.3, 0.4)
        t_gone = t_land + per * rng.uniform(0.15, 0.25)
        grip = pile_xy + np.array([math.cos(a), math.sin(a)]) * 45
        steps.append(dict(t0=t, t_land=t_land, t_gone=t_gone, items=its, from_mm=from_mm, grip_mm=grip,
                          arm_deg=math.degrees(a) - 90, hand_scale=float(rng.uniform(0.9, 1.15))))
        t_next = t + per
        for j, code in enumerate(group):
            truth.append(DealtCard(code, t_land, t_gone, t_next, group[1 - j] if two else None, glares[j]))
        t = t_next
        i += len(group)
    duration = t + 0.2
    truth[-len(group):] = [dataclasses.replace(c, until_s=duration) for c in truth[-len(group):]]
    key = hashlib.sha1(repr((seed, mode, deck_style, codes, lighting, fps, height_cm, period_s,
                             tuple(doubles))).encode()).hexdigest()[:16]
    plan = dict(key=key, mat=mat_item("A3"), steps=steps, pose=pose, lighting=light, exposure=ex,
                hm=pose.table_to_image(camera.MODES[mode][0]))
    return Deal(seed, mode, fps, deck_style, lighting, truth, duration, plan)


def enrol_photo(code: str, *, deck_style: str = "fournier", lighting: str = "even", seed: int = 0,
                mode: str = "1080p", height_cm: float | None = None) -> Shot:
    """The camera's whole frame with one ordinary card (no stickers) face up on the mat, as
    ``deck learn`` takes it. ``Shot.truth[0].card_corners`` says where the card is."""
    return render(seed, mode=mode, cards=[code], layout="stack", distractors=(), deck_style=deck_style,
                  marks=None, lighting=lighting, height_cm=height_cm)


__all__ = ["Deal", "DealFrame", "DealtCard", "ShotMeta", "deal", "enrol_photo"]
