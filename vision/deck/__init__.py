"""Ordinary decks, no stickers: learn a deck once, then read a pile dealt face up.

- :mod:`vision.deck.views`: the card's quadrilateral warped flat and normalised for light.
- :mod:`vision.deck.locate`: where the card is (one card on the mat; the new card on a stack).
- :mod:`vision.deck.edges`: a learnt card's outline fitted to its edges.
- :mod:`vision.deck.scale`: a card's size on the table, from the mat's corner markers.
- :mod:`vision.deck.glare`: the lamp's reflection on a card, and matching around it.
- :mod:`vision.deck.darker`: a darker second exposure for the cards under the reflection.
- :mod:`vision.deck.model`: the enrolled deck and the classifier with its margin.
- :mod:`vision.deck.store`: decks kept by name in the kiosk's data directory.
- :mod:`vision.deck.tracker`: the deal-through state machine (one card at a time).
"""

from vision.deck.errors import DeckError, DeckNotFoundError, EnrolmentError
from vision.deck.model import DeckModel, Naming
from vision.deck.tracker import DealEvent, DealTracker

__all__ = ["DeckError", "DeckNotFoundError", "EnrolmentError", "DeckModel", "Naming", "DealEvent",
           "DealTracker"]
