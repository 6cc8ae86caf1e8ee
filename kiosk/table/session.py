"""The table session: the one writer of a table's match, whatever face drives it.

Every user action is one call here; it becomes one journal event, which the journal
validates with the game core and commits durably, and only then does the state change.
The session builds one frozen :class:`TableState` per change and hands it to its
subscribers (the screens, a club publisher). Kivy-free: a CLI or a test drives it as is.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import time
from typing import Any, Callable

from kiosk.game import (
    BIDDING_PHASES, BidKind, HandResult, MatchStateError, ResultKind, Rules,
    Suit, first_dealer_by_draw,
)
from kiosk.journal import InvalidEvent, JournalError, UnknownMatch
from kiosk.settings import Settings
from kiosk.table.clock import TournamentClock
from kiosk.table.drafts import DraftKeeper, DraftStore
from kiosk.table.memory import NewMatchForm, Shown, TableMemory
from kiosk.table.tricks import TrickPlay
from kiosk.table.state import ACTION_STEPS, Draft, SaveResult, Step, TableState, Undone
from kiosk.table.variants import table_for
from kiosk.table.pairstate import STATE_SETTINGS, edit_event_of

log = logging.getLogger("kiosk.table")
DRAW_SUITS = (Suit.OROS, Suit.COPES, Suit.ESPASES, Suit.BASTOS)
Listener = Callable[[TableState], None]


class TableSession:
    """One table's match: actions in, frozen :class:`TableState` out.

    Args:
        journal: a :class:`kiosk.journal.Journal` (the only place a change is kept).
        settings: team default names, ``match.both_confirm``.
        drafts: where the step in progress is kept across a power cut (memory if None).
        rng: the on-screen suit draw. clock: seconds since the epoch (``tournament``, the
            owned :class:`TournamentClock` of the match shown).

    Actions return a :class:`SaveResult`; ``saved`` is True only after the journal's
    commit returned. A journal that refuses the write (disk full, read-only, locked) gives
    ``saved=False`` with its error, and the draft stays as it was, to retry. A move the
    rules refuse raises the core's ``BotifarraError`` (nothing written).

    Example::

        session = TableSession(Journal(tmp / "j.sqlite"))
        session.new_match(first_dealer=0)
        assert session.choose_trump("oros").saved and session.state.phase == "doubling"
    """

    def __init__(self, journal, *, settings: Settings | None = None,
                 drafts: DraftStore | None = None, rng: random.Random | None = None,
                 clock: Callable[[], float] = time.time, memory: TableMemory | None = None) -> None:
        self.journal = journal
        self.settings = settings or Settings()
        self.drafts = DraftKeeper(drafts or DraftStore(None))  # the step in progress
        self.memory = memory or TableMemory(None)
        self._new_match: NewMatchForm | None = None
        self.rng = rng or random.Random()
        self.clock = clock
        self.match_id: int | None = None
        self.match = None
        self._undone: Undone | None = None
        self._last_save = SaveResult(True)
        self.tournament = TournamentClock(journal, now=clock)
        self.trick_play = TrickPlay(self, commit=self._commit)  # trick mode: a card at a time
        self._listeners: list[Listener] = []
        self.state: TableState = TableState(step=Step.SCOREBOARD)
        self.resume()
        self._unwatch = self.settings.watch(self._setting_changed)

    # ------------------------------------------------------------------ observers
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """``listener(state)`` after every change; returns the function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _setting_changed(self, name: str) -> None:
        if name in STATE_SETTINGS:  # e.g. trick mode switched on: the trick screen now
            self._publish()

    def close(self) -> None:
        """Stop following the settings (the kiosk stops; they may outlive this session)."""
        self._unwatch()

    def _publish(self) -> None:
        self.tournament.follow(self.match_id, self.match)
        self.state = table_for(self.match).state_of(self.match, self.match_id, self._draft, self.drafts.pending,
                              settings=self.settings, undone=self._undone,
                              last_save=self._last_save, new_match=self._new_match)
        for listener in list(self._listeners):
            listener(self.state)

    # ------------------------------------------------------------------ journal
    def resume(self, match_id: int | None = None) -> None:
        """Reopen ``match_id`` (History), else the match the table last showed, finished or not
        (the journal's unfinished one if it never said: an older kiosk), with its draft."""
        if match_id is None:
            shown = self.memory.load()
            self._new_match = shown.new_match
            self.match_id, self.match = None, None
            if shown.known and shown.match_id is not None:
                try:
                    self.match_id, self.match = shown.match_id, self.journal.load(shown.match_id)
                except UnknownMatch:  # a journal set aside or replaced: what it holds
                    shown = Shown()
            if not shown.known:
                found = self.journal.current_match()
                if found is not None:
                    self.match_id, self.match = found.match_id, found.match
        else:
            self.match_id, self.match = match_id, self.journal.load(match_id)
            self._new_match = None
        self.memory.show(self.match_id)
        self.drafts.reopen(self.match, self.match_id)
        self._undone = None
        self._last_save = SaveResult(True)
        self._publish()

    @property
    def _draft(self) -> Draft | None:
        return self.drafts.draft

    def _set_draft(self, draft: Draft | None, *, store: bool = True, pending=None) -> None:
        self.drafts.set(draft, self.match, self.match_id, store=store, pending=pending)

    def _commit(self, event: dict, *, keep_draft: bool = False) -> SaveResult:
        """Journal first (validated by the core, durable), then the state everyone sees."""
        try:
            self.match = self.journal.append(self.match_id, event)
        except InvalidEvent:
            raise
        except JournalError as exc:  # full, read-only, locked, damaged: NOT saved
            return self._not_saved(event["type"], exc)
        self._last_save = SaveResult(True)
        if event["type"] not in ("undo",):
            self._undone = None
        if keep_draft and self._draft is not None:
            self._set_draft(self._draft)
        else:
            self._set_draft(None)
        self._publish()
        return self._last_save

    def _not_saved(self, what: str, exc: JournalError) -> SaveResult:
        log.error("kiosk: %s not saved: %s", what, exc)
        self._last_save = SaveResult(False, exc)
        self._publish()
        return self._last_save

    def _create(self, event: dict) -> SaveResult:
        try:
            match_id = self.journal.create_match(event)
            match = self.journal.load(match_id)
        except InvalidEvent:
            raise
        except JournalError as exc:
            return self._not_saved("new match", exc)
        self.match_id, self.match = match_id, match
        self._undone, self._last_save = None, SaveResult(True)
        self._new_match = None
        self.memory.show(match_id)
        self.memory.fill_new_match(None)
        self._set_draft(None)
        self._publish()
        return self._last_save

    def retry(self) -> SaveResult:
        """Try the save that failed again (the pending result on screen, if any)."""
        if self._draft is not None and self._draft.result is not None:
            return self.confirm(force=True)
        self._last_save = SaveResult(True)
        self._publish()
        return self._last_save

    # ------------------------------------------------------------------ new match
    def draw_first_dealer(self) -> tuple[Suit, int]:
        """The on-screen suit draw: seat n holds DRAW_SUITS[n]; a card is turned; that seat deals."""
        suit = self.rng.choice(DRAW_SUITS)
        return suit, first_dealer_by_draw(suit, assignment={s: i for i, s in enumerate(DRAW_SUITS)})

    def new_match(self, *, team_names: dict[str, str] | None = None, players: list | None = None,
                  preset: str = "reglament", target: int | None = None,
                  first_dealer: int = 0) -> SaveResult:
        rules: dict = {"preset": preset}
        if target is not None:
            rules["target"] = int(target)
        names = {"A": (team_names or {}).get("A") or self.settings["match.team_a"],
                 "B": (team_names or {}).get("B") or self.settings["match.team_b"]}
        return self._create({"type": "match_created", "rules": Rules.from_dict(rules).to_dict(),
                             "first_dealer": int(first_dealer),
                             "players": [(p or None) for p in (players or [None] * 4)],
                             "team_names": names})

    def new_match_from(self, event: dict) -> SaveResult:
        """A match from a ready ``match_created`` event (a club round's order: the organiser's
        pairs and the round's end conditions)."""
        return self._create(dict(event))

    def open_new_match(self, form: NewMatchForm | None = None) -> None:
        """Show the new match's form over the table's match (kept until one is created)."""
        self._new_match = form or NewMatchForm()
        self.memory.fill_new_match(self._new_match)
        self._publish()

    def fill_new_match(self, form: NewMatchForm) -> None:
        """What is typed in the form so far: kept on disk and in ``state.new_match`` (what
        the form reads again on a language switch), but nobody is told (a keystroke must
        not redraw the form under the finger)."""
        if self._new_match is not None and form != self._new_match:
            self._new_match = form
            self.memory.fill_new_match(form)
            self.state = dataclasses.replace(self.state, new_match=form)

    def close_new_match(self) -> None:  # Back from the form: the table's match again
        self._new_match = None
        self.memory.fill_new_match(None)
        self._publish()

    def show_sheet(self) -> None:
        """A finished match's scoreboard (from the match won), remembered across a restart."""
        if self.match is not None and self.match.is_over:
            self._set_draft(Draft(step=Step.SCOREBOARD))
            self._publish()

    def next_match(self) -> SaveResult:
        """A new match with the same players and rules; the dealing continues by the rules."""
        return self._create(table_for(self.match).rematch_event(self.match, self.state))

    def abandon(self) -> SaveResult:
        """Stop the match in play (it stays in History, and can be reopened there)."""
        self._set_draft(None)
        return self._commit({"type": "match_ended", "reason": "abandoned"})

    # ------------------------------------------------------------------ bidding
    def _bid(self, kind: BidKind, **named: str | int) -> SaveResult:
        bid = self.state.bids.find(kind, **named)
        if bid is not None:
            return self._commit(bid.event)
        # Not a legal bid now: let the core say why, in its own words (nothing is written).
        return self._commit({"type": kind.value, "seat": self.state.roles.get("dealer", 0), **named})

    def choose_trump(self, trump: str) -> SaveResult:
        return self._bid(BidKind.TRUMP, trump=trump)

    def delegate(self) -> SaveResult:
        return self._bid(BidKind.DELEGATE)

    def double(self, level: str, seat: int | None = None) -> SaveResult:
        return self._bid(BidKind.DOUBLE, level=level, **({} if seat is None else {"seat": seat}))

    def start_play(self) -> SaveResult:
        return self._bid(BidKind.PLAY)

    # ------------------------------------------------------------------ scoring
    def begin_score(self, method: str, *, team: str | None = None, cards=(), source=None,
                    evidence=None) -> SaveResult:
        """Open a score path (camera / cards / points); remembered across a restart. The
        pile's owner is the pair given (a chosen pair, or the one whose seat scans)."""
        if self.match is not None and self.match.phase in BIDDING_PHASES and self.state.bids.can_play:
            result = self.start_play()
            if not result.saved:
                return result
        self._set_draft(Draft(step=Step(f"score_{method}"), team=team or "A",
                              pile_owner_chosen=team is not None, cards=tuple(cards),
                              source=source, evidence=evidence))
        self._publish()
        return SaveResult(True)

    def update_draft(self, **changes: Any) -> None:
        """Keep what has been entered so far (tapped cards, typed digits, the pile owner)."""
        if self._draft is None:
            return
        if "team" in changes:
            changes.setdefault("pile_owner_chosen", True)
        self.drafts.change(self.match, self.match_id, **changes)
        self._publish()

    def add_read_cards(self, codes) -> None:
        """Cards the camera has just read: merged into the pile being scored, each once."""
        if self._draft is None or self._draft.step is not Step.SCORE_CAMERA:
            return
        merged = tuple(dict.fromkeys(self._draft.cards + tuple(codes)))
        self.update_draft(cards=merged, source="camera")

    def propose(self, result: HandResult) -> None:
        """A hand result, penalty or misdeal to confirm: the core checks it now (raises its
        error if impossible), it is saved on confirm."""
        if self.match is None:
            raise MatchStateError("no match yet")
        pending = table_for(self.match).pending_of(self.match, result)  # the core, once: raises
        step = _CONFIRM_ON[result.kind]
        base = self._draft or Draft(step=step)
        # Back returns to the step the result was typed on; a misdeal proposed straight from
        # the scoreboard has none, and goes back to the scoreboard (not to itself).
        back = base.back if base.result is not None else (base.step if self._draft is not None else None)
        self._set_draft(base.but(step=step, result=result, back=back, confirmed=()), pending=pending)
        self._publish()

    def confirm(self, team: str | None = None, *, force: bool = False) -> SaveResult:
        """Save the pending result. With the both-pairs setting each pair confirms once;
        ``saved`` is True only when the hand reached the journal."""
        draft = self._draft
        if draft is None or draft.result is None:
            return SaveResult(False)
        if self.state.needs_both and not force:
            confirmed = tuple(sorted(set(draft.confirmed) | ({team} if team else set())))
            if set(confirmed) != {"A", "B"}:
                self.update_draft(confirmed=confirmed)
                return SaveResult(False)
        return self._commit(draft.result.event)

    def cancel(self) -> None:
        """Leave the current step: from a confirmation back to where it came from."""
        draft = self._draft
        if draft is not None and draft.back and draft.step in ACTION_STEPS:
            self._set_draft(draft.but(step=draft.back, result=None, back=None, confirmed=()))
        else:
            self._set_draft(None)
        self._last_save = SaveResult(True)
        self._publish()

    def penalty(self, offender: str | int) -> None:
        self.propose(HandResult(ResultKind.PENALTY, offender=offender))

    def misdeal(self) -> None:
        self.propose(HandResult(ResultKind.MISDEAL))

    def begin_action(self, step: Step | str, *, hand: int | None = None) -> None:
        """Open the penalty, misdeal or edit step (remembered across a restart)."""
        self._set_draft(Draft(step=Step(step), hand=hand))
        self._publish()

    # ------------------------------------------------------------------ undo / redo / edit
    def undo_preview(self) -> Undone | None:
        """What ``undo`` would take back now (the screen asks before undoing a hand)."""
        if self.match is None or not self.match.can_undo:
            return None
        return table_for(self.match).undone_between(self.match, self.match.apply({"type": "undo"}))

    def undo(self) -> SaveResult:
        if self._draft is not None:
            self.cancel()
            return SaveResult(True)
        before = self.match
        if before is None or not before.can_undo:
            raise MatchStateError("nothing to undo")
        result = self._commit({"type": "undo"})
        if result.saved:
            self._undone = table_for(before).undone_between(before, self.match)
            self._publish()
        return result

    def redo(self) -> SaveResult:
        return self._commit({"type": "redo"})

    def forget_undone(self) -> None:
        """The table has seen what was undone: stop showing it (redo stays possible)."""
        self._undone = None
        self._publish()

    def hand_data(self, index: int) -> dict:
        """A past hand in the match JSON form (what an edit replaces)."""
        return table_for(self.match).hand_data(self.match, index)

    def edit_preview(self, index: int, data: dict) -> dict:
        """The totals the match would have after the edit (raises the core's error)."""
        return table_for(self.match).totals_of(self.match.apply(edit_event_of(self.match, index, data)))

    def edit_hand(self, index: int, data: dict) -> SaveResult:
        return self._commit(edit_event_of(self.match, index, data))

    # ------------------------------------------------------------------ tournament clock
    def check_time(self) -> bool:
        """Every second: when the tournament clock has run out, journal ``time_up`` once.
        True when it was saved."""
        return self.tournament.due and self.call_time().saved

    def call_time(self) -> SaveResult:
        """The hand in progress is the last; a hand being scored stays open."""
        return self._commit({"type": "time_up"}, keep_draft=True)


_CONFIRM_ON = {ResultKind.HAND_SCORED: Step.CONFIRM, ResultKind.PENALTY: Step.PENALTY,
               ResultKind.MISDEAL: Step.MISDEAL}

