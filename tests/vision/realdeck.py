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
