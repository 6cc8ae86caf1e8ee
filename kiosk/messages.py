"""The game core's error messages in the patron's language (Catalan, Spanish, English).

The core (:mod:`kiosk.game`) raises errors that keep an English message template and its
params (see :mod:`kiosk.game.errors`). :func:`explain` translates the template, the place
(``hand 3``), the game words (``sant_vicenc`` -> Sant Vicenç / San Vicente) and the nested
phrases with ``locale/core/<lang>.po``; English is ``str(exc)`` itself. No Kivy here: the
kiosk calls ``explain(exc, app.language)`` where it shows a refused action.

The ``.po`` files are read by the small parser below (the same format as ``kiosk/ui/locale``).
"""

from __future__ import annotations

import functools
from pathlib import Path

from kiosk.game.errors import WORD_PARAMS, BotifarraError, Message, english_word
from kiosk.po import parse_po

LOCALE_DIR = Path(__file__).with_name("locale") / "core"
LANGUAGES: tuple[str, ...] = ("ca", "es", "en")


@functools.cache
def catalog(language: str) -> dict[str, str]:
    """The core's messages in ``language`` (empty for English or an unknown language)."""
    path = LOCALE_DIR / f"{language}.po"
    try:
        return {k: v for k, v in parse_po(path.read_text("utf-8")).items() if k}  # no header
    except (OSError, ValueError, SyntaxError):
        return {}


def _fill(template: str, params: dict, catalog: dict[str, str]) -> str:
    def shown(name: str, value: object) -> object:
        if isinstance(value, Message):
            return translate(value, catalog)
        value = english_word(name, value)
        if name in WORD_PARAMS and isinstance(value, str):
            return catalog.get(value, value)
        return value

    return template.format(**{k: shown(k, v) for k, v in params.items()})


def translate(message: Message, catalog: dict[str, str]) -> str:
    """One message in the catalog's language. A template with no translation keeps its
    English words (its params are still translated: ``"{what}"`` holds a phrase); one that
    does not fit its params is shown in English."""
    for template in (catalog.get(message.template) or message.template, message.template):
        try:
            return _fill(template, message.params, catalog)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            continue
    return str(message)


def explain(exc: BaseException, language: str) -> str:
    """What to show a patron for ``exc`` in ``language`` (``ca``, ``es`` or ``en``).

    English is ``str(exc)``. A message with no translation is shown in English; this never
    raises.
    """
    if language == "en" or not isinstance(exc, BotifarraError):
        return str(exc)
    try:
        table = catalog(language)
        if not table:  # a language without translations: the English as it is
            return str(exc)
        parts = [translate(m, table) for m in (*exc.context, exc.message)]
    except Exception:  # noqa: BLE001 - a message must never crash the kiosk
        return str(exc)
    text = ": ".join(parts)
    return text[:1].upper() + text[1:]
