"""The table of a game other than the pair game (four each for himself, three, rector i
vicari): how the session reads a :class:`kiosk.game.VariantMatch` into its typed state.

The session keeps one writer for every game; what differs is how a match is read, which
this module's :class:`SeatTable` does (the pair game's reading is :class:`PairTable`, the
functions of :mod:`kiosk.table.pairstate`). ``table_for(match)`` picks one. Kivy-free.
"""

from __future__ import annotations

from dataclasses import replace

from kiosk.game import HandResult, VariantRules
from kiosk.game.variants import GAMES_FOR_PLAYERS, VARIANTS
from kiosk.table import pairstate
from kiosk.table.seatstate import SeatGame, SeatResult, SeatRow
from kiosk.table.state import Contract, Draft, PendingHand, SaveResult, TableState, Undone, key_of

GAMES = ("pairs", "four_individual", "three", "two")
SEATS = {"pairs": 4, "four_individual": 4, "three": 3, "two": 2}
# the steps (screens) of a game without pairs: the draft's step on the left
SEAT_STEPS = {"score_points": "variant_points", "score_cards": "variant_cards",
              "score_camera": "variant_camera", "confirm": "variant_confirm",
              "penalty": "variant_confirm", "misdeal": "variant_confirm",
              "scoreboard": "variant_board", "edit_hand": "variant_edit"}


def games_for(players: int) -> tuple[str, ...]:
    """The games a table of ``players`` can play (New match, after "how many play?")."""
    return GAMES_FOR_PLAYERS.get(int(players), ())


def seat_rows(match) -> tuple[SeatRow, ...]:
    return tuple(SeatRow(int(h.number), int(h.dealer), key_of(h.kind), key_of(h.trump),
                         key_of(h.doubling) or "none", int(h.multiplier or 1),
                         tuple(h.points) if h.points is not None else None,
                         tuple(h.scored), tuple(h.totals), h.offender)
                 for h in match.hands)


def _result_of(pending: PendingHand | None) -> SeatResult | None:
    hand = pending.hand if pending is not None else None
    if hand is None:
        return None
    return SeatResult(key_of(hand.kind), hand.offender,
                      tuple(hand.points) if hand.points is not None else None,
                      tuple(hand.scored), tuple(hand.totals), pending.match_over_after)


class PairTable:
    """The pair game's reading (kiosk.table.pairstate)."""
    state_of = staticmethod(pairstate.state_of)
    pending_of = staticmethod(pairstate.pending_of)
    undone_between = staticmethod(pairstate.undone_between)
    hand_data = staticmethod(pairstate.hand_data_of)

    @staticmethod
    def totals_of(match) -> dict:
        """The totals by pair (what an edit's preview shows)."""
        return dict(match.totals)

    @staticmethod
    def rematch_event(match, state: TableState) -> dict:
        """The next match: the same pairs and rules; the dealing goes on by the rules."""
        return {"type": "match_created", "rules": match.rules.to_dict(),
                "first_dealer": int(match.dealer) % 4, "players": list(match.players),
                "team_names": dict(state.team_names)}


class SeatTable:
    """The reading of a game without pairs: one total per seat."""

    @staticmethod
    def totals_of(match) -> dict:
        """The totals by seat (what an edit's preview shows)."""
        return dict(enumerate(match.totals))

    @staticmethod
    def hand_data(match, index: int) -> dict:
        """A past hand in the variant's match JSON form (what an edit replaces): a hand read
        from its piles is given by the points each pile made."""
        hand = match.hands[index]
        kind = key_of(hand.kind)
        if kind == "misdeal":
            return {"misdeal": True}
        data = {"trump": key_of(hand.trump), "doubling": key_of(hand.doubling) or "none"}
        if kind == "penalty":
            return {**data, "penalty": int(hand.offender)}
        return {**data, "points": [int(p) for p in hand.points]}

    @staticmethod
    def pending_of(match, result: HandResult) -> PendingHand:
        after = match.apply(result.event)  # the core, once: raises if impossible
        hand = after.hands[-1] if len(after.hands) > len(match.hands) else None
        return PendingHand(result=result, breakdown=(),
                           totals_after=dict(enumerate(after.totals)), hand=hand,
                           match_over_after=after.is_over)

    @staticmethod
    def undone_between(before, after) -> Undone:
        if len(after.hands) < len(before.hands):
            hand = before.hands[-1]
            kind = "misdeal" if key_of(hand.kind) == "misdeal" else "hand"
            return Undone(kind, int(hand.number), dict(enumerate(hand.scored)))
        if after.phase != before.phase or after.contract != before.contract:
            return Undone("bid", after.hand_number)
        return Undone("other", None)

    @staticmethod
    def rematch_event(match, state: TableState) -> dict:
        """The next match: same game, players and rules; the dealing goes on."""
        return {"type": "match_created", "variant": match.variant, "rules": match.rules.to_dict(),
                "first_dealer": int(match.dealer) % match.game.players,
                "players": list(match.players)}

    @staticmethod
    def state_of(match, match_id, draft: Draft | None, pending: PendingHand | None, *, settings,
                 undone: Undone | None, last_save: SaveResult, new_match=None) -> TableState:
        call = match.contract
        over = match.is_over
        if draft is not None:
            step = SEAT_STEPS.get(draft.step, "variant_board")
        else:
            step = "variant_won" if over else "variant_board"
        game = SeatGame(key=match.variant, seats=match.game.players, players=tuple(match.players),
                        totals=tuple(int(t) for t in match.totals), dealer=int(match.dealer),
                        winner=match.winner, end_reason=match.end_reason,
                        target=match.rules.base.target, deck=len(match.game.deck),
                        doubled_by=tuple(call.doubled_by) if call is not None else (),
                        rows=seat_rows(match), result=_result_of(pending))
        contract = Contract() if call is None or call.trump is None else Contract(
            trump=key_of(call.trump), doubling=key_of(call.doubling) or "none",
            multiplier=int(call.multiplier or 1))
        state = TableState(
            step=step, has_match=True, match_id=match_id, phase=match.phase, is_over=over,
            team_names={}, players=tuple(match.players), totals={},
            target=match.rules.base.target, max_hands=match.rules.base.max_hands,
            hand_number=match.hand_number, roles={"dealer": int(match.dealer)},
            contract=contract, bids=pairstate.bids_of(match), can_undo=bool(match.can_undo),
            can_redo=bool(match.can_redo), draft=draft, pending=pending, needs_both=False,
            last_undone=undone, last_save=last_save, events=len(match.events), game=game)
        return replace(state, step="new_match", new_match=new_match) if new_match is not None else state


def table_for(match) -> type[PairTable] | type[SeatTable]:
    """The reading that fits ``match`` (None: no match yet, the pair table's empty state)."""
    if match is not None and getattr(match, "variant", "pairs") != "pairs":
        return SeatTable
    return PairTable


def created_event(game: str, *, players: list | None, preset: str, target: int | None,
                  first_dealer: int) -> dict:
    """The ``match_created`` event of a new match of ``game`` (not the pair game)."""
    variant = VARIANTS[game]
    rules: dict = {"preset": preset}
    if target is not None:
        rules["target"] = int(target)
    names = [(p or None) for p in (players or [])][:variant.players]
    names += [None] * (variant.players - len(names))
    return {"type": "match_created", "variant": game, "rules": VariantRules.from_dict(rules).to_dict(),
            "first_dealer": int(first_dealer) % variant.players, "players": names}


def points_result(points) -> HandResult:
    """A hand scored by every seat's points (they add up to 72; the core checks)."""
    return HandResult.scored(points=[int(p) for p in points], source="points")


def piles_result(piles, *, source: str = "cards", evidence: str | None = None) -> HandResult:
    """A hand scored by every seat's pile (together the game's deck; the core checks); read
    by the camera (``source="camera"``, its photo ``evidence``) or tapped on the card grid."""
    return HandResult.scored(piles=[list(p) for p in piles], source=source, evidence=evidence)
