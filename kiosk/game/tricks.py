"""Trick play: who wins a trick, and which cards a player may play.

Play rules (RULES.md, "Play rules"):

- ``lliure`` (Lleida): partner winning -> follow suit if you can, else anything.
  Opponent winning -> follow suit and beat if you can; without the suit, trump to win if
  you can (over-trump if needed); otherwise anything.
- ``obligat`` ("jugar petit"): as lliure, but partner winning -> a point card of the suit
  or its lowest card (without the suit: a point card or the lowest card of a suit);
  opponent winning and you cannot win -> the lowest card of the suit (without the suit:
  the lowest card of a suit).
- ``intermediate``: obligat, but a player who cannot win may also "carregar": put a point
  card (of the suit led if he has it) instead of the lowest card.

``three_second=True`` is the variant ranking the 3 second after the 9 (ordering only).
A trick is given as the cards played so far, in playing order from the leader.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from kiosk.game.cards import Card, Suit
from kiosk.game.errors import N_, IllegalPlayError, Message, RulesError
from kiosk.game.rules import PLAY_RULES, Trump
from kiosk.game.seats import check_seat


def _trump_suit(trump: Trump | Suit | str | None) -> Suit | None:
    if trump is None:
        return None
    if isinstance(trump, Suit):
        return trump
    return Trump.parse(trump).suit


def _cards(items: Iterable[Card | str]) -> list[Card]:
    return [c if isinstance(c, Card) else Card.parse(c) for c in items]


def winning_index(trick: Sequence[Card | str], trump: Trump | Suit | str | None, *,
                  three_second: bool = False) -> int:
    """Index (in playing order) of the card winning the trick so far."""
    cards = _cards(trick)
    if not cards:
        raise IllegalPlayError("the trick is empty: nobody is winning it yet")
    t = _trump_suit(trump)
    best = 0
    for i, c in enumerate(cards[1:], start=1):
        if _beats(c, cards[best], t, three_second):
            best = i
    return best


def _beats(card: Card, winner: Card, trump: Suit | None, three_second: bool) -> bool:
    """Does ``card`` beat the card currently winning the trick?"""
    if card.suit == winner.suit:
        return card.strength(three_second=three_second) > winner.strength(three_second=three_second)
    return trump is not None and card.suit == trump


def trick_winner(cards: Sequence[Card | str], lead_seat: int, trump: Trump | Suit | str | None, *,
                 three_second: bool = False) -> int:
    """The seat that wins a trick; ``cards`` in playing order starting from ``lead_seat``."""
    if len(cards) != 4:
        raise IllegalPlayError("a trick has 4 cards, not {count}", count=len(cards))
    return (check_seat(lead_seat) + winning_index(cards, trump, three_second=three_second)) % 4


def _lowest(cards: list[Card], three_second: bool) -> Card:
    return min(cards, key=lambda c: c.strength(three_second=three_second))


def _lowest_of_each_suit(cards: list[Card], three_second: bool) -> list[Card]:
    out = []
    for s in Suit:
        of_suit = [c for c in cards if c.suit == s]
        if of_suit:
            out.append(_lowest(of_suit, three_second))
    return out


def _in_hand_order(hand: list[Card], chosen: Iterable[Card]) -> list[Card]:
    keep = set(chosen)
    return [c for c in hand if c in keep]


def _legal(hand: list[Card], trick: list[Card], trump: Suit | None, rule: str,
           three_second: bool) -> tuple[list[Card], Message]:
    """The legal cards and, in plain words, the constraint that produced them."""
    def why(template: str, **params: object) -> Message:
        return Message(template, suit=led_name, **params)

    if not trick:
        return list(hand), Message(N_("the first card of a trick may be anything"))
    led = trick[0].suit
    w = winning_index(trick, trump, three_second=three_second)
    winner = trick[w]
    partner_winning = w == len(trick) - 2
    follow = [c for c in hand if c.suit == led]
    led_name = led.catalan
    points = [c for c in hand if c.points > 0]

    if partner_winning:
        if rule == "lliure":
            if follow:
                return follow, why(N_("your partner is winning: follow suit ({suit})"))
            return list(hand), why(N_("your partner is winning and you have no {suit}"))
        if follow:
            low = _lowest(follow, three_second)
            ok = [c for c in follow if c.points > 0] + [low]
            return _in_hand_order(hand, ok), why(N_("your partner is winning: play a point card of "
                                                    "{suit} or your lowest {suit} ({card})"), card=low.code)
        ok = points + _lowest_of_each_suit(hand, three_second)
        return _in_hand_order(hand, ok), why(N_("your partner is winning and you have no {suit}: "
                                                "play a point card or the lowest card of a suit"))

    beating = [c for c in follow if _beats(c, winner, trump, three_second)]
    if follow:
        if beating:
            return beating, why(N_("an opponent is winning with {winner}: "
                                   "you must beat it with a higher {suit}"),
                                winner=winner.code)
        if rule == "lliure":
            return follow, why(N_("you cannot beat {winner}: follow suit ({suit})"), winner=winner.code)
        low = _lowest(follow, three_second)
        if rule == "intermediate":
            ok = [low] + [c for c in follow if c.points > 0]
            return _in_hand_order(hand, ok), why(N_("you cannot beat {winner}: play your lowest "
                                                    "{suit} ({card}) or load a point card"),
                                                 winner=winner.code, card=low.code)
        return [low], why(N_("you cannot beat {winner}: play your lowest {suit} ({card})"),
                          winner=winner.code, card=low.code)
    ruffs = [c for c in hand if trump is not None and c.suit == trump and _beats(c, winner, trump, three_second)]
    if ruffs:
        return ruffs, why(N_("you have no {suit} and an opponent is winning with {winner}: "
                             "you must trump to win"), winner=winner.code)
    if rule == "lliure":
        return list(hand), why(N_("you have no {suit} and cannot win"))
    ok = _lowest_of_each_suit(hand, three_second)
    if rule == "intermediate":
        return _in_hand_order(hand, ok + points), why(N_("you have no {suit} and cannot win: play the "
                                                         "lowest card of a suit or load a point card"))
    return _in_hand_order(hand, ok), why(N_("you have no {suit} and cannot win: "
                                            "play the lowest card of a suit"))


def legal_kin(card: Card, hand: list[Card], winner: Card | None, trump: Suit | None, three_second: bool) -> tuple:
    """What of ``card`` the legal cards of ``hand + [card]`` can depend on, for the cards of
    ``hand`` (``winner``: the card winning the trick so far, None before its first card): two
    cards with the same kin, each added to ``hand``, leave the same cards of ``hand`` legal
    (``_legal`` looks at a card's suit, its points, whether it beats the winning card, and its
    place among the hand's cards of its suit: the lowest)."""
    if winner is None:
        return ()
    strength = card.strength(three_second=three_second)
    under = sum(1 for c in hand if c.suit == card.suit and c.strength(three_second=three_second) < strength)
    return card.suit, card.points > 0, _beats(card, winner, trump, three_second), under


def _check_rule(play_rule: str) -> str:
    if play_rule not in PLAY_RULES:
        raise RulesError("unknown play rule {rule!r}: lliure, obligat or intermediate", rule=play_rule)
    return play_rule


def legal_cards(hand: Iterable[Card | str], trick: Sequence[Card | str], *,
                trump: Trump | Suit | str | None, play_rule: str = "lliure",
                three_second: bool = False) -> list[Card]:
    """The cards of ``hand`` that may be played to ``trick`` (the cards played so far)."""
    cards = _cards(hand)
    if not cards:
        raise IllegalPlayError("the hand is empty")
    if len(trick) >= 4:
        raise IllegalPlayError("the trick is already complete")
    return _legal(cards, _cards(trick), _trump_suit(trump), _check_rule(play_rule), three_second)[0]


def check_play(hand: Iterable[Card | str], trick: Sequence[Card | str], card: Card | str, *,
               trump: Trump | Suit | str | None, play_rule: str = "lliure",
               three_second: bool = False) -> Card:
    """Raise ``IllegalPlayError`` saying why ``card`` may not be played; return it if it may."""
    cards = _cards(hand)
    c = card if isinstance(card, Card) else Card.parse(card)
    if c not in cards:
        raise IllegalPlayError("{card} is not in this hand", card=c.code)
    if len(trick) >= 4:
        raise IllegalPlayError("the trick is already complete")
    ok, why = _legal(cards, _cards(trick), _trump_suit(trump), _check_rule(play_rule), three_second)
    if c not in ok:
        allowed = " ".join(x.code for x in ok)
        raise IllegalPlayError("{card} may not be played: {why} (allowed: {allowed})",
                               card=c.code, why=why, allowed=allowed)
    return c


class HandPlay:
    """A hand followed card by card (to settle a dispute, or to follow play on the table).

    Immutable: ``play(card)`` returns a new ``HandPlay``. ``hands`` maps each seat to the
    cards it holds; the player to play is ``to_play``; ``piles()`` gives the cards each pair
    captured, ready for a ``hand_scored`` event.
    """

    __slots__ = ("_hands", "trump", "play_rule", "three_second", "_lead", "_trick", "_tricks")

    def __init__(self, hands: dict[int, Iterable[Card | str]], *, first_lead: int,
                 trump: Trump | Suit | str | None, play_rule: str = "lliure",
                 three_second: bool = False) -> None:
        if sorted(hands) != [0, 1, 2, 3]:
            raise IllegalPlayError("give the cards of the four seats 0, 1, 2 and 3")
        cards = {s: tuple(_cards(hands[s])) for s in range(4)}
        sizes = {len(c) for c in cards.values()}
        if len(sizes) != 1:
            raise IllegalPlayError("every player must hold the same number of cards")
        seen: set[Card] = set()
        for s, cs in cards.items():
            for c in cs:
                if c in seen:
                    raise IllegalPlayError("{card} is dealt twice", card=c.code)
                seen.add(c)
        self._hands = cards
        self.trump = trump if trump is None or isinstance(trump, Suit) else Trump.parse(trump)
        self.play_rule = _check_rule(play_rule)
        self.three_second = three_second
        self._lead = check_seat(first_lead)
        self._trick: tuple[Card, ...] = ()
        self._tricks: tuple[tuple[int, tuple[Card, ...], int], ...] = ()

    def _copy(self) -> "HandPlay":
        new = object.__new__(HandPlay)
        for name in HandPlay.__slots__:
            object.__setattr__(new, name, getattr(self, name))
        return new

    @property
    def to_play(self) -> int | None:
        """The seat whose turn it is (None when every card is played)."""
        return None if self.done else (self._lead + len(self._trick)) % 4

    @property
    def done(self) -> bool:
        return not any(self._hands.values()) and not self._trick

    @property
    def trick(self) -> list[Card]:
        """The cards of the trick in progress, from its leader."""
        return list(self._trick)

    @property
    def tricks(self) -> list[tuple[int, list[Card], int]]:
        """Finished tricks as ``(lead_seat, cards, winner_seat)``."""
        return [(lead, list(cs), w) for lead, cs, w in self._tricks]

    def hand(self, seat: int) -> list[Card]:
        return list(self._hands[check_seat(seat)])

    def legal(self) -> list[Card]:
        seat = self.to_play
        if seat is None:
            return []
        return legal_cards(self._hands[seat], self._trick, trump=self.trump,
                           play_rule=self.play_rule, three_second=self.three_second)

    def play(self, card: Card | str) -> "HandPlay":
        seat = self.to_play
        if seat is None:
            raise IllegalPlayError("every card of this hand has been played")
        try:
            c = check_play(self._hands[seat], self._trick, card, trump=self.trump,
                           play_rule=self.play_rule, three_second=self.three_second)
        except IllegalPlayError as e:
            raise e.within("trick {trick}, seat {seat}", trick=len(self._tricks) + 1,
                           seat=seat) from None
        new = self._copy()
        hands = dict(self._hands)
        hands[seat] = tuple(x for x in hands[seat] if x != c)
        new._hands = hands
        trick = self._trick + (c,)
        if len(trick) == 4:
            winner = trick_winner(trick, self._lead, self.trump, three_second=self.three_second)
            new._tricks = self._tricks + ((self._lead, trick, winner),)
            new._trick = ()
            new._lead = winner
        else:
            new._trick = trick
        return new

    def piles(self) -> dict[str, list[str]]:
        """The card codes each pair has captured so far."""
        out: dict[str, list[str]] = {"A": [], "B": []}
        for _, cards, winner in self._tricks:
            out["A" if winner % 2 == 0 else "B"].extend(c.code for c in cards)
        return out
