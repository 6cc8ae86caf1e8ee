"""What a camera service is to the kiosk, whatever reads the cards.

Two services read a pile: the sticker reader (:class:`vision.service.StickerService`: marked
cards spread out, read whole) and the deal-through reader
(:class:`vision.deck.service.DealService`: an ordinary deck dealt face up, one card at a
time). Both are a :class:`CameraService`, and both report each read to ``on_cards`` as one
:class:`CardsRead`, on their own thread::

    source -> capture thread -> on_frame(Frame)          (the preview)
           -> reading thread -> on_cards(CardsRead)      (the cards counted new, what was seen)
                             -> on_status(str)           (vision.sources' statuses)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Protocol

from kiosk.game import Card

if TYPE_CHECKING:  # (OpenCV and numpy are imported only where a camera runs)
    import numpy as np

    from vision.deck.tracker import DealEvent
    from vision.result import ReadResult
    from vision.sources import Frame
    from vision.still import StillRead


@dataclass(frozen=True)
class CardsRead:
    """One read of a camera service: ``new`` the cards it counted for the first time
    (each card once per pile); ``result`` the sticker reader's read of the frame (what the
    preview draws), or ``deal`` the deal-through reader's event (a card counted, taken
    back, or what it asks of the dealer). Exactly one of ``result`` and ``deal`` is set."""

    new: tuple[Card, ...] = ()
    result: ReadResult | None = None
    deal: DealEvent | None = None

    @property
    def codes(self) -> tuple[str, ...]:
        """The new cards' codes ("1O", "12E"), as the table session takes them."""
        return tuple(card.code for card in self.new)


OnCards = Callable[[CardsRead], None]
OnFrame = Callable[["Frame"], None]
OnStatus = Callable[[str], None]
OnStill = Callable[["StillRead", list[Card]], None]


class CameraService(Protocol):
    """A source and a reader on their own threads; callbacks come on those threads, never
    on the UI's (``on_frame``, ``on_cards``, ``on_status`` are given when it is made).

    ``latest_frame`` is the newest frame taken; ``status`` the source's
    (``vision.sources.RUNNING``, ``NO_CAMERA``...); ``reset()`` starts a new pile; ``request_still()``
    takes a full-resolution still now (False: this service takes none); ``finish()``: the
    table says the pile is done, a last look at the latest frame whose reads come through
    ``on_cards`` before it returns (False: nothing was handed on); ``evidence()`` is
    the photo to keep with the hand (BGR), or None.
    """

    latest_frame: Frame | None

    @property
    def status(self) -> str: ...

    def start(self) -> CameraService: ...

    def stop(self) -> None: ...

    def reset(self) -> None: ...

    def request_still(self) -> bool: ...

    def finish(self) -> bool: ...

    def evidence(self, *, problems=()) -> np.ndarray | None: ...


class CameraFactory(Protocol):
    """Makes the table's camera service (``kiosk.commands.run.camera_factory``): the sticker
    reader, the deal-through reader of the set deck, or with ``frames_only`` the frames alone
    (learning a deck). Stills and the light around them are the sticker reader's."""

    def __call__(self, *, on_frame: OnFrame | None = None, on_cards: OnCards | None = None,
                 on_status: OnStatus | None = None, on_still: OnStill | None = None,
                 light: Callable[[bool], None] | None = None,
                 frames_only: bool = False) -> CameraService: ...
