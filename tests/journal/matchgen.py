"""Hypothesis strategy for whole matches in the match JSON (legal under their preset)."""
from __future__ import annotations

from hypothesis import strategies as st

from kiosk.game import DECK, BotifarraError, match_from_json

TRUMPS = ["oros", "copes", "espases", "bastos", "botifarra"]
PRESETS = ["reglament", "butinet", "girona", "torrefarrera", "regional_234"]


@st.composite
def hands(draw):
    trump = draw(st.sampled_from(TRUMPS))
    hand = {"trump": trump, "delegated": draw(st.booleans()),
            "doubling": draw(st.sampled_from(["none", "none", "contro", "recontro", "sant_vicenc"]))}
    result = draw(st.sampled_from(["points", "points", "piles", "both_piles", "penalty", "misdeal"]))
    if result == "points":
        hand["points"] = {draw(st.sampled_from("AB")): draw(st.integers(0, 72))}
    elif result in ("piles", "both_piles"):
        deck = draw(st.permutations([str(c) for c in DECK]))
        cut = 4 * draw(st.integers(0, 12))
        hand["piles"] = {"A": deck[:cut], "B": deck[cut:]} if result == "both_piles" else {
            "A": deck[:cut]}
    elif result == "penalty":
        hand["penalty"] = draw(st.sampled_from("AB"))
    else:
        hand = {"misdeal": True}
    return hand


@st.composite
def matches(draw, max_hands: int = 14):
    """A valid match JSON: hands that the rules refuse (a doubling the preset forbids) are
    skipped; generation stops when the match is over."""
    data = {"rules": {"preset": draw(st.sampled_from(PRESETS)),
                      "target": draw(st.sampled_from([51, 101, 151]))},
            "first_dealer": draw(st.integers(0, 3)),
            "players": draw(st.sampled_from([["Anna", "Pere", "Marta", "Joan"], None,
                                             ["Núria", None, "Òscar", "Pau"]])),
            "hands": []}
    if draw(st.booleans()):
        data["team_names"] = {"A": "Nosaltres", "B": "Vosaltres"}
    if data["rules"]["preset"] in ("girona",):
        data["rules"].pop("target")
    for _ in range(draw(st.integers(0, max_hands))):
        hand = draw(hands())
        try:
            match = match_from_json({**data, "hands": data["hands"] + [hand]})
        except BotifarraError:
            continue
        data["hands"].append(hand)
        if match.is_over:
            break
    if draw(st.integers(0, 5)) == 0:
        try:
            match_from_json({**data, "ended": "abandoned"})
            data["ended"] = "abandoned"
        except BotifarraError:
            pass
    return data
