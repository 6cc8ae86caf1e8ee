"""The still and soft reader on held-out realistic shots (issue 10), ``python -m tests.bench still``.

Shots from the realistic camera (tests.realcam.render) at seeds 90 000 and up: NOT the
fixed set the bench_realcam table reads, so these figures are on pictures the reader was
never looked at against. Per camera mode and marker px: visible cards found, wrong cards;
distractor tables (menus with QR codes, other fiducials, face-down cards, empty mat): wrong
cards only. Time per frame on ONE core (``cv2.setNumThreads(1)``): CPU time of this
process (``time.process_time``), which a busy machine does not inflate, and wall time.
Then the set-up check's verdict per mode, and the stillness -> still -> read round trip.
"""

from __future__ import annotations

import statistics
import time

import cv2

from tests.realcam.render import render
from vision.reader import PileReader
from vision.setup_check import check_setup

SEED0 = 90_000
COUNTS = {"still": 6, "1080p": 12, "720p": 12}
DISTRACTOR_KINDS = ("coaster", "phone", "menu", "fake_markers", "face_down", "glass_ring")
BINS = (("< 16 px", 0, 16), ("16-20 px", 16, 20), ("20-25 px", 20, 25), (">= 25 px", 25, 1e9))


def _pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def main() -> None:
    cv2.setNumThreads(1)
    reader = PileReader()
    lines = ["| frames | n | visible cards | found | wrong | CPU ms median | wall ms median | set-up check |",
             "|---|---|---|---|---|---|---|---|"]
    bins: dict[str, list[int]] = {}
    for mode, n in COUNTS.items():
        vis = found = wrong = 0
        cpu, wall, verdicts = [], [], {}
        for i in range(n):
            shot = render(SEED0 + 1000 * list(COUNTS).index(mode) + i, mode=mode)
            t0, c0 = time.perf_counter(), time.process_time()
            result = reader.read(shot.image)
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
            got = set(result.codes)
            visible = shot.visible
            vis += len(visible)
            found += len(visible & got)
            wrong += len(shot.wrong(got))
            check = check_setup(shot.image, result, video=mode != "still")
            kind = check.findings[0].kind if check.findings else "?"
            verdicts[kind] = verdicts.get(kind, 0) + 1
            for t in shot.truth:
                if t.visible:
                    label = next(lab for lab, a, b in BINS if a <= t.marker_px < b)
                    tally = bins.setdefault(f"{mode}, markers {label}", [0, 0])
                    tally[0] += 1
                    tally[1] += t.code in got
        lines.append(f"| {mode} | {n} | {vis} | {_pct(found, vis)} | {wrong} | {statistics.median(cpu):.0f} | "
                     f"{statistics.median(wall):.0f} | "
                     + ", ".join(f"{k} {v}" for k, v in sorted(verdicts.items())) + " |")
    for name, (vis, found) in bins.items():
        lines.append(f"| {name} | | {vis} | {_pct(found, vis)} | | | | |")
    wrong = frames = 0
    for i, mode in enumerate(("720p", "1080p", "still") * 3):
        shot = render(SEED0 + 5000 + i, mode=mode, cards=0, distractors=DISTRACTOR_KINDS if i % 3 else ("face_down",),
                      face_down=6)
        wrong += len(shot.wrong(set(reader.read(shot.image).codes)))
        frames += 1
    lines.append(f"| distractors, face-down cards (all modes) | {frames} | 0 | — | {wrong} | | | |")
    for line in ["Held-out realistic shots (seeds from 90 000), one core:", ""] + lines + [""]:
        print(line, flush=True)


if __name__ == "__main__":
    main()
