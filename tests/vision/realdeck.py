"""A deck learnt from the realistic camera's enrolment photos (tests/realcam), for the
deck tests that are about a few cards and their neighbours: only those cards are learnt."""

from __future__ import annotations

import os
from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import Card
from tests.realcam.deal import enrol_photo
from vision.deck.model import DeckModel
from vision.deck.store import learn_photo


def enrolment(style: str, code: str) -> tuple[np.ndarray, np.ndarray]:
    """``enrol_photo(code, deck_style=style)``'s image (the JPEG the camera delivered, decoded)
    and the card's outline the learner finds in it. The photo is kept on disk after its first
    render like the realcam shots (``tests.realcam.dataset.cache_dir``, under the generator's
    version), the outline for the process: the decks of several tests share cards."""
    from tests.realcam.dataset import cache_dir, generator_version

    path = cache_dir() / generator_version() / f"enrol-{style}-{code}.jpg"
    if path.exists():
        image = cv2.imdecode(np.frombuffer(path.read_bytes(), np.uint8), cv2.IMREAD_COLOR)
    else:
        shot = enrol_photo(code, deck_style=style)
        image = shot.image  # (decoded from shot.jpeg: the same pixels as read back)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")  # (another worker may write the same photo)
            tmp.write_bytes(shot.jpeg)
            tmp.replace(path)
        except OSError:
            pass  # a read-only cache: render every time
    return image, _outline(style, code, image)


_outlines: dict[tuple[str, str], np.ndarray] = {}


def _outline(style: str, code: str, image: np.ndarray) -> np.ndarray:
    """The learner's outline of the card in its enrolment photo: found once for the process,
    and kept on disk beside the photo for the other test processes (under the learner's own
    source: found afresh when vision/deck changes)."""
    from tests.realcam.dataset import cache_dir, generator_version

    if (style, code) not in _outlines:
        path = cache_dir() / generator_version() / f"enrol-{style}-{code}-outline-{_learner()}.npy"
        try:
            _outlines[style, code] = np.load(path)
        except (OSError, ValueError):
            _outlines[style, code] = learn_photo(image)[0]
            try:
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                with open(tmp, "wb") as f:
                    np.save(f, _outlines[style, code])
                tmp.replace(path)
            except OSError:
                pass
    return _outlines[style, code]


@lru_cache(maxsize=1)
def _learner() -> str:
    import hashlib
    from pathlib import Path

    import vision.deck

    files = sorted(Path(vision.deck.__file__).parent.glob("*.py"))
    return hashlib.sha1(b"".join(f.read_bytes() for f in files)).hexdigest()[:10]


@lru_cache(maxsize=8)
def learnt(style: str, codes: tuple[str, ...]) -> DeckModel:
    """``codes`` learnt from one enrolment photo each, of deck ``style`` (kept for the process)."""
    return DeckModel.learn(style, {Card.parse(code): enrolment(style, code) for code in codes})


def told_between(tracker, seq, start: int, stop: int) -> list[tuple[int, str, str | None]]:
    """(the card on top's place, event kind, card named) for each event of ``seq``'s frames
    ``start`` to ``stop``, fed to ``tracker`` as a camera with exposure control delivers them:
    a darker frame stands in for the next one, and an event of a darker look is about the
    darker frame, unless it is about the frame that asked (``earlier``)."""
    from vision.deck.tracker import DARKER
    told, taken = [], -1
    for n in range(start, stop):
        if n <= taken:
            continue  # (the darker frame stood in for this one)
        events = [(n, e) for e in tracker.feed(seq.frame(n).image)]
        for ask in [e.darker for _, e in events if e.kind == DARKER]:
            taken = min(n + 1, len(seq) - 1)
            dark = seq.frame(taken, exposure_scale=ask.exposure_scale).image
            events += [(n if e.earlier else taken, e) for e in tracker.feed_darker(ask, dark)]
        told += [(seq.frame_truth[k].top_index - e.under, e.kind, e.card.code if e.card else None)
                 for k, e in events if e.kind != DARKER]  # (under: a card counted under the top one)
    return told
