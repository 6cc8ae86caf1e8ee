"""Events for journal tests (valid under the reglament preset)."""
from __future__ import annotations

from kiosk.journal import Journal


def created(players=("Anna", "Pere", "Marta", "Joan"), first_dealer=0, **rules) -> dict:
    return {"type": "match_created", "rules": {"preset": "reglament", **rules},
            "first_dealer": first_dealer, "players": list(players),
            "team_names": {"A": "Nosaltres", "B": "Vosaltres"}}


def play_hand(journal: Journal, match_id: int, points_a: int):
    """One plain hand: the dealer picks oros, no doubling, A makes ``points_a``."""
    match = journal.load(match_id)
    journal.append(match_id, {"type": "trump", "seat": match.dealer, "trump": "oros"})
    journal.append(match_id, {"type": "play"})
    return journal.append(match_id, {"type": "hand_scored", "points": {"A": points_a},
                                     "source": "points", "evidence": None})
