"""A hand played card by card for the table's trick mode, drawn in code: a shuffled deal,
each player laying a legal card of ``kiosk.game.tricks`` (or, once, a forbidden one)."""

from __future__ import annotations

import random

from kiosk.game import DECK
from kiosk.game.cards import Card
from kiosk.game.rules import Trump
from kiosk.game.tricks import legal_cards, winning_index


def play_hand(seed: int, *, trump: str, first_lead: int, renunci_at: int | None = None
              ) -> list[tuple[int, int, str]]:
    """The 48 plays ``(trick, seat, card)`` in order; with ``renunci_at`` the first card
    from that play on where a forbidden one exists is forbidden."""
    rng = random.Random(seed)
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {s: deck[12 * s:12 * s + 12] for s in range(4)}
    suit = Trump.parse(trump).suit
    lead, plays, injected = first_lead, [], False
    for n in range(1, 13):
        trick: list[Card] = []
        for i in range(4):
            seat = (lead + i) % 4
            legal = legal_cards(hands[seat], trick, trump=suit)
            forbidden = [c for c in hands[seat] if c not in legal]
            if renunci_at is not None and not injected and forbidden and len(plays) >= renunci_at:
                chosen, injected = forbidden[0], True
            else:
                chosen = rng.choice(legal)
            hands[seat].remove(chosen)
            trick.append(chosen)
            plays.append((n, seat, chosen.code))
        lead = (lead + winning_index(trick, suit)) % 4
    return plays
