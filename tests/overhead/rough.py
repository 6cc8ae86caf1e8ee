"""A planned hand (tests/overhead/plan.py) filmed by the overhead camera at a rough table: the
nuisances of tests/realcam/rough (what the deal-through benchmark is held to) on the table a
hand is played on, through that package's fast camera chain (about 0.1 s a 720p frame).

``rough_overhead(seed, mode=, height_cm=, renunci=)`` draws every phenomenon from the seed
(``realistic_nuisances``): the table (mat, felt, wood, marble), each card's shadow on what
lies under it (lifted edges, a low lamp), the lamp's reflection lying near a seat's place,
swaying and flickering, the analogue gain of a dim bar (noise), exposure and gain jitter with
rolling-shutter flicker bands, and players' hands resting at the table's edge in view,
twitching, between their plays. The plan itself lays the cards sloppily (a few cm off, turned,
some pushed against a neighbour's card), and hands reach in from four sides and sweep the
trick off. The same :class:`~tests.overhead.frames.OverheadFrame` per frame, with its truth;
frames are kept on disk after the first time (REALCAM_CACHE).
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass, field
from typing import Iterator

import cv2
import numpy as np

from tests.overhead.frames import FPS, OverheadFrame
from tests.overhead.plan import PLAN_VERSION, SEAT_DEG, HandPlan, lying_at, plan_hand, reach_at, seat_dir, \
    seat_place_mm
from tests.realcam import camera, light as lightmod, props
from tests.realcam.deck import card_alpha
from tests.realcam.rough import sensor, surfaces
from tests.realcam.rough.dealing import hand_item
from tests.realcam.rough.nuisances import Nuisances, realistic_nuisances
from tests.realcam.table import HAND_ID, Canvas, Item, card_item

PAINTED_WITH = ("dealing", "nuisances", "sensor", "surfaces")  # tests/realcam/rough modules
REST_MM = (230.0, 380.0)  # a resting hand's fingertips from the table's middle (linger 1 ... 0)


@dataclass
class RoughSequence:
    """A hand at a rough table: the plan and the seats' places at once, frames on demand."""

    plan: HandPlan
    mode: str
    height_cm: float
    nuisances: Nuisances
    seats_px: dict[int, tuple[float, float]]
    key: str
    resting: dict[int, float] = field(default_factory=dict)  # seat -> how far its resting hand reaches in
    _painter: "_Painter | None" = field(default=None, repr=False)

    @property
    def size(self) -> tuple[int, int]:
        return camera.MODES[self.mode][1]

    def __len__(self) -> int:
        return int(math.floor(self.plan.duration_s * FPS)) + 1

    def frame_of(self, t_s: float) -> int:
        return int(math.ceil(t_s * FPS - 1e-9))

    @property
    def folder(self):
        from tests.realcam.dataset import cache_dir

        return cache_dir() / f"overhead-rough-{_version()}-{self.key}"

    def frames(self, *, use_cache: bool = True, limit: int | None = None, start: int = 0) -> Iterator[OverheadFrame]:
        """The frames ``start`` to ``limit`` (each drawn on its own: a hand's later trick
        costs only its own frames)."""
        folder = self.folder
        for n in range(start, len(self) if limit is None else min(limit, len(self))):
            t = n / FPS
            path = folder / f"{n:05d}.jpg"
            if use_cache and path.exists():
                image = cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
            else:
                if self._painter is None:
                    self._painter = _Painter(self)
                image, jpeg = self._painter.render(n, t)
                if use_cache:
                    try:
                        folder.mkdir(parents=True, exist_ok=True)
                        tmp = path.with_suffix(".tmp")
                        tmp.write_bytes(jpeg)
                        tmp.replace(path)
                    except OSError:
                        pass
            yield OverheadFrame(n, t, image, lying_at(self.plan, t))


class _Painter:
    """Everything drawn from the seed once (pose, light, table, cards, shadows); any frame."""

    def __init__(self, seq: RoughSequence) -> None:
        nu = seq.nuisances
        rng = np.random.default_rng([seq.plan.seed, 31])
        self.seq, self.nu, self.size = seq, nu, seq.size
        self.pose = _pose(seq.plan.seed, seq.height_cm, nu.tilt_deg)
        self.hm = self.pose.table_to_image(self.size)
        self.pxmm = self.pose.px_per_mm(self.size)
        self.ppm = float(np.clip(round(2 * self.pxmm), 4, 8))
        self.lighting = lightmod.draw_lighting(rng, "bar", glare=0.0, target_mm=self.pose.target_mm, shadows=0)
        self.light = sensor.Light(self.lighting, self.pose, self.size)
        self.chain = sensor.draw_chain(rng, nu.gain)
        self.bare = surfaces.canvas(surfaces.table_surface(nu.background, rng), self.size, self.hm, 4.0)
        self.cards = [card_item(p.code, p.place, rng, style="fournier", ppm=self.ppm, marks=None)
                      for p in seq.plan.plays]
        lamp = np.array(self.lighting.lamp_xy_mm)
        self.lift_mm = []
        for p in seq.plan.plays:
            away = p.place[:2, 2] - lamp
            self.lift_mm.append(away / (np.linalg.norm(away) + 1e-6) * rng.uniform(2.0, 6.0))
        base = seat_place_mm(int(rng.integers(4))) if rng.random() < 0.7 else np.zeros(2)
        a = rng.uniform(0, 2 * math.pi)
        self.glare0 = base + rng.uniform(0, nu.reflection_near_mm) * np.array([math.cos(a), math.sin(a)])
        self.sway = (rng.uniform(0.2, 0.8, 2), rng.uniform(0, 2 * math.pi, 2))
        self.noise = sensor.NoiseField((self.size[1], self.size[0], 3), np.random.default_rng([seq.plan.seed, 25]))
        self._still: dict[tuple[int, ...], tuple[Canvas, np.ndarray]] = {}

    # -- the scene ----------------------------------------------------------------------
    def _alpha_px(self, place: np.ndarray, pad_mm: float = 0.0):
        a = card_alpha(self.ppm)
        th, tw = a.shape
        h = self.hm @ place @ np.diag([1 / self.ppm, 1 / self.ppm, 1.0])
        pts = cv2.perspectiveTransform(np.float32([[[0, 0], [tw, 0], [tw, th], [0, th]]]), h)[0]
        pad = int(3 * pad_mm * self.pxmm) + 4
        x0, y0 = np.maximum(np.floor(pts.min(0)).astype(int) - pad, 0)
        x1, y1 = np.minimum(np.ceil(pts.max(0)).astype(int) + pad, self.size)
        if x1 <= x0 or y1 <= y0:
            return None
        t = props.move(-x0, -y0) @ h
        return x0, y0, cv2.warpPerspective(a, t, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR).astype(np.float32) / 255

    def _lay(self, cv: Canvas, shade: np.ndarray, it: Item, lift_mm: np.ndarray, soft_mm: float,
             strength: float) -> None:
        """A card on the table: its shadow on what lies below (its edges lifted), then the
        card itself, lit."""
        if strength > 0:
            got = self._alpha_px(props.move(*lift_mm) @ it.place, soft_mm)
            if got is not None:
                x0, y0, a = got
                a = cv2.GaussianBlur(a, (0, 0), max(soft_mm * self.pxmm, 0.5))
                shade[y0:y0 + a.shape[0], x0:x0 + a.shape[1]] *= 1 - strength * a
        cv.paste(it.texture, it.alpha, it.place, it.ppm, it.label, it.gloss)
        got = self._alpha_px(it.place)
        if got is not None:
            x0, y0, a = got
            roi = shade[y0:y0 + a.shape[0], x0:x0 + a.shape[1]]
            roi[:] = roi * (1 - a) + a

    def _table(self, still: tuple[int, ...]) -> tuple[Canvas, np.ndarray]:
        """The table with the cards lying still (kept: the set changes a few times a trick)."""
        if still not in self._still:
            cv, shade = self.bare.copy(), np.ones(self.bare.label.shape, np.float32)
            for k in still:
                self._lay(cv, shade, self.cards[k], self.lift_mm[k], self.nu.shadow_softness_mm, self.nu.shadow)
            self._still = {still: (cv, shade)}
        return self._still[still]

    def _glare(self, n: int, rng: np.random.Generator) -> sensor.Glare | None:
        nu = self.nu
        if nu.reflection <= 0:
            return None
        f, ph = self.sway
        sway = np.sin(2 * math.pi * f * n / FPS + ph) * 0.7 + rng.normal(0, 0.3, 2)
        c = self.glare0 + nu.reflection_move_mm * sway
        peak = nu.reflection * max(0.0, 1 + nu.reflection_flicker * rng.normal())
        return sensor.Glare(float(c[0]), float(c[1]), nu.reflection_sigma_mm, peak)

    def render(self, n: int, t: float) -> tuple[np.ndarray, bytes]:
        plan, nu = self.seq.plan, self.nu
        rng = np.random.default_rng([plan.seed, 22, n])
        hands: list[np.ndarray] = []
        carried: dict[int, np.ndarray] = {}
        motion_mm = np.zeros(2)
        busy = set()
        for r in plan.reaches:
            tip = reach_at(r, t)
            if tip is None:
                continue
            busy.add(r.seat)
            hands.append(lightmod.hand_polygon(tuple(tip), SEAT_DEG[r.seat] - 90, 1.0 + 0.05 * (r.seat % 2)))
            prev = reach_at(r, t - 1 / FPS)
            d_mm = tip - (prev if prev is not None else tip)
            for k in (r.carries if t < r.t_in else r.sweeps):
                carried[k] = tip - r.tip_mm
            if float(np.hypot(*d_mm)) > 1.0:
                motion_mm = d_mm * 0.5 * min(1.0, self.chain.shutter_s * FPS * 4)
        for seat, reach in self.seq.resting.items():
            if seat not in busy:  # the hand rests at the edge between its plays, twitching
                tip = seat_dir(seat) * (REST_MM[1] - (REST_MM[1] - REST_MM[0]) * reach) + rng.normal(0, reach, 2)
                hands.append(lightmod.hand_polygon(tuple(tip), SEAT_DEG[seat] - 90 + rng.normal(0, 1.0)))
        still, moving = [], []
        for k, p in enumerate(plan.plays):
            carry = next(r for r in plan.reaches if k in r.carries)
            sweep = next((r for r in plan.reaches if k in r.sweeps), None)
            if t < carry.t0 or (sweep is not None and t >= sweep.t_out):
                continue
            (moving if k in carried else still).append(k)
        cv, shade = self._table(tuple(still))
        if moving or hands:
            cv, shade = cv.copy(), shade.copy()
            labels = []
            for k in moving:
                it = self.cards[k]
                place = props.move(*carried[k]) @ it.place
                self._lay(cv, shade, dataclasses.replace(it, place=place), self.lift_mm[k] * 3, 6.0, 0.3)
                labels.append(it.label)
            for i, poly in enumerate(hands):
                h = hand_item(poly, min(self.ppm, 3.0))
                cv.paste(h.texture, h.alpha, h.place, h.ppm, HAND_ID - i, h.gloss)
                labels.append(HAND_ID - i)
            if np.linalg.norm(motion_mm) * self.pxmm > 1:
                _smear(cv, labels, tuple(motion_mm * self.pxmm))
        lamp = np.array(self.lighting.lamp_xy_mm)
        shadows = tuple(p + ((p.mean(0) - lamp) * 0.08).astype(np.float32) for p in hands)
        irr, gl = self.light.maps(self._glare(n, rng), shadows)
        brightness = 1 + nu.jitter * rng.normal()
        gain = nu.gain * max(0.5, 1 + nu.jitter * rng.normal())
        noise = np.random.default_rng([plan.seed, 24, n])
        return sensor.expose(cv.albedo, cv.gloss, shade, irr, gl, self.chain, noise, brightness=brightness,
                             gain=gain, banding=nu.jitter / 2, noise=self.noise)


def _smear(cv: Canvas, labels: list[int], motion: tuple[float, float]) -> None:
    """tests/realcam/table.py's smear (the moving objects averaged along ``motion``, over what
    shows through them) as one convolution with a line: a few times cheaper a frame."""
    mask = np.isin(cv.label, labels)
    ys, xs = np.nonzero(mask)
    if not len(xs):
        return
    length = math.hypot(*motion)
    pad = int(math.ceil(length / 2)) + 2
    h, w = cv.label.shape
    x0, x1 = max(xs.min() - pad, 0), min(xs.max() + pad + 1, w)
    y0, y1 = max(ys.min() - pad, 0), min(ys.max() + pad + 1, h)
    roi = cv.albedo[y0:y1, x0:x1].astype(np.float32)
    m = mask[y0:y1, x0:x1].astype(np.float32)
    k = camera.line_kernel(length, math.degrees(math.atan2(motion[1], motion[0])))
    acc = cv2.filter2D(roi * m[..., None], -1, k, borderType=cv2.BORDER_REPLICATE)
    macc = cv2.filter2D(m, -1, k, borderType=cv2.BORDER_CONSTANT)
    cv.albedo[y0:y1, x0:x1] = np.clip(acc + roi * (1 - macc)[..., None], 0, 255).astype(np.uint8)


def _pose(seed: int, height_cm: float, tilt_deg: float) -> camera.Pose:
    rng = np.random.default_rng([seed, 11])
    return camera.Pose(height_cm * 10, tilt_deg, float(rng.uniform(0, 360)), float(rng.uniform(0, 360)),
                       (float(rng.uniform(-30, 30)), float(rng.uniform(-20, 20))))


def _version() -> str:
    from pathlib import Path

    h = hashlib.sha1()
    here = Path(__file__).parent
    rough = here.parent / "realcam" / "rough"
    # what the painter draws with: not every module of tests/realcam/rough (a change to the
    # marked cards' truth re-rendered every hand for nothing)
    for p in [here / "rough.py", here / "plan.py"] + [rough / f"{m}.py" for m in PAINTED_WITH]:
        h.update(p.read_bytes())
    return h.hexdigest()[:10]


def rough_overhead(seed: int, *, mode: str = "720p", height_cm: float = 85.0, renunci: bool = False,
                   tricks: int = 12) -> RoughSequence:
    """A hand at a rough table drawn from ``seed``, filmed from ``height_cm`` (70-100) in
    ``mode`` "720p" or "1080p".

    >>> seq = rough_overhead(1, tricks=1)
    >>> sorted(seq.seats_px), len(seq.plan.plays)
    ([0, 1, 2, 3], 4)
    """
    camera.check_mode(mode)
    plan = plan_hand(seed, renunci=renunci, tricks=tricks)
    rng = np.random.default_rng([seed, 30])
    nu = dataclasses.replace(realistic_nuisances(rng), height_cm=height_cm)
    resting = {s: float(rng.uniform(0.2, 1.0)) * nu.linger for s in range(4) if nu.linger and rng.random() < 0.5}
    pose = _pose(seed, height_cm, nu.tilt_deg)
    size = camera.MODES[mode][1]
    pts = cv2.perspectiveTransform(np.float32([[seat_place_mm(s) for s in range(4)]]), pose.table_to_image(size))[0]
    seats = {s: (float(pts[s, 0]), float(pts[s, 1])) for s in range(4)}
    key = hashlib.sha1(repr((PLAN_VERSION, seed, mode, height_cm, renunci, tricks)).encode()).hexdigest()[:14]
    return RoughSequence(plan, mode, height_cm, nu, seats, key, resting)


__all__ = ["RoughSequence", "rough_overhead"]
