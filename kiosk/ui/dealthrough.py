"""What a deal-through read of an ordinary deck says to the table (``camera.marks =
deck:NAME``): the card just counted, named large with a tick; what the reader asks for
("ja comptada", show it again, one at a time, move it out of the reflection, show the card
under the one counted); and "Treu
l'última". Owned by the screens that read a deal (the pair game's deal screen; the
per-player camera screen of the games without pairs), each beside its
:class:`kiosk.ui.pilecamera.PileCamera`, which runs the camera and hands the reader's events
over on the UI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from kivy.event import EventDispatcher
from kivy.properties import BooleanProperty, StringProperty

from kiosk.game import Card
from kiosk.game.cards import RANK_NAMES
from kiosk.ui.i18n import N_, _

if TYPE_CHECKING:
    from vision.camera import CameraService
    from vision.deck.tracker import DealEvent

SUIT_NAMES = {"O": N_("oros"), "C": N_("copes"), "E": N_("espases"), "B": N_("bastos")}
ASKS = {
    "already_counted": N_("{card}: already counted. Take it off the pile."),
    "show_again": N_("Not sure which card this is: lift it and lay it down again."),
    "two_cards": N_("Two cards at once: deal them one at a time."),
    "card_under": N_("{card} counted. One under it went unseen: lift it, lay the one under again, then it on top."),
    "glare": N_("A reflection on the card: move it until it no longer shines."),
}


def card_words(code: str, *, named: bool = True) -> str:
    """"1 oros (as)": the rank, the suit and (``named``) the card's name."""
    card = Card.parse(code)
    name = RANK_NAMES.get(card.rank) if named else None
    words = f"{card.rank} {_(SUIT_NAMES[card.suit.letter])}"
    return f"{words} ({name})" if name else words


class DealThrough(EventDispatcher):
    """The deal as the table sees it.

    Args:
        app: the :class:`kiosk.ui.app.KioskApp` (the hardware's cues).
        service: the camera service now reading (``PileCamera.service``), or None.
        cards: the cards counted so far that "Traieu l'última" can take back, in dealing order.
        remove: forget one of them (lifted off the pile again).

    Example::

        deal = DealThrough(app, service=lambda: pile.service, cards=lambda: pile.cards,
                           remove=pile.remove)
        deal.show(event)     # each reader event, on the UI thread
        deal.take_back()     # "Traieu l'última"
    """

    last_card = StringProperty("")  # the card just counted, in words
    ticked = BooleanProperty(False)  # ... and counted (not asked about)
    ask = StringProperty("")  # what the reader asks of the player, or ""
    take_back_text = StringProperty("")  # the button names the card it takes back ...
    can_take_back = BooleanProperty(False)  # ... while there is one (a double tap takes one)

    def __init__(self, app, *, service: Callable[[], CameraService | None],
                 cards: Callable[[], Sequence[str]], remove: Callable[[str], None]) -> None:
        super().__init__()
        self.app = app
        self._service, self._cards, self._remove = service, cards, remove
        self._asking: Callable[[], str] | None = None  # the ask's words, in the language of the moment

    def show_last(self) -> None:
        """The last card counted, and the ask in the kiosk's language (the screen is shown, the
        draft changed, or the language changed while the ask is shown)."""
        self.ask = self._asking() if self._asking is not None else ""
        cards = self._cards()
        self.last_card = card_words(cards[-1]) if cards else ""
        self.ticked = self.can_take_back = bool(cards)
        self.take_back_text = _("Take back {card}").format(card=card_words(cards[-1], named=False)) \
            if cards else ""

    def show(self, event: DealEvent) -> None:
        """UI thread: what the reader saw, handed over after the cards it counted."""
        kind, card = event.kind, event.card.code if event.card is not None else ""
        if kind == "counted":
            self.tell(None)
            self.show_last()
            self.last_card, self.ticked = card_words(card), True
        elif kind == "taken_back" and card:
            self._remove(card)
            self.show_last()
        elif kind in ASKS:
            self.say(lambda: _(ASKS[kind]).format(card=card_words(card) if card else ""))
        elif kind == "hand":
            self.tell(None)

    def tell(self, words: Callable[[], str] | None) -> None:
        """Show ``words()`` as the ask (None: no ask). ``words`` gives the text in the kiosk's
        language of the moment, so a language changed while it is shown says it again."""
        self._asking = words
        self.ask = words() if words is not None else ""

    def say(self, words: Callable[[], str]) -> None:
        """Ask the player something about the card just dealt (with the error cue)."""
        self.ticked = False
        self.tell(words)
        self.app.hardware.feedback("error")

    def refuse(self, code: str, why: Callable[[], str]) -> None:
        """A card counted that cannot be kept: the reader forgets it, the player takes it off."""
        service = self._service()
        if service is not None:
            service.take_back(Card.parse(code))
        self._remove(code)
        self.show_last()
        self.say(why)

    def take_back(self) -> None:
        """"Traieu l'última": forget the last card (the player lifts it off the pile)."""
        cards = self._cards()
        if not cards:
            return
        service = self._service()
        if service is not None:
            service.take_back(Card.parse(cards[-1]))
        self._remove(cards[-1])
        self.show_last()
        self.tell(lambda: _("Lift the last card off the pile"))
