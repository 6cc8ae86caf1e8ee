"""``botifarra-kiosk read --deck NAME --tricks FRAME... --seats SEATS.json --first-lead S
[--trump T] [--rules PRESET] [--json]``: the cards of a hand played trick by trick, from
an overhead camera's frames in time order (vision.tricks).

``SEATS.json`` is ``{"0": [x, y], "1": ..., "2": ..., "3": ...}``: where each seat's card
lies in the frames. Prints ``{"plays": [[trick, seat, card], ...], "uncertain": N}`` with
``--json`` (``uncertain``: the cards it asked about; nobody answers here, so the hand stops
at the first one), else one line per trick. Without ``--trump`` each trick's leader is the
seat whose card lay first. Bad input: exit 2, one line on stderr.
"""

from __future__ import annotations

import json
from pathlib import Path

from kiosk.commands import fail

SEATS_HINT = 'SEATS.json must be {"0": [x, y], "1": [x, y], "2": [x, y], "3": [x, y]}'


def read_seats(name: str) -> dict[int, tuple[float, float]]:
    """The seats' places from ``name`` (ValueError with the reason)."""
    try:
        data = json.loads(Path(name).read_text(encoding="utf-8"))
    except OSError as exc:
        raise ValueError(f"{name} cannot be read ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise ValueError(f"{name} is not JSON: {SEATS_HINT}") from None
    if not isinstance(data, dict) or sorted(data) != ["0", "1", "2", "3"]:
        raise ValueError(SEATS_HINT)
    seats = {}
    for key, point in data.items():
        ok = isinstance(point, list) and len(point) == 2 and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)
        if not ok:
            raise ValueError(f"seat {key}: {point!r} is not a point [x, y]; {SEATS_HINT}")
        seats[int(key)] = (float(point[0]), float(point[1]))
    return seats


def run(args) -> int:
    """``read --tricks``: see the module's docstring."""
    from kiosk.game.errors import BotifarraError
    from kiosk.game.handrecord import HandInPlay
    from kiosk.game.rules import Rules, Trump

    if not args.deck or args.images or args.deal:
        return fail("read", "--tricks needs --deck NAME (and no IMAGE or --deal)", 2)
    if args.seats is None or args.first_lead is None:
        return fail("read", "--tricks needs --seats SEATS.json and --first-lead S (the seat 0-3 that leads)", 2)
    if args.first_lead not in (0, 1, 2, 3):
        return fail("read", f"--first-lead must be a seat 0-3, not {args.first_lead}", 2)
    try:
        seats = read_seats(args.seats)
        rules = Rules.from_dict({"preset": args.rules} if args.rules else None)
        trumps = [Trump.parse(args.trump)] if args.trump else list(Trump)
    except (ValueError, BotifarraError) as exc:
        return fail("read", exc, 2)
    import cv2

    from kiosk.commands.deck import store
    from vision.deck.errors import DeckError
    from vision.tricks import TrickAsk, TrickPlay, TrickReader

    try:
        model = store().load(args.deck)
    except DeckError as exc:
        return fail("read", exc, 2)
    hands = [HandInPlay(t, first_lead=args.first_lead, rules=rules) for t in trumps]
    reader = None
    plays: list[TrickPlay] = []
    uncertain = 0
    for name in args.tricks:
        frame = cv2.imread(name, cv2.IMREAD_COLOR)
        if frame is None:
            return fail("read", f"{name} cannot be read as an image", 2)
        size = (frame.shape[1], frame.shape[0])
        if reader is None:
            first = size
            reader = TrickReader(model, seats, hands, frame_size=size)
        elif size != first:
            return fail("read", f"{name} is {size[0]}x{size[1]}, the frames before it {first[0]}x{first[1]}", 2)
        for event in reader.feed(frame):
            if isinstance(event, TrickAsk):
                uncertain += 1
            else:
                plays.append(event)
    if args.json:
        print(json.dumps({"plays": [[p.trick, p.seat, p.card.code] for p in plays], "uncertain": uncertain}))
    else:
        for trick in sorted({p.trick for p in plays}):
            cards = " ".join(f"{p.seat}:{p.card.code}" for p in plays if p.trick == trick)
            print(f"trick {trick}: {cards}")
        print(f"{len(plays)} cards, asked about {uncertain}")
    return 0
