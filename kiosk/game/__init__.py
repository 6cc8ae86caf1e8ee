"""The pure botifarra game core: cards, bidding, scoring, match, variants.

Standard library only: no Kivy, OpenCV, GPIO, SQLite, files or clocks.
"""

from kiosk.game.cards import (  # noqa: F401
    CARD_POINTS_IN_DECK, DECK, DECK_36, Card, Suit, card_points, make_deck, parse_cards,
)
from kiosk.game.errors import (  # noqa: F401
    BotifarraError, IllegalBidError, IllegalPlayError, InvalidCardError, InvalidPileError,
    InvalidScoreError, MatchStateError, RulesError,
)
