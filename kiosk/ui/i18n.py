"""Translations through :mod:`gettext`, Catalan first (then Spanish and English).

The message ids are English; ``locale/<lang>.po`` holds each language. The ``.po`` sources
are compiled in memory by :func:`compile_po` (a small standard-library ``msgfmt``), so no
gettext tools are needed on the kiosk. Pure Python: the view-models translate with
:func:`_`; the Kivy side (``kiosk.ui.tr``) re-evaluates kv rules when the language changes.
"""

from __future__ import annotations

import gettext
import io
import struct
from pathlib import Path

from kiosk.po import parse_po

LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES: tuple[str, ...] = ("ca", "es", "en")
def N_(message: str) -> str:
    """Mark a message for translation where it is defined; translate it with _() where shown."""
    return message


LANGUAGE_NAMES = {"ca": "Català", "es": "Español", "en": "English"}

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"
_cache: dict[str, gettext.NullTranslations] = {}


def compile_po(text: str) -> bytes:
    """GNU ``.mo`` bytes for a ``.po`` text (what ``msgfmt`` writes)."""
    messages = parse_po(text)
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets = []
    for k in keys:
        kb, vb = k.encode("utf-8"), messages[k].encode("utf-8")
        offsets.append((len(ids), len(kb), len(strs), len(vb)))
        ids += kb + b"\0"
        strs += vb + b"\0"
    n = len(keys)
    keystart = 7 * 4 + 16 * n
    valuestart = keystart + len(ids)
    koffsets, voffsets = [], []
    for o1, l1, o2, l2 in offsets:
        koffsets += [l1, o1 + keystart]
        voffsets += [l2, o2 + valuestart]
    out = struct.pack("Iiiiiii", 0x950412DE, 0, n, 7 * 4, 7 * 4 + n * 8, 0, 0)
    out += struct.pack(f"{len(koffsets)}i", *koffsets) if koffsets else b""
    out += struct.pack(f"{len(voffsets)}i", *voffsets) if voffsets else b""
    return out + ids + strs


def translations(language: str) -> gettext.NullTranslations:
    if language not in _cache:
        po = LOCALE_DIR / f"{language}.po"
        if po.exists():
            _cache[language] = gettext.GNUTranslations(io.BytesIO(compile_po(po.read_text("utf-8"))))
        else:
            _cache[language] = gettext.NullTranslations()
    return _cache[language]


def set_language(language: str) -> None:
    """Switch every later :func:`_` call to ``language`` (``ca``, ``es`` or ``en``)."""
    global _current, _language
    if language not in LANGUAGES:
        raise ValueError(f"unknown language {language!r}: use one of {', '.join(LANGUAGES)}")
    _current = translations(language)
    _language = language


def language() -> str:
    return _language


def _(message: str) -> str:
    """Translate ``message`` (an English message id) into the current language."""
    return _current.gettext(message)


DECIMAL_MARK = {"ca": ",", "es": ",", "en": "."}


def decimal(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals in the current language: ``76,4`` in Catalan and
    Spanish, ``76.4`` in English (no thousands separator: the kiosk shows small numbers)."""
    return f"{value:.{places}f}".replace(".", DECIMAL_MARK.get(_language, "."))
