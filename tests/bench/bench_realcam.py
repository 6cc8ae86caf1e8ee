"""The reader on the project's realistic camera (issue 10), ``python -m tests.bench realcam``.

Reads the fixed shot set of ``tests.realcam.dataset`` (a drawn Spanish deck with the kit's
printed stickers, Pi Camera Module 3 at 50-75 cm, tilt, warm light with fall-off, glare,
hand shadows, defocus, motion blur, Bayer noise, demosaic, ISP sharpening, JPEG 70-90)
with the current ``vision.reader.PileReader`` and with plain OpenCV ArUco (our 56-code
dictionary, default parameters). Prints recall of visible cards and wrong cards by camera
mode and marker px, the issue's "Done means" rows, distractor frames (wrong cards only)
and ms per frame, one core (``cv2.setNumThreads(1)``).

A card is visible when at least one of its stickers is wholly in the frame and uncovered.
A wrong card is a reported code that is not face up on the table.

Shots are cached on disk after their first render (see the dataset module), so a second
run only reads. ``python -m tests.bench.bench_realcam --fast`` reads a small subset;
``--tables`` only the bar tables' part (tests.bench.tables_speed: checked cloths, textured
wood, marble, menus; speed, recall, wrong, asked).
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass, field

import cv2

from kiosk.game import DECK
from tests.bench import tables_speed
from tests.realcam.dataset import FAST, FULL, shots
from vision.marks import card_dictionary
from vision.reader import PileReader

BINS = (("< 20 px", 0, 20), ("20-25 px", 20, 25), (">= 25 px", 25, 1e9))


@dataclass
class Tally:
    frames: int = 0
    visible: int = 0
    found: int = 0
    wrong: int = 0
    aruco_found: int = 0
    aruco_wrong: int = 0
    ms: list[float] = field(default_factory=list)
    washed_out: int = 0  # visible cards whose best sticker has < 60 grey levels of contrast
    washed_found: int = 0

    def add_cards(self, truth, found: set[str], aruco: set[str]) -> None:
        for t in truth:
            if not t.visible:
                continue
            self.visible += 1
            self.found += t.code in found
            self.aruco_found += t.code in aruco
            if t.contrast < 60:
                self.washed_out += 1
                self.washed_found += t.code in found


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def _aruco(detector, image) -> set[str]:
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    return {DECK[i].code for i in ([] if ids is None else ids.ravel().tolist()) if 0 <= i < 48}


def measure(fast: bool = False) -> dict[str, Tally]:
    cv2.setNumThreads(1)
    reader = PileReader()
    detector = cv2.aruco.ArucoDetector(card_dictionary(), cv2.aruco.DetectorParameters())
    rows: dict[str, Tally] = {}
    done_range = {"still": (50, 75), "1080p": (50, 65), "720p": (50, 62)}

    def row(name: str) -> Tally:
        return rows.setdefault(name, Tally())

    for group in ("still", "1080p", "720p", "distractors"):
        for shot in shots(group, fast=fast):
            start = time.perf_counter()
            result = reader.read(shot.image)
            ms = (time.perf_counter() - start) * 1000
            found = set(result.codes)
            aruco = _aruco(detector, shot.image)
            mode = shot.meta.mode
            names = [f"{mode}, all"] if group != "distractors" else [f"distractors ({mode})"]
            lo, hi = done_range[mode]
            if group != "distractors" and lo <= shot.meta.height_cm <= hi:
                names.append(f"{mode}, {lo}-{hi} cm (done means)")
            for n in names:
                r = row(n)
                r.frames += 1
                r.ms.append(ms)
                r.add_cards(shot.truth, found, aruco)
                r.wrong += len(shot.wrong(found))
                r.aruco_wrong += len(shot.wrong(aruco))
            if group != "distractors":
                for label, a, b in BINS:
                    sub = [t for t in shot.truth if t.visible and a <= t.marker_px < b]
                    if sub:
                        r = row(f"{mode}, markers {label}")
                        r.frames += 1
                        r.add_cards(sub, found, aruco)
    return rows


def table(rows: dict[str, Tally]) -> str:
    out = ["| frames | n | visible cards | this reader | wrong | OpenCV ArUco, default | wrong | "
           "washed out (< 60 grey) found | ms/frame median |",
           "|---|---|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        ms = f"{statistics.median(r.ms):.0f}" if r.ms else ""
        out.append(f"| {name} | {r.frames} | {r.visible} | {pct(r.found, r.visible)} | {r.wrong} | "
                   f"{pct(r.aruco_found, r.visible)} | {r.aruco_wrong} | "
                   f"{r.washed_found}/{r.washed_out} | {ms} |")
    return "\n".join(out)


def render_speed(n: int = 2) -> str:
    """CPU seconds to render one shot (20 cards, a few distractors), never cached."""
    from tests.realcam.render import render
    from tests.realcam.stickers import printed_stickers

    cv2.setNumThreads(1)
    printed_stickers()  # the kit's PDF is rasterised once per process
    out = ["| mode | delivered size | render + camera chain, CPU s (median) |", "|---|---|---|"]
    for mode in ("720p", "1080p", "still"):
        times = []
        for seed in range(n):
            t = time.process_time()
            shot = render(90_000 + seed, mode=mode, cards=20, distractors=("menu", "coaster"))
            times.append(time.process_time() - t)
        w, h = shot.meta.size
        out.append(f"| {mode} | {w}x{h} | {statistics.median(times):.2f} |")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    fast = "--fast" in argv
    if "--tables" in argv:  # only the bar tables (issue 21: checked cloths, wood, marble, menus)
        tables_speed.main(fast)
        return
    sizes = FAST if fast else FULL
    start = time.monotonic()
    rows = measure(fast=fast)
    print(f"Realistic camera, {'fast subset' if fast else 'full set'}: "
          + ", ".join(f"{n} {g}" for g, n in sizes.items()) + " shots; one core.\n")
    print(table(rows))
    print()
    print(render_speed(1 if fast else 2))
    print(f"\n_{time.monotonic() - start:.0f} s, rendering included unless cached_\n")
    tables_speed.main(fast)


if __name__ == "__main__":
    main()
