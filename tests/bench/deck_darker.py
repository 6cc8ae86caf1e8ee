"""A dealing sequence's frame taken at a shorter exposure: what the kiosk's camera gives
when the deck reader asks for a darker frame (``FrameSource.capture_darker``).

The realistic camera renders a shorter exposure physically (``shoot(exposure_scale=)``:
the light gathered, the lamp's reflection included, scales before the sensor clips; the
same read noise on fewer electrons). The dealing sequence's own frame renderer is used as
it is, with that one argument added to its camera call and a new draw of the sensor's
noise (a second exposure is not the first one's noise scaled). tests/realcam is not
changed for this: its files' hash keys the cache of every rendered frame.

Darker frames are kept on disk beside the sequence's own (a folder of their own, so the
sequence's frame count is not disturbed).
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

import tests.realcam.deal as realdeal
from tests.realcam.deal import Deal, DealFrame


def folder(d: Deal, suffix: str = "") -> Path:
    """Where ``d``'s frames are kept (``Deal.frames``' folder), or a folder beside it."""
    from tests.realcam.dataset import cache_dir, generator_version

    return cache_dir() / generator_version() / f"deal-{d._plan['key']}{suffix}"


@contextlib.contextmanager
def _exposure(d: Deal, n: int, exposure_scale: float):
    real = realdeal.shoot

    def shoot(*args, rng, **kwargs):
        rng = np.random.default_rng([d.seed, 7, n, int(round(exposure_scale * 1000))])
        return real(*args, rng=rng, exposure_scale=exposure_scale, **kwargs)

    realdeal.shoot = shoot
    try:
        yield
    finally:
        realdeal.shoot = real


def darker_frame(d: Deal, n: int, exposure_scale: float, *, use_cache: bool = True) -> np.ndarray:
    """Frame ``n`` of ``d`` (BGR, after JPEG) at ``exposure_scale`` of its exposure."""
    n = min(n, len(d) - 1)
    path = folder(d, f"-x{exposure_scale:.2f}") / f"{n:05d}.jpg"

    def render() -> DealFrame:
        with _exposure(d, n, exposure_scale):
            return d._frame(n / d.fps, n, {})

    return kept(path, render) if use_cache else render().image


def kept(path: Path, render: Callable[[], DealFrame]) -> np.ndarray:
    """The frame kept at ``path`` (BGR, after JPEG), else ``render()``'s, kept there for
    the next run (whole or not at all)."""
    if path.exists():
        return cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    frame = render()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(frame.jpeg)
        tmp.replace(path)
    except OSError:
        pass  # a read-only cache: render every time
    return frame.image
