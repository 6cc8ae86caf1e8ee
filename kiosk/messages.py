"""The kiosk's one gettext catalogue, and the game core's errors in the patron's language.

Every message id is English. ``locale/<lang>/LC_MESSAGES/botifarra.po`` holds each
language; Babel extracts the ids (``babel.cfg``) and compiles the ``.mo`` files next to
them, which are committed so that a fresh clone runs without Babel
(docs/translations.md). At run time only the standard library's :mod:`gettext` reads them.

The core (:mod:`kiosk.game`) raises errors that keep an English template and its params
(see :mod:`kiosk.game.errors`). :func:`explain` translates the template, the place
(``hand 3``), the game words (``sant_vicenc`` -> Sant Vicenç / San Vicente) and the nested
phrases through the same catalogue; English is ``str(exc)`` itself. No Kivy here: the
kiosk calls ``explain(exc, app.language)`` where it shows a refused action.
"""

from __future__ import annotations

import functools
import gettext
from pathlib import Path

from kiosk.game.errors import WORD_PARAMS, BotifarraError, Message, english_word

DOMAIN = "botifarra"
LOCALE_DIR = Path(__file__).with_name("locale")
LANGUAGES: tuple[str, ...] = ("ca", "es", "en")


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalogue of ``language``; an unknown one gives the English message ids."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[language], fallback=True)


def _fill(template: str, params: dict, table: gettext.NullTranslations) -> str:
    def shown(name: str, value: object) -> object:
        if isinstance(value, Message):
            return translate(value, table)
        value = english_word(name, value)
        if name in WORD_PARAMS and isinstance(value, str):
            return table.gettext(value)
        return value

    return template.format(**{k: shown(k, v) for k, v in params.items()})


def translate(message: Message, table: gettext.NullTranslations) -> str:
    """One message in the catalogue's language. A template with no translation keeps its
    English words (its params are still translated: ``"{what}"`` holds a phrase); a
    translation that does not fit its params is shown in English."""
    for template in (table.gettext(message.template), message.template):
        try:
            return _fill(template, message.params, table)
        except (KeyError, IndexError, ValueError, AttributeError, TypeError):
            continue
    return str(message)


def explain(exc: BaseException, language: str) -> str:
    """What to show a patron for ``exc`` in ``language`` (``ca``, ``es`` or ``en``).

    English is ``str(exc)`` (a sentence's first letter capital, as the others: "Hand 2: ...").
    A message with no translation is shown in English; this never raises.
    """
    if language == "en" and isinstance(exc, BotifarraError):
        text = str(exc)
        return text[:1].upper() + text[1:]
    if language == "en" or not isinstance(exc, BotifarraError):
        return str(exc)
    try:
        table = translations(language)
        if type(table) is gettext.NullTranslations:  # no catalogue: the English as it is
            return str(exc)
        parts = [translate(m, table) for m in (*exc.context, exc.message)]
    except Exception:  # noqa: BLE001 - a message must never crash the kiosk
        return str(exc)
    text = ": ".join(parts)
    return text[:1].upper() + text[1:]
