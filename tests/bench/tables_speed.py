"""The sticker read on real bar tables (issue 21): speed, recall, wrong cards and the cards
asked about, on realistic frames of piles lying on checked tablecloths, textured wood,
marble and among menus (``tests.bench.tables``), and on the realistic camera's own set.

``python -m tests.bench.bench_realcam --tables [--fast]`` prints it; one core
(``cv2.setNumThreads(1)``), one ``PileReader`` per resolution. Time is the reading thread's
CPU time (``time.thread_time``): the machine's cores are shared, and wall time measures the
neighbours as much as the reader. Two ways of reading:

- **independent frames**: every frame a new table, a new camera pose (the mat is found
  afresh each time): what a bench of unrelated photos measures;
- **video**: the same view read again (the next frames of a still pile: the mat's region
  kept). The median and p99 of the second and third reads.

A card is **silent** when it is visible, not read, and no place asked about
(``ReadResult.asked``) lies on it: a card left out without a word.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

import cv2
import numpy as np

from tests.bench.tables import TABLES, table_shot
from vision.reader import PileReader

MODES = ("720p", "1080p")


@dataclass
class Row:
    frames: int = 0
    visible: int = 0
    found: int = 0
    wrong: int = 0
    silent: int = 0
    asked: int = 0
    ms: list[float] = field(default_factory=list)
    video_ms: list[float] = field(default_factory=list)


def p99(values: list[float]) -> float:
    return float(np.percentile(values, 99)) if values else float("nan")


def _tally(row: Row, shot, result) -> None:
    codes = set(result.codes)
    row.frames += 1
    row.wrong += len(shot.wrong(codes))
    row.asked += len(result.asked)
    for t in shot.truth:
        if not t.visible:
            continue
        row.visible += 1
        if t.code in codes:
            row.found += 1
            continue
        centres = [q.mean(axis=0) for q in t.marker_quads]
        on_it = any(np.hypot(*(np.float32(a.centre) - c)) < a.radius + 0.5 * t.marker_px
                    for a in result.asked for c in centres)
        row.silent += not on_it


def _read(reader: PileReader, image: np.ndarray) -> tuple[object, float]:
    start = time.thread_time()
    result = reader.read(image)
    return result, (time.thread_time() - start) * 1000


def measure(seeds: int, *, video: bool = True) -> dict[str, Row]:
    cv2.setNumThreads(1)
    rows: dict[str, Row] = {}
    for mode in MODES:
        reader = PileReader()
        shots = [(table, table_shot(seed, mode=mode, table=table)) for seed in range(seeds) for table in TABLES]
        for table, shot in shots:  # interleaved: every frame a new table and pose
            result, ms = _read(reader, shot.image)
            for name in (f"{mode}, {table}", f"{mode}, all tables"):
                row = rows.setdefault(name, Row())
                row.ms.append(ms)
                _tally(row, shot, result)
            if video:
                again = [_read(reader, shot.image)[1] for _ in range(2)]
                for name in (f"{mode}, {table}", f"{mode}, all tables"):
                    rows[name].video_ms += again
    return rows


def realcam_rows(fast: bool) -> dict[str, Row]:
    """The realistic camera's own set (tests.realcam.dataset), asked and silent counted."""
    from tests.realcam.dataset import shots

    cv2.setNumThreads(1)
    rows: dict[str, Row] = {}
    for mode in MODES:
        reader = PileReader()
        row = rows.setdefault(f"{mode}, realistic camera set", Row())
        for shot in shots(mode, fast=fast):
            result, ms = _read(reader, shot.image)
            row.ms.append(ms)
            _tally(row, shot, result)
    return rows


def table(rows: dict[str, Row]) -> str:
    out = ["| frames | n | ms median | ms p99 | video ms median | video ms p99 | visible | read | wrong | "
           "asked (places) | silent misses |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        vm = f"{statistics.median(r.video_ms):.0f}" if r.video_ms else "–"
        vp = f"{p99(r.video_ms):.0f}" if r.video_ms else "–"
        share = f"{100 * r.found / r.visible:.1f} %" if r.visible else "–"
        out.append(f"| {name} | {r.frames} | {statistics.median(r.ms):.0f} | {p99(r.ms):.0f} | {vm} | {vp} | "
                   f"{r.visible} | {share} | {r.wrong} | {r.asked} | {r.silent} |")
    return "\n".join(out)


def main(fast: bool = False) -> None:
    start = time.monotonic()
    seeds = 2 if fast else 6
    print(f"Marked piles on bar tables: {len(TABLES)} tables x {seeds} seeds per resolution, one core, "
          "CPU ms of the reading thread.\n")
    print(table({**measure(seeds), **realcam_rows(fast)}))
    print(f"\n_{time.monotonic() - start:.0f} s, rendering included_\n")
