"""``botifarra-kiosk kit --out DIR [--marks aruco|qr]``: the printable marked-deck kit."""

from __future__ import annotations

from kiosk.commands import fail


def add_arguments(parser) -> None:
    parser.add_argument("--out", required=True, metavar="DIR", help="folder to write the kit into")
    parser.add_argument("--marks", choices=("aruco", "qr"), default="aruco",
                        help="codes on the stickers (default: aruco)")
    parser.add_argument("--sticker-mm", type=float, default=14.0,
                        help="printed sticker side in mm (6-14, default 14)")


def run(args) -> int:
    from vision.errors import KitError
    from vision.kit import make_kit

    try:
        data = make_kit(args.out, marks=args.marks, sticker_mm=args.sticker_mm)
    except KitError as exc:
        return fail("kit", exc, 2)
    print(f"{args.out}: {data['stickers_pdf']}, {', '.join(data['mats'].values())}, "
          f"{len(data['cards'])} codes in cards/, kit.json ({data['marks']}, {data['sticker_mm']:g} mm)")
    return 0
