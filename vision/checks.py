"""Checks on the piles read by the camera, returned (never raised) so the UI can show
them on the photo (``ReadResult.annotate(image, problems=...)``) and offer a correction.

- a pile must be whole tricks (a multiple of 4 cards);
- no card twice, in a pile or across the two piles;
- with both piles, all 48 cards.

The verdict agrees with the game core's ``kiosk.game.validate_pile`` (used as the final
gate); these checks add the cards involved, and messages in Catalan.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Mapping

from kiosk.game import DECK, Card, InvalidPileError, validate_pile
from vision.reader import Problem

NOT_WHOLE_TRICKS = "not_whole_tricks"
CARD_TWICE = "card_twice"
IN_BOTH_PILES = "in_both_piles"
MISSING_CARDS = "missing_cards"
NOT_IN_DECK = "not_in_deck"
INVALID_PILE = "invalid_pile"


def _codes(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def check_piles(piles: Mapping[str, Iterable[Card]], *, deck: tuple[Card, ...] = DECK,
                trick_size: int = 4) -> list[Problem]:
    """Problems with one pile (``{"A": cards}``) or both (``{"A": ..., "B": ...}``); an
    empty list when the piles could have been captured."""
    problems: list[Problem] = []
    lists = {team: list(cards) for team, cards in piles.items()}
    deck_set = set(deck)
    for team, cards in lists.items():
        outside = [c for c in cards if c not in deck_set]
        if outside:
            problems.append(Problem(NOT_IN_DECK, f"Munt {team}: {_codes(outside)} no és d'aquesta baralla",
                                    tuple(outside)))
        twice = [c for c, n in Counter(cards).items() if n > 1]
        if twice:
            problems.append(Problem(CARD_TWICE, f"Munt {team}: {_codes(twice)} hi és dues vegades", tuple(twice)))
        n = len(set(cards))
        if n % trick_size:
            problems.append(Problem(NOT_WHOLE_TRICKS,
                                    f"Munt {team}: {n} cartes no són bases senceres (de {trick_size} en "
                                    f"{trick_size}); en falten {trick_size - n % trick_size} o en sobren "
                                    f"{n % trick_size}"))
    if len(lists) == 2:
        (ta, a), (tb, b) = lists.items()
        both = sorted(set(a) & set(b), key=lambda c: deck.index(c) if c in deck_set else 99)
        if both:
            problems.append(Problem(IN_BOTH_PILES, f"{_codes(both)} als dos munts", tuple(both)))
        missing = [c for c in deck if c not in set(a) | set(b)]
        if missing:
            problems.append(Problem(MISSING_CARDS, f"Falten {len(missing)} cartes: {_codes(missing[:8])}"
                                    + (" …" if len(missing) > 8 else ""), tuple(missing)))
    if not problems:
        teams = list(lists)
        try:
            if len(teams) == 2:
                validate_pile(lists[teams[0]], other=lists[teams[1]], deck=deck, trick_size=trick_size)
            else:
                for t in teams:
                    validate_pile(lists[t], deck=deck, trick_size=trick_size)
        except InvalidPileError as exc:
            problems.append(Problem(INVALID_PILE, str(exc)))
    return problems
