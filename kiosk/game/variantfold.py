"""How events change a game other than the pair game: the fold behind ``VariantMatch``.

``_Build`` is the running state (lists, added to in place); ``VariantState`` its frozen
result. A whole journal or match JSON folds through one ``_Build`` (linear in hands); one
``apply`` copies the state into a build, takes the event and freezes it again.
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.errors import HAND, BotifarraError, MatchStateError, player
from kiosk.game.finished import NOT_OVER, Ending, check_edit_end, edited_hand, over_error
from kiosk.game.variantbid import BID_TYPES, Call
from kiosk.game.varianthand import VariantEntry, VariantHand, entry_from_event, hand_events, hand_scores
from kiosk.game.variantrules import VariantRules
from kiosk.game.variants import Variant

RESULT_TYPES = frozenset({"hand_scored", "penalty", "misdeal"})


def in_hand(err: BotifarraError, number: int) -> BotifarraError:
    if err.hand == number:
        return err
    return err.within(HAND, number=number)


def end_check(rules: VariantRules, totals: list[int], counted: int, k: int,
              stop_after: int | None) -> Ending:
    """Does the match end after ``k`` hands (``counted`` of them not misdeals)?

    Target: the player who reaches it wins; if several reach it in the same hand, the
    highest; level at the top: ``rules.tie`` (``play_on``: one more hand). After the
    number of hands or when time is up: the highest total wins; a shared lead follows
    ``tie_extra_hands`` (number of hands) or ``rules.tie`` (time; ``draw``: no winner).
    """
    base = rules.base
    best = max(totals)
    top = [s for s, t in enumerate(totals) if t == best]
    lead = top[0] if len(top) == 1 else None
    if base.target is not None and best >= base.target:
        if lead is not None:
            return Ending(k, "target", lead)
        if rules.tie == "draw":
            return Ending(k, "target", None)
    hands_done = base.max_hands is not None and counted >= base.max_hands
    timed_out = stop_after is not None and k >= stop_after
    if hands_done:
        extra = counted - base.max_hands  # type: ignore[operator]
        if lead is not None and (not base.tie_extra_hands or extra % base.tie_extra_hands == 0):
            return Ending(k, "hands", lead)
        if lead is None and not base.tie_extra_hands and not timed_out:
            return Ending(k, "hands", None)
    if timed_out and (lead is not None or rules.tie == "draw"):
        return Ending(k, "time", lead)
    return NOT_OVER


@dataclass(frozen=True, slots=True)
class VariantState:
    entries: tuple[VariantEntry, ...]
    hands: tuple[VariantHand, ...]
    totals: tuple[int, ...]
    counted: int
    ending: Ending
    call: Call
    stop_after: int | None = None
    abandoned: bool = False

    @property
    def over(self) -> bool:
        return self.abandoned or self.ending.at is not None


class _Build:
    """A ``VariantState`` being changed in place, event by event."""

    def __init__(self, game: Variant, rules: VariantRules, first_dealer: int,
                 players: tuple, state: VariantState) -> None:
        self.game, self.rules, self.first_dealer, self.players = game, rules, first_dealer, players
        self.entries = list(state.entries)
        self.hands = list(state.hands)
        self.totals = list(state.totals)
        self.counted, self.ending, self.call = state.counted, state.ending, state.call
        self.stop_after, self.abandoned = state.stop_after, state.abandoned

    def frozen(self) -> VariantState:
        return VariantState(tuple(self.entries), tuple(self.hands), tuple(self.totals),
                            self.counted, self.ending, self.call, self.stop_after, self.abandoned)

    def dealer(self, index: int) -> int:
        return (self.first_dealer + index) % self.game.players

    def event(self, ev: dict) -> None:
        """Take one event (of a shape ``VariantMatch.apply`` checked); errors name the hand."""
        kind = ev["type"]
        if kind == "edit":
            return self._edit(ev)
        try:
            self._event(kind, ev)
        except BotifarraError as e:
            raise in_hand(e, len(self.entries) + 1) from None

    def _event(self, kind: str, ev: dict) -> None:
        if self.abandoned or self.ending.at is not None:
            raise self._over_error()
        if kind in BID_TYPES:
            self.call = self.call.bid(ev, self.game, self.rules, players=self.players)
        elif kind == "time_up":
            if self.stop_after is not None:
                raise MatchStateError("time is already up")
            self.stop_after = len(self.entries) + (1 if self.call.started else 0)
            self.ending = end_check(self.rules, self.totals, self.counted, len(self.entries),
                                    self.stop_after)
        elif kind == "match_ended":
            if not isinstance(ev.get("reason", "abandoned"), str):
                raise MatchStateError("match_ended: reason must be text such as 'abandoned'")
            self.abandoned = True
        elif kind in RESULT_TYPES:
            self._add(entry_from_event(self.game, self.call, ev))
            self.call = Call(self.dealer(len(self.entries)))
        else:
            raise MatchStateError("unknown event type {kind!r}", kind=kind)

    def _add(self, e: VariantEntry) -> None:
        i = len(self.entries)
        scored, m = hand_scores(self.game, self.rules, e)
        cap = self.rules.base.points_cap
        if cap is not None:  # no player counts more than the cap; losses are not trimmed
            scored = tuple(min(s, max(0, cap - t)) if s > 0 else s
                           for s, t in zip(scored, self.totals))
        if e.kind != "misdeal":
            self.counted += 1
        self.totals = [t + s for t, s in zip(self.totals, scored)]
        self.entries.append(e)
        self.hands.append(VariantHand(
            i + 1, self.dealer(i), e.kind, e.trump, e.doubling, e.doubled_by, m, e.points,
            e.card_points, e.tricks, scored, tuple(self.totals), e.source, e.evidence,
            e.offender, e.piles))
        self.ending = end_check(self.rules, self.totals, self.counted, i + 1, self.stop_after)

    def _over_error(self) -> MatchStateError:
        end = self.ending
        reached = None
        if end.at is not None and end.winner is not None:
            reached = (player(end.winner, self.players[end.winner]),
                       self.hands[end.at - 1].totals[end.winner])
        return over_error(end.at, end.reason, reached)

    def _edit(self, ev: dict) -> None:
        n = len(self.entries)
        index, data = edited_hand(ev, n)
        number = index + 1
        try:
            events = hand_events(self.game, data, self.dealer(index))
            call = Call(self.dealer(index))
            for bid in events[:-1]:
                call = call.bid(bid, self.game, self.rules, players=self.players)
            entry = entry_from_event(self.game, call, events[-1])
        except BotifarraError as e:
            raise in_hand(e, number) from None
        entries = self.entries[:index] + [entry] + self.entries[index + 1:]
        redo = _Build(self.game, self.rules, self.first_dealer, self.players,
                      start(self.game, self.first_dealer, self.stop_after))
        for e in entries:
            if redo.ending.at is not None:
                break
            redo._add(e)
        check_edit_end(redo.ending.at, n, self.call.started, number)
        self.entries, self.hands, self.totals = redo.entries, redo.hands, redo.totals
        self.counted, self.ending = redo.counted, redo.ending


def start(game: Variant, first_dealer: int, stop_after: int | None = None) -> VariantState:
    """The state of a new match (``stop_after`` only for an edit's refold)."""
    return VariantState((), (), (0,) * game.players, 0, NOT_OVER, Call(first_dealer), stop_after)


def fold(game: Variant, rules: VariantRules, first_dealer: int, players: tuple,
         state: VariantState, events) -> VariantState:
    """``state`` after ``events`` (each checked as ``VariantMatch.apply`` does)."""
    build = _Build(game, rules, first_dealer, players, state)
    for ev in events:
        build.event(ev)
    return build.frozen()
