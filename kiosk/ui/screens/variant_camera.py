"""Score a hand of a game without pairs by camera, one player's pile at a time; a tap on
the next player keeps that pile and reads the next; the one player left with no pile takes
the rest of the game's deck. Correct opens the card grid with the piles read so far.

Two ways to read, as the table's camera is set (``camera.marks``):

- a marked deck: the pile is spread under the camera and read whole (the pair game's
  :class:`kiosk.table.CameraScoring` merges the reads into the draft's cards);
- an ordinary deck learnt by name: the pile is dealt face up, one card at a time, as on the
  pair game's deal screen, whose :class:`kiosk.ui.dealthrough.DealThrough` this screen owns
  too (the card named, the asks, "Traieu l'última"). The players' piles are dealt one onto
  the other: the reader goes on across a tap on the next player, so a card already counted
  for anybody is asked about. A card that is not in the game's deck (a 2, 3 or 4 at three)
  is refused as it is dealt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from kiosk.game import Card, card_points
from kiosk.game.variants import VARIANTS
from kiosk.table.camera import CameraScoring
from kiosk.table.state import Step
from kiosk.table.variants import piles_result
from kiosk.ui.dealthrough import DealThrough, card_words
from kiosk.ui.i18n import N_, _, tally
from kiosk.ui.pilecamera import PileCamera
from kiosk.ui.screens.base import KioskScreen, load_kv, player_name
from kiosk.ui.screens.variant_cards import completed, fill_seat_piles

if TYPE_CHECKING:
    from vision.deck.tracker import DealEvent

load_kv(__file__)
SPREAD = N_("Spread the pile under the camera")
DEAL = N_("Deal the pile face up, one card at a time")


def piles_read(piles, cards, seat: int, seats: int) -> list[list[str]]:
    """The piles so far: those kept, and the one under the camera (``cards``, the draft's
    read) added to ``seat``'s; a card already in another player's pile stays there."""
    have = ([list(p) for p in piles] + [[] for _ in range(seats)])[:seats]
    elsewhere = {c for s, p in enumerate(have) if s != seat for c in p}
    have[seat] = list(dict.fromkeys(have[seat] + [c for c in cards if c not in elsewhere]))
    return have


class VariantCameraScreen(KioskScreen):
    """Owns a :class:`kiosk.ui.pilecamera.PileCamera` (``self.pile``: the camera started and
    stopped with the screen, its status, what a still asks), as the pair game's camera
    screen does, and a :class:`DealThrough` (``self.deal``) shown when the deck is dealt
    through; the draft's cards are those read since the player was chosen, its piles those
    kept."""

    pile = ObjectProperty(None)  # the PileCamera the kv draws
    deal = ObjectProperty(None)  # the DealThrough the kv draws (``dealt``)
    count = StringProperty("")
    dealt = BooleanProperty(False)  # an ordinary deck, dealt face up (else a marked pile, spread)

    def __init__(self, **kwargs):
        pile = PileCamera(kwargs.get("session"), kwargs.get("app"), running=SPREAD,
                          on_deal=lambda event: self._on_deal(event))
        kwargs.setdefault("pile", pile)
        kwargs.setdefault("deal", DealThrough(kwargs.get("app"), service=lambda: pile.service,
                                              cards=self._under_camera, remove=self._forget))
        super().__init__(**kwargs)

    @property
    def scoring(self) -> CameraScoring | None:
        return self.pile.scoring

    def _seat(self) -> int:
        draft = self.session.state.draft
        return draft.seat if draft is not None else 0

    def _under_camera(self) -> list[str]:
        draft = self.session.state.draft
        return list(draft.cards) if draft is not None else []

    def _piles(self) -> list[list[str]]:
        state = self.session.state
        draft = state.draft
        if draft is None or state.game is None:
            return []
        return piles_read(draft.piles, draft.cards, draft.seat, state.game.seats)

    def refresh(self) -> None:
        state = self.session.state
        if state.game is None or state.draft is None:
            return
        piles, seat = self._piles(), self._seat()
        self.dealt = self.app.reads_deck
        self.pile.running = DEAL if self.dealt else SPREAD
        game = VARIANTS[state.game.key]
        fill_seat_piles(self.ids.seats, state, piles, seat, game.deck, self.choose)
        mine = piles[seat]
        cp, tricks = card_points(Card.parse(c) for c in mine), len(mine) // game.trick_size
        self.count = tally(cards=len(mine), card_points=cp, tricks=tricks,
                           total=cp + tricks // game.tricks_per_point)
        if self.dealt:
            self.deal.show_last()

    def stop_camera(self) -> None:
        """The camera's threads stopped and joined (leaving the screen, or the app stopping)."""
        self.pile.stop()

    # ------------------------------------------------------------------ a deal
    def _on_deal(self, event: DealEvent) -> None:
        """UI thread: a deal-through event, after the card it counted (in the draft now)."""
        card = event.card.code if event.card is not None else ""
        deck = {c.code for c in VARIANTS[self.session.state.game.key].deck}
        if event.kind == "counted" and card not in deck:
            self.deal.refuse(card, lambda: _("{card} is not in this game's deck: take it off the pile.").format(
                card=card_words(card)))
        else:
            self.deal.show(event)

    def _forget(self, code: str) -> None:
        """A card lifted off again (or refused): out of the pile being dealt, or, when it is
        not there (the last card of the player before), out of the piles kept."""
        draft = self.session.state.draft
        if draft is None:
            return
        if code in draft.cards:
            self.session.update_draft(cards=[c for c in draft.cards if c != code])
        else:
            self.session.update_draft(piles=[[c for c in p if c != code] for p in draft.piles])

    # ------------------------------------------------------------------ the table's taps
    def _read_again(self) -> None:
        if self.scoring is not None and self.scoring.service is not None:
            self.scoring.service.reset()

    def choose(self, seat: int) -> None:
        """The pile read so far is kept for its player; the camera reads ``seat``'s next (a
        deal goes on: the reader still knows every card counted)."""
        self.session.update_draft(piles=self._piles(), cards=(), seat=seat)
        if not self.dealt:
            self._read_again()

    def again(self) -> None:
        """The pile under the camera read again from nothing. A deal: the cards dealt since
        this player was chosen are forgotten, to be lifted off and dealt again."""
        if self.dealt:
            service = self.pile.service
            for code in reversed(self._under_camera()):  # the last dealt is on top
                if service is not None:
                    service.take_back(Card.parse(code))
            self.session.update_draft(cards=())
            self.deal.show_last()
            seat = self._seat()
            self.deal.tell(lambda: _("Lift {name}'s cards off the pile and deal them again").format(
                name=player_name(self.session.state, seat)))
            return
        piles = self._piles()
        piles[self._seat()] = []
        self.session.update_draft(piles=piles, cards=())
        self._read_again()

    def correct(self) -> None:
        """The card grid with the piles read so far, to fix them card by card."""
        self.session.update_draft(step=Step.SCORE_CARDS, piles=self._piles(), cards=(), source="camera",
                                  evidence=self.pile.evidence)

    def done(self) -> None:
        """OK: the piles are proposed after the reader's last look (``PileCamera.finish_then``)."""
        self.pile.finish_then(self._propose)

    def _propose(self) -> None:
        piles = completed(self._piles(), VARIANTS[self.session.state.game.key].deck)
        self.app.act(self.session.propose, piles_result(piles, source="camera", evidence=self.pile.evidence))

    def on_scan_button(self):
        if self.scoring is None or not self.scoring.request_still():
            self.done()
        return True

    def on_confirm_button(self):
        self.done()
        return True
