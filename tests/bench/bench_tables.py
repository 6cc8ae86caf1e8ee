"""The sticker reader on hard tables (issue 21, item 7): ``python -m tests.bench tables``.

Piles of marked cards (``tests.realcam.rough.marked``) on checked (gingham) cloths, rough
wood, white marble and tables strewn with printed menus, on the mat or straight on the table,
at 720p and 1080p, read by ``vision.reader.PileReader`` (one reader per resolution, as the
kiosk keeps one). Prints, per resolution and surface: visible cards found, wrong cards, and the
reader's CPU time per frame on one core (``cv2.setNumThreads(1)``; this process's CPU time,
which other load inflates less than wall time), median / p95 / p99 / max; the places asked
about (``ReadResult.asked``) and the **silent** misses: cards in view neither read nor asked
about (no place asked about lies on one of their stickers).

``BENCH_TABLES_FRAMES`` frames per resolution (24, cycling through the four surfaces);
``BENCH_TABLES_QUICK=1`` or ``--quick``: 8. Frames are rendered before each is timed
(about 0.3 s of CPU a 1080p frame), not kept on disk.

Then the **veiling reflection sweep** (``--sweep``, or ``BENCH_TABLES_SWEEP=1``): the lamp's
reflection always on the pile, at each peak of ``VEILS`` (``marked_frame(veil=...)``), 8 frames
a step and resolution (the four surfaces, on the mat and off it): what is read, asked about
and left out in silence as the reflection burns the stickers out. Silent must stay 0.
"""

from __future__ import annotations

import os
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field

import cv2
import numpy as np

from tests.realcam.rough.marked import RESOLUTIONS, marked_frame, marked_frames
from tests.realcam.rough.surfaces import HARD
from vision.reader import PileReader


@dataclass
class Tally:
    frames: int = 0
    visible: int = 0
    found: int = 0
    wrong: int = 0
    asked: int = 0
    silent: int = 0
    ms: list[float] = field(default_factory=list)


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def _ms(xs: list[float]) -> str:
    a = np.asarray(xs)
    return f"{np.median(a):.0f} / {np.percentile(a, 95):.0f} / {np.percentile(a, 99):.0f} / {a.max():.0f}"


def _silent(f, result) -> int:
    """Cards in view, not read, with no place asked about on any of their stickers."""
    got = set(result.codes)
    return sum(not any(np.hypot(*(np.float32(a.centre) - q.mean(axis=0))) < a.radius + 0.5 * np.linalg.norm(q[1] - q[0])
                       for a in result.asked for q in f.stickers_of(code))
               for code in f.visible - got)


VEILS = (0.0, 1.0, 2.0, 3.0, 4.5)  # the reflection's peak on the pile (1: a white card in full light)
SWEEP_SEED0 = 27_000


def _veiled(res: str, n: int):
    for veil in VEILS:
        for i in range(n):
            yield f"veil {veil:.1f}", marked_frame(SWEEP_SEED0 + 100 * i + (0 if res == "720p" else 50), HARD[i % len(HARD)],
                                                 resolution=res, on_mat=i % 2 == 0, veil=veil)


def measure(n: int, *, sweep: bool = False) -> dict[tuple[str, str], Tally]:
    cv2.setNumThreads(1)
    rows: dict[tuple[str, str], Tally] = defaultdict(Tally)
    for res in RESOLUTIONS:
        reader = PileReader()
        frames = _veiled(res, n) if sweep else ((None, f) for f in marked_frames(res, n))
        for step, f in frames:
            start = time.process_time()
            result = reader.read(f.image)
            ms = 1000 * (time.process_time() - start)
            got = set(result.codes)
            keys = [(res, step)] if step else [(res, "all"), (res, f.surface), (res, "on the mat" if f.on_mat else "no mat")]
            for key in keys:
                t = rows[key]
                t.frames += 1
                t.visible += len(f.visible)
                t.found += len(f.visible & got)
                t.wrong += len(f.wrong(got))
                t.asked += len(result.asked)
                t.silent += _silent(f, result)
                t.ms.append(ms)
    return rows


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    quick = "--quick" in argv or os.environ.get("BENCH_TABLES_QUICK") == "1"
    n = 8 if quick else int(os.environ.get("BENCH_TABLES_FRAMES", "24"))
    start = time.monotonic()
    sweep = "--sweep" in argv or os.environ.get("BENCH_TABLES_SWEEP") == "1"
    rows = measure(8 if sweep else n, sweep=sweep)
    what = "veiling reflection on the pile, 8 frames a step" if sweep else f"{n} frames a resolution"
    print(f"### Marked cards on hard tables ({what}; PileReader, one core)\n")
    print("| resolution | frames | n | visible cards | found | wrong | asked (places) | silent | "
          "ms/frame median / p95 / p99 / max |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (res, name), t in rows.items():
        print(f"| {res} | {name} | {t.frames} | {t.visible} | {_pct(t.found, t.visible)} | {t.wrong} | {t.asked} | "
              f"{t.silent} | {_ms(t.ms)} |")
    print(f"\n_{time.monotonic() - start:.0f} s, rendering included_\n")


if __name__ == "__main__":
    main()
