"""The match: an immutable fold of events (see the events table in docs/ARCHITECTURE.md).

``match.apply(event)`` validates one event and returns a NEW match; the old one is
untouched. ``undo`` / ``redo`` / ``edit`` are events too, so the journal replays them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Iterable

from kiosk.game.bidding import Contract
from kiosk.game.bids import Bid, Phase
from kiosk.game.errors import RulesError
from kiosk.game.fold import _Fold, _with, extend, extend_hands, step
from kiosk.game.handrecord import HandInPlay
from kiosk.game.history import History, checked_event, first_event, open_events, replay
from kiosk.game.rules import Rules
from kiosk.game.scoring import HandRecord
from kiosk.game.seats import check_seat, roles_for, Roles
from kiosk.game.tally import SOURCES  # noqa: F401
from kiosk.game.finished import Ending, ending_json
from kiosk.game.variantmatch import VariantMatch

EVENT_TYPES = ("match_created", "trump", "delegate", "double", "play", "hand_scored",
               "penalty", "misdeal", "undo", "redo", "edit", "time_up", "match_ended",
               "card_played", "card_corrected")
END_REASONS = ("target", "hands", "time", "abandoned")


@dataclass(frozen=True)
class Match:
    """A botifarra match, folded from its events. Never mutated: ``apply`` returns a new one."""

    rules: Rules
    first_dealer: int
    players: tuple[str | None, ...]
    team_names: dict[str, str]
    _history: History = field(repr=False)
    _fold: _Fold = field(repr=False, default=_Fold())

    # -- building ---------------------------------------------------------------------
    @classmethod
    def create(cls, rules: Rules | dict | str | None = None, first_dealer: int = 0,
               players: list | None = None, team_names: dict | None = None) -> "Match":
        """A new match. ``rules`` may be a ``Rules``, a preset name or a rules dict."""
        if isinstance(rules, str):
            rules = Rules.from_dict({"preset": rules})
        elif rules is None or isinstance(rules, dict):
            rules = Rules.from_dict(rules)
        if not isinstance(rules, Rules):
            raise RulesError("rules must be a Rules, a preset name or a dict")
        return cls._created({"type": "match_created", "rules": rules.to_dict(),
                             "first_dealer": first_dealer, "players": players,
                             "team_names": team_names})

    def rematch(self) -> "Match":
        """A new match for the same table: same rules, players and team names; the player
        on the right of the last dealer deals first (Reglament, 15)."""
        return Match.create(self.rules, first_dealer=self.dealer, players=list(self.players),
                            team_names=dict(self.team_names))

    @classmethod
    def _created(cls, event: dict) -> "Match":
        rules = Rules.from_dict(event.get("rules"))
        try:
            first_dealer = check_seat(event.get("first_dealer", 0))
        except RulesError:
            raise RulesError("first_dealer must be a seat 0-3, not {value!r}",
                             value=event.get("first_dealer")) from None
        players = event.get("players")
        if players is None:
            players = [None] * 4
        if not isinstance(players, (list, tuple)) or len(players) != 4 or not all(
                p is None or isinstance(p, str) for p in players):
            raise RulesError("players must be a list of 4 names (or null) in seat order")
        names = event.get("team_names")
        if names is None:
            names = {"A": "A", "B": "B"}
        if not isinstance(names, dict) or set(names) != {"A", "B"} or not all(
                isinstance(v, str) and v.strip() for v in names.values()):
            raise RulesError("team_names must be {{\"A\": name, \"B\": name}}")
        stored = {"type": "match_created", "rules": rules.to_dict(), "first_dealer": first_dealer,
                  "players": list(players), "team_names": dict(names)}
        m = cls(rules=rules, first_dealer=first_dealer, players=tuple(players),
                team_names=dict(names), _history=History.of(stored),
                _fold=_Fold(contract=Contract(first_dealer)))
        return m

    @classmethod
    def from_events(cls, events: list[dict]) -> "Match":
        """Fold a journal's events (the first must be ``match_created``). A match_created
        with a ``variant`` gives a ``VariantMatch`` (kiosk.game.variantmatch)."""
        first = first_event(events)
        if first.get("variant") is not None:  # four each for himself, three, two
            return VariantMatch.from_events(events)  # type: ignore[return-value]
        m = cls._created(first)
        for part in replay(events[1:], EVENT_TYPES):  # plain runs folded together (see extend)
            m = m.extend(part) if isinstance(part, list) else m.apply(part)  # type: ignore[arg-type]
        return m

    @property
    def _ending(self) -> Ending:
        f = self._fold
        return f.tally.ending.or_abandoned(f.abandoned, len(f.entries))

    # -- reading ----------------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The game: ``pairs`` (a ``VariantMatch`` says ``four_individual``, ``three``, ``two``)."""
        return "pairs"

    @property
    def events(self) -> list[dict]:
        return copy.deepcopy(list(self._history.events))

    def iter_events(self):
        """The events without copying them, for a caller that only reads them (the
        journal encodes each one)."""
        return iter(self._history.events)

    @property
    def hands(self) -> list[HandRecord]:
        return list(self._fold.tally.records)

    @property
    def totals(self) -> dict[str, int]:
        return self._fold.tally.totals

    @property
    def is_over(self) -> bool:
        return self._ending.at is not None

    @property
    def winner(self) -> str | None:
        return self._ending.winner

    @property
    def end_reason(self) -> str | None:
        """``"target" | "hands" | "time" | "abandoned"`` once over."""
        return self._ending.reason

    @property
    def hand_number(self) -> int:
        """The number (1-based) of the hand in progress (or the next one)."""
        return len(self._fold.entries) + 1

    @property
    def dealer(self) -> int:
        """The dealer of the hand in progress (once over: of the next match's first hand)."""
        return (self.first_dealer + len(self._fold.entries)) % 4

    @property
    def roles(self) -> Roles:
        return roles_for(self.dealer)

    @property
    def contract(self) -> Contract | None:
        """The bidding of the hand in progress (None once the match is over)."""
        return None if self.is_over else self._fold.contract

    @property
    def phase(self) -> Phase:
        if self.is_over:
            return Phase.OVER
        return self._fold.contract.phase  # type: ignore[union-attr]

    @property
    def cards_in_play(self) -> HandInPlay | None:
        """The hand in progress as its cards were laid (trick mode), None before its first card."""
        return None if self.is_over else self._fold.cards

    def cards_of_hand(self, index: int) -> HandInPlay | None:
        """Finished hand ``index`` (from 0) as its cards were played, trick by trick (None:
        scored from piles or points, or edited since)."""
        played = self._fold.played
        return played[index] if 0 <= index < len(played) else None

    @property
    def time_up(self) -> bool:
        return self._fold.stop_after is not None

    def bids(self) -> tuple[Bid, ...]:
        """Every bid allowed now, typed (none once the match is over)."""
        if self.is_over:
            return ()
        return self._fold.contract.bids(self.rules)  # type: ignore[union-attr]

    def legal_bids(self) -> list[dict]:
        """Every bid event allowed now: ``bids()`` in the journal's form."""
        return [b.event for b in self.bids()]

    def available_events(self) -> list[str]:
        """The event types that make sense now (to enable buttons); bids: see ``legal_bids``."""
        c = self._fold.contract
        return open_events(self._history, over=self.is_over, time_up=self.time_up,
                           trump_chosen=c is not None and c.trump is not None,
                           hands=len(self._fold.entries))

    @property
    def can_undo(self) -> bool:
        return self._history.can_undo

    @property
    def can_redo(self) -> bool:
        return self._history.can_redo

    def state(self) -> dict:
        """What a screen shows, as plain data (hands excluded)."""
        c = self.contract
        return {"phase": self.phase.value, "hand": self.hand_number, "dealer": self.dealer,
                "totals": self.totals, "winner": self.winner, "end_reason": self.end_reason,
                "contract": c.to_dict() if c else None}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self.rules, self.first_dealer, self.players, self.team_names, self._fold) == \
            (other.rules, other.first_dealer, other.players, other.team_names, other._fold)

    __hash__ = None  # type: ignore[assignment]

    # -- changing (returns a new Match) -------------------------------------------------
    def apply(self, event: dict) -> "Match":
        """Validate ``event`` and return the match after it. Raises a ``BotifarraError``."""
        ev = checked_event(event, EVENT_TYPES)
        kind, history = ev["type"], self._history
        if kind == "undo":
            history = history.undo(ev)
            # the fold of what is left, from the start (linear: see kiosk.game.fold)
            fold, _ = extend(self, _Fold(contract=Contract(self.first_dealer)), history.done)
        elif kind == "redo":
            history = history.redo(ev)
            fold = step(self, self._fold, history.done[-1])
        else:
            fold = step(self, self._fold, ev)
            history = history.add([ev])
        return _with(self, _history=history, _fold=fold)

    def extend(self, events: Iterable[dict]) -> "Match":
        """``apply`` of several events whose shape is known to be right (match JSON's
        hands checked by kiosk.game.matchinput, a journal's plain events) and owned by no
        one else: one new Match for all of them, folded in linear time (kiosk.game.fold)."""
        return self._extended(*extend(self, self._fold, events))

    def extend_hands(self, hands: Iterable[tuple[list[dict], Contract | None]]) -> "Match":
        """``extend`` by whole hands of match JSON (kiosk.game.fold.extend_hands)."""
        return self._extended(*extend_hands(self, self._fold, hands))

    def _extended(self, fold: _Fold, taken: list[dict]) -> "Match":
        if not taken:
            return self
        return _with(self, _history=self._history.add(taken), _fold=fold)

    # -- JSON (the match JSON of issue 2; read back by kiosk.game.matchjson) ----------
    def to_json(self) -> dict:
        """The match JSON (finished hands; bids of a hand in progress are not kept)."""
        fold = self._fold
        out = {"rules": self.rules.to_dict(), "first_dealer": self.first_dealer,
               "players": list(self.players), "team_names": dict(self.team_names),
               "hands": [_with_tricks(e.to_json(), fold.played[i] if i < len(fold.played) else None)
                         for i, e in enumerate(fold.entries)]}
        return ending_json(out, self._history, stop_after=fold.stop_after,
                           hands=len(fold.entries), abandoned=fold.abandoned)


def _with_tricks(hand: dict, played: HandInPlay | None) -> dict:
    """A hand's JSON with its tricks (each trick's cards from its leader) when it was played
    trick by trick."""
    if played is not None and played.tricks:
        hand["tricks"] = [[c.code for c in t.cards] for t in played.tricks]
    return hand
