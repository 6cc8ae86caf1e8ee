"""One rough dealing sequence (tests/realcam/rough) read by ``DealTracker`` frame by frame, as
the kiosk reads its camera, and scored against the sequence's ground truth.

Scoring, per card (its place in deal order):

- named right: counted while it was the card on top (``FrameTruth.top_index``), once;
- wrong: a card counted that is not the one on top (or on the empty table, or counted twice);
- sent back: the kiosk asked about it while it lay on top ("show again", "two cards", "move
  it" out of a reflection), or while it lay under the card on top ("card under": that card
  counted, this one unseen under it), whether or not it was named later; nobody answers here (each
  card's first spell only: the player does not lift it again). "of them under a reflection":
  the truth says the lamp's reflection on it was at least ``GLARE_TRUTH`` when it was asked
  about (``FrameTruth.glare``): asking to move those may be the right answer;
- "hand" answers and "ja comptada" are counted apart; asks with no card on the table too;
- silent misses: nothing said about it at all (neither named nor asked about: the gravest
  failure; "two cards" asks about the top card and the one under it).

Darker frames (a camera with exposure control): when the tracker asks, the sequence's next
frame is rendered at that exposure (``DealSequence.frame(n, exposure_scale=)``) and handed over
in its place, as ``tests/bench/bench_deck.py`` does. The time of each ``feed``/``feed_darker``
call is this process's CPU time (other load does not inflate it much; one core).

``BENCH_ROUGH_FRAMES=DIR``: each rendered frame is kept in ``DIR`` (lossless PNG, keyed by the
generator's source, the sequence and the exposure) and read back from there, so that a second
run (another branch, another threshold) reads the very same frames and costs the tracker's
time only. Rendering, not reading, is most of a run's time.

At the end of each sequence the players press "Fet" (done): ``DealTracker.finish()`` looks at
the last frame once more, as the kiosk's deal screen does; its events are scored at that frame.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from tests.realcam.rough.dealing import DealSequence
from vision.deck.darker import DARKER_SCALE
from vision.deck.tracker import (
    ALREADY, ASK_KINDS, COUNTED, DARKER, GLARE, HAND, SHOW_AGAIN, TAKEN_BACK, TWO_CARDS, UNDER, DealTracker)

GLARE_TRUTH = 0.6  # the reflection on a card from which its print is washed out (as tests/bench/bench_deck.py)
ASK_NAMES = {SHOW_AGAIN: "show again", TWO_CARDS: "two cards", GLARE: "move it", UNDER: "card under"}


@dataclass
class Tally:
    seqs: int = 0
    cards: int = 0
    right: int = 0
    wrong: int = 0
    asked: int = 0  # cards sent back at least once
    asked_glare: int = 0  # of them: under the lamp's reflection (truth >= GLARE_TRUTH) when asked
    glared: int = 0  # cards under such a reflection in some still frame while on top
    asks: Counter = field(default_factory=Counter)  # ask events by kind (on a card lying on top)
    asked_empty: int = 0  # asks while no card lay on the table
    hand: int = 0  # "a hand is there" answers
    already: int = 0  # "ja comptada" answers
    missed: int = 0
    darker: int = 0
    ms: dict = field(default_factory=dict)  # resolution -> CPU ms per frame read

    def add(self, other: "Tally") -> None:
        for name in ("seqs", "cards", "right", "wrong", "asked", "asked_glare", "glared", "asked_empty", "hand",
                     "already", "missed", "darker"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.asks.update(other.asks)
        for k, v in other.ms.items():
            self.ms.setdefault(k, []).extend(v)

    @property
    def frames(self) -> int:
        return sum(len(v) for v in self.ms.values())


def _timed(call, ms: list[float]):
    c0 = time.process_time()
    out = call()
    ms.append(1000 * (time.process_time() - c0))
    return out


def _generator() -> str:
    """The rough camera's own source (and what it draws with): a frame kept under another
    version is never read back."""
    from tests.realcam.dataset import generator_version

    h = hashlib.sha1(generator_version().encode())
    for p in sorted(Path(__file__).parents[1].joinpath("realcam", "rough").glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:12]


def frame_image(seq: DealSequence, n: int, exposure_scale: float = 1.0) -> np.ndarray:
    """Frame ``n`` of ``seq`` at ``exposure_scale``: rendered, or read back from
    ``BENCH_ROUGH_FRAMES`` when it was rendered there before."""
    root = os.environ.get("BENCH_ROUGH_FRAMES")
    if not root:
        return seq.frame(n, exposure_scale=exposure_scale).image
    key = hashlib.sha1(repr((seq.seed, seq.resolution, seq.deck_style, seq.truth, seq.nuisances)).encode())
    path = Path(root) / _generator() / f"{seq.seed}-{key.hexdigest()[:10]}" / f"{n:03d}-{exposure_scale:.4f}.png"
    if path.exists():
        image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
        if image is not None:
            return image
    image = seq.frame(n, exposure_scale=exposure_scale).image
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_suffix(f".{os.getpid()}.png")
    cv2.imwrite(str(part), image, [cv2.IMWRITE_PNG_COMPRESSION, 1])
    os.replace(part, path)  # (another process reading the same frame sees it whole or not at all)
    return image


def read(seq: DealSequence, model, *, darker: bool = True, verbose: bool = False) -> Tally:
    """Read ``seq`` frame by frame with a fresh ``DealTracker(model)``; the tally of its cards."""
    tracker = DealTracker(model, darker_scale=DARKER_SCALE if darker else None)
    ms: list[float] = []
    t = Tally(seqs=1, cards=len(seq.truth), ms={seq.resolution: ms})
    counted: set[int] = set()
    asked: set[int] = set()
    asked_glare: set[int] = set()
    taken = -1
    for n in range(len(seq) + 1):
        if n <= taken:
            continue  # the darker frame stood in for this one
        if n == len(seq):  # the players press "Fet": the latest frame looked at once more
            events = [(len(seq) - 1, e) for e in _timed(tracker.finish, ms)]
        else:
            image = frame_image(seq, n)
            got = _timed(lambda: tracker.feed(image), ms)
            events = [(n, e) for e in got if e.kind != DARKER]
            for ask in [e.darker for e in got if e.kind == DARKER]:
                taken = min(n + 1, len(seq) - 1)
                dark = frame_image(seq, taken, ask.exposure_scale)
                t.darker += 1
                events += [(n if e.earlier else taken, e) for e in _timed(lambda: tracker.feed_darker(ask, dark), ms)]
        for k, e in events:
            i = seq.frame_truth[k].top_index - (e.kind == COUNTED and e.under)  # (under: the card under the top one)
            if verbose:
                print(f"<!-- seed {seq.seed} frame {k}: {e.kind} {e.card} (top {i}: "
                      f"{seq.truth[i] if i >= 0 else None}) -->")
            if e.kind == COUNTED:
                if i < 0 or i in counted or e.card.code != seq.truth[i]:
                    t.wrong += 1
                else:
                    counted.add(i)
            elif e.kind == UNDER:  # (the top card counted with it: the ask is about the card under it alone)
                if i < 1:
                    t.asked_empty += 1
                else:
                    t.asks[ASK_NAMES[e.kind]] += 1
                    asked.add(i - 1)
            elif e.kind in ASK_KINDS:
                if i < 0:
                    t.asked_empty += 1
                else:
                    t.asks[ASK_NAMES[e.kind]] += 1
                    asked.add(i)
                    if e.kind == TWO_CARDS and i > 0 and i - 1 not in counted:
                        asked.add(i - 1)  # ("two cards": the one under the top card is asked about too)
                    if seq.frame_truth[k].glare >= GLARE_TRUTH:
                        asked_glare.add(i)
            elif e.kind == HAND:
                t.hand += 1
            elif e.kind == ALREADY:
                t.already += 1
            elif e.kind == TAKEN_BACK and e.card is not None:
                # (the rough sequences lift no card: one answered "taken back" is dropped from
                # the kiosk's pile, so it is not named right; missed, unless counted again later)
                counted.discard(next((j for j, code in enumerate(seq.truth) if code == e.card.code), -1))
    t.right = len(counted)
    t.asked = len(asked)
    t.asked_glare = len(asked_glare)
    t.glared = len({f.top_index for f in seq.frame_truth if f.still and f.glare >= GLARE_TRUTH})
    t.missed = sum(1 for i in range(len(seq.truth)) if i not in counted and i not in asked)
    return t
