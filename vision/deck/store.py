"""Decks kept by name: one ``NAME.npz`` file each in a folder the kiosk chooses.

The file holds plain arrays and a JSON header (never pickles), so a deck exported on one
kiosk can be imported on another. Learning from photos: one photo per card, named by its
code (``9O.jpg``, ``12C.png``), each the camera's whole frame with one card face up on the
mat.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import cv2
import numpy as np

from kiosk.game import DECK, Card
from vision.deck.errors import DeckError, DeckNotFoundError, EnrolmentError
from vision.deck.learnspot import find_card_on_mat
from vision.deck.model import DeckModel
from vision.deck.views import order_quad

# 2: outlines fitted to the edge points that agree, the paper made grey before its colours
# are taken. A deck of another format holds other features: it is learnt again.
FORMAT = 2
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$")
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


def check_name(name: str) -> str:
    if not NAME_RE.match(name or ""):
        raise DeckError(f"deck name {name!r}: use letters, digits, '-', '_' or '.' (up to 40)")
    return name


def save_model(model: DeckModel, path: Path) -> None:
    header = json.dumps({"format": FORMAT, "name": model.name, "codes": model.codes,
                         "card_long_frac": model.card_long_frac})
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".npz.part")
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(f, header=np.array(header), whole=model.whole, corners=model.corners)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_model(path: Path, *, name: str | None = None) -> DeckModel:
    try:
        with np.load(path, allow_pickle=False) as data:
            header = json.loads(str(data["header"]))
            whole, corners = data["whole"], data["corners"]
    except FileNotFoundError:
        raise DeckNotFoundError(f"no deck file {path}") from None
    except (OSError, ValueError, KeyError) as exc:
        raise DeckError(f"{path} is not a deck file: {exc}") from None
    if header.get("format") != FORMAT:
        raise DeckError(f"{path}: deck format {header.get('format')!r} is not {FORMAT}: learn the deck again")
    return DeckModel(name or header["name"], header["codes"], whole, corners,
                     card_long_frac=header.get("card_long_frac", 0.0))


class DeckStore:
    """The decks in ``folder`` (the kiosk passes ``kiosk.paths.decks_dir()``)."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def path(self, name: str) -> Path:
        return self.folder / f"{check_name(name)}.npz"

    def names(self) -> list[str]:
        if not self.folder.is_dir():
            return []
        return sorted(p.stem for p in self.folder.glob("*.npz"))

    def load(self, name: str) -> DeckModel:
        path = self.path(name)
        if not path.exists():
            raise DeckNotFoundError(f"no deck named {name}")
        return load_model(path, name=name)

    def save(self, model: DeckModel) -> Path:
        path = self.path(model.name)
        save_model(model, path)
        return path

    def remove(self, name: str) -> None:
        path = self.path(name)
        if not path.exists():
            raise DeckNotFoundError(f"no deck named {name}")
        path.unlink()

    def export(self, name: str, dest: Path | str) -> Path:
        dest = Path(dest)
        if dest.is_dir():
            dest = dest / f"{name}.npz"
        save_model(self.load(name), dest)
        return dest

    def import_(self, source: Path | str, *, name: str | None = None) -> DeckModel:
        model = load_model(Path(source))
        if name:
            model.name = check_name(name)
        check_name(model.name)
        self.save(model)
        return model


def learn_photo(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The card's quadrilateral in one enrolment photo and its long side over the frame width."""
    quad = order_quad(find_card_on_mat(image))
    long_side = float(np.linalg.norm(quad[1] - quad[2]))
    return quad, long_side / image.shape[1]


def learn_folder(name: str, folder: Path | str) -> DeckModel:
    """A deck from one photo per card named by its code. Raises :class:`EnrolmentError`
    naming the first card that is missing, unreadable or not found. Pairs that look alike
    (maybe the same card twice): ``model.similar_pairs()``."""
    check_name(name)
    folder = Path(folder)
    if not folder.is_dir():
        raise EnrolmentError(f"{folder} is not a folder")
    photos: dict[Card, Path] = {}
    for p in sorted(folder.iterdir()):
        if p.suffix.lower() in PHOTO_SUFFIXES:
            try:
                photos[Card.parse(p.stem)] = p
            except ValueError:
                continue
    missing = [c.code for c in DECK if c not in photos]
    if missing:
        raise EnrolmentError(f"{len(missing)} cards have no photo: {' '.join(missing)}", code=missing[0])
    photos_quads, sizes = {}, []
    for card in DECK:
        image = cv2.imread(str(photos[card]), cv2.IMREAD_COLOR)
        if image is None:
            raise EnrolmentError(f"{photos[card].name} cannot be read as an image", code=card.code)
        try:
            quad, size = learn_photo(image)
            photos_quads[card] = (image, quad)
        except EnrolmentError as exc:
            raise EnrolmentError(f"{photos[card].name}: {exc}", code=card.code, reason=exc.reason,
                                 where=exc.where) from None
        sizes.append(size)
    return DeckModel.learn(name, photos_quads, card_long_frac=float(np.median(sizes)))
