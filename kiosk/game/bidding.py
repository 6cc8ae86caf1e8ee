"""Bidding as a state machine: trump or delegate, then contro / recontro / Sant Vicenç.

A ``Contract`` is the bidding state of one hand. ``contract.bid(event, rules)`` returns a
new contract or raises ``IllegalBidError`` saying why; ``contract.bids(rules)`` lists every
bid allowed now as typed :class:`Bid` values (``legal_bids``: their journal events).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.game.bids import (
    Bid, BidKind, Phase, check_play, double_out_of_turn, double_too_soon, said_level, said_trump,
    seat_namer,
)
from kiosk.game.errors import BotifarraError, IllegalBidError
from kiosk.game.rules import Doubling, Rules, Trump
from kiosk.game.seats import check_seat, other, partner, seats_of, team_of

BID_TYPES = ("trump", "delegate", "double", "play")
_LADDER = (Doubling.CONTRO, Doubling.RECONTRO, Doubling.SANT_VICENC)  # each double in its turn


@dataclass(frozen=True, slots=True)
class Contract:
    """What has been said so far in one hand."""

    dealer: int
    trump: Trump | None = None
    delegated: bool = False
    doubling: Doubling = Doubling.NONE
    doubled_by: tuple[int, ...] = ()   # the seat of each contro / recontro / Sant Vicenç
    closed: bool = False                # 'play' said: bidding over, cards being played
    multiplier: int = 1

    # -- who ------------------------------------------------------------------------
    @property
    def trump_team(self) -> str:
        """The dealer's pair chooses trump (also after a delegate)."""
        return team_of(self.dealer)

    @property
    def chooser(self) -> int:
        """The seat that must choose trump now (the dealer, or his partner after delegating)."""
        return partner(self.dealer) if self.delegated else self.dealer

    @property
    def contro_team(self) -> str:
        return other(self.trump_team)

    @property
    def phase(self) -> Phase:
        if self.trump is None:
            return Phase.DELEGATED if self.delegated else Phase.CHOOSE_TRUMP
        return Phase.PLAYING if self.closed else Phase.DOUBLING

    @property
    def started(self) -> bool:
        return self.trump is not None or self.delegated

    def to_dict(self) -> dict:
        return {"dealer": self.dealer, "trump": self.trump.value if self.trump else None,
                "trump_team": self.trump_team, "delegated": self.delegated,
                "doubling": self.doubling.key, "multiplier": self.multiplier,
                "phase": self.phase.value}

    # -- the machine ----------------------------------------------------------------
    def bid(self, event: dict, rules: Rules, *, players: "tuple | list | None" = None) -> "Contract":
        """Apply one bid event (``trump``, ``delegate``, ``double``, ``play``).

        ``players`` (names by seat) only makes the error messages friendlier.
        """
        who = seat_namer(players)
        kind = event.get("type")
        if kind == "play":
            check_play(self.trump, self.closed)
            # the constructor, not dataclasses.replace: a bid is made for every hand of a
            # match, and replace's generic copy costs several times more
            return Contract(self.dealer, self.trump, self.delegated, self.doubling,
                            self.doubled_by, True, self.multiplier)
        seat = event.get("seat")
        try:
            seat = check_seat(seat)
        except BotifarraError as e:
            raise IllegalBidError.from_error(e) from None
        if kind == "delegate":
            if self.trump is not None:
                raise IllegalBidError("trump is already chosen, it is too late to delegate")
            if self.delegated:
                raise IllegalBidError("the choice was already delegated: the partner must choose trump")
            if seat != self.dealer:
                raise IllegalBidError("only the dealer, {dealer}, may delegate, not {player}",
                                      dealer=who(self.dealer), player=who(seat))
            return Contract(self.dealer, self.trump, True, self.doubling, self.doubled_by,
                            self.closed, self.multiplier)
        if kind == "trump":
            if self.trump is not None:
                raise IllegalBidError("trump is already chosen ({trump})", trump=self.trump.value)
            if seat != self.chooser:
                if self.delegated:
                    raise IllegalBidError("the dealer's partner, {chooser}, chooses trump, not {player}",
                                          chooser=who(self.chooser), player=who(seat))
                raise IllegalBidError("the dealer, {chooser}, chooses trump, not {player}",
                                      chooser=who(self.chooser), player=who(seat))
            trump = said_trump(event)
            return Contract(self.dealer, trump, self.delegated, self.doubling, self.doubled_by,
                            self.closed, rules.multiplier(trump))
        if kind == "double":
            level = said_level(event)
            refusal = self._why_not_double(level, seat, rules, who)
            if refusal is not None:
                raise refusal
            return Contract(self.dealer, self.trump, self.delegated, level, self.doubled_by + (seat,),
                            self.closed, rules.multiplier(self.trump, level))  # type: ignore[arg-type]
        raise IllegalBidError("{kind!r} is not a bid", kind=kind)

    def _why_not_double(self, level: Doubling, seat: int, rules: Rules,
                        who: Callable[[int], object]) -> IllegalBidError | None:
        name = level.key
        refusal = double_too_soon(level, self.trump, self.closed)
        if refusal is not None:
            return refusal
        refusal = double_out_of_turn(level, self.doubling)
        if refusal is not None:
            return refusal
        refusal = rules.doubling_refusal(level, self.trump)
        if refusal is not None:
            return IllegalBidError.from_error(refusal)
        team = team_of(seat)
        if level is Doubling.RECONTRO:
            if team != self.trump_team:
                return IllegalBidError("recontro is for the pair that chose trump (team {team}), "
                                       "not {player}", team=self.trump_team, player=who(seat))
        elif team != self.contro_team:
            return IllegalBidError("{level} is for the other pair (team {team}), not {player}",
                                   level=name, team=self.contro_team, player=who(seat))
        return None

    def bids(self, rules: Rules) -> tuple[Bid, ...]:
        """Every bid allowed now (``play`` closes the bidding)."""
        if self.closed:
            return ()
        if self.trump is None:
            out = [Bid(BidKind.TRUMP, self.chooser, trump=t) for t in Trump]
            if not self.delegated:
                out.append(Bid(BidKind.DELEGATE, self.dealer))
            return tuple(out)
        out = []
        if self.doubling < Doubling.SANT_VICENC:
            level = Doubling(self.doubling + 1)
            team = self.trump_team if level is Doubling.RECONTRO else self.contro_team
            if rules.doubling_allowed(level, self.trump):
                out += [Bid(BidKind.DOUBLE, s, level=level) for s in seats_of(team)]
        out.append(Bid(BidKind.PLAY))
        return tuple(out)

    def legal_bids(self, rules: Rules) -> list[dict]:
        """Every bid event allowed now: ``bids`` in the journal's form."""
        return [b.event for b in self.bids(rules)]


def bid_events(dealer: int, trump: Trump, *, delegated: bool = False,
               doubling: Doubling = Doubling.NONE) -> list[dict]:
    """The bid events that lead to a contract (used to turn match JSON into events):
    the chooser names trump; contro and Sant Vicenç by the dealer's right, recontro by the dealer."""
    events: list[dict] = []
    chooser = dealer
    if delegated:
        events.append({"type": "delegate", "seat": dealer})
        chooser = partner(dealer)
    events.append({"type": "trump", "seat": chooser, "trump": trump.value})
    opponent = (dealer + 1) % 4
    for level in _LADDER[:doubling]:
        seat = dealer if level is Doubling.RECONTRO else opponent
        events.append({"type": "double", "seat": seat, "level": level.key})
    events.append({"type": "play"})
    return events


def contract_for(dealer: int, trump: Trump, rules: Rules, *, delegated: bool = False,
                 doubling: Doubling = Doubling.NONE) -> Contract | None:
    """The contract that ``bid_events`` with the same arguments lead to, made at once (a
    match read from JSON has one per hand), or None when the rules refuse one of its
    doubles: bidding them one by one then says why. Those bids are otherwise all legal:
    the chooser names trump, each double comes in its turn from the right pair."""
    for level in _LADDER[:doubling]:
        if not rules.doubling_allowed(level, trump):
            return None
    opponent = (dealer + 1) % 4
    doubled_by = (opponent, dealer, opponent)[:int(doubling)]
    return Contract(dealer, trump, delegated, doubling, doubled_by, True,
                    rules.multiplier(trump, doubling))
