"""Reading the core's Match into the frozen values of :mod:`kiosk.table.state`.

Each function asks the core once; the session calls ``state_of`` once per change and
``pending_of`` once per proposed result, never on a screen's refresh.
"""

from __future__ import annotations

from dataclasses import replace

from kiosk.game import BidKind, HandResult, Phase, ResultKind
from kiosk.table.tricks import trick_view_of
from kiosk.table.state import (
    Bids, Contract, Draft, HandRow, PendingHand, SaveResult, Step, TableState, TeamBreakdown, Undone,
    key_of,
)


def contract_of(match) -> Contract:
    c = match.contract if match is not None else None
    if c is None:
        return Contract()
    return Contract(trump=key_of(c.trump), delegated=bool(c.delegated),
                    doubling=key_of(c.doubling) or "none", multiplier=int(c.multiplier or 1),
                    trump_team=key_of(c.trump_team) if c.trump is not None else None)


def bids_of(match) -> Bids:
    if match is None or match.is_over:
        return Bids()
    bids = match.bids()
    levels = tuple(dict.fromkeys(b.level.key for b in bids if b.kind is BidKind.DOUBLE))
    return Bids(trumps=tuple(b.trump.value for b in bids if b.kind is BidKind.TRUMP),
                can_delegate=any(b.kind is BidKind.DELEGATE for b in bids),
                levels=levels, can_play=any(b.kind is BidKind.PLAY for b in bids), events=bids)


def breakdown_of(hand) -> tuple[TeamBreakdown, ...]:
    """For each pair: card points + tricks, over 36, x multiplier = scored."""
    mult = int(hand.multiplier or 1)
    points, cps, tricks, scored = hand.points or {}, hand.card_points or {}, hand.tricks or {}, hand.scored or {}
    return tuple(TeamBreakdown(team, points.get(team), cps.get(team), tricks.get(team),
                               max(0, (points.get(team) or 0) - 36), mult, int(scored.get(team, 0)))
                 for team in ("A", "B"))


def pending_of(match, result: HandResult) -> PendingHand:
    """The proposed result, applied by the core once (raises its error if impossible)."""
    after = match.apply(result.event)
    hand = after.hands[-1] if len(after.hands) > len(match.hands) else None
    return PendingHand(result=result, breakdown=breakdown_of(hand) if hand else (),
                       totals_after=dict(after.totals), hand=hand, match_over_after=after.is_over)


def step_of(match, draft: Draft | None) -> Step:
    if match is None:
        return Step.SCOREBOARD
    if draft is not None:
        return draft.step
    if match.is_over:
        return Step.MATCH_WON
    if match.phase in (Phase.DELEGATED, Phase.DOUBLING):
        return Step.BIDDING
    return Step.SCOREBOARD


# the settings the state is read with (team names, both_confirm, and trick mode in
# kiosk.table.tricks): the session publishes its state again when one of them changes
STATE_SETTINGS = frozenset({"match.team_a", "match.team_b", "match.both_confirm", "camera.mode"})


def state_of(match, match_id, draft: Draft | None, pending: PendingHand | None, *, settings,
             undone: Undone | None, last_save: SaveResult, new_match=None) -> TableState:
    state = _state_of(match, match_id, draft, pending, settings=settings, undone=undone,
                      last_save=last_save)
    view = trick_view_of(match, settings)
    if view is not None:  # trick mode: the hand in play is on the trick screen
        state = replace(state, tricks=view, step=Step.TRICKS if draft is None else state.step)
    # The new match's form is shown over whatever the table had until a match is created.
    return replace(state, step=Step.NEW_MATCH, new_match=new_match) if new_match is not None else state


def _state_of(match, match_id, draft: Draft | None, pending: PendingHand | None, *, settings,
              undone: Undone | None, last_save: SaveResult) -> TableState:
    names = dict(match.team_names or {}) if match is not None else {}
    team_names = {"A": names.get("A") or settings["match.team_a"],
                  "B": names.get("B") or settings["match.team_b"]}
    if match is None:
        return TableState(step=Step.SCOREBOARD, team_names=team_names, draft=None,
                          last_undone=undone, last_save=last_save)
    r = match.roles
    roles = {"dealer": int(r.dealer), "shuffler": int(r.shuffler), "cutter": int(r.cutter),
             "first_lead": int(r.first_lead)}
    result = draft.result if draft is not None else None
    return TableState(
        step=step_of(match, draft), has_match=True, match_id=match_id, phase=match.phase,
        is_over=match.is_over, winner=match.winner, team_names=team_names,
        players=tuple(match.players or (None,) * 4),
        totals={"A": int(match.totals.get("A", 0)), "B": int(match.totals.get("B", 0))},
        target=match.rules.target, max_hands=match.rules.max_hands,
        hand_number=len(match.hands) + 1, roles=roles, contract=contract_of(match),
        bids=bids_of(match), can_undo=bool(match.can_undo), can_redo=bool(match.can_redo),
        draft=draft, pending=pending,
        needs_both=bool(settings["match.both_confirm"]) and result is not None
        and result.kind is ResultKind.HAND_SCORED,
        last_undone=undone, last_save=last_save, events=len(match.events))


def sheet_of(match) -> list[HandRow]:
    """One row per hand of ``match``, like the paper score sheet (scoreboard, match won,
    history all show these rows)."""
    return [HandRow(
        number=int(h.number), dealer=h.dealer, kind=h.kind, trump=key_of(h.trump),
        trump_team=key_of(h.trump_team), delegated=bool(h.delegated),
        doubling=key_of(h.doubling) or "none", multiplier=int(h.multiplier or 1),
        points=dict(h.points or {}), scored=dict(h.scored or {}),
        totals=dict(h.totals or {}), source=h.source, offender=h.offender,
    ) for h in (match.hands if match is not None else ())]


def undone_between(before, after) -> Undone:
    if len(after.hands) < len(before.hands):
        hand = before.hands[-1]
        kind = "misdeal" if key_of(hand.kind) == "misdeal" else "hand"
        return Undone(kind, int(hand.number), dict(hand.scored or {}))
    if after.phase != before.phase or after.contract != before.contract:
        return Undone("bid", after.hand_number)
    return Undone("other", None)


def hand_data_of(match, index: int) -> dict:
    """A past hand in the match JSON form (what an edit replaces)."""
    row = sheet_of(match)[index]
    if row.kind == "misdeal":
        return {"misdeal": True}
    data = {"trump": row.trump, "delegated": row.delegated, "doubling": row.doubling}
    if row.kind == "penalty":
        data["penalty"] = row.offender or next(
            (t for t in ("A", "B") if not row.scored.get(t)), "A")
    else:
        team = row.trump_team or "A"
        data["points"] = {team: row.points.get(team, 0)}
    return data


def edit_event_of(match, index: int, data: dict) -> dict:
    """The ``edit`` event that replaces hand ``index`` with ``data``: a typed correction of a
    played hand keeps the photo the camera took of it."""
    played = not data.get("misdeal") and "penalty" not in data
    if played and "evidence" not in data and match is not None and 0 <= int(index) < len(match.hands):
        evidence = match.hands[int(index)].evidence
        if evidence:
            data = {**data, "evidence": evidence}
    return {"type": "edit", "hand": int(index), "data": data}
