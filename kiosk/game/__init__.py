"""The pure botifarra game core: cards, bidding, scoring, match, variants.

Standard library only: no Kivy, OpenCV, GPIO, SQLite, files or clocks.
"""

from kiosk.game.bidding import Contract, bid_events
from kiosk.game.bids import BIDDING_PHASES, Bid, BidKind, Phase
from kiosk.game.cards import (
    CARD_POINTS_IN_DECK, DECK, DECK_36, Card, Suit, card_points, make_deck, parse_cards,
)
from kiosk.game.errors import (
    BotifarraError, IllegalBidError, IllegalPlayError, InvalidCardError, InvalidPileError,
    InvalidScoreError, MatchStateError, RulesError,
)
from kiosk.game.handresult import HandResult, ResultKind
from kiosk.game.match import EVENT_TYPES, Match
from kiosk.game.matchjson import match_from_json, score_match_json
from kiosk.game.rules import PLAY_RULES, PRESETS, TARGETS, Doubling, Rules, Trump
from kiosk.game.scoring import (
    HandPoints, HandRecord, pile_points, points_from_piles, points_from_total, score_penalty,
    score_points, validate_pile,
)
from kiosk.game.tricks import HandPlay, check_play, legal_cards, trick_winner, winning_index
from kiosk.game.variants import (
    FOUR_INDIVIDUAL, THREE, TWO, VARIANTS, PlayerTally, Variant, score_players,
)
from kiosk.game.variantmatch import VariantMatch
from kiosk.game.variantrules import VariantRules
from kiosk.game.seats import (
    Roles, Team, first_dealer_by_draw, holder_of, other, partner, roles_for, team_of,
)

__all__ = [
    "CARD_POINTS_IN_DECK", "DECK", "DECK_36", "Card", "Suit", "card_points", "make_deck",
    "parse_cards",
    "BotifarraError", "IllegalBidError", "IllegalPlayError", "InvalidCardError",
    "InvalidPileError", "InvalidScoreError", "MatchStateError", "RulesError",
    "Trump", "Doubling", "Rules", "PRESETS", "TARGETS", "PLAY_RULES",
    "Team", "team_of", "other", "partner", "Roles", "roles_for", "first_dealer_by_draw",
    "holder_of",
    "Contract", "bid_events", "Bid", "BidKind", "Phase", "BIDDING_PHASES",
    "validate_pile", "pile_points", "points_from_piles", "points_from_total", "score_points",
    "score_penalty", "HandPoints", "HandRecord",
    "Match", "EVENT_TYPES", "match_from_json", "score_match_json", "HandResult", "ResultKind",
    "trick_winner", "winning_index", "legal_cards", "check_play", "HandPlay",
    "Variant", "VARIANTS", "FOUR_INDIVIDUAL", "THREE", "TWO", "PlayerTally", "score_players",
    "VariantMatch", "VariantRules",
]
