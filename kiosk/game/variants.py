"""The other player counts (seed 000): four individual, three (36 cards), two (rector i vicari).

Each is a small ``Variant`` that turns piles into points and points into scores:

- ``FOUR_INDIVIDUAL``: each for himself, 48 cards, tricks of 4. No delegation; only
  contro, and only when trump is not botifarra. Each player scores
  (points - 18) x multiplier, which can be negative.
- ``THREE``: 36 cards (no 2, 3, 4), 12 each, tricks of 3. Same bidding as four individual;
  each scores (points - 24) x multiplier.
- ``TWO`` ("rector i vicari"): tricks of 2, one point per two tricks (an odd trick left over
  goes to the player with fewer tricks); pair-style: over 36 scores (points - 36) x
  multiplier, the other 0. Bidding as the pair game (contro, recontro, Sant Vicenç).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from kiosk.game.cards import DECK, DECK_36, Card, Suit, card_points
from kiosk.game.errors import N_, BotifarraError, IllegalBidError, InvalidPileError, InvalidScoreError, Message
from kiosk.game.rules import PRESETS, Doubling, Rules, Trump
from kiosk.game.scoring import POINTS_PER_HAND, validate_pile


@dataclass(frozen=True, slots=True)
class Variant:
    name: str
    key: str                       # as the match JSON says it: "four_individual", ...
    players: int
    deck: tuple[Card, ...]
    trick_size: int
    baseline: int                  # points a player needs to break even
    tricks_per_point: int = 1      # rector i vicari: one point per two tricks
    pair_style: bool = False       # only the player over the baseline scores
    delegate: bool = False         # may the chooser delegate?

    @property
    def tricks_per_hand(self) -> int:
        return len(self.deck) // self.trick_size

    def _named(self, err: BotifarraError) -> BotifarraError:
        """``err`` said about this variant (``four individual: ...``)."""
        return err.within("{variant}", variant=self.name)

    # -- bidding ------------------------------------------------------------------------
    def multiplier(self, trump: Trump | str, doubling: Doubling | str | None = None, *,
                   rules: Rules = PRESETS["reglament"]) -> int:
        """The hand's multiplier; raises IllegalBidError for a doubling this variant forbids."""
        t = Trump.parse(trump)
        d = Doubling.parse(doubling)
        if not self.pair_style:
            if d > Doubling.CONTRO:
                raise self._named(IllegalBidError("only contro is played, not {level}", level=d.key))
            if d and t is Trump.BOTIFARRA:
                raise self._named(IllegalBidError("contro is not allowed when trump is botifarra"))
        elif not rules.doubling_allowed(d, t):
            refusal = rules.doubling_refusal(d, t)
            assert refusal is not None
            raise self._named(IllegalBidError.from_error(refusal))
        return rules.multiplier(t, d)

    # -- points -------------------------------------------------------------------------
    def counts(self, piles: Sequence[Iterable[Card | str]]) -> tuple[list[int], list[int], list[int]]:
        """Each player's ``(card points, tricks, trick points)`` from his pile; all piles must
        be given, together the deck."""
        if not isinstance(piles, (list, tuple)):
            raise self._named(InvalidPileError("piles must be a list with one pile per player"))
        if len(piles) != self.players:
            raise self._named(InvalidPileError("give {players} piles, one per player, not {count}",
                                               players=self.players, count=len(piles)))
        cards = [validate_pile(p, deck=self.deck, trick_size=self.trick_size,
                               name=Message(N_("pile {number}"), number=i + 1))
                 for i, p in enumerate(piles)]
        seen: set[Card] = set()
        for i, pile in enumerate(cards):
            both = seen & set(pile)
            if both:
                first = sorted(both, key=self.deck.index)[0]
                raise self._named(InvalidPileError("{card} is in two piles", card=first.code))
            seen |= set(pile)
        if len(seen) != len(self.deck):
            raise self._named(InvalidPileError(
                "the piles do not make the whole deck ({count} card(s) missing)",
                count=len(self.deck) - len(seen)))
        tricks = [len(p) // self.trick_size for p in cards]
        trick_points = [t // self.tricks_per_point for t in tricks]
        left = self.tricks_per_hand // self.tricks_per_point - sum(trick_points)
        if left:  # rector i vicari: the odd trick's point goes to the player with fewer tricks
            fewest = min(range(self.players), key=lambda i: tricks[i])
            trick_points[fewest] += left
        return [card_points(p) for p in cards], tricks, trick_points

    def points(self, piles: Sequence[Iterable[Card | str]]) -> list[int]:
        """Each player's hand points from his pile (all piles must be given, making the deck)."""
        cp, _, tp = self.counts(piles)
        return [c + t for c, t in zip(cp, tp)]

    def score(self, points: Sequence[int], multiplier: int = 1) -> list[int]:
        """What each player scores this hand."""
        if len(points) != self.players:
            raise self._named(InvalidScoreError("give {players} players' points, not {count}",
                                                players=self.players, count=len(points)))
        for p in points:
            if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p <= POINTS_PER_HAND:
                raise self._named(InvalidScoreError(
                    "points must be whole numbers 0-72, not {value!r}", value=p))
        if sum(points) != POINTS_PER_HAND:
            raise self._named(InvalidScoreError("the points add up to {sum}, not {total}",
                                                sum=sum(points), total=POINTS_PER_HAND))
        if self.pair_style:
            return [max(0, p - self.baseline) * multiplier for p in points]
        return [(p - self.baseline) * multiplier for p in points]


FOUR_INDIVIDUAL = Variant("four individual", "four_individual", players=4, deck=DECK, trick_size=4, baseline=18)
THREE = Variant("three players", "three", players=3, deck=DECK_36, trick_size=3, baseline=24)
TWO = Variant("rector i vicari", "two", players=2, deck=DECK, trick_size=2, baseline=36,
              tricks_per_point=2, pair_style=True)
VARIANTS: dict[str, Variant] = {v.key: v for v in (FOUR_INDIVIDUAL, THREE, TWO)}
# the games a table of n players can play (what New match offers after "how many play?")
GAMES_FOR_PLAYERS: dict[int, tuple[str, ...]] = {4: ("pairs", "four_individual"), 3: ("three",),
                                                 2: ("two",)}


DISCARD_ORDER = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)


def individual_discards(cards: Iterable[Card | str]) -> list[Card]:
    """Four each for himself: a player who can no longer win the trick and has no card of
    the suit led discards from the first suit he holds in the order oros, copes, espases,
    bastos (so he does not choose which rival to help): the cards he may play."""
    hand = [Card.parse(c) for c in cards]
    for suit in DISCARD_ORDER:
        mine = [c for c in hand if c.suit is suit]
        if mine:
            return mine
    return []


def score_players(variant: Variant | str, *, trump: Trump | str, doubling: Doubling | str | None = None,
                  piles: Sequence[Iterable[Card | str]] | None = None,
                  points: Sequence[int] | None = None,
                  rules: Rules = PRESETS["reglament"]) -> list[int]:
    """One hand of a variant game: from every player's pile, or from their points."""
    v = VARIANTS[variant] if isinstance(variant, str) else variant
    if (piles is None) == (points is None):
        raise InvalidScoreError("give either the piles or the points")
    m = v.multiplier(trump, doubling, rules=rules)
    return v.score(v.points(piles) if piles is not None else list(points or ()), m)


class PlayerTally:
    """Running totals of a variant game (one entry per player), e.g. for three players."""

    def __init__(self, variant: Variant | str) -> None:
        self.variant = VARIANTS[variant] if isinstance(variant, str) else variant
        self._hands: tuple[tuple[int, ...], ...] = ()

    def add(self, **hand) -> "PlayerTally":
        """A new tally with one more hand (same keywords as ``score_players``)."""
        new = PlayerTally(self.variant)
        new._hands = self._hands + (tuple(score_players(self.variant, **hand)),)
        return new

    @property
    def hands(self) -> list[tuple[int, ...]]:
        return list(self._hands)

    @property
    def totals(self) -> list[int]:
        return [sum(h[i] for h in self._hands) for i in range(self.variant.players)]
