"""The kiosk's ordinary decks (no stickers): the deck store in its data directory.

Kivy-free and below the commands and the screens, which both open it: the ``deck``
command learns, lists and shares decks; the learn-deck screen adds one under the camera.
"""

from __future__ import annotations

from kiosk import paths
from vision.deck.store import DeckStore


def deck_store() -> DeckStore:
    """The decks learnt on this kiosk (``NAME.npz`` in :func:`kiosk.paths.decks_dir`)."""
    return DeckStore(paths.decks_dir())
