"""``History``: what was said at a table, and which of it counts now.

A match is the fold of its events, but not of all of them: ``undo`` takes back the last
event that counts and ``redo`` says it again. Both matches (the pair game's ``Match`` and
``VariantMatch`` of the games without pairs) keep the same three lines for that, by the
same rule: every event as said (what the journal keeps), the events that count (what the
match is the fold of) and the events undone (the last one is the next redo). ``History``
knows nothing of the game: the match checks and folds what counts.

    >>> h = History.of({"type": "match_created"}).add([{"type": "time_up"}])
    >>> h.undo({"type": "undo"}).can_redo
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Iterator

from kiosk.game.errors import MatchStateError
from kiosk.game.log import AppendLog

# the events a match does not fold with the others: the first one, and the two that refold
REFOLDS = frozenset({"match_created", "undo", "redo"})

_SCALARS = frozenset({str, int, float, bool, type(None)})


def copy_json(value):
    """A deep copy of JSON data (dicts, lists, scalars); what ``copy.deepcopy`` does for an
    event, several times faster (no memo: JSON has no shared or cyclic parts). Most parts
    of an event hold only scalars (a pile's cards): copied whole, at C speed."""
    if isinstance(value, dict):
        if _SCALARS.issuperset(map(type, value.values())):
            return dict(value)
        return {k: copy_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if _SCALARS.issuperset(map(type, value)):
            return list(value)
        return [copy_json(v) for v in value]
    return value


def checked_event(event: object, kinds: Iterable[str]) -> dict:
    """A copy of ``event`` (the match owns it) once it is an object whose ``type`` is one of
    ``kinds`` and not ``match_created``. Raises ``MatchStateError``."""
    if not isinstance(event, dict):
        raise MatchStateError("an event must be an object with a 'type'")
    kind = event.get("type")
    if kind not in kinds:
        raise MatchStateError("unknown event type {kind!r}", kind=kind)
    if kind == "match_created":
        raise MatchStateError("the match already exists")
    return copy_json(event)


def first_event(events: object) -> dict:
    """A journal's first event, ``match_created``. Raises ``MatchStateError``."""
    if not isinstance(events, (list, tuple)) or not events:
        raise MatchStateError("no events: a match starts with match_created")
    first = events[0]
    if not isinstance(first, dict) or first.get("type") != "match_created":
        raise MatchStateError("the first event must be match_created")
    return first


def replay(events: Iterable[object], kinds: Iterable[str]) -> Iterator[list[dict] | object]:
    """A journal's events after the first, as a match takes them back: each run of plain
    events (known kinds, not undo or redo) as one list of copies, for the match to fold
    together, and every other event alone, for ``apply`` to check (and refold)."""
    plain = frozenset(kinds) - REFOLDS
    run: list[dict] = []
    for ev in events:
        if isinstance(ev, dict) and ev.get("type") in plain:
            run.append(copy_json(ev))
            continue
        yield run
        run = []
        yield ev
    yield run


@dataclass(frozen=True, slots=True)
class History:
    """A match's events: ``events`` (all, as the journal keeps them), ``done`` (those that
    count, in order) and ``undone`` (taken back; the last one is redone first)."""

    events: AppendLog
    done: AppendLog = field(default_factory=AppendLog)
    undone: AppendLog = field(default_factory=AppendLog)

    @classmethod
    def of(cls, created: dict) -> "History":
        return cls(AppendLog([created]))

    @property
    def can_undo(self) -> bool:
        return bool(self.done)

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def add(self, events: list[dict]) -> "History":
        """``events`` said and counted: what was undone can no longer be redone."""
        if not events:
            return self
        return History(self.events + events, self.done + events, AppendLog())

    def undo(self, event: dict) -> "History":
        """``event`` (an undo) said: the last event that counts is taken back."""
        if not self.done:
            raise MatchStateError("nothing to undo")
        return History(self.events + (event,), self.done[:-1], self.undone + (self.done[-1],))

    def redo(self, event: dict) -> "History":
        """``event`` (a redo) said: the last event undone counts again (``done[-1]``)."""
        if not self.undone:
            raise MatchStateError("nothing to redo")
        again = self.undone[-1]
        return History(self.events + (event,), self.done + (again,), self.undone[:-1])

    def end_reason(self) -> str:
        """Why the match was ended by hand: the reason of its last ``match_ended``."""
        return next((e.get("reason", "abandoned") for e in reversed(self.done)
                     if e["type"] == "match_ended"), "abandoned")


def open_events(history: History, *, over: bool, trump_chosen: bool, time_up: bool,
                hands: int) -> list[str]:
    """The event types that make sense now, in every game (to enable buttons; the bids are
    the game's own): a result once trump is chosen, a misdeal, time up once, the end by
    hand, an edit once a hand is finished, undo and redo."""
    out: list[str] = []
    if not over:
        if trump_chosen:
            out += ["hand_scored", "penalty"]
        out.append("misdeal")
        if not time_up:
            out.append("time_up")
        out.append("match_ended")
    if hands:
        out.append("edit")
    if history.can_undo:
        out.append("undo")
    if history.can_redo:
        out.append("redo")
    return out
