"""One translation mechanism: Babel extracts (Python and kv) and compiles, gettext reads.

Every message the code uses is translated into Catalan and Spanish, the committed ``.mo``
files are what ``pybabel compile`` makes of the ``.po`` files, and counted messages take
their plural form in ca, es and en.
"""

from __future__ import annotations

import gettext
import io
import re
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.extract import extract, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from kiosk.messages import DOMAIN, LANGUAGES, LOCALE_DIR
from kiosk.ui import i18n
from kiosk.ui.babel_kv import extract_kv

ROOT = Path(__file__).resolve().parents[2]
FIELDS = string.Formatter()


@cache
def extracted() -> dict[str, tuple[str, ...]]:
    """msgid -> every form of it, as ``pybabel extract -F babel.cfg .`` finds them (read on
    first use, not at import: each xdist worker imports this module to collect it)."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[str, tuple[str, ...]] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(ROOT, method_map, options_map):
        forms = message if isinstance(message, tuple) else (message,)
        found[forms[0]] = forms
    return found


def po(language: str):
    with open(LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.po", "rb") as f:
        return read_po(f)


def fields(text: str) -> set[str]:
    return {f for _, f, _, _ in FIELDS.parse(text) if f is not None}


def test_babel_finds_python_kv_core_and_plural_messages():
    messages = extracted()
    assert len(messages) > 300
    assert "Undo" in messages  # Python: _("Undo")
    assert "Who deals first?" in messages  # kv: tr._('Who deals first?')
    assert "{level} is not allowed when trump is botifarra (preset {preset})" in messages  # core error
    assert "Sant Vicenç" in messages and "hand {number}" in messages  # game words, context
    assert messages["{n} card"] == ("{n} card", "{n} cards")  # ngettext


def test_the_kv_extractor_reads_rule_values():
    kv = (b"<Foo@Label>:\n    text: tr._('Undo')\n    hint_text: tr._(\"It's {n}\").format(n=1)\n"
          b"    title: tr.ngettext('{n} hand', '{n} hands', root.n).format(n=root.n)\n"
          b"    other: _('not through tr')\n")
    found = [(line, msg) for line, msg, _c, _ctx in extract(extract_kv, io.BytesIO(kv))]
    assert found == [(2, "Undo"), (3, "It's {n}"), (4, ("{n} hand", "{n} hands"))]


@pytest.mark.parametrize("language", ["ca", "es"])
def test_every_message_is_translated_with_the_same_placeholders_and_none_is_stale(language):
    messages = extracted()
    catalog = po(language)
    assert catalog.num_plurals == 2 and catalog.plural_expr == "(n != 1)"
    have = {m.id[0] if isinstance(m.id, tuple) else m.id: m for m in catalog if m.id}
    missing = sorted(set(messages) - set(have))
    assert not missing, f"{language}: run pybabel update (docs/translations.md); missing {missing}"
    stale = sorted(set(have) - set(messages))
    assert not stale, f"{language}: messages no longer used: {stale}"
    for msgid, forms in messages.items():
        m = have[msgid]
        assert not m.fuzzy, (language, msgid)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        assert len(strings) == len(forms) if len(forms) == 1 else len(strings) == 2, (language, msgid)
        for text in strings:
            assert text, f"{language}: {msgid!r} is not translated"
            assert fields(text) == fields(forms[-1]), (language, msgid, text)


# One address form per language (docs/translations.md): the table is spoken to as several
# people (vosaltres, vosotros); a button's own words may be an infinitive ("Tancar"). These
# are the singular forms the walkthrough found mixed in, where a sentence or clause starts.
SINGULAR = {
    "ca": r"(?:^|[:.,] )(Treu|Toca|Torna|Torna-ho|Prem|Canvia el|Tanca|Compta|Aprèn|escriu|fes servir|tria'n"
          r"|corregeix-la|desfés-ne|desfés-les)\b",
    "es": r"(?:^|[:.,] )(Pon|Pulsa|Toca|Vuelve|Quita|Gira|Cuenta|escribe|usa|elige|deshaz|deshazlas)\b"
          r"|\b(Vuelva|Escriba|Espere|Conecte|deje|apártela|inténtelo|pulse)\b"
          r"|(?:^|[:.,] )\w*[áéíó]\w*(lo|la|los|las)\b",  # "Tócalo", "gíralas", "corrígela"
}


@pytest.mark.parametrize("language", ("ca", "es"))
def test_the_table_is_spoken_to_in_one_form(language):
    found = []
    for message in po(language):
        for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
            if text and re.search(SINGULAR[language], text):
                found.append(text)
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(language):
    """The kiosk runs from a fresh clone without Babel: the .mo files are committed, so they
    must be what `pybabel compile` makes of today's .po."""
    compiled = io.BytesIO()
    write_mo(compiled, po(language))
    fresh = gettext.GNUTranslations(io.BytesIO(compiled.getvalue()))
    mo = LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    with open(mo, "rb") as f:
        committed = gettext.GNUTranslations(f)
    assert committed._catalog == fresh._catalog, f"run: pybabel compile -d kiosk/locale -D {DOMAIN}"
    assert committed.plural(1) == 0 and committed.plural(2) == 1 and committed.plural(0) == 1


PLURALS = {
    "ca": ("1 carta · 1 punt de cartes + 1 basa = 2", "2 cartes · 21 punts de cartes + 2 bases = 23",
           "1 punt", "36 punts"),
    "es": ("1 carta · 1 punto de cartas + 1 baza = 2", "2 cartas · 21 puntos de cartas + 2 bazas = 23",
           "1 punto", "36 puntos"),
    "en": ("1 card · 1 card point + 1 trick = 2", "2 cards · 21 card points + 2 tricks = 23",
           "1 point", "36 points"),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_counted_messages_take_their_plural_form(language):
    one, two, point, points = PLURALS[language]
    i18n.set_language(language)
    assert i18n.tally(cards=1, card_points=1, tricks=1, total=2) == one
    assert i18n.tally(cards=2, card_points=21, tricks=2, total=23) == two
    assert i18n.points_text(1) == point and i18n.points_text(36) == points
    assert "21 de cart" not in i18n.tally(card_points=21, tricks=0, total=21)
    assert i18n.ngettext("{n} trick", "{n} tricks", 0).format(n=0).endswith(("bases", "bazas", "tricks"))


def test_a_one_card_pile_is_one_card():
    from kiosk.ui.viewmodels.cards import CardPicker

    i18n.set_language("ca")
    assert CardPicker("A", ["1O"]).problem.startswith("1 carta:")
    assert CardPicker("A", ["1O", "2O"]).problem.startswith("2 cartes:")


@pytest.mark.parametrize(("language", "us", "you"),
                         [("ca", "Nosaltres", "Vosaltres"), ("es", "Nosotros", "Vosotros"), ("en", "Us", "You")])
def test_the_default_pair_names_are_shown_in_the_kiosk_language(language, us, you):
    i18n.set_language(language)
    assert (i18n.default_team_name("Nosaltres"), i18n.default_team_name("Vosaltres")) == (us, you)
    assert i18n.default_team_name("Els Manetes") == "Els Manetes"  # a name someone chose stays


def test_switching_language_changes_the_text_at_once():
    i18n.set_language("ca")
    assert i18n._("Undo") == "Desfer"
    i18n.set_language("es")
    assert i18n._("Undo") == "Deshacer"
    i18n.set_language("en")
    assert i18n._("Undo") == "Undo"
    with pytest.raises(ValueError):
        i18n.set_language("fr")


def test_no_user_text_bypasses_gettext_in_kv():
    """kv ``text:`` values are either bound data or tr._(...) (no bare English words)."""
    bare = re.compile(r"^\s*text:\s*'([A-Za-z][a-z]+[^']*)'\s*$")
    offenders = []
    for path in sorted((ROOT / "kiosk" / "ui").rglob("*.kv")):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if bare.match(line):
                offenders.append(f"{path.name}:{n}: {line.strip()}")
    assert not offenders, offenders


def test_kv_rules_follow_a_language_switch_singular_and_plural():
    """``tr._`` and ``tr.ngettext`` in a real kv rule: re-evaluated on ``tr.switch`` and
    when the count changes."""
    from kivy.lang import Builder
    from kivy.properties import NumericProperty, StringProperty
    from kivy.uix.widget import Widget

    from kiosk.ui.tr import tr

    class TrProbe(Widget):
        label = StringProperty("")
        counted = StringProperty("")
        n = NumericProperty(1)

    rules = ("#:import tr kiosk.ui.tr.tr\n<TrProbe>:\n    label: tr._('Undo')\n"
             "    counted: tr.ngettext('{n} card', '{n} cards', root.n).format(n=root.n)\n")
    Builder.load_string(rules, filename="tr_probe.kv")
    try:
        tr.switch("en")
        probe = TrProbe()
        assert (probe.label, probe.counted) == ("Undo", "1 card")
        tr.switch("ca")
        assert (probe.label, probe.counted) == ("Desfer", "1 carta")
        probe.n = 3
        assert probe.counted == "3 cartes"
        tr.switch("es")
        assert (probe.label, probe.counted) == ("Deshacer", "3 cartas")
    finally:
        tr.switch("en")
        Builder.unload_file("tr_probe.kv")


def test_the_kiosk_translates_without_babel_installed():
    """Babel is a build tool (the test extra): at run time only gettext reads the .mo files."""
    import subprocess
    import sys

    code = ("import sys; sys.modules['babel'] = None\n"  # any `import babel` now fails
            "from kiosk.ui import i18n\nfrom kiosk.messages import explain\n"
            "from kiosk.game import MatchStateError\n"
            "i18n.set_language('ca')\n"
            "print(i18n._('Undo'), '|', i18n.tally(cards=1, card_points=1, tricks=1, total=2), '|',"
            " explain(MatchStateError('nothing to undo'), 'es'))\n")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Desfer | 1 carta · 1 punt de cartes + 1 basa = 2 | No hay nada que deshacer"
