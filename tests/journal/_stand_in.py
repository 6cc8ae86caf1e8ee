"""TEMPORARY stand-in for kiosk.game.Match until the core branch lands (removed then)."""
from __future__ import annotations
import copy


class Match:
    def __init__(self, events):
        self.events = events
        first = events[0]
        self.players = first.get("players")
        self.team_names = first.get("team_names")
        self.totals = {"A": 0, "B": 0}
        self.hands = []
        self.dealer = first.get("first_dealer", 0)
        self.phase = "choose_trump"
        self.winner = None
        self.is_over = False
        for e in events[1:]:
            self._step(e)

    def _step(self, e):
        from kiosk.game import IllegalBidError, MatchStateError
        t = e["type"]
        if self.is_over:
            raise MatchStateError("match over")
        if t == "trump":
            if self.phase != "choose_trump" or e["seat"] != self.dealer:
                raise IllegalBidError(f"seat {e['seat']} may not choose trump now")
            self.phase = "doubling"
        elif t == "play":
            self.phase = "playing"
        elif t == "hand_scored":
            if self.phase != "playing":
                raise MatchStateError("not playing")
            a = e["points"].get("A", 72 - e["points"].get("B", 0))
            sc = {"A": max(a - 36, 0), "B": max(36 - a, 0)}
            self.totals = {k: self.totals[k] + sc[k] for k in "AB"}
            self.hands.append(sc)
            self.dealer = (self.dealer + 1) % 4
            self.phase = "choose_trump"
            for k in "AB":
                if self.totals[k] > 100:
                    self.winner, self.is_over, self.phase = k, True, "over"
        elif t == "match_ended":
            self.is_over, self.phase = True, "over"
        else:
            raise MatchStateError(f"unknown {t}")

    @classmethod
    def create(cls, rules, first_dealer=0, players=None, team_names=None):
        return cls([{"type": "match_created", "rules": rules, "first_dealer": first_dealer,
                     "players": players, "team_names": team_names}])

    @classmethod
    def from_events(cls, events):
        from kiosk.game import MatchStateError
        if not events or events[0].get("type") != "match_created":
            raise MatchStateError("no match_created")
        return cls(copy.deepcopy(list(events)))

    def apply(self, event):
        return Match(self.events + [copy.deepcopy(event)])

    def to_json(self):
        return {"rules": self.events[0]["rules"], "first_dealer": self.events[0]["first_dealer"],
                "players": self.players, "events": self.events[1:]}

    @classmethod
    def from_json(cls, data):
        from kiosk.game import RulesError
        if "rules" not in data:
            raise RulesError("no rules")
        return cls.from_events([{"type": "match_created", "rules": data["rules"],
                                 "first_dealer": data["first_dealer"], "players": data["players"],
                                 "team_names": None}] + data["events"])
