"""A Spanish deck drawn in code (two styles) and a camera over a bar table, for the
ordinary-deck tests and benchmark: enrolment photos (one card on the mat) and dealing
sequences (a hand brings each card onto a face-up pile, moves away; motion blur, light
gradient, colour cast, sensor noise, JPEG).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from kiosk.game import DECK, Card, Suit

P = 6.0  # texture px per mm
CW, CH = 61.0, 95.0
COLOURS = {  # style -> suit -> BGR
    "A": {Suit.OROS: (30, 170, 225), Suit.COPES: (40, 40, 200), Suit.ESPASES: (170, 90, 30),
          Suit.BASTOS: (40, 120, 40)},
    "B": {Suit.OROS: (20, 140, 200), Suit.COPES: (60, 30, 160), Suit.ESPASES: (140, 60, 60),
          Suit.BASTOS: (30, 90, 70)},
}
BREAKS = {Suit.OROS: 0, Suit.COPES: 1, Suit.ESPASES: 2, Suit.BASTOS: 3}
# pip layouts on a 3-column grid, in card mm, for ranks 1-9
_COLS = (18.0, 30.5, 43.0)
_ROWS = (24.0, 36.0, 47.5, 59.0, 71.0)


def _pips(rank: int) -> list[tuple[float, float]]:
    layouts = {
        1: [(1, 2)], 2: [(1, 0), (1, 4)], 3: [(1, 0), (1, 2), (1, 4)],
        4: [(0, 0), (2, 0), (0, 4), (2, 4)], 5: [(0, 0), (2, 0), (1, 2), (0, 4), (2, 4)],
        6: [(0, 0), (2, 0), (0, 2), (2, 2), (0, 4), (2, 4)],
        7: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2), (0, 4), (2, 4)],
        8: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 3), (2, 3), (0, 4), (2, 4)],
        9: [(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2), (0, 4), (1, 4), (2, 4)],
    }
    return [(_COLS[c], _ROWS[r]) for c, r in layouts[rank]]


def _pip(img, suit: Suit, x: float, y: float, size: float, colour) -> None:
    c = (int(x * P), int(y * P))
    s = int(size * P)
    if suit is Suit.OROS:
        cv2.circle(img, c, s, colour, -1, cv2.LINE_AA)
        cv2.circle(img, c, s // 2, (60, 60, 60), 2, cv2.LINE_AA)
    elif suit is Suit.COPES:
        cv2.ellipse(img, (c[0], c[1] - s // 3), (s, s // 2), 0, 0, 180, colour, -1, cv2.LINE_AA)
        cv2.rectangle(img, (c[0] - s // 5, c[1]), (c[0] + s // 5, c[1] + s), colour, -1)
    elif suit is Suit.ESPASES:
        cv2.line(img, (c[0] - s // 2, c[1] + s), (c[0] + s // 2, c[1] - s), colour, max(3, s // 3), cv2.LINE_AA)
        cv2.line(img, (c[0] - s // 2, c[1] - s // 3), (c[0] + s // 3, c[1] + s // 3), colour, 3, cv2.LINE_AA)
    else:
        cv2.line(img, (c[0] - s // 2, c[1] - s), (c[0] + s // 2, c[1] + s), colour, max(5, s // 2), cv2.LINE_AA)
        cv2.circle(img, (c[0] - s // 2, c[1] - s), s // 3, colour, -1, cv2.LINE_AA)


@lru_cache(maxsize=200)
def face(card: Card, style: str = "A") -> np.ndarray:
    """The card's face texture (BGR, P px/mm)."""
    w, h = int(CW * P), int(CH * P)
    paper = (236, 240, 243) if style == "A" else (222, 232, 240)
    img = np.full((h, w, 3), paper, np.uint8)
    col = COLOURS[style][card.suit]
    inset = 3.0 if style == "A" else 4.5
    x0, y0, x1, y1 = int(inset * P), int(inset * P), w - int(inset * P), h - int(inset * P)
    cv2.rectangle(img, (x0, y0), (x1, y1), col, 3)
    for k in range(BREAKS[card.suit]):  # the border breaks ("pauses") that tell the suit
        yy = int((38 + 7 * k) * P)
        cv2.line(img, (x0, yy), (x0, yy + int(4 * P)), paper, 6)
        cv2.line(img, (x1, h - yy), (x1, h - yy - int(4 * P)), paper, 6)
    font = cv2.FONT_HERSHEY_DUPLEX if style == "A" else cv2.FONT_HERSHEY_TRIPLEX
    text = str(card.rank)
    for rot in (False, True):
        patch = np.full((int(14 * P), int(14 * P), 3), paper, np.uint8)
        cv2.putText(patch, text, (int(1 * P), int(11 * P)), font, 1.5 if len(text) == 1 else 1.15, col, 3,
                    cv2.LINE_AA)
        if rot:
            patch = cv2.rotate(patch, cv2.ROTATE_180)
            img[h - int(5 * P) - patch.shape[0]:h - int(5 * P), w - int(5 * P) - patch.shape[1]:w - int(5 * P)] = patch
        else:
            img[int(5 * P):int(5 * P) + patch.shape[0], int(5 * P):int(5 * P) + patch.shape[1]] = patch
    if card.rank <= 9:
        size = 4.2 if style == "A" else 3.6
        for x, y in _pips(card.rank):
            _pip(img, card.suit, x if style == "A" else CW - x, y, size, col)
    else:  # a figure: body, head, and what it holds; sota stands, cavall rides, rei crowned
        body = {10: (20, 34, 42, 80), 11: (14, 44, 48, 80), 12: (18, 30, 44, 82)}[card.rank]
        shade = tuple(int(v * 0.6) for v in col)
        cv2.rectangle(img, (int(body[0] * P), int(body[1] * P)), (int(body[2] * P), int(body[3] * P)), shade, -1)
        head = (int(31 * P), int((body[1] - 6) * P))
        cv2.circle(img, head, int(5 * P), (150, 180, 230), -1, cv2.LINE_AA)
        if card.rank == 12:
            pts = np.int32([[25, body[1] - 11], [28, body[1] - 17], [31, body[1] - 12], [34, body[1] - 17],
                            [37, body[1] - 11]]) * P
            cv2.fillPoly(img, [pts.astype(np.int32)], (0, 200, 230))
        if card.rank == 11:
            cv2.ellipse(img, (int(31 * P), int(70 * P)), (int(20 * P), int(9 * P)), 0, 0, 360, (60, 90, 140), -1)
        stripes = 2 + card.rank - 10
        for k in range(stripes):
            yy = int((body[1] + 8 + 10 * k) * P)
            cv2.line(img, (int(body[0] * P), yy), (int(body[2] * P), yy), (230, 230, 230), 4)
        _pip(img, card.suit, 47 if style == "A" else 14, 30, 3.5, col)
    return img


@lru_cache(maxsize=4)
def _mask() -> np.ndarray:
    w, h = int(CW * P), int(CH * P)
    m = np.zeros((h, w), np.uint8)
    r = int(3 * P)
    cv2.rectangle(m, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(m, (0, r), (w, h - r), 255, -1)
    for c in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(m, c, r, 255, -1)
    return m


@dataclass(frozen=True)
class Light:
    """How the table is lit: overall gain, a left-right gradient, a colour cast, noise."""

    gain: float = 1.0
    gradient: float = 0.15
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)
    noise: float = 3.0


SECOND_LIGHT = Light(gain=0.8, gradient=0.3, cast=(0.9, 1.0, 1.1), noise=4.0)


def _mat(size: tuple[int, int], seed: int) -> np.ndarray:
    return _felt(size, seed).copy()


@lru_cache(maxsize=4)
def _felt(size: tuple[int, int], seed: int) -> np.ndarray:
    """The bare felt (drawn once for a size and seed: every photo and deal starts from it)."""
    w, h = size
    rng = np.random.default_rng(1000 + seed)
    felt = np.full((h, w, 3), (50, 95, 40), np.float32)
    felt += rng.normal(0, 4, (h // 8 + 1, w // 8 + 1, 1)).repeat(8, 0).repeat(8, 1)[:h, :w]
    felt.setflags(write=False)
    return felt


def _paste(dst: np.ndarray, card: Card, style: str, centre, angle_deg: float, px_mm: float) -> None:
    tex = face(card, style)
    k = px_mm / P
    h, w = dst.shape[:2]
    r = int(0.5 * np.hypot(CW, CH) * px_mm) + 4
    x0, y0 = max(0, int(centre[0]) - r), max(0, int(centre[1]) - r)
    x1, y1 = min(w, int(centre[0]) + r), min(h, int(centre[1]) + r)
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getRotationMatrix2D((tex.shape[1] / 2, tex.shape[0] / 2), angle_deg, k)
    m[0, 2] += centre[0] - tex.shape[1] / 2 - x0
    m[1, 2] += centre[1] - tex.shape[0] / 2 - y0
    size = (x1 - x0, y1 - y0)
    roi = dst[y0:y1, x0:x1]
    warped = cv2.warpAffine(tex, m, size, flags=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.warpAffine(_mask(), m, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    # a faint shadow on the right/bottom edge so a card on a card has an outline
    shadow = cv2.warpAffine(_mask(), m + np.float32([[0, 0, 2], [0, 0, 2]]), size).astype(np.float32)[..., None] / 255
    roi *= 1 - 0.25 * (shadow * (1 - alpha))
    roi[:] = roi * (1 - alpha) + warped * alpha


def _hand(dst: np.ndarray, tip, from_edge: str) -> None:
    h, w = dst.shape[:2]
    skin = (120, 150, 205)
    tip = (int(tip[0]), int(tip[1]))
    if from_edge == "bottom":
        root = (tip[0] + w // 10, h + 40)
    else:
        root = (w + 40, tip[1] + h // 10)
    cv2.line(dst, root, tip, skin, int(0.09 * w), cv2.LINE_AA)
    cv2.ellipse(dst, tip, (int(0.05 * w), int(0.04 * w)), 30, 0, 360, tuple(v * 0.9 for v in skin), -1, cv2.LINE_AA)


@lru_cache(maxsize=2)
def _noise_bank(shape: tuple[int, ...]) -> np.ndarray:
    return np.random.default_rng(7).standard_normal((shape[0] + 64, shape[1] + 64, 3)).astype(np.float32)


def _noise(shape, rng: np.random.Generator) -> np.ndarray:
    """Unit sensor noise, a random window of a fixed bank (drawing fresh noise for every
    pixel of every frame would dominate the time of a test)."""
    bank = _noise_bank(tuple(shape[:2]))
    dy, dx = rng.integers(0, 64, 2)
    return bank[dy:dy + shape[0], dx:dx + shape[1]]


def camera(scene: np.ndarray, light: Light, rng: np.random.Generator, *, blur: float = 0.0,
           jpeg: int = 88) -> np.ndarray:
    h, w = scene.shape[:2]
    ramp = 1.0 - light.gradient / 2 + light.gradient * np.linspace(0, 1, w, dtype=np.float32)
    # (each pixel's channels in one row of w * 3, the ramp and the cast repeated along it: the
    # same float32 products in the same order, the same pixels, without numpy's loop over
    # 3 channels at a time)
    img = scene.reshape(h, w * 3) * np.repeat(ramp, 3)[None, :]
    img *= light.gain
    img *= np.tile(np.float32(light.cast), w)[None, :]
    img = img.reshape(h, w, 3)
    if blur > 0:  # the motion's smear along the rows: a 1 x k kernel (a k x k one with only its
        # middle row set is the same filter, but OpenCV takes kernels from 11 x 11 through a
        # DFT over the whole frame, seven times slower: 14 of 2.8 M values one level apart)
        k = int(blur) * 2 + 1
        kernel = np.full((1, k), 1.0 / k, np.float32)
        img = cv2.filter2D(img, -1, kernel)
    img = cv2.GaussianBlur(img, (3, 3), 0.7)
    img += _noise(img.shape, rng) * light.noise
    img = np.clip(img, 0, 255, out=img).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def enrol_photo(card: Card, *, style: str = "A", seed: int = 0, size=(1280, 720), px_mm: float = 1.8,
                light: Light = Light(), centre=None) -> np.ndarray:
    """The camera's whole frame with ``card`` face up on the mat."""
    rng = np.random.default_rng(seed * 100 + DECK.index(card))
    scene = _mat(size, seed)
    c = centre or (size[0] / 2 + rng.uniform(-40, 40), size[1] / 2 + rng.uniform(-30, 30))
    _paste(scene, card, style, c, rng.uniform(-8, 8), px_mm)
    return camera(scene, light, rng)


def enrol_folder(folder, *, style: str = "A", seed: int = 0, size=(1280, 720), px_mm: float = 1.8,
                 light: Light = Light(), cards=DECK) -> None:
    for card in cards:
        cv2.imwrite(str(folder / f"{card.code}.jpg"), enrol_photo(card, style=style, seed=seed, size=size,
                                                                   px_mm=px_mm, light=light))


@dataclass
class Deal:
    frames: list[np.ndarray]
    cards: list[Card]


def deal(cards: list[Card], *, style: str = "A", seed: int = 0, size=(1280, 720), px_mm: float = 1.8,
         light: Light = Light(), hover_frames: int = 2, still: int = 4, pairs: tuple[int, ...] = (),
         stained: tuple[int, ...] = (), relaid: tuple[int, ...] = (), under: tuple[int, ...] = (),
         answer: str = "plain") -> Deal:
    """Frames (about 10 per card, 10 fps) of a hand dealing ``cards`` face up onto a pile.
    Card indices in ``pairs`` are dealt together with the next card, offset (two at once).
    Card indices in ``stained`` land with a stain of beer over their middle (no deck
    reader can be sure of such a card); then the player, asked, lifts the card, wipes it
    and lays it down again a few mm off, as another deal. Card indices in ``relaid`` are
    laid down clean, then lifted and laid down again a few mm off (squaring the pile).
    Card indices in ``under`` lie still one frame only before the next card covers them (no
    reader looks at a card so brief); once the next card lies still, the player answers the
    reader's "card under" ask: lifts that card off, lays the one under it again a few mm off,
    then lays the lifted card back on top, a few mm off its old place. ``answer``: "plain";
    "linger" (the dealer's hand rests at the view's edge, still, in the covered card's one
    still frame); "glint" (a lamp's soft reflection on the pile moves while the top card is
    off, and stays where it moved)."""
    rng = np.random.default_rng(seed)
    w, h = size
    table = _mat(size, seed)
    pile = (w * 0.5, h * 0.5)
    glint = [(w * 0.46, h * 0.42)] if under and answer == "glint" else []  # (where the lamp's reflection lies)

    def snap(scene: np.ndarray, blur: float = 0.0) -> np.ndarray:
        return camera(_glinted(scene, glint[-1], w) if glint else scene, light, rng, blur=blur)

    frames = [snap(table) for _ in range(still)]  # the empty mat first

    def lay(group: list[Card], c, ang: float, stain: bool = False, brief: bool = False, brisk: bool = False) -> str:
        nonlocal table
        edge = "bottom" if rng.random() < 0.5 else "right"
        start = (c[0] + 0.05 * w, h * 1.05) if edge == "bottom" else (w * 1.05, c[1] + 0.05 * h)
        for t in (0.7,) if brisk else (0.0, 0.35, 0.7):  # the card travels in the hand, blurred (one frame: brisk)
            p = (start[0] + (c[0] - start[0]) * t, start[1] + (c[1] - start[1]) * t)
            s = table.copy()
            _paste(s, group[0], style, p, ang + 20 * (1 - t), px_mm)
            _hand(s, (p[0] + 0.03 * w, p[1] + 0.05 * h), edge)
            frames.append(snap(s, blur=6))
        _paste(table, group[0], style, c, ang, px_mm)
        if len(group) > 1:
            _paste(table, group[1], style, (c[0] + 0.04 * w, c[1] + 0.05 * h), ang + 25, px_mm)
        if stain:
            wet = table.copy()
            cv2.ellipse(wet, (int(c[0]), int(c[1])), (int(20 * px_mm), int(33 * px_mm)), ang, 0, 360,
                        (40, 90, 140), -1, cv2.LINE_AA)
            table = wet
        for k in range(hover_frames):  # the hand still over the pile's edge
            s = table.copy()
            _hand(s, (c[0] + 0.04 * w, c[1] + 0.08 * h - k), edge)
            frames.append(snap(s, blur=1 if k else 3))
        s = table.copy()
        resting = brief and answer == "linger"  # (the hand rests at the view's edge, still)
        going = (c[0] + 0.1 * w, c[1] + 0.25 * h)
        _hand(s, (c[0] + 0.3 * w, c[1] + 0.1 * h) if resting and edge == "right" else going, edge)
        frames.append(snap(s, blur=0 if resting else 8))
        if brief:  # (one still frame, the hand resting at the view's edge when it lingers, then the next card)
            frames.append(snap(s if resting else table))
            return edge
        for _ in range(still):
            frames.append(snap(table))
        return edge

    i = 0
    while i < len(cards):
        c = (pile[0] + rng.uniform(-0.02, 0.02) * w, pile[1] + rng.uniform(-0.03, 0.03) * h)
        ang = rng.uniform(-12, 12)
        group = cards[i:i + 2] if i in pairs else cards[i:i + 1]
        if i in stained or i in relaid:
            before = table.copy()
            lay(group, c, ang, stain=i in stained)
            table = before  # lifted off under the hand, wiped ...
            c = (c[0] + rng.uniform(-8, 8), c[1] + rng.uniform(-8, 8))  # ... and laid down again
            ang += rng.uniform(-5, 5)
        if i in under and i + 1 < len(cards):
            below = table.copy()
            lay(group, c, ang, brief=True)
            over = table.copy()
            # (squared on it: the reader's look sees one card's outline, the one under it hidden)
            top_c, top_ang = (c[0] + rng.uniform(-3, 3), c[1] + rng.uniform(-3, 3)), ang + rng.uniform(-2, 2)
            edge = lay([cards[i + 1]], top_c, top_ang, brisk=True)
            # the answer: the top card lifted off and carried away in the hand ...
            for k in range(2):
                s = table.copy()
                _hand(s, (top_c[0] + 0.03 * w, top_c[1] + 0.05 * h - 2 * k), edge)
                frames.append(snap(s, blur=3 - 2 * k))
            table = over
            if glint:
                glint.append((w * 0.53, h * 0.55))  # (the lamp swayed meanwhile)
            away = (top_c[0] + 0.05 * w, h * 1.05) if edge == "bottom" else (w * 1.05, top_c[1] + 0.05 * h)
            for t in (0.3, 0.65):
                p = (top_c[0] + (away[0] - top_c[0]) * t, top_c[1] + (away[1] - top_c[1]) * t)
                s = table.copy()
                _paste(s, cards[i + 1], style, p, top_ang + 20 * t, px_mm)
                _hand(s, (p[0] + 0.03 * w, p[1] + 0.05 * h), edge)
                frames.append(snap(s, blur=6))
            for _ in range(still):
                frames.append(snap(table))
            # ... the one under it laid again a few mm off, then the top card back on it
            table = below
            lay(group, (c[0] + rng.uniform(-8, 8), c[1] + rng.uniform(-8, 8)), ang + rng.uniform(-5, 5), brisk=True)
            lay([cards[i + 1]], (top_c[0] + rng.uniform(-8, 8), top_c[1] + rng.uniform(-8, 8)),
                top_ang + rng.uniform(-5, 5))
            i += 2
            continue
        lay(group, c, ang)
        i += len(group)
    return Deal(frames, list(cards))


def _glinted(scene: np.ndarray, at, w: int) -> np.ndarray:
    """``scene`` under a lamp's soft reflection at ``at`` (a broad glow, short of clipping the card's paper)."""
    return scene + _glow(scene.shape[0], w, tuple(at))[..., None]


@lru_cache(maxsize=4)
def _glow(h: int, w: int, at: tuple[float, float]) -> np.ndarray:
    """The reflection's glow (drawn once for its place: every frame of a deal under it adds the same)."""
    ys, xs = np.ogrid[:h, :w]
    r = 0.09 * w
    glow = 28.0 * np.exp(-(((xs - at[0]) ** 2 + (ys - at[1]) ** 2) / (2 * r * r)), dtype=np.float32)
    glow.setflags(write=False)
    return glow


@lru_cache(maxsize=4)
def learnt(style: str = "A", light: Light = Light(), cards: tuple[Card, ...] = tuple(DECK)):
    """A deck model learnt from drawn enrolment photos (kept for the process, and on disk in
    the realistic camera's cache for the other test processes: saved and loaded as the kiosk
    keeps a learnt deck, under the drawing's and the learning's own source)."""
    import hashlib
    from pathlib import Path

    import vision.deck
    from tests.realcam.dataset import cache_dir
    from vision.deck.store import load_model, save_model

    key = hashlib.sha1(repr((style, light, tuple(c.code for c in cards))).encode())
    for f in [Path(__file__)] + sorted(Path(vision.deck.__file__).parent.glob("*.py")):
        key.update(f.read_bytes())
    path = cache_dir() / "deckdraw" / f"deck{style}-{key.hexdigest()[:16]}.npz"
    if path.exists():
        return load_model(path)
    model = _learnt(style, light, cards)
    try:
        save_model(model, path)  # (written whole under a temporary name, then renamed)
    except OSError:
        pass
    return model


def _learnt(style: str, light: Light, cards: tuple[Card, ...]):
    from vision.deck.model import DeckModel
    photos, sizes = {}, []
    for card in cards:
        image = enrol_photo(card, style=style, light=light)
        quad, size = _learnt_photo(card, style, light, image)
        photos[card] = (image, quad)
        sizes.append(size)
    return DeckModel.learn(f"deck{style}", photos, card_long_frac=float(np.median(sizes[:3])))


_learnt_photos: dict[tuple[Card, str, Light], tuple[np.ndarray, float]] = {}


def _learnt_photo(card: Card, style: str, light: Light, image: np.ndarray) -> tuple[np.ndarray, float]:
    """``learn_photo`` of ``card``'s enrolment photo (the same photo for the same card, style and
    light), found once for the process: a deck learnt again without a card finds it again."""
    from vision.deck.store import learn_photo
    if (card, style, light) not in _learnt_photos:
        _learnt_photos[card, style, light] = learn_photo(image)
    return _learnt_photos[card, style, light]


def run_tracker(model, frames, **options):
    """Feed ``frames`` to a fresh tracker; the tracker and every event."""
    from vision.deck.tracker import DealTracker
    tracker = DealTracker(model, **options)
    events = []
    for frame in frames:
        events += tracker.feed(frame)
    return tracker, events
