"""What every game says alike about what is finished: where a match ended, editing a
finished hand, and the events a finished match refuses.

Both folds (:mod:`kiosk.game.fold` of the pair game, :mod:`kiosk.game.variantfold` of the
games without pairs) score hands their own way; these are the rules they share.

    >>> edited_hand({"type": "edit", "hand": 0, "data": {"points": [20, 14, 18, 20]}}, 2)
    (0, {'points': [20, 14, 18, 20], 'source': 'points'})
"""

from __future__ import annotations

from dataclasses import dataclass

from kiosk.game.errors import HAND, MatchStateError
from kiosk.game.history import History


@dataclass(frozen=True, slots=True)
class Ending:
    """Where a match ended: after ``at`` hands (None: not over), why (``"target" | "hands" |
    "time" | "abandoned"``) and who won (a pair's letter, or a seat in the games without
    pairs; None: a draw, or not over)."""

    at: int | None
    reason: str | None = None
    winner: str | int | None = None

    def or_abandoned(self, abandoned: bool, hands: int) -> "Ending":
        """This ending, or, for a match stopped by hand before it ended, abandoned after its
        ``hands`` finished hands with no winner."""
        return Ending(hands, "abandoned", None) if abandoned and self.at is None else self


NOT_OVER = Ending(None)


def ending_json(out: dict, history: History, *, stop_after: int | None, hands: int,
                abandoned: bool) -> dict:
    """``out`` (a match JSON) with how its end was said: ``time_up_after`` (the hands
    finished when time ran out) and ``ended`` (why it was stopped by hand)."""
    if stop_after is not None and stop_after <= hands:
        out["time_up_after"] = stop_after
    if abandoned:
        out["ended"] = history.end_reason()
    return out


def edited_hand(ev: dict, finished: int) -> tuple[int, object]:
    """The index of the finished hand an ``edit`` changes (one of ``finished``) and its new
    data; a correction typed at the kiosk says no source: its points or cards are it.
    Raises ``MatchStateError``."""
    index = ev.get("hand")
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < finished:
        if finished == 0:
            raise MatchStateError("edit: no hand has been scored yet")
        if isinstance(index, int) and not isinstance(index, bool):
            raise MatchStateError("edit: there is no hand {number} to change "
                                  "(hands 1 to {n} are finished; 'hand' counts from 0)",
                                  number=index + 1, n=finished)
        raise MatchStateError("edit: 'hand' must be the index of a finished hand (0 to {last})",
                              last=finished - 1)
    data = ev.get("data")
    if isinstance(data, dict) and "source" not in data:
        data = {**data, "source": "points" if "points" in data else "cards"}
    return index, data


def check_edit_end(ends_at: int | None, finished: int, next_begun: bool, number: int) -> None:
    """An edit of hand ``number`` may not end the match (after hand ``ends_at``) before hands
    already played, nor once the next hand has begun. Raises ``MatchStateError``."""
    if ends_at is not None and ends_at < finished:
        raise MatchStateError(
            "with this change the match would end after hand {at}, "
            "but {more} more hand(s) were played; undo those first",
            at=ends_at, more=finished - ends_at).within(HAND, number=number)
    if ends_at is not None and next_begun:
        raise MatchStateError(
            "with this change the match would end after hand {at}, "
            "but hand {next} has already begun; undo its bids first",
            at=ends_at, next=finished + 1).within(HAND, number=number)


def over_error(at: int | None, reason: str | None,
               reached: tuple[object, int] | None = None) -> MatchStateError:
    """Why a finished match takes no more hands: stopped (``at`` None), a target ``reached``
    (who, with how many points), time up, or its number of hands played."""
    if at is None:
        return MatchStateError("the match is over (it was stopped)")
    if reason == "target" and reached is not None:
        return MatchStateError("the match is over: {winner} reached {points} in hand {at}",
                               winner=reached[0], points=reached[1], at=at)
    if reason == "time":
        return MatchStateError("the match is over: time ran out")
    return MatchStateError("the match is over after {at} hands", at=at)
