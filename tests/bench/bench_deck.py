"""Deal-through reading of ordinary decks (issue 11) on the realistic camera's dealing
sequences (tests/realcam/deal.py: hands in motion and their shadows, a static arm's shadow,
cards landing a few mm and degrees off the pile, the lamp's glare, motion blur, noise, JPEG;
the camera 50-65 cm up).

Each deck style is learnt once from the realistic enrolment photos (one per card, 1080p,
even light); then piles of 24 cards are dealt at about one card a second (10 fps) for
every camera mode x deck style x lighting, ``BENCH_DECK_PILES`` piles each (2: 24 piles,
576 cards), and read frame by frame. A card counts as:

- right / wrong: the card counted while it lay on top (between its hand leaving and the
  next hand coming) is / is not the one dealt there;
- sent back: the reader asked about it (show again, reflection, two cards; "card under":
  the card under the one on top, counted). The player then does as asked
  (``tests/bench/deck_reshow.py``: lifts the card and lays it down again, or slides it out of
  the reflection; for "card under", lifts the top card, lays the one under it again and the top
  card back, which the reader takes back and counts again) and the deal goes on that much later; a card
  named then counts as right "after show again". A card still not named after being shown
  again ``RESHOWS`` times is "left unnamed". ``BENCH_DECK_RESHOW=0``: nobody answers (the
  first look only). "glare" marks the cards whose truth says the lamp's reflection on them
  where they were first laid is brighter than the card's own white (``GLARE_TRUTH``):
  asking to move those is the right answer;
- missed: nothing said at all.

The camera has exposure control (a Pi camera): when the reader asks for a darker frame
(the lamp's reflection where the table changed), the sequence's NEXT frame is rendered at
that exposure (``tests/bench/deck_darker.py``) and handed over in its place, as the camera
would (the video frame it replaces is not read; ``BENCH_DECK_DARKER_DELAY`` frames later
for a slower camera). "darker" counts them; their reading counts
as a frame in the time table. ``BENCH_DECK_DARKER=0``: a camera without exposure control
(USB), where a card under the reflection is asked to be moved.

Time per frame on ONE core (``cv2.setNumThreads(1)``): CPU time of this process
(``time.process_time``, which other load on the machine does not inflate) and wall time,
median, p99 and max over every frame of a mode. Rendering is slow (about 0.4 s of CPU a
frame): frames are kept on disk after their first render, and ``BENCH_DECK_JOBS=2``
renders the missing ones in that many processes first. ``python -m tests.bench deck``.
"""

from __future__ import annotations

import os

# one core: numpy's BLAS must not spread the classifier's products over threads (which on
# a busy machine costs more than it gains). Only effective when this bench is run alone.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from collections import defaultdict  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from multiprocessing import get_context  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from kiosk.game import DECK  # noqa: E402
from tests.bench.deck_darker import darker_frame, folder  # noqa: E402
from tests.bench.deck_reshow import frame_at, reshown, under_answered  # noqa: E402
from tests.realcam.deal import Deal, deal, enrol_photo  # noqa: E402
from vision.deck.darker import DARKER_SCALE  # noqa: E402
from vision.deck.store import learn_folder  # noqa: E402
from vision.deck.tracker import ASK_KINDS, COUNTED, DARKER, GLARE, TAKEN_BACK, UNDER, DealTracker  # noqa: E402

ALL_MODES, ALL_STYLES, ALL_LIGHTINGS = ("720p", "1080p"), ("fournier", "moderna"), ("bar", "even", "harsh")
PILES = int(os.environ.get("BENCH_DECK_PILES", "2"))  # per mode x style x lighting
MODES = tuple(os.environ.get("BENCH_DECK_MODES", ",".join(ALL_MODES)).split(","))
STYLES = tuple(os.environ.get("BENCH_DECK_STYLES", ",".join(ALL_STYLES)).split(","))
LIGHTINGS = tuple(os.environ.get("BENCH_DECK_LIGHTINGS", ",".join(ALL_LIGHTINGS)).split(","))
# "5113,6020": only these piles (to look again at a few)
VERBOSE = os.environ.get("BENCH_DECK_VERBOSE") == "1"  # every card sent back, and why
ONLY_SEEDS = {int(x) for x in os.environ.get("BENCH_DECK_SEEDS", "").split(",") if x}
JOBS = int(os.environ.get("BENCH_DECK_JOBS", "1"))
# "1": read only the piles already rendered in full (a partial run while the rest renders)
CACHED_ONLY = os.environ.get("BENCH_DECK_CACHED_ONLY") == "1"
# the enrolment photos are the same every run: a folder to keep them in between runs
ENROL_DIR = os.environ.get("BENCH_DECK_ENROL_DIR")
DARKER_FRAMES = os.environ.get("BENCH_DECK_DARKER", "1") != "0"  # the camera can take a darker frame
# video frames (10 fps) between the look and the darker frame: the camera's new exposure
# shows a few sensor frames late (at 30 fps, one video frame here); the frames between are not read
DARKER_DELAY = int(os.environ.get("BENCH_DECK_DARKER_DELAY", "1"))
# the player does what the kiosk asks (tests/bench/deck_reshow.py), up to RESHOWS times a card;
# "0": the sequence goes on as if nobody had listened (each card's first look only)
RESHOW = os.environ.get("BENCH_DECK_RESHOW", "1") != "0"
RESHOWS = 2
GLARE_TRUTH = 0.6  # reflection (linear, 1 = a white card) from which a card's print is washed out
SEED0 = 5000


@dataclass
class Tally:
    piles: int = 0
    cards: int = 0
    right: int = 0
    wrong: int = 0
    right_after: int = 0  # of ``right``: named after the player showed it again
    asked: int = 0  # sent back at least once
    asked_glare: int = 0  # sent back, and the truth says glare washes it out where it was first laid
    glared: int = 0
    unnamed: int = 0  # sent back and shown again RESHOWS times, and still not named
    missed: int = 0
    darker: int = 0  # darker frames taken
    last_count_s: list[float] = field(default_factory=list)


def piles() -> list[dict]:
    """The ``deal`` arguments of every pile the bench reads, in order. A pile's seed comes
    from its place in the whole bench, so a subset reads the same piles as the whole."""
    out = []
    for style in STYLES:
        for mode in MODES:
            for lighting in LIGHTINGS:
                for k in range(PILES):
                    seed = SEED0 + 1000 * ALL_STYLES.index(style) + 100 * ALL_MODES.index(mode) \
                        + 10 * ALL_LIGHTINGS.index(lighting) + k
                    if not ONLY_SEEDS or seed in ONLY_SEEDS:
                        out.append(dict(seed=seed, mode=mode, deck_style=style, lighting=lighting, cards=24))
    return out


def _render(args: dict) -> None:
    for _ in deal(**args).frames():
        pass


def _rendered(d: Deal) -> bool:
    kept_in = folder(d)
    return kept_in.is_dir() and sum(1 for _ in kept_in.glob("*.jpg")) >= len(d)


def _learnt(style: str, photos: Path):
    for card in DECK:
        path = photos / f"{card.code}.jpg"
        if not path.exists():
            path.write_bytes(enrol_photo(card.code, deck_style=style).jpeg)
    return learn_folder(style, photos)


def _timed(read, cpu_ms: list[float], wall_ms: list[float]):
    t0, c0 = time.perf_counter(), time.process_time()
    out = read()
    cpu_ms.append(1000 * (time.process_time() - c0))
    wall_ms.append(1000 * (time.perf_counter() - t0))
    return out


def _top(d: Deal, t: float) -> int:
    """The card on top at ``t``: the last one whose hand has gone by then (-1: none yet)."""
    return max((k for k, c in enumerate(d.truth) if c.lands_s <= t), default=-1)


def _read(d: Deal, model, tally: Tally, cpu_ms: list[float], wall_ms: list[float]) -> None:
    tracker = DealTracker(model, darker_scale=DARKER_SCALE if DARKER_FRAMES else None)
    dealt = d.truth  # where each card was first laid (a card slid out of a reflection no longer has it)
    counted: dict[int, str] = {}
    asked: dict[int, int] = {}  # card -> times the kiosk sent it back
    answering: dict[int, float] = {}  # card -> until when the player is busy showing it again
    wrong = 0
    last = 0.0
    taken = -1  # the frame the last darker frame stood in for
    canvas: dict = {}
    n = -1
    while n + 1 < len(d):  # (``d`` grows when the player shows a card again)
        n += 1
        if n <= taken:
            continue
        image = frame_at(d, n, canvas)
        got = _timed(lambda: tracker.feed(image), cpu_ms, wall_ms)
        events = [(n, e) for e in got if e.kind != DARKER]
        for ask in [e.darker for e in got if e.kind == DARKER]:
            taken = n + DARKER_DELAY  # the camera's next frame, at the darker exposure
            dark = darker_frame(d, taken, ask.exposure_scale)
            tally.darker += 1
            events += [(taken, e) for e in _timed(lambda: tracker.feed_darker(ask, dark), cpu_ms, wall_ms)]
        for k, e in events:
            t = k / d.fps
            i = _top(d, t) - e.under  # (a card counted under the top one: the one under it)
            if e.kind == COUNTED:
                last = t
                if i < 0 or i in counted or e.card.code != d.truth[i].code:
                    wrong += 1
                else:
                    counted[i] = e.card.code
            elif e.kind == TAKEN_BACK and e.card is not None:  # (the kiosk's count drops it: counted again when laid back)
                counted = {j: code for j, code in counted.items() if code != e.card.code}
            elif e.kind == UNDER:  # (the top card counted; the ask is about the one under it)
                u = i - 1
                if u < 0 or u in counted or t < answering.get(u, 0.0):
                    continue
                asked[u] = asked.get(u, 0) + 1
                if VERBOSE:
                    print(f"<!-- seed {d.seed} card {u} {d.truth[u].code} glare {d.truth[u].glare:.2f}: {e.kind} "
                          f"(under {d.truth[i].code}) at {t:.1f} s -->", flush=True)
                again = under_answered(d, i, t, attempt=asked[u]) if RESHOW and asked[u] <= RESHOWS else None
                if again is not None:  # the player lifts the top card, lays this one again, the top one back
                    d, canvas = again, {}
                    answering[u] = d.truth[i].still_s
            elif e.kind in ASK_KINDS and i >= 0 and i not in counted and t >= answering.get(i, 0.0):
                asked[i] = asked.get(i, 0) + 1
                if VERBOSE:
                    print(f"<!-- seed {d.seed} card {i} {d.truth[i].code} glare {d.truth[i].glare:.2f}: {e.kind} "
                          f"at {t:.1f} s ({e.naming}) -->", flush=True)
                if RESHOW and asked[i] <= RESHOWS:  # the player does as asked; the deal goes on later
                    d = reshown(d, i, t, glare=e.kind == GLARE, attempt=asked[i])
                    canvas = {}
                    answering[i] = d.truth[i].still_s
    tally.piles += 1
    tally.cards += len(d.truth)
    tally.right += len(counted)
    tally.right_after += sum(1 for i in counted if i in asked)
    tally.wrong += wrong
    tally.asked += len(asked)
    tally.unnamed += sum(1 for i in asked if i not in counted)
    for i, c in enumerate(dealt):
        glared = c.glare >= GLARE_TRUTH
        tally.glared += glared
        tally.asked_glare += glared and i in asked
        tally.missed += i not in counted and i not in asked
    tally.last_count_s.append(last)


def _pct(a: float, b: float) -> str:
    return f"{100 * a / b:.1f} %" if b else "—"


def _ms(xs: list[float]) -> str:
    if not xs:
        return "—"
    a = np.asarray(xs)
    return f"{np.median(a):.1f} / {np.percentile(a, 99):.1f} / {a.max():.1f}"


def main() -> None:
    cv2.setNumThreads(1)
    todo = piles()
    if JOBS > 1:
        with get_context("spawn").Pool(JOBS) as pool:
            pool.map(_render, todo, chunksize=1)
    rows: dict[tuple[str, str, str], Tally] = defaultdict(Tally)
    cpu: dict[str, list[float]] = defaultdict(list)
    wall: dict[str, list[float]] = defaultdict(list)
    with tempfile.TemporaryDirectory() as tmp:
        models = {}
        for style in STYLES:
            photos = Path(ENROL_DIR or tmp) / style
            photos.mkdir(parents=True, exist_ok=True)
            models[style] = _learnt(style, photos)
        for args in todo:
            d = deal(**args)
            if CACHED_ONLY and not _rendered(d):
                continue
            key = (args["deck_style"], args["mode"], args["lighting"])
            _read(d, models[args["deck_style"]], rows[key], cpu[args["mode"]], wall[args["mode"]])
            t = rows[key]
            print(f"<!-- {args}: {t.right}/{t.cards} right, {t.wrong} wrong, {t.asked} sent back so far -->", flush=True)
    print("| deck | mode | lighting | piles | cards | named right | of them after show again | wrong "
          "| sent back (of them glare) | left unnamed | missed | cards with glare | darker frames "
          "| last card counted at, s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    total = Tally()
    names = ("piles", "cards", "right", "right_after", "wrong", "asked", "asked_glare", "glared", "unnamed",
             "missed", "darker")
    for (style, mode, lighting), t in rows.items():
        print(f"| {style} | {mode} | {lighting} | {t.piles} | {t.cards} | {t.right} ({_pct(t.right, t.cards)}) "
              f"| {t.right_after} | {t.wrong} | {t.asked} ({t.asked_glare}) | {t.unnamed} | {t.missed} "
              f"| {t.glared} | {t.darker} "
              f"| {statistics.median(t.last_count_s):.1f} median, {max(t.last_count_s):.1f} max |")
        for name in names:
            setattr(total, name, getattr(total, name) + getattr(t, name))
    readable = total.cards - total.glared
    first = total.right - total.right_after
    print(f"\nAll: {total.piles} piles, {total.cards} cards: {_pct(total.right, total.cards)} named right "
          f"({first}, {_pct(first, total.cards)}, at the first look; {total.right_after} after being shown again), "
          f"{total.wrong} wrong, {_pct(total.asked, total.cards)} sent back, {total.unnamed} left unnamed, "
          f"{total.missed} missed, {total.darker} darker frames. "
          f"Cards the glare does not wash out: {readable}, of them "
          f"{_pct(total.asked - total.asked_glare, readable)} sent back.\n")
    print("| mode | frames | CPU ms/frame median / p99 / max | wall ms/frame median / p99 / max |")
    print("|---|---|---|---|")
    for mode in MODES:
        print(f"| {mode} | {len(cpu[mode])} | {_ms(cpu[mode])} | {_ms(wall[mode])} |")
    print()


if __name__ == "__main__":
    main()
