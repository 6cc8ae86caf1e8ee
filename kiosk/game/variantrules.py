"""The rules of a game other than the pair game: the pair ``Rules`` (targets, hands, time,
cap, the doubling multipliers, the 3 second after the 9) and what only these games need.

Where the seeds are silent the defaults are what a table would expect (docs/RULES.md,
"Other player counts"): every choice is a field, so a table that plays otherwise says so.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from kiosk.game.errors import RulesError
from kiosk.game.rules import Rules

# the renunci penalty when there are no pairs (four each for himself, three)
RENUNCI_RULES = ("share", "each")
# a level at the top when time runs out (or two players pass the target in one hand)
TIE_RULES = ("play_on", "draw")
# rector i vicari: trump chosen by the dealer, or the turned card of his last pile
TWO_TRUMP_RULES = ("chosen", "turned")
TWO_LAYOUTS = ("six_piles", "four_piles")
FIRST_CHOOSER_RULES = ("dealer", "five_of_espases")
GAMES = ("four_individual", "three", "two")


@dataclass(frozen=True, slots=True)
class VariantRules:
    """``base`` (the pair rules every game shares) and the fields only these games have."""

    base: Rules = Rules()
    renunci: str = "share"        # share: the offender -baseline, the others share it
    tie: str = "play_on"          # a shared lead when the match would end: one more hand
    two_trump: str = "chosen"     # rector i vicari: "turned" = the card on his last pile
    two_layout: str = "six_piles"  # rector i vicari: six piles of 4, or four piles + 8 in hand
    first_chooser: str = "dealer"  # "five_of_espases": the first match_created names its holder

    def __post_init__(self) -> None:
        for name, allowed in (("renunci", RENUNCI_RULES), ("tie", TIE_RULES),
                              ("two_trump", TWO_TRUMP_RULES), ("two_layout", TWO_LAYOUTS),
                              ("first_chooser", FIRST_CHOOSER_RULES)):
            value = getattr(self, name)
            if value not in allowed:
                raise RulesError("rules: {name} must be one of {choices}, not {value!r}",
                                 name=name, choices=", ".join(allowed), value=value)
        if not isinstance(self.base, Rules):
            raise RulesError("rules must be a Rules, a preset name or a dict")

    def to_dict(self) -> dict:
        d = self.base.to_dict()
        for f in fields(self):
            if f.name != "base":
                d[f.name] = getattr(self, f.name)
        return d

    @classmethod
    def from_dict(cls, data: "dict | str | None") -> "VariantRules":
        """A preset (its name or ``{"preset": ..., overrides}``) plus these games' fields."""
        if isinstance(data, str):
            data = {"preset": data}
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise RulesError("rules must be an object such as {{\"preset\": \"reglament\", \"target\": 101}}")
        own = {f.name for f in fields(cls)} - {"base"}
        base = Rules.from_dict({k: v for k, v in data.items() if k not in own})
        return replace(cls(base), **{k: v for k, v in data.items() if k in own})
