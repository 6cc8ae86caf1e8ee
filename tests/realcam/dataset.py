"""The fixed set of realistic shots the benchmark (and anyone tuning the reader) reads.

``shots(group, fast=False)`` yields the group's shots in a fixed order; groups are the
camera modes ("720p", "1080p", "still") and "distractors" (no face-up card: empty mats,
face-down cards, coasters, phones, menus with QR codes, foreign marker squares).

Rendering a set takes minutes on one core, so each shot is kept on disk after its first
render (JPEG bytes exactly as delivered + the truth as JSON) under ``$REALCAM_CACHE``, or
``$XDG_CACHE_HOME/botifarra-realcam``, or ``~/.cache/botifarra-realcam``. The key covers
the generator's source and the kit's, so a change to either renders afresh.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from tests.realcam import camera
from tests.realcam.render import CardTruth, Shot, ShotMeta, render

GROUPS = ("720p", "1080p", "still", "distractors")
FULL = {"720p": 36, "1080p": 36, "still": 12, "distractors": 18}
FAST = {"720p": 6, "1080p": 6, "still": 2, "distractors": 6}
_SEED0 = {"720p": 10_000, "1080p": 20_000, "still": 30_000, "distractors": 40_000}


def shot_args(group: str, i: int) -> dict:
    """The ``render`` arguments of the ``i``-th shot of ``group``."""
    seed = _SEED0[group] + i
    if group != "distractors":
        return dict(seed=seed, mode=group)
    mode = ("720p", "1080p", "still")[i % 3]
    kind = i // 3 % 3
    if kind == 0:  # the empty mat, nothing else
        return dict(seed=seed, mode=mode, cards=0, distractors=())
    if kind == 1:  # a pile of face-down cards
        return dict(seed=seed, mode=mode, cards=0, distractors=("face_down",), face_down=int(4 + i % 9))
    return dict(seed=seed, mode=mode, cards=0, distractors=tuple(d for d in
                ("coaster", "phone", "menu", "fake_markers", "face_down", "glass_ring")))


@lru_cache(maxsize=1)
def generator_version() -> str:
    here = Path(__file__).parent
    h = hashlib.sha1()
    import vision.kit
    import vision.marks
    for p in sorted(here.glob("*.py")) + [Path(vision.kit.__file__), Path(vision.marks.__file__)]:
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def cache_dir() -> Path:
    if os.environ.get("REALCAM_CACHE"):
        return Path(os.environ["REALCAM_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "botifarra-realcam"


def _truth_json(t: CardTruth) -> dict:
    d = dataclasses.asdict(t)
    d["marker_quads"] = [q.tolist() for q in t.marker_quads]
    d["card_corners"] = None if t.card_corners is None else t.card_corners.tolist()
    return d


def _truth_from(d: dict) -> CardTruth:
    d = dict(d)
    d["marker_quads"] = tuple(np.float32(q) for q in d["marker_quads"])
    d["card_corners"] = None if d["card_corners"] is None else np.float32(d["card_corners"])
    return CardTruth(**d)


def _meta_json(m: ShotMeta) -> dict:
    d = dataclasses.asdict(m)
    return d


def _meta_from(d: dict) -> ShotMeta:
    d = dict(d)
    d["exposure"] = camera.Exposure(**d["exposure"])
    p = dict(d["pose"])
    p["target_mm"] = tuple(p["target_mm"])
    d["pose"] = camera.Pose(**p)
    d["size"] = tuple(d["size"])
    d["distractors"] = tuple(d["distractors"])
    return ShotMeta(**d)


def load_or_render(args: dict, *, use_cache: bool = True) -> Shot:
    """``render(**args)``, from the disk cache when it is there."""
    key = hashlib.sha1(json.dumps(args, sort_keys=True).encode()).hexdigest()[:16]
    folder = cache_dir() / generator_version()
    jpg, js = folder / f"{key}.jpg", folder / f"{key}.json"
    if use_cache and jpg.exists() and js.exists():
        data = json.loads(js.read_text())
        jpeg = jpg.read_bytes()
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        return Shot(image, [_truth_from(t) for t in data["truth"]], _meta_from(data["meta"]), jpeg,
                    tuple(data["face_up"]))
    shot = render(**args)
    if use_cache:
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = js.with_suffix(".tmp")
            jpg.write_bytes(shot.jpeg)
            tmp.write_text(json.dumps({"args": args, "truth": [_truth_json(t) for t in shot.truth],
                                       "meta": _meta_json(shot.meta), "face_up": list(shot.face_up)}))
            tmp.replace(js)  # the JSON last: a half-written shot is rendered again
        except OSError:
            pass  # a read-only home: render every time
    return shot


def shots(group: str, *, fast: bool = False, use_cache: bool = True) -> Iterator[Shot]:
    """The group's shots, in order. Raises ValueError for an unknown group."""
    if group not in GROUPS:
        raise ValueError(f"unknown group {group!r}: use one of {GROUPS}")
    n = (FAST if fast else FULL)[group]
    for i in range(n):
        yield load_or_render(shot_args(group, i), use_cache=use_cache)
