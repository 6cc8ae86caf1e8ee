"""A match of a game other than the pair game: four each for himself, three, two.

Event-sourced like the pair :class:`~kiosk.game.match.Match`, with the same events (no
``delegate``), the same undo / redo / edit, and the same reading API, except that every
per-player value is a tuple with one item per seat (``totals``, a hand's ``scored``) and
``winner`` is a seat. ``Match.from_events`` / ``match_from_json`` give one of these when
the match says its ``variant``, so the journal keeps every game the same way.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from kiosk.game.bids import Bid, Phase
from kiosk.game.errors import BotifarraError, RulesError
from kiosk.game.history import History, checked_event, first_event, open_events, replay
from kiosk.game.matchinput import match_envelope
from kiosk.game.variantbid import Call, check_seat
from kiosk.game.varianthand import VariantHand, hand_events
from kiosk.game.finished import Ending, ending_json
from kiosk.game.variantfold import VariantState, fold, in_hand, start
from kiosk.game.variantrules import VariantRules
from kiosk.game.variants import VARIANTS, Variant

EVENT_TYPES = ("match_created", "trump", "delegate", "double", "play", "hand_scored",
               "penalty", "misdeal", "undo", "redo", "edit", "time_up", "match_ended")


def game_of(name: object) -> Variant:
    if not isinstance(name, str) or name not in VARIANTS:
        raise RulesError("unknown variant {value!r}: say four_individual, three or two", value=name)
    return VARIANTS[name]


@dataclass(frozen=True, eq=False)
class VariantMatch:
    """A match of ``game``, folded from its events. Never mutated: ``apply`` returns a new one."""

    game: Variant
    rules: VariantRules
    first_dealer: int
    players: tuple[str | None, ...]
    _history: History = field(repr=False)
    _state: VariantState | None = field(repr=False, default=None)

    # -- building -------------------------------------------------------------------
    @classmethod
    def create(cls, variant: str, rules: VariantRules | dict | str | None = None,
               first_dealer: int = 0, players: list | None = None) -> "VariantMatch":
        """A new match of ``variant`` (``four_individual``, ``three`` or ``two``)."""
        if not isinstance(rules, VariantRules):
            rules = VariantRules.from_dict(rules)
        return cls._created({"type": "match_created", "variant": variant,
                             "rules": rules.to_dict(), "first_dealer": first_dealer,
                             "players": players})

    def rematch(self) -> "VariantMatch":
        """The next match at the same table: the player on the right of the last dealer deals."""
        return VariantMatch.create(self.game.key, self.rules, first_dealer=self.dealer,
                                   players=list(self.players))

    @classmethod
    def _created(cls, event: dict) -> "VariantMatch":
        game = game_of(event.get("variant"))
        rules = VariantRules.from_dict(event.get("rules"))
        try:
            first_dealer = check_seat(event.get("first_dealer", 0), game.players)
        except RulesError:
            raise RulesError("first_dealer must be a seat 0 to {last}, not {value!r}",
                             last=game.players - 1, value=event.get("first_dealer")) from None
        players = event.get("players")
        if players is None:
            players = [None] * game.players
        if not isinstance(players, (list, tuple)) or len(players) != game.players or not all(
                p is None or isinstance(p, str) for p in players):
            raise RulesError("players must be a list of {count} names (or null) in seat order",
                             count=game.players)
        if event.get("team_names") is not None:
            raise RulesError("team_names: this game has no pairs")
        stored = {"type": "match_created", "variant": game.key, "rules": rules.to_dict(),
                  "first_dealer": first_dealer, "players": list(players)}
        return cls(game, rules, first_dealer, tuple(players), History.of(stored),
                   _state=start(game, first_dealer))

    @classmethod
    def from_events(cls, events: list[dict]) -> "VariantMatch":
        """Fold a journal's events (the first is ``match_created`` with a ``variant``)."""
        m = cls._created(first_event(events))
        for part in replay(events[1:], EVENT_TYPES):
            m = m._extend(part) if isinstance(part, list) else m.apply(part)  # type: ignore[arg-type]
        return m

    def _fold(self, events) -> VariantState:
        return fold(self.game, self.rules, self.first_dealer, self.players,
                    self._state, events)  # type: ignore[arg-type]

    def _extend(self, events: list[dict]) -> "VariantMatch":
        if not events:
            return self
        state = self._fold(events)
        return self._next(self._history.add(events), state)

    # -- reading ----------------------------------------------------------------------
    @property
    def _s(self) -> VariantState:
        assert self._state is not None
        return self._state

    @property
    def _ending(self) -> Ending:
        s = self._s
        return s.ending.or_abandoned(s.abandoned, len(s.entries))

    @property
    def variant(self) -> str:
        """``four_individual``, ``three`` or ``two`` (the pair Match says ``pairs``)."""
        return self.game.key

    @property
    def events(self) -> list[dict]:
        return copy.deepcopy(list(self._history.events))

    def iter_events(self):
        return iter(self._history.events)

    @property
    def hands(self) -> list[VariantHand]:
        return list(self._s.hands)

    @property
    def totals(self) -> tuple[int, ...]:
        """Every player's total, by seat (negatives are possible without pairs)."""
        return self._s.totals

    @property
    def is_over(self) -> bool:
        return self._ending.at is not None

    @property
    def winner(self) -> int | None:
        """The winning seat (None: not over, a draw, or abandoned)."""
        return self._ending.winner

    @property
    def end_reason(self) -> str | None:
        return self._ending.reason

    @property
    def hand_number(self) -> int:
        return len(self._s.entries) + 1

    @property
    def dealer(self) -> int:
        """Who deals and chooses trump now (once over: the next match's first dealer)."""
        return (self.first_dealer + len(self._s.entries)) % self.game.players

    @property
    def contract(self) -> Call | None:
        return None if self.is_over else self._s.call

    @property
    def phase(self) -> Phase:
        return Phase.OVER if self.is_over else self._s.call.phase

    @property
    def time_up(self) -> bool:
        return self._s.stop_after is not None

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    def bids(self) -> tuple[Bid, ...]:
        """Every bid allowed now, typed (none once the match is over)."""
        return () if self.is_over else self._s.call.bids(self.game, self.rules)

    def legal_bids(self) -> list[dict]:
        """Every bid event allowed now: ``bids()`` in the journal's form."""
        return [b.event for b in self.bids()]

    def available_events(self) -> list[str]:
        """The event types that make sense now (to enable buttons); bids: ``legal_bids``."""
        return open_events(self._history, over=self.is_over, time_up=self.time_up,
                           trump_chosen=self._s.call.trump is not None, hands=len(self._s.entries))

    def state(self) -> dict:
        """What a screen shows, as plain data (hands excluded)."""
        c = self.contract
        return {"variant": self.variant, "phase": self.phase.value, "hand": self.hand_number,
                "dealer": self.dealer, "totals": list(self.totals), "winner": self.winner,
                "end_reason": self.end_reason, "contract": c.to_dict() if c else None}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, VariantMatch):
            return NotImplemented
        return (self.game, self.rules, self.first_dealer, self.players, self._state) == \
            (other.game, other.rules, other.first_dealer, other.players, other._state)

    __hash__ = None  # type: ignore[assignment]

    # -- changing -----------------------------------------------------------------------
    def apply(self, event: dict) -> "VariantMatch":
        """Validate ``event`` and return the match after it. Raises a ``BotifarraError``."""
        ev = checked_event(event, EVENT_TYPES)
        kind, history = ev["type"], self._history
        if kind == "undo":
            history = history.undo(ev)
            return self._next(history, fold(self.game, self.rules, self.first_dealer, self.players,
                                            start(self.game, self.first_dealer), history.done))
        if kind == "redo":
            history = history.redo(ev)
            return self._next(history, self._fold([history.done[-1]]))
        state = self._fold([ev])
        return self._next(history.add([ev]), state)

    def _next(self, history: History, state: VariantState) -> "VariantMatch":
        return VariantMatch(self.game, self.rules, self.first_dealer, self.players, history, state)

    # -- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict:
        """The match JSON (finished hands; bids of a hand in progress are not kept)."""
        s = self._s
        out = {"variant": self.variant, "rules": self.rules.to_dict(),
               "first_dealer": self.first_dealer, "players": list(self.players),
               "hands": [e.to_json() for e in s.entries]}
        return ending_json(out, self._history, stop_after=s.stop_after, hands=len(s.entries),
                           abandoned=s.abandoned)

    @classmethod
    def from_json(cls, data: dict) -> "VariantMatch":
        """A match from its match JSON (already checked by ``kiosk.game.matchinput``)."""
        m = cls._created({"type": "match_created", "variant": data.get("variant"),
                          "rules": data.get("rules"), "first_dealer": data.get("first_dealer", 0),
                          "players": data.get("players"), "team_names": data.get("team_names")})
        hands, time_up_after, ended = match_envelope(data)
        events: list[dict] = []
        if time_up_after == 0:
            events.append({"type": "time_up"})
        for number, hand in enumerate(hands, start=1):
            try:
                part = hand_events(m.game, hand, (m.first_dealer + number - 1) % m.game.players)
            except BotifarraError as e:
                raise in_hand(e, number) from None
            if number == time_up_after:  # time ran out during this hand: before its result
                part.insert(len(part) - 1 if len(part) > 1 else 1, {"type": "time_up"})
            events += part
        if ended:
            events.append({"type": "match_ended", "reason": ended})
        return m._extend(events)
