"""The interface's language: Catalan first (then Spanish and English).

The strings come from the kiosk's one gettext catalogue (:mod:`kiosk.messages`; message
ids are English). Pure Python: the view-models translate with :func:`_` and
:func:`ngettext`; the Kivy side (``kiosk.ui.tr``) re-evaluates kv rules when the language
changes.
"""

from __future__ import annotations

import gettext
import re

from kiosk.messages import LANGUAGES, translations

__all__ = ["LANGUAGES", "LANGUAGE_NAMES", "N_", "_", "contracted", "decimal", "default_team_name", "language",
           "ngettext", "points_text", "set_language", "shown_names", "tally", "translations"]

LANGUAGE_NAMES = {"ca": "Català", "es": "Español", "en": "English"}
DECIMAL_MARK = {"ca": ",", "es": ",", "en": "."}

_current: gettext.NullTranslations = gettext.NullTranslations()
_language = "en"


# A name typed with its article ("Els Avis") after a preposition: the contraction the
# language makes ("Munt dels Avis", not "Munt de Els Avis").
CONTRACTIONS = {
    "ca": ((r"\bde Els ", "dels "), (r"\bde El ", "del "), (r"\ba Els ", "als "), (r"\ba El ", "al "),
           (r"\bper Els ", "pels "), (r"\bper El ", "pel ")),
    "es": ((r"\bde El ", "del "), (r"\ba El ", "al ")),
}


def contracted(text: str) -> str:
    """``text`` with the current language's contractions of a preposition and an article."""
    for pattern, contraction in CONTRACTIONS.get(_language, ()):
        text = re.sub(pattern, contraction, text)
    return text


def N_(message: str) -> str:
    """Mark a message for translation where it is defined; translate it with _() where shown."""
    return message


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


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted message that fits ``n`` ("1 carta", "2 cartes") in the current
    language; the caller still fills ``{n}``."""
    return _current.ngettext(singular, plural, n)


def decimal(value: float, places: int = 1) -> str:
    """``value`` with ``places`` decimals in the current language: ``76,4`` in Catalan and
    Spanish, ``76.4`` in English (no thousands separator: the kiosk shows small numbers)."""
    return f"{value:.{places}f}".replace(".", DECIMAL_MARK.get(_language, "."))


def tally(*, card_points: int, tricks: int, total: int, cards: int | None = None) -> str:
    """A pile counted: "9 cartes · 21 punts de cartes + 2 bases = 23" (without the cards
    when ``cards`` is None), each count in its plural form."""
    counted = {
        "card_points": ngettext("{n} card point", "{n} card points", card_points).format(n=card_points),
        "tricks": ngettext("{n} trick", "{n} tricks", tricks).format(n=tricks),
        "total": total,
    }
    if cards is None:
        return _("{card_points} + {tricks} = {total}").format(**counted)
    return _("{cards} · {card_points} + {tricks} = {total}").format(
        cards=ngettext("{n} card", "{n} cards", cards).format(n=cards), **counted)


def points_text(points: int) -> str:
    """ "1 punt", "36 punts"."""
    return ngettext("{n} point", "{n} points", points).format(n=points)


# The default pair names are Catalan settings (kiosk/settings.py). A pair left unnamed is
# stored under the name its field showed, in the language of that moment ("Nosotros" in
# Spanish), and an empty table shows the settings' ("Nosaltres"). On screen a default name,
# in any of the kiosk's languages, is shown in the current one, so a Spanish screen never
# says "Nosaltres" and a match begun in Spanish reads "Nosaltres" after a switch to Catalan.
_DEFAULT_TEAMS = (N_("Us"), N_("You"))


def _default_team_ids() -> dict[str, str]:
    """Every language's word for each default pair name -> its message id."""
    ids = {"Nosaltres": "Us", "Vosaltres": "You"}  # the settings' own defaults
    for lang in LANGUAGES:
        for message in _DEFAULT_TEAMS:
            ids.setdefault(translations(lang).gettext(message), message)
    return ids


_TEAM_IDS: dict[str, str] | None = None


def default_team_name(name: str) -> str:
    """``name`` in the current language when it is one of the default pair names."""
    global _TEAM_IDS
    if _TEAM_IDS is None:
        _TEAM_IDS = _default_team_ids()
    message = _TEAM_IDS.get(name)
    return _(message) if message is not None else name


def shown_names(names: dict[str, str]) -> dict[str, str]:
    """A match's pair names as the screen shows them (:func:`default_team_name` of each)."""
    return {team: default_team_name(name) for team, name in names.items()}
