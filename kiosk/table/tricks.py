"""Trick mode at the table: each card played is one journal event, folded by the core.

The camera (or a tap) lays a card at a seat: :meth:`TrickActions.play_card` journals a
``card_played`` event (seat, trick, card); the core (:mod:`kiosk.game.handrecord`, through
``Match.apply``) refuses a card already played or one out of turn, so a power cut resumes
at the same trick. :func:`trick_view_of` reads the hand in play into the frozen
:class:`TrickView` the trick screen draws: the cards on the table at each seat, the trick's
number and both pairs' running points, the last trick (the one the rules let a player look
at) and the first renunci the hand check proves, with the card that proves it.

A renunci is never scored without a tap: :meth:`TrickActions.confirm_renunci` proposes the
penalty of the offender's pair (the existing penalty path, confirmed on its own screen);
:meth:`TrickActions.dismiss_renunci` says the card was misread and corrects it at its trick
(a ``card_corrected`` event). After the 12th trick :meth:`TrickActions.score_tricks`
proposes the hand from the tricks (both pairs' piles) on the same confirmation screen as
every other path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kiosk.game import Card, HandResult, Phase
from kiosk.game.handrecord import CardCorrected, CardPlayed, HandInPlay
from kiosk.game.seats import roles_for
from kiosk.table.state import SaveResult

TRICKS_MODE = "tricks"


@dataclass(frozen=True)
class TrickSeen:
    """One trick as the table saw it: its number, who led, each seat's card, who won."""
    number: int
    lead: int
    cards: tuple[str | None, str | None, str | None, str | None]  # by seat 0-3
    winner: int | None


@dataclass(frozen=True)
class RenunciShown:
    """A renunci the hand check proves: the offender's seat and pair, the trick and card he
    played, and his later card that proves he could have obeyed."""
    trick: int
    seat: int
    team: str
    card: str
    proof_trick: int
    proof_card: str


@dataclass(frozen=True)
class TrickView:
    """The hand in play, trick by trick (trick mode)."""
    number: int               # the trick being played (12 once all are played)
    to_play: int | None       # the seat whose card comes next (None: the hand is complete)
    table: TrickSeen          # the cards lying on the table now, by seat
    last: TrickSeen | None    # the last complete trick ("Última basa")
    points: dict              # {"A": n, "B": n}: card points plus one per trick won so far
    played: int               # cards played so far (48 once complete)
    complete: bool
    renunci: RenunciShown | None
    tricks: tuple[TrickSeen, ...] = ()  # every complete trick (History's replay)


def _by_seat(lead: int, cards) -> tuple[str | None, str | None, str | None, str | None]:
    out: list[str | None] = [None, None, None, None]
    for i, card in enumerate(cards):
        out[(lead + i) % 4] = card.code
    return out[0], out[1], out[2], out[3]


def view_of_hand(hand: HandInPlay) -> TrickView:
    """What the trick screen draws of ``hand`` (its hand check asked once)."""
    done = tuple(TrickSeen(t.number, t.lead, _by_seat(t.lead, t.cards), t.winner) for t in hand.tricks)
    last = done[-1] if done else None
    if hand.trick or last is None:
        number = hand.trick_number or 12
        table = TrickSeen(number, hand.lead, _by_seat(hand.lead, hand.trick), None)
    else:  # a trick just won: its cards lie there until the first card of the next one
        table = last
    renunci = None
    found = hand.check().renunci
    shown = found and (found.proof or found.shown_by)
    if found is not None and shown:
        renunci = RenunciShown(found.trick, found.seat, "A" if found.seat % 2 == 0 else "B",
                               found.card.code, shown.trick, shown.card.code)
    return TrickView(number=hand.trick_number or 12, to_play=hand.to_play, table=table, last=last,
                     points=dict(hand.points), played=len(hand.events), complete=hand.complete,
                     renunci=renunci, tricks=done)


def hand_in_play(match, settings) -> HandInPlay | None:
    """The hand being played trick by trick: the cards laid so far, or an empty hand once the
    bidding is closed in trick mode; None otherwise."""
    if match is None or getattr(match, "variant", "pairs") != "pairs" or match.is_over:
        return None
    hand = match.cards_in_play
    if hand is not None:
        return hand
    contract = match.contract
    if settings["camera.mode"] != TRICKS_MODE or contract is None or not contract.closed:
        return None
    return HandInPlay(contract.trump, first_lead=roles_for(contract.dealer).first_lead, rules=match.rules)


def trick_view_of(match, settings) -> TrickView | None:
    hand = hand_in_play(match, settings)
    return view_of_hand(hand) if hand is not None else None


def piles_of(hand: HandInPlay) -> dict[str, list[str]]:
    """Each pair's pile: the cards of the tricks it won."""
    piles: dict[str, list[str]] = {"A": [], "B": []}
    for t in hand.tricks:
        piles["A" if t.winner % 2 == 0 else "B"] += [c.code for c in t.cards]
    return piles


class TrickPlay:
    """The table session's trick-mode actions, an object the session owns
    (``session.trick_play``): each card one journal event, through the session's one writer
    (``commit``, handed over by the session), like every other action."""

    def __init__(self, session, *, commit: Callable[[dict], SaveResult]) -> None:
        self._session = session
        self._commit = commit

    def hand_in_play(self) -> HandInPlay | None:
        return hand_in_play(self._session.match, self._session.settings)

    def play_card(self, seat: int, card: str, *, trick: int | None = None) -> SaveResult:
        """A card laid at ``seat`` (the trick being played unless given). The core refuses a
        card already played or out of turn (``IllegalPlayError``: nothing written). The
        bidding closes with the first card, as the scoring paths close it."""
        state = self._session.state
        if self._session.match is not None and state.phase == Phase.DOUBLING and state.bids.can_play:
            result = self._session.start_play()
            if not result.saved:
                return result
        hand = self.hand_in_play()
        number = trick if trick is not None else (hand.trick_number if hand is not None else 1) or 12
        result = self._commit(CardPlayed(number, seat, Card.parse(card)).to_event())
        if result.saved:
            self._propose_when_complete()
        return result

    def correct_card(self, trick: int, seat: int, card: str) -> SaveResult:
        """The table's correction of a card already recorded (a misread)."""
        result = self._commit(CardCorrected(trick, seat, Card.parse(card)).to_event())
        if result.saved:
            self._propose_when_complete()
        return result

    def confirm_renunci(self) -> None:
        """The table confirms the renunci shown: the penalty of the offender's pair, to be
        confirmed on the penalty screen (the existing penalty path)."""
        shown = self._session.state.tricks.renunci if self._session.state.tricks is not None else None
        if shown is None:
            return
        self._session.penalty(shown.team)

    def dismiss_renunci(self, card: str) -> SaveResult:
        """The renunci shown was a misread: the offender's card at that trick was ``card``."""
        shown = self._session.state.tricks.renunci if self._session.state.tricks is not None else None
        if shown is None:
            return SaveResult(True)
        return self.correct_card(shown.trick, shown.seat, card)

    def score_tricks(self) -> None:
        """All 12 tricks played: the hand from the tricks (each pair's pile) to confirm."""
        hand = self.hand_in_play()
        if hand is None or not hand.complete:
            return
        self._session.propose(HandResult.scored(piles=piles_of(hand), source="camera"))

    def _propose_when_complete(self) -> None:
        view = self._session.state.tricks
        if view is not None and view.complete and view.renunci is None:
            self.score_tricks()
