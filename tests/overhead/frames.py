"""The overhead camera filming a planned hand (tests/overhead/plan.py) at 10 frames a
second, through the realistic camera chain of tests/realcam (lamp fall-off and
reflection, hand shadows, defocus, motion smear, Bayer noise at the gain of a dim bar,
ISP, JPEG), with a little exposure jitter from frame to frame (the auto exposure hunting).

``overhead(seed, mode=..., height_cm=...)`` gives a :class:`Sequence`: its plan and the
image points of the four seats' places now; ``frames()`` renders frame by frame (about
0.3-0.8 s of CPU each), kept on disk after the first time like tests/realcam's deals.
Every frame comes with its ground truth: which card lies still at which seat.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from tests.overhead.plan import PLAN_VERSION, HandPlan, lying_at, plan_hand, reach_at, seat_place_mm
from tests.realcam import camera, light as lightmod
from tests.realcam.deal import _hand_item
from tests.realcam.render import Item, card_item, draw_exposure, shoot, texture_ppm

FPS = 10.0


@dataclass(frozen=True)
class OverheadFrame:
    n: int
    t_s: float
    image: np.ndarray  # BGR uint8 after JPEG
    lying: dict[int, str]  # seat -> the card lying still there (ground truth)


@dataclass
class Sequence:
    plan: HandPlan
    mode: str
    height_cm: float
    pose: camera.Pose
    lighting: lightmod.Lighting
    exposure: camera.Exposure
    seats_px: dict[int, tuple[float, float]]  # each seat's place in the delivered image
    key: str
    deck_style: str = "fournier"

    @property
    def size(self) -> tuple[int, int]:
        return camera.MODES[self.mode][1]

    def __len__(self) -> int:
        return int(math.floor(self.plan.duration_s * FPS)) + 1

    def frame_of(self, t_s: float) -> int:
        """The first frame at or after ``t_s``."""
        return int(math.ceil(t_s * FPS - 1e-9))

    def frames(self, *, use_cache: bool = True, limit: int | None = None) -> Iterator[OverheadFrame]:
        from tests.realcam.dataset import cache_dir

        folder = cache_dir() / f"overhead-{_version()}-{self.key}"
        memo: dict = {}
        for n in range(len(self) if limit is None else min(limit, len(self))):
            t = n / FPS
            path = folder / f"{n:05d}.jpg"
            if use_cache and path.exists():
                image = cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
            else:
                image, jpeg = self._render(n, t, memo)
                if use_cache:
                    try:
                        folder.mkdir(parents=True, exist_ok=True)
                        tmp = path.with_suffix(".tmp")
                        tmp.write_bytes(jpeg)
                        tmp.replace(path)
                    except OSError:
                        pass
            yield OverheadFrame(n, t, image, lying_at(self.plan, t))

    def _render(self, n: int, t: float, memo: dict) -> tuple[np.ndarray, bytes]:
        if "items" not in memo:
            ppm = texture_ppm(self.mode, self.pose)
            rng = np.random.default_rng([self.plan.seed, 5])
            memo["items"] = [card_item(p.code, p.place, rng, style=self.deck_style, ppm=ppm, marks=None)
                             for p in self.plan.plays]
            memo["canvas"] = {}
        cards: list[Item] = memo["items"]
        rng = np.random.default_rng([self.plan.seed, 9, n])
        still: list[Item] = []
        moving: list[Item] = []
        hands = []
        motion = (0.0, 0.0)
        carried = {}
        for r in self.plan.reaches:
            tip = reach_at(r, t)
            if tip is None:
                continue
            hands.append(lightmod.hand_polygon(tuple(tip), _arm_deg(r.seat), 1.0 + 0.05 * (r.seat % 2)))
            prev = reach_at(r, t - 1 / FPS)
            d_mm = tip - (prev if prev is not None else tip)
            if t < r.t_in:
                for k in r.carries:
                    carried[k] = tip - r.tip_mm
            elif r.sweeps:
                for k in r.sweeps:
                    carried[k] = tip - r.tip_mm
            if float(np.hypot(*d_mm)) > 1.0:
                motion = _px(self, r.tip_mm, d_mm * 0.5)
        for k, p in enumerate(self.plan.plays):
            sweep = next((r for r in self.plan.reaches if k in r.sweeps), None)
            if t < self.plan.reaches[0].t0 or t < _carried_from(self.plan, k):
                continue
            if sweep is not None and t >= sweep.t_out:
                continue
            if k in carried:
                off = carried[k]
                moving.append(dataclasses.replace(cards[k], place=_shift(off) @ cards[k].place, moving=True))
            else:
                still.append(cards[k])
        light = self.lighting
        items = still + moving
        for poly in hands:
            items.append(_hand_item(poly))
            shift = (poly.mean(0) - np.array(light.lamp_xy_mm)) * 0.08
            light = dataclasses.replace(light, shadows=light.shadows + (poly + shift.astype(np.float32),))
        jitter = float(np.clip(1 + rng.normal(0, 0.03), 0.9, 1.1))
        image, jpeg, _ = shoot(items, mode=self.mode, pose=self.pose, lighting=light, exposure=self.exposure,
                               rng=rng, table_seed=self.plan.seed, motion=motion, static=len(still),
                               cache=memo["canvas"], exposure_scale=jitter)
        return image, jpeg


def _carried_from(plan: HandPlan, k: int) -> float:
    return next(r.t0 for r in plan.reaches if k in r.carries)


def _shift(off: np.ndarray) -> np.ndarray:
    return np.array([[1, 0, off[0]], [0, 1, off[1]], [0, 0, 1]], np.float64)


def _arm_deg(seat: int) -> float:
    from tests.overhead.plan import SEAT_DEG

    return SEAT_DEG[seat] - 90


def _px(seq: Sequence, at_mm, d_mm) -> tuple[float, float]:
    hm = seq.pose.table_to_image(camera.MODES[seq.mode][0])
    a = np.float32([[at_mm, np.asarray(at_mm) + d_mm]])
    b = cv2.perspectiveTransform(a, hm)[0]
    return float(b[1, 0] - b[0, 0]), float(b[1, 1] - b[0, 1])


def _version() -> str:
    h = hashlib.sha1()
    here = Path(__file__).parent
    # the plan is in the sequence's key (its arguments and PLAN_VERSION): only the camera here
    for p in [here / "frames.py"] + sorted((here.parent / "realcam").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:10]


def overhead(seed: int, *, mode: str = "720p", height_cm: float = 85.0, renunci: bool = False,
             tricks: int = 12, lighting: str = "bar", deck_style: str = "fournier") -> Sequence:
    """A hand filmed from ``height_cm`` above the middle of the table (tilted a few degrees,
    turned any way), in ``mode`` "720p" or "1080p".

    >>> seq = overhead(1, tricks=1)
    >>> sorted(seq.seats_px), len(seq.plan.plays)
    ([0, 1, 2, 3], 4)
    """
    camera.check_mode(mode)
    plan = plan_hand(seed, renunci=renunci, tricks=tricks)
    rng = np.random.default_rng([seed, 11])
    pose = camera.Pose(height_cm * 10, float(rng.uniform(0, 6)), float(rng.uniform(0, 360)),
                       float(rng.uniform(0, 360)), (float(rng.uniform(-30, 30)), float(rng.uniform(-20, 20))))
    light = lightmod.draw_lighting(rng, lighting, target_mm=pose.target_mm)
    ex = draw_exposure(mode, rng, lighting=lighting)
    ex = dataclasses.replace(ex, warmth=light.warmth, motion_px=0.0)
    hm = pose.table_to_image(camera.MODES[mode][1])
    pts = cv2.perspectiveTransform(np.float32([[seat_place_mm(s) for s in range(4)]]), hm)[0]
    seats = {s: (float(pts[s, 0]), float(pts[s, 1])) for s in range(4)}
    key = hashlib.sha1(repr((PLAN_VERSION, seed, mode, height_cm, renunci, tricks, lighting, deck_style)).encode()).hexdigest()[:14]
    return Sequence(plan, mode, height_cm, pose, light, ex, seats, key, deck_style)
