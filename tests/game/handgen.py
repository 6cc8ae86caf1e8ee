"""Played hands drawn in code, and a small referee written apart from kiosk.game.

``deal_and_play(rng)`` deals 48 cards and plays a whole hand with the legal cards of
``kiosk.game.tricks`` (a random choice each time); with ``renunci=True`` one card, at a
random moment where the player had a choice the rule forbids, is a forbidden one.

``Referee`` re-implements the seeds' play rules (Reglament ch. 12 for *lliure*, the
Portuguese article's *obligatória* variant for *obligat*, and its "carregar" for
*intermediate*) as a yes/no question about one card, with its own rank tables and card
tuples: it shares no code with kiosk.game, so the hand check is compared against an
independent reading of the rules, not against itself.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from kiosk.game import DECK
from kiosk.game.tricks import legal_cards

# The referee's own cards: (rank, suit letter). Order high to low, and the card points.
ORDER = (9, 1, 12, 11, 10, 8, 7, 6, 5, 4, 3, 2)
ORDER_3_SECOND = (9, 3, 1, 12, 11, 10, 8, 7, 6, 5, 4, 2)
VALUE = {9: 5, 1: 4, 12: 3, 11: 2, 10: 1}
TRUMP_LETTER = {"oros": "O", "copes": "C", "espases": "E", "bastos": "B", "botifarra": None}
RULES = ("lliure", "obligat", "intermediate")


def card(code: str) -> tuple[int, str]:
    return int(code[:-1]), code[-1]


class Referee:
    """Says whether one card may be played, who wins a trick, and what a hand scores."""

    def __init__(self, trump: str, rule: str, three_second: bool) -> None:
        self.trump = TRUMP_LETTER[trump]
        self.rule = rule
        order = ORDER_3_SECOND if three_second else ORDER
        self.rank = {r: len(order) - i for i, r in enumerate(order)}   # higher is stronger

    def kills(self, c: tuple[int, str], best: tuple[int, str]) -> bool:
        if c[1] == best[1]:
            return self.rank[c[0]] > self.rank[best[0]]
        return c[1] == self.trump

    def best(self, trick: list[tuple[int, str]]) -> int:
        b = 0
        for i in range(1, len(trick)):
            if self.kills(trick[i], trick[b]):
                b = i
        return b

    def lowest_of_its_suit(self, c: tuple[int, str], hand: list[tuple[int, str]]) -> bool:
        return all(self.rank[x[0]] >= self.rank[c[0]] for x in hand if x[1] == c[1])

    def may_play(self, c: tuple[int, str], hand: list[tuple[int, str]], trick: list[tuple[int, str]]) -> bool:
        if not trick:
            return True
        led = trick[0][1]
        follows = any(x[1] == led for x in hand)
        if c[1] != led and follows:
            return False                                  # always follow suit
        b = self.best(trick)
        if b == len(trick) - 2:                           # the partner is winning
            if self.rule == "lliure":
                return True
            return VALUE.get(c[0], 0) > 0 or self.lowest_of_its_suit(c, hand)
        if self.kills(c, trick[b]):
            return True
        if any(self.kills(x, trick[b]) for x in hand if x[1] == led or not follows):
            return False                                  # could have killed (a trump only without the suit)
        if self.rule == "lliure":
            return True
        if self.rule == "intermediate" and VALUE.get(c[0], 0) > 0:
            return True                                   # carregar
        return self.lowest_of_its_suit(c, hand)

    def judge(self, tricks: list[list[str]], first_lead: int) -> dict:
        """The expected output of ``hand check`` for a complete hand."""
        seats: list[list[tuple[int, str]]] = [[] for _ in range(4)]   # each seat's plays in order
        where = []                                        # (trick number, seat, card, before)
        winners, points = [], {"A": 0, "B": 0}
        lead = first_lead
        for n, codes in enumerate(tricks, 1):
            trick = [card(x) for x in codes]
            for i, c in enumerate(trick):
                seats[(lead + i) % 4].append(c)
                where.append((n, (lead + i) % 4, c, trick[:i]))
            lead = (lead + self.best(trick)) % 4
            winners.append(lead)
            points["AB"[lead % 2]] += sum(VALUE.get(c[0], 0) for c in trick) + 1
        renunci = None
        for n, seat, c, before in where:
            held = seats[seat][seats[seat].index(c):]
            if not self.may_play(c, held, before):
                later = next(x for x in held[1:] if self.may_play(x, held, before))
                m = n + held.index(later)
                renunci = {"trick": n, "seat": seat, "card": f"{c[0]}{c[1]}",
                           "proof": {"trick": m, "card": f"{later[0]}{later[1]}"}}
                break
        return {"winners": winners, "points": points, "renunci": renunci}


@dataclass
class Drawn:
    """A played hand as the command reads it, and what was done to it."""

    doc: dict                   # the hand's JSON object
    renunci: tuple[int, int, str] | None   # (trick, seat, card) of the one forbidden card


def deal_and_play(rng: random.Random, *, renunci: bool = False) -> Drawn:
    trump = rng.choice(list(TRUMP_LETTER))
    rule = rng.choice(RULES)
    three_second = rng.random() < 0.25
    deck = list(DECK)
    rng.shuffle(deck)
    hands = {s: deck[12 * s:12 * s + 12] for s in range(4)}
    lead = first_lead = rng.randrange(4)
    ref = Referee(trump, rule, three_second)
    # the moment of the forbidden card: one of the 48 plays, taken when a forbidden card exists
    target = rng.randrange(40) if renunci else -1
    injected = None
    tricks = []
    for n in range(1, 13):
        trick = []
        for i in range(4):
            seat = (lead + i) % 4
            legal = legal_cards(hands[seat], trick, trump=trump, play_rule=rule, three_second=three_second)
            forbidden = [c for c in hands[seat] if c not in legal]
            k = 4 * (n - 1) + i
            if injected is None and forbidden and k >= target >= 0:
                chosen = rng.choice(forbidden)
                injected = (n, seat, chosen.code)
            else:
                chosen = rng.choice(legal)
            hands[seat].remove(chosen)
            trick.append(chosen)
        codes = [c.code for c in trick]
        lead = (lead + ref.best([card(x) for x in codes])) % 4
        tricks.append(codes)
    doc = {"rules": {"preset": "reglament", "play_rule": rule, "three_second": three_second},
           "trump": trump, "first_lead": first_lead, "tricks": tricks}
    return Drawn(doc, injected)
