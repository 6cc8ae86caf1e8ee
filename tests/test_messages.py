"""The core's error messages: templates + params, English str() unchanged, Catalan and
Spanish through kiosk.messages.explain on the kiosk's gettext catalogue (every template the
core can raise is translated)."""

import ast
import gettext
import pickle
import string
from pathlib import Path

import pytest

from kiosk.game import (
    BotifarraError, HandPlay, IllegalBidError, IllegalPlayError, InvalidCardError,
    InvalidPileError, Match, MatchStateError, RulesError, match_from_json,
)
from kiosk.game import errors
from kiosk.game.errors import HAND, WORDS, Message, player
from kiosk.messages import explain, translate, translations

ROOT = Path(__file__).resolve().parents[1]
GAME = ROOT / "kiosk" / "game"
ERROR_CLASSES = {name for name, obj in vars(errors).items()
                 if isinstance(obj, type) and issubclass(obj, BotifarraError)}
TRANSLATED = ("ca", "es")


def catalog(language):
    """The msgid -> msgstr pairs of ``language``'s compiled catalogue (what gettext reads)."""
    return {k: v for k, v in translations(language)._catalog.items() if k and isinstance(k, str)}


def _calls():
    """(path, call node, callee name) of every error / Message / N_ / within call in kiosk/game."""
    for path in sorted(GAME.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Call):
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
                if name in ERROR_CLASSES or name in ("Message", "N_", "within"):
                    yield path, node, name


def _fields(template):
    return {(name, conv, spec) for _, name, spec, conv in string.Formatter().parse(template)
            if name is not None}


def _needs_words(template):
    """A template that is only fields (``"{what}"``) has nothing to translate."""
    return any(text.strip(" :,()") for text, *_ in string.Formatter().parse(template))


def core_templates():
    found = {HAND}
    for _, node, _ in _calls():
        if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            found.add(node.args[0].value)
    return found


def test_every_raise_site_gives_a_literal_template_and_its_params():
    """No f-string or str(e) left: the template is the message id, its fields are keywords."""
    bad = []
    for path, node, name in _calls():
        first = node.args[0] if node.args else None
        where = f"{path.name}:{node.lineno}"
        if name in ERROR_CLASSES or name == "N_":
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                if path.name != "errors.py":
                    bad.append(where)
                continue
            given = {k.arg for k in node.keywords} - {"context"}
            missing = {f[0] for f in _fields(first.value)} - given
            if name != "N_" and missing:
                bad.append(f"{where} lacks {sorted(missing)}")
    assert not bad, bad
    assert len(core_templates()) > 120


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_core_template_and_game_word_is_translated(language):
    """The catalogue also holds the interface's strings (tests/ui_vm/test_i18n.py checks
    that none is stale); here: nothing the core can raise is missing."""
    table = catalog(language)
    wanted = {t for t in core_templates() if _needs_words(t)}
    wanted |= {w for kind in WORDS.values() for w in kind.values()}
    missing = sorted(wanted - set(table))
    assert not missing, f"{language} lacks {missing}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_fields_and_are_not_english(language):
    core = core_templates()
    table = {k: v for k, v in catalog(language).items() if k in core}
    assert len(table) > 120
    for msgid, msgstr in table.items():
        assert _fields(msgstr) == _fields(msgid), (language, msgid, msgstr)
        msgstr.format(**{f[0]: "x" for f in _fields(msgid)})  # braces are balanced
    words = {w for kind in WORDS.values() for w in kind.values()}
    same = [m for m in table if table[m] == m and " " in m and "{" not in m and m not in words]
    assert not same, same  # a sentence left in English


def _illegal(match, event):
    with pytest.raises(BotifarraError) as info:
        match.apply(event)
    return info.value


def _botifarra_doubled():
    m = Match.create("reglament").apply({"type": "trump", "seat": 0, "trump": "botifarra"})
    m = m.apply({"type": "double", "seat": 1, "level": "contro"})
    return m.apply({"type": "double", "seat": 0, "level": "recontro"})


def test_sant_vicenc_on_botifarra_in_three_languages():
    exc = _illegal(_botifarra_doubled(), {"type": "double", "seat": 1, "level": "sant_vicenc"})
    assert isinstance(exc, IllegalBidError)
    english = "hand 1: Sant Vicenç is not allowed when trump is botifarra (preset reglament)"
    assert str(exc) == english
    assert exc.hand == 1
    assert exc.template == "{level} is not allowed when trump is botifarra (preset {preset})"
    assert exc.params == {"level": "sant_vicenc", "preset": "reglament"}
    assert explain(exc, "en") == "Hand 1: " + english[len("hand 1: "):]  # a sentence on the banner
    assert explain(exc, "ca") == ("Mà 1: no es pot cantar Sant Vicenç quan el triomf és botifarra "
                                  "(modalitat reglament)")
    assert explain(exc, "es") == ("Mano 1: no se puede cantar San Vicente cuando el triunfo es "
                                  "botifarra (modalidad reglament)")


def test_a_pile_of_three_cards():
    m = _botifarra_doubled().apply({"type": "play"})
    exc = _illegal(m, {"type": "hand_scored", "piles": {"A": ["1O", "9O", "12O"]}})
    assert isinstance(exc, InvalidPileError)
    assert str(exc) == "hand 1: pile A has 3 cards, which is not whole tricks (a multiple of 4)"
    assert explain(exc, "ca") == ("Mà 1: munt A: hi ha 3 cartes, i això no fa bases senceres "
                                  "(han de ser un múltiple de 4)")
    assert explain(exc, "es") == ("Mano 1: montón A: hay 3 cartas, y eso no son bazas enteras "
                                  "(tienen que ser un múltiplo de 4)")


def test_a_hand_after_the_end():
    m = Match.create({"preset": "reglament", "target": 51}, team_names={"A": "Els Manetes", "B": "B"})
    m = m.apply({"type": "trump", "seat": 0, "trump": "botifarra"}).apply({"type": "play"})
    m = m.apply({"type": "hand_scored", "points": {"A": 72}})
    assert m.is_over
    exc = _illegal(m, {"type": "trump", "seat": 1, "trump": "oros"})
    assert isinstance(exc, MatchStateError) and exc.hand == 2
    assert str(exc) == "hand 2: the match is over: team A (Els Manetes) reached 72 in hand 1"
    assert explain(exc, "ca") == ("Mà 2: la partida s'ha acabat: la parella A (Els Manetes) "
                                  "ha arribat a 72 a la mà 1")
    assert explain(exc, "es") == ("Mano 2: la partida ha terminado: la pareja A (Els Manetes) "
                                  "ha llegado a 72 en la mano 1")


def test_players_by_name_and_seat_are_translated():
    m = Match.create("reglament", players=["Anna", "Pere", "Marta", "Joan"])
    exc = _illegal(m, {"type": "trump", "seat": 2, "trump": "copes"})
    assert str(exc) == "hand 1: the dealer, Anna (seat 0), chooses trump, not Marta (seat 2)"
    assert explain(exc, "ca") == "Mà 1: el triomf el tria qui reparteix, Anna (seient 0), no pas Marta (seient 2)"
    exc = _illegal(Match.create("reglament").apply({"type": "delegate", "seat": 0}),
                   {"type": "trump", "seat": 0, "trump": "copes"})
    assert str(exc) == "hand 1: the dealer's partner, seat 2, chooses trump, not seat 0"
    assert explain(exc, "es") == ("Mano 1: el triunfo lo elige el compañero de quien reparte, "
                                  "asiento 2, no asiento 0")


def test_a_card_that_may_not_be_played_names_trick_seat_and_reason():
    hp = HandPlay({0: ["1O", "2C"], 1: ["3O", "4C"], 2: ["5O", "6C"], 3: ["7O", "8C"]},
                  first_lead=0, trump="copes").play("1O")
    with pytest.raises(IllegalPlayError) as info:
        hp.play("4C")
    exc = info.value
    assert str(exc) == ("trick 1, seat 1: 4C may not be played: you cannot beat 1O: "
                        "follow suit (oros) (allowed: 3O)")
    assert exc.context == (Message("trick {trick}, seat {seat}", trick=1, seat=1),)
    assert exc.hand is None
    assert explain(exc, "ca") == ("Basa 1, seient 1: no es pot tirar la carta 4C: no pots matar 1O: "
                                  "cal assistir (oros) (es pot tirar: 3O)")
    assert explain(exc, "es") == ("Baza 1, asiento 1: no se puede echar la carta 4C: no puedes matar "
                                  "1O: hay que asistir (oros) (se puede echar: 3O)")


def test_game_words_are_codes_shown_in_each_language():
    exc = _illegal(Match.create("reglament").apply({"type": "trump", "seat": 0, "trump": "espases"}),
                   {"type": "double", "seat": 1, "level": "recontro"})
    assert exc.params["level"] == "recontro" and exc.params["needed"] == "contro"
    exc = _illegal(Match.create({"preset": "torrefarrera"}).apply(
        {"type": "trump", "seat": 0, "trump": "espases"}).apply(
        {"type": "double", "seat": 1, "level": "contro"}).apply(
        {"type": "double", "seat": 0, "level": "recontro"}),
        {"type": "double", "seat": 1, "level": "sant_vicenc"})
    assert str(exc) == "hand 1: Sant Vicenç is not played (preset torrefarrera)"
    assert explain(exc, "es") == "Mano 1: no se juega San Vicente (modalidad torrefarrera)"
    exc = _illegal(Match.create("reglament").apply({"type": "trump", "seat": 0, "trump": "espases"}),
                   {"type": "trump", "seat": 0, "trump": "copes"})
    assert exc.params == {"trump": "espases"}
    assert explain(exc, "es") == "Mano 1: el triunfo ya está elegido (espadas)"


def test_unknown_or_broken_translations_fall_back_to_english():
    exc = RulesError("a message nobody has translated yet ({n})", n=3)
    assert explain(exc, "ca") == "A message nobody has translated yet (3)"  # first letter up
    assert explain(exc.within(HAND, number=4), "ca") == "Mà 4: a message nobody has translated yet (3)"
    class Broken(gettext.NullTranslations):
        def gettext(self, message):
            return {"nothing to undo": "res {per} desfer"}.get(message, message)

    assert translate(Message("nothing to undo"), Broken()) == "nothing to undo"
    assert explain(ValueError("plain"), "ca") == "plain"
    assert explain(MatchStateError("nothing to undo"), "xx") == "nothing to undo"
    # an error built the old way (one finished text) still works everywhere
    old = InvalidCardError('hand 1: points must be an object such as {"A": 45}')
    assert str(old) == 'hand 1: points must be an object such as {"A": 45}'
    assert explain(old, "en") == 'Hand 1: points must be an object such as {"A": 45}'
    assert explain(old, "ca") == 'Hand 1: points must be an object such as {"A": 45}'


def test_errors_keep_type_text_and_structure_when_wrapped_or_pickled():
    exc = IllegalBidError("{level} was already said", level="contro").within(HAND, number=3)
    assert type(exc) is IllegalBidError and exc.hand == 3
    assert str(exc) == "hand 3: contro was already said"
    again = pickle.loads(pickle.dumps(exc))
    assert str(again) == str(exc) and again.template == exc.template and again.hand == 3
    assert str(RulesError.from_error(exc)) == str(exc)
    assert str(player(1)) == "seat 1" and str(player(1, "Pere")) == "Pere (seat 1)"


def test_match_json_errors_name_the_hand_once():
    data = {"hands": [{"trump": "oros", "points": {"A": 40}}, {"trump": "oros", "points": {"A": 90}}]}
    with pytest.raises(BotifarraError) as info:
        match_from_json(data)
    assert str(info.value) == "hand 2: points of team A are 90, over the 72 of a hand"
    assert info.value.hand == 2
    assert explain(info.value, "ca") == "Mà 2: la parella A té 90 punts, més dels 72 que té una mà"
