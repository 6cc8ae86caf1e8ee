"""A deck learnt from the realistic camera's enrolment photos (tests/realcam), for the
deck tests that are about a few cards and their neighbours: only those cards are learnt."""

from __future__ import annotations

from functools import lru_cache

from kiosk.game import Card
from tests.realcam.deal import enrol_photo
from vision.deck.model import DeckModel
from vision.deck.store import learn_photo


@lru_cache(maxsize=8)
def learnt(style: str, codes: tuple[str, ...]) -> DeckModel:
    """``codes`` learnt from one enrolment photo each, of deck ``style`` (kept for the process)."""
    photos = {}
    for code in codes:
        shot = enrol_photo(code, deck_style=style)
        photos[Card.parse(code)] = (shot.image, learn_photo(shot.image)[0])
    return DeckModel.learn(style, photos)


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
        told += [(seq.frame_truth[k].top_index, e.kind, e.card.code if e.card else None)
                 for k, e in events if e.kind != DARKER]
    return told
