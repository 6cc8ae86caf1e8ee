"""Deal-through reading of ordinary decks (issue 11) on the realistic camera's dealing
sequences (tests/realcam: hands in motion, motion blur, glare, noise, JPEG; 50-65 cm).

For each camera mode: the deck is learnt from the realistic enrolment photos (one per
card, 1080p, even light), then 24-card piles are dealt at about one card a second (10 fps)
under bar lighting and read frame by frame. Per sequence: cards named right, wrong
(a named card that is not the one dealt there), asked again (show again, reflection, two
cards), missed, and the CPU time per
frame on one core (``cv2.setNumThreads(1)``, process time, so other load on the machine
does not count). ``python -m tests.bench deck`` prints the markdown table.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import cv2

from kiosk.game import DECK
from tests.realcam.deal import deal, enrol_photo
from vision.deck.store import learn_folder
from vision.deck.tracker import COUNTED, GLARE, SHOW_AGAIN, TWO_CARDS, DealTracker

SEQUENCES = int(os.environ.get("BENCH_DECK_SEQUENCES", "1"))  # per mode and deck style
MODES = tuple(os.environ.get("BENCH_DECK_MODES", "720p,1080p").split(","))
STYLES = tuple(os.environ.get("BENCH_DECK_STYLES", "fournier,moderna").split(","))
# the enrolment photos are the same every run: a folder to keep them in between runs
ENROL_DIR = os.environ.get("BENCH_DECK_ENROL_DIR")


def _learnt(style: str, folder: Path):
    for card in DECK:
        path = folder / f"{card.code}.jpg"
        if not path.exists():
            path.write_bytes(enrol_photo(card.code, deck_style=style).jpeg)
    return learn_folder(style, folder)


def _score(order: list[str], got: list[str]) -> tuple[int, int]:
    """(right, wrong): ``got`` matched to ``order`` in sequence (a skipped card is a miss)."""
    right = wrong = 0
    i = 0
    for code in got:
        if code in order[i:]:
            j = order.index(code, i)
            right += 1
            i = j + 1
        else:
            wrong += 1
    return right, wrong


def main() -> None:
    cv2.setNumThreads(1)
    rows = []
    totals = dict(cards=0, right=0, wrong=0, again=0)
    with tempfile.TemporaryDirectory() as tmp:
        for style in STYLES:
            folder = Path(ENROL_DIR or tmp) / style
            folder.mkdir(parents=True, exist_ok=True)
            model = _learnt(style, folder)
            for mode in MODES:
                for k in range(SEQUENCES):
                    d = deal(100 + k, mode=mode, deck_style=style, cards=24)
                    tracker = DealTracker(model)
                    cpu, frames, got, again, worst = 0.0, 0, [], 0, 0.0
                    for frame in d.frames():
                        t = time.process_time()
                        events = tracker.feed(frame.image)
                        spent = time.process_time() - t
                        cpu += spent
                        worst = max(worst, spent)
                        frames += 1
                        got += [e.card.code for e in events if e.kind == COUNTED]
                        again += sum(e.kind in (SHOW_AGAIN, GLARE, TWO_CARDS) for e in events)
                    right, wrong = _score(d.order, got)
                    rows.append((style, mode, k, len(d.order), right, wrong, again, len(d.order) - right,
                                 1000 * cpu / frames, 1000 * worst, d.duration_s))
                    print(f"<!-- {style} {mode} {k}: {right}/{len(d.order)} right, {wrong} wrong -->", flush=True)
                    for key, v in (("cards", len(d.order)), ("right", right), ("wrong", wrong), ("again", again)):
                        totals[key] += v
    print("| deck | mode | seq | cards | named right | wrong | show again | missed | ms/frame mean | ms/frame max "
          "| dealt in s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for style, mode, k, n, right, wrong, again, missed, ms, worst, dur in rows:
        print(f"| {style} | {mode} | {k} | {n} | {right} | {wrong} | {again} | {missed} | {ms:.1f} | {worst:.1f} "
              f"| {dur:.1f} |")
    n = totals["cards"] or 1
    print(f"\nAll: {totals['cards']} cards, {100 * totals['right'] / n:.1f} % named right, "
          f"{totals['wrong']} wrong, {100 * totals['again'] / n:.1f} % show again.\n")


if __name__ == "__main__":
    main()
