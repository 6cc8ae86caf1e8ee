"""``botifarra-kiosk deck learn NAME DIR | list | remove NAME | export NAME FILE | import FILE [--name NAME]``.

Ordinary decks (no stickers) the camera reads by dealing the pile face up. ``learn`` takes
one photo per card named by its code (``9O.jpg``, ``12C.png``): the camera's whole frame
with that card face up on the mat. Decks are kept in the kiosk's data directory.
"""

from __future__ import annotations

import sys

from kiosk.commands import fail


def store():
    """The kiosk's deck store (:func:`kiosk.decks.deck_store`)."""
    from kiosk.decks import deck_store
    return deck_store()


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    learn = sub.add_parser("learn", help="learn a deck from one photo per card")
    learn.add_argument("name", help="the deck's name (letters, digits, - _ .)")
    learn.add_argument("folder", metavar="DIR", help="folder with 48 photos named by card code (9O.jpg ...)")
    sub.add_parser("list", help="the decks learnt")
    remove = sub.add_parser("remove", help="forget a deck")
    remove.add_argument("name")
    export = sub.add_parser("export", help="write a deck to a file (for another kiosk)")
    export.add_argument("name")
    export.add_argument("file", metavar="FILE", help="file or folder to write NAME.npz into")
    import_ = sub.add_parser("import", help="add a deck from an exported file")
    import_.add_argument("file", metavar="FILE")
    import_.add_argument("--name", help="store it under this name (default: its own)")

def run(args) -> int:
    from vision.deck.errors import DeckError

    decks = store()
    try:
        if args.action == "learn":
            from vision.deck.store import learn_folder
            model = learn_folder(args.name, args.folder)
            path = decks.save(model)
            print(f"{args.name}: {len(model.codes)} cards learnt ({path})")
            for pair in model.similar_pairs():
                print(f"botifarra-kiosk deck: check {pair.first.code}.jpg and {pair.second.code}.jpg: "
                      f"they look alike ({pair.score:.2f}); the same card twice?", file=sys.stderr)
        elif args.action == "list":
            for name in decks.names():
                print(name)
        elif args.action == "remove":
            decks.remove(args.name)
            print(f"{args.name}: removed")
        elif args.action == "export":
            print(decks.export(args.name, args.file))
        elif args.action == "import":
            model = decks.import_(args.file, name=args.name)
            print(f"{model.name}: {len(model.codes)} cards imported")
    except DeckError as exc:
        return fail("deck", exc, 2)
    except OSError as exc:
        return fail("deck", f"{getattr(exc, 'filename', '') or ''} {exc.strerror or exc}", 1)
    return 0


def read_deal(args) -> int:
    """``read --deck NAME --deal FRAME... [--json]``: the cards dealt, in order."""
    import json

    import cv2

    from vision.deck.errors import DeckError
    from vision.deck.tracker import DealTracker

    if not (args.deck and args.deal) or args.images:
        return fail("read", "--deck NAME and --deal FRAME... go together (and without IMAGE)", 2)
    try:
        tracker = DealTracker(store().load(args.deck))
    except DeckError as exc:
        return fail("read", exc, 2)
    for name in args.deal:
        frame = cv2.imread(name, cv2.IMREAD_COLOR)
        if frame is None:
            return fail("read", f"{name} cannot be read as an image", 2)
        tracker.feed(frame)
    cards = [c.code for c in tracker.cards]
    if args.json:
        print(json.dumps({"cards": cards, "uncertain": tracker.uncertain}))
    else:
        tally = tracker.tally
        print(f"{len(cards)} cards: {' '.join(cards)}")
        print(f"points {tally.points}, tricks {tally.tricks}, shown again {tracker.uncertain}")
    return 0


def deal_service(source, deck_name: str, *, on_frame=None, on_cards=None, on_status=None):
    """The camera service for an ordinary deck (``camera.marks = deck:NAME``)."""
    from vision.deck.service import DealService
    from vision.deck.tracker import DealTracker
    return DealService(source, DealTracker(store().load(deck_name)), on_frame=on_frame,
                       on_cards=on_cards, on_status=on_status)
