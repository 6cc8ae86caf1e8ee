"""``botifarra-kiosk read IMAGE... [--darker IMAGE...] [--json] [--marks aruco|qr]``: the
marked cards in photos.

Prints ``{"images": [{"file": ..., "cards": [...], "asked": [...]}, ...], "cards": [every card
once]}`` with ``--json``, else one line per photo. ``asked``: the places where a card may lie
unread (under the lamp's reflection: vision.asked), each ``{"x", "y", "radius"}`` (image px),
``"why"`` ("glare" or "unread") and, with the mat seen, ``"mat_mm"``: the player moves that card. ``--darker``: for each photo, in order, the same
pile taken at a shorter exposure; a photo that shows glare is then read as the kiosk reads
it (``vision.still.read_still``: both reads merged; the entry says ``"darker": true``).
An unreadable file, or a photo of more than 50 megapixels (its header is read first;
nothing is decoded): exit 2, one line on stderr.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kiosk.commands import fail
from kiosk.commands._imagehead import MAX_PIXELS, image_size


def add_arguments(parser) -> None:
    parser.add_argument("images", nargs="*", metavar="IMAGE", help="photo files")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--marks", choices=("aruco", "qr"), default="aruco",
                        help="codes on the cards (default: aruco)")
    parser.add_argument("--annotate", metavar="DIR",
                        help="also write each photo with what was found drawn on it into DIR")
    parser.add_argument("--darker", nargs="+", metavar="IMAGE",
                        help="the same piles at a shorter exposure, one per photo in order (glare)")
    parser.add_argument("--deck", metavar="NAME", help="an ordinary deck learnt with `deck learn` (no stickers)")
    parser.add_argument("--deal", nargs="+", metavar="FRAME",
                        help="with --deck: video frames, in time order, of the pile dealt face up")
    parser.add_argument("--tricks", nargs="+", metavar="FRAME",
                        help="with --deck: an overhead camera's frames, in time order, of a hand played")
    parser.add_argument("--seats", metavar="SEATS.json", help='with --tricks: {"0": [x, y], ...} each seat\'s place')
    parser.add_argument("--first-lead", type=int, metavar="S", help="with --tricks: the seat that leads trick 1")
    parser.add_argument("--trump", help="with --tricks: the hand's trump (default: from who leads each trick)")
    parser.add_argument("--rules", metavar="PRESET", help="with --tricks: the rules preset (default: reglament)")


def _too_big(name: str) -> str | None:
    """Why the photo ``name`` is refused before decoding (too many pixels), or None."""
    try:
        size = image_size(name)
    except OSError:
        return None  # load_image says why the file cannot be read
    if size is None:
        return None
    width, height = size
    if width * height > MAX_PIXELS:
        return (f"{name}: the image is {width}x{height} ({width * height / 1e6:.0f} megapixels); "
                f"read takes photos of at most {MAX_PIXELS // 1_000_000} megapixels")
    return None


def _asked(ask, homography) -> dict:
    """One place asked about, for JSON: its centre and circle (image px), why, and where on
    the mat (mm from the mat's top-left) when the mat was seen."""
    x, y = ask.centre
    out = {"x": round(x), "y": round(y), "radius": round(ask.radius), "why": ask.why}
    if homography is not None:
        import cv2
        import numpy as np

        mm = cv2.perspectiveTransform(np.float32([[[x, y]]]), homography)[0, 0]
        out["mat_mm"] = [round(float(mm[0])), round(float(mm[1]))]
    return out


def run(args) -> int:
    # before OpenCV is even imported: nothing decoded
    for name in [*args.images, *(args.deal or []), *(args.darker or []), *(args.tricks or [])]:
        refusal = _too_big(name)
        if refusal:
            return fail("read", refusal, 2)
    # and OpenCV's own limit, for formats whose header is not read here
    os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
    if args.tricks:
        from kiosk.commands.read_tricks import run as read_tricks
        return read_tricks(args)
    if args.deck or args.deal:
        from kiosk.commands.deck import read_deal
        return read_deal(args)
    if not args.images:
        return fail("read", "no photo given", 2)
    if args.darker and len(args.darker) != len(args.images):
        return fail("read", f"--darker needs one photo per photo read ({len(args.images)}), "
                            f"not {len(args.darker)}", 2)
    import cv2

    from kiosk.game import DECK
    from vision.errors import ImageError
    from vision.reader import PileReader, load_image
    from vision.still import read_still

    reader = PileReader(args.marks)
    images = []
    try:
        photos = [(name, load_image(name)) for name in args.images]
        darker = [load_image(name) for name in args.darker or []]
    except ImageError as exc:
        return fail("read", exc, 2)
    seen = set()
    for k, (name, img) in enumerate(photos):
        readout = read_still(reader, img, (lambda k=k: darker[k]) if darker else None)
        result = readout.result
        seen.update(result.cards)
        entry = {"file": name, "cards": result.codes}
        if readout.darker:
            entry["darker"] = True
        entry["asked"] = [_asked(a, result.homography) for a in result.asked]
        problems = [p.message for p in result.problems if p.kind != "mat_not_found"]
        if problems:
            entry["problems"] = problems
        images.append(entry)
        if args.annotate:
            out = Path(args.annotate)
            out.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / (Path(name).stem + "_read.jpg")), result.annotate(img))
    cards = [c.code for c in DECK if c in seen]
    if args.json:
        print(json.dumps({"images": images, "cards": cards}, ensure_ascii=False))
    else:
        for entry in images:
            print(f"{entry['file']}: {len(entry['cards'])} cards: {' '.join(entry['cards'])}")
            for p in entry.get("problems", []):
                print(f"  ! {p}")
            for a in entry["asked"]:
                print(f"  ? a card at ({a['x']}, {a['y']}) cannot be read ({a['why']}): move it")
        if len(images) > 1:
            print(f"all: {len(cards)} cards: {' '.join(cards)}")
    return 0
