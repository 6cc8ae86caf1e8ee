"""The trick-mode UI tests' camera footage: the first trick of a hand of the bench's rough
tables (tests/overhead/rough.py, hand 401: 720p, 70 cm), its frames until the fourth card is
read, rendered once and kept on disk. test_tricks reads it through the trick camera;
test_seats learns the seats' places from the same four cards (one render for both: about
40 frames, a quarter of a second of CPU each on a fresh cache)."""

from __future__ import annotations

from pathlib import Path

import cv2

READ_FRAMES = 8  # the recording's frames after the last card lies still: its read and a little more


def first_trick():
    """The hand's :class:`~tests.overhead.rough.RoughSequence`, its first trick only."""
    from tests.overhead.rough import rough_overhead

    return rough_overhead(401, mode="720p", height_cm=70.0, tricks=1)


def record(seq, folder: Path, *, lying: int = 0) -> int:
    """The frames until the fourth card is read (the sweep after it is
    tests/vision/test_tricks.py's test_a_trick_swept_off_...) in ``folder`` as the camera's
    recording, then ``lying`` more of the last one (the trick lying there, still): how many."""
    folder.mkdir(parents=True, exist_ok=True)
    last = None
    for f in seq.frames(limit=seq.frame_of(seq.plan.plays[-1].still_s) + READ_FRAMES):
        kept = seq.folder / f"{f.n:05d}.jpg"
        last = folder / kept.name
        if kept.exists():
            last.symlink_to(kept)
        else:  # (a read-only cache)
            cv2.imwrite(str(last), f.image)
    n = int(last.stem) + 1
    for i in range(n, n + lying):
        (folder / f"{i:05d}.jpg").symlink_to(last.resolve())
    return n + lying
