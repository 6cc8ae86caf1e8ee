"""Simulated tables for the club tests and benchmark: real journals, events appended
through kiosk.journal, hands drawn from a seeded random generator."""

from __future__ import annotations

import random

from kiosk.journal import Journal


def new_match(journal: Journal, *, preset: str = "butinet", names=("A", "B"), rules: dict | None = None) -> int:
    return journal.create_match({"type": "match_created", "rules": rules or {"preset": preset},
                                 "first_dealer": 0, "players": [None] * 4,
                                 "team_names": {"A": names[0], "B": names[1]}})


def play_hand(journal: Journal, match_id: int, rng: random.Random):
    """Append one hand (bids, maybe a doubling, the score; sometimes a misdeal or an
    undo/redo); returns the match after it."""
    match = journal.load(match_id)
    if rng.random() < 0.08:
        return journal.append(match_id, {"type": "misdeal"})
    trumps = [b for b in match.legal_bids() if b["type"] == "trump"]
    match = journal.append(match_id, rng.choice(trumps))
    doubles = [b for b in match.legal_bids() if b["type"] == "double"]
    if doubles and rng.random() < 0.2:
        match = journal.append(match_id, rng.choice(doubles))
    match = journal.append(match_id, {"type": "play"})
    points = rng.randint(0, 72)
    match = journal.append(match_id, {"type": "hand_scored", "points": {"A": points}, "source": "points"})
    if rng.random() < 0.1:
        journal.append(match_id, {"type": "undo"})
        match = journal.append(match_id, {"type": "redo"})
    return match


def play_match(journal: Journal, match_id: int, rng: random.Random, *, max_hands: int = 40):
    match = journal.load(match_id)
    while not match.is_over and len(match.hands) < max_hands:
        match = play_hand(journal, match_id, rng)
    return match
