"""Every UI string goes through gettext and is translated into Catalan and Spanish."""

from __future__ import annotations

import gettext
import io
import re
import string

import pytest

from kiosk.ui import i18n
from kiosk.ui.messages import all_messages

MESSAGES = all_messages()
FIELDS = string.Formatter()


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in FIELDS.parse(text) if f is not None}


def test_the_sources_have_messages():
    assert len(MESSAGES) > 50 and "New match" in MESSAGES and "Undo" in MESSAGES


@pytest.mark.parametrize("lang", ["ca", "es"])
def test_every_message_is_translated_with_the_same_placeholders(lang):
    po = i18n.parse_po((i18n.LOCALE_DIR / f"{lang}.po").read_text("utf-8"))
    missing = sorted(m for m in MESSAGES if not po.get(m))
    assert not missing, f"{lang}.po lacks {missing}"
    for msgid in MESSAGES:
        assert fields(po[msgid]) == fields(msgid), (lang, msgid)
    stale = sorted(set(po) - MESSAGES - {""})
    assert not stale, f"{lang}.po has messages no longer used: {stale}"


@pytest.mark.parametrize("lang", ["ca", "es", "en"])
def test_compiled_mo_reads_back_through_gettext(lang):
    text = (i18n.LOCALE_DIR / f"{lang}.po").read_text("utf-8")
    mo = gettext.GNUTranslations(io.BytesIO(i18n.compile_po(text)))
    for msgid, msgstr in i18n.parse_po(text).items():
        if msgid:
            assert mo.gettext(msgid) == msgstr


def test_switching_language_changes_the_text_at_once():
    try:
        i18n.set_language("ca")
        assert i18n._("Undo") == "Desfer"
        i18n.set_language("es")
        assert i18n._("Undo") == "Deshacer"
        i18n.set_language("en")
        assert i18n._("Undo") == "Undo"
    finally:
        i18n.set_language("en")
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_po_parser_handles_continuations_and_escapes():
    po = 'msgid ""\nmsgstr "X: y\\n"\n\n#, fuzzy\nmsgid "a"\nmsgstr "b"\n\nmsgid "two "\n"lines"\nmsgstr "dues \\"línies\\"\\n"\n'
    assert i18n.parse_po(po) == {"": "X: y\n", "two lines": 'dues "línies"\n'}


def test_no_user_text_bypasses_gettext_in_kv():
    """kv ``text:`` values are either bound data or tr._(...) (no bare English words)."""
    bare = re.compile(r"^\s*text:\s*'([A-Za-z][a-z]+[^']*)'\s*$")
    offenders = []
    for path in sorted((i18n.LOCALE_DIR.parent).rglob("*.kv")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if bare.match(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert not offenders, offenders
