"""A small reader for gettext ``.po`` files (standard library only, no gettext tools needed).

Used by the kiosk's interface strings (:mod:`kiosk.ui.i18n`) and the game core's messages
(:mod:`kiosk.messages`).
"""

from __future__ import annotations

import ast


def parse_po(text: str) -> dict[str, str]:
    """The ``msgid -> msgstr`` pairs of a ``.po`` text.

    The header (``msgid ""``) is kept, since a compiled catalogue needs its charset. Fuzzy
    entries and empty translations are left out, so the English message id is shown for
    them instead of a blank. No plurals or contexts (the kiosk uses none).
    """
    messages: dict[str, str] = {}
    msgid: str | None = None
    msgstr: str | None = None
    section = None
    fuzzy = False

    def flush() -> None:
        nonlocal msgid, msgstr, fuzzy
        if msgid is not None and msgstr and not fuzzy:
            messages[msgid] = msgstr
        msgid = msgstr = None
        fuzzy = False

    for raw in text.splitlines():
        line = raw.strip()
        if line.startswith("#,") and "fuzzy" in line:
            flush()
            fuzzy = True
        elif not line or line.startswith("#"):
            continue
        elif line.startswith("msgid "):
            if msgstr is not None:
                flush()
            msgid, section = ast.literal_eval(line[6:]), "id"
        elif line.startswith("msgstr "):
            msgstr, section = ast.literal_eval(line[7:]), "str"
        elif line.startswith('"'):
            piece = ast.literal_eval(line)
            if section == "id" and msgid is not None:
                msgid += piece
            elif section == "str" and msgstr is not None:
                msgstr += piece
    flush()
    return messages
