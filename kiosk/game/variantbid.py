"""The bidding of one hand of a game other than the pair game (seed 000, docs/RULES.md).

- Four each for himself and three: the dealer chooses trump (no delegating); then any
  other player may say contro, once, and only when trump is not botifarra.
- Two (rector i vicari): the dealer chooses trump (or, as the table agreed, it is the
  turned card of his last pile: a suit); the other player may say contro, the dealer
  recontro, the other Sant Vicenç, as the pair game's rules allow.

``Call`` is that state, immutable like the pair ``Contract``: ``bid`` returns a new one.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.bids import (
    Bid, BidKind, Phase, check_play, double_out_of_turn, double_too_soon, said_level, said_trump,
    seat_namer,
)
from kiosk.game.errors import IllegalBidError, RulesError
from kiosk.game.rules import Doubling, Trump
from kiosk.game.variantrules import VariantRules
from kiosk.game.variants import Variant

BID_TYPES = ("trump", "delegate", "double", "play")


def check_seat(seat: object, players: int) -> int:
    """A seat of a table of ``players`` (0 .. players - 1)."""
    if seat is None:
        raise RulesError("say which seat (0 to {last})", last=players - 1)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise RulesError("seat {seat!r} does not exist: seats are 0 to {last}", seat=seat,
                         last=players - 1)
    return seat


@dataclass(frozen=True, slots=True)
class Call:
    """What has been said so far in one hand; the dealer chooses trump."""

    dealer: int
    trump: Trump | None = None
    doubling: Doubling = Doubling.NONE
    doubled_by: tuple[int, ...] = ()
    closed: bool = False
    multiplier: int = 1

    @property
    def chooser(self) -> int:
        return self.dealer

    @property
    def phase(self) -> Phase:
        if self.trump is None:
            return Phase.CHOOSE_TRUMP
        return Phase.PLAYING if self.closed else Phase.DOUBLING

    @property
    def started(self) -> bool:
        return self.trump is not None

    def to_dict(self) -> dict:
        return {"dealer": self.dealer, "chooser": self.chooser,
                "trump": self.trump.value if self.trump else None,
                "doubling": self.doubling.key, "doubled_by": list(self.doubled_by),
                "multiplier": self.multiplier, "phase": self.phase.value}

    def bid(self, event: dict, game: Variant, rules: VariantRules, *,
            players: "tuple | list | None" = None) -> "Call":
        """Apply one bid event (``trump``, ``double``, ``play``); ``delegate`` is refused."""
        who = seat_namer(players)
        kind = event.get("type")
        if kind == "play":
            check_play(self.trump, self.closed)
            return Call(self.dealer, self.trump, self.doubling, self.doubled_by, True,
                        self.multiplier)
        if kind == "delegate":
            raise IllegalBidError("there is no delegating in this game: the dealer chooses trump")
        try:
            seat = check_seat(event.get("seat"), game.players)
        except RulesError as e:
            raise IllegalBidError.from_error(e) from None
        if kind == "trump":
            if self.trump is not None:
                raise IllegalBidError("trump is already chosen ({trump})", trump=self.trump.value)
            if seat != self.dealer:
                raise IllegalBidError("the dealer, {chooser}, chooses trump, not {player}",
                                      chooser=who(self.dealer), player=who(seat))
            trump = said_trump(event)
            if trump is Trump.BOTIFARRA and game.pair_style and rules.two_trump == "turned":
                raise IllegalBidError("trump is the turned card of the dealer's last pile: "
                                      "a suit, not botifarra")
            return Call(self.dealer, trump, self.doubling, self.doubled_by, self.closed,
                        rules.base.multiplier(trump))
        if kind == "double":
            level = said_level(event)
            refusal = self._why_not(level, seat, game, rules, who)
            if refusal is not None:
                raise refusal
            assert self.trump is not None
            return Call(self.dealer, self.trump, level, self.doubled_by + (seat,), self.closed,
                        rules.base.multiplier(self.trump, level))
        raise IllegalBidError("{kind!r} is not a bid", kind=kind)

    def _why_not(self, level: Doubling, seat: int, game: Variant, rules: VariantRules,
                 who) -> IllegalBidError | None:
        name = level.key
        refusal = double_too_soon(level, self.trump, self.closed)
        if refusal is not None:
            return refusal
        if not game.pair_style:
            if level > Doubling.CONTRO:
                return IllegalBidError("only contro is played, not {level}", level=name)
            if self.trump is Trump.BOTIFARRA:
                return IllegalBidError("contro is not allowed when trump is botifarra")
        refusal = double_out_of_turn(level, self.doubling)
        if refusal is not None:
            return refusal
        refusal = rules.base.doubling_refusal(level, self.trump)
        if refusal is not None:
            return IllegalBidError.from_error(refusal)
        if level is Doubling.RECONTRO:
            if seat != self.dealer:
                return IllegalBidError("recontro is for {chooser}, who chose trump, not {player}",
                                       chooser=who(self.dealer), player=who(seat))
        elif seat == self.dealer:
            return IllegalBidError("{level} is for a player who did not choose trump, not {player}",
                                   level=name, player=who(seat))
        return None

    def bids(self, game: Variant, rules: VariantRules) -> tuple[Bid, ...]:
        """Every bid allowed now (``play`` closes the bidding)."""
        if self.closed:
            return ()
        if self.trump is None:
            turned = game.pair_style and rules.two_trump == "turned"
            return tuple(Bid(BidKind.TRUMP, self.dealer, trump=t) for t in Trump
                         if not (turned and t is Trump.BOTIFARRA))
        out = []
        if self.doubling < Doubling.SANT_VICENC:
            level = Doubling(self.doubling + 1)
            seats = [self.dealer] if level is Doubling.RECONTRO else [
                s for s in range(game.players) if s != self.dealer]
            if not any(self._why_not(level, s, game, rules, str) for s in seats[:1]):
                out += [Bid(BidKind.DOUBLE, s, level=level) for s in seats]
        out.append(Bid(BidKind.PLAY))
        return tuple(out)

    def legal_bids(self, game: Variant, rules: VariantRules) -> list[dict]:
        """Every bid event allowed now: ``bids`` in the journal's form."""
        return [b.event for b in self.bids(game, rules)]


def bid_events(game: Variant, dealer: int, trump: Trump,
               doubling: Doubling = Doubling.NONE) -> list[dict]:
    """The bid events of a hand given as match JSON: the dealer names trump; contro and
    Sant Vicenç by the player on his right, recontro by the dealer."""
    events: list[dict] = [{"type": "trump", "seat": dealer, "trump": trump.value}]
    right = (dealer + 1) % game.players
    for level in (Doubling.CONTRO, Doubling.RECONTRO, Doubling.SANT_VICENC)[:doubling]:
        seat = dealer if level is Doubling.RECONTRO else right
        events.append({"type": "double", "seat": seat, "level": level.key})
    events.append({"type": "play"})
    return events
