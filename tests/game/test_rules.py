import pytest

from kiosk.game import PRESETS, Doubling, Roles, Rules, RulesError, Trump, other, roles_for, team_of
from kiosk.game.cards import Suit
from kiosk.game.seats import first_dealer_by_draw, holder_of


def test_trump_values_and_suits():
    assert [t.value for t in Trump] == ["oros", "copes", "espases", "bastos", "botifarra"]
    assert Trump.OROS.suit is Suit.OROS and Trump.BOTIFARRA.suit is None
    assert Trump.parse(" Botifarra ") is Trump.BOTIFARRA
    with pytest.raises(RulesError, match="unknown trump"):
        Trump.parse("diamonds")


def test_doubling_keys():
    assert [d.key for d in Doubling] == ["none", "contro", "recontro", "sant_vicenc"]
    assert Doubling.parse("Sant Vicenç") is Doubling.SANT_VICENC
    assert Doubling.parse(None) is Doubling.NONE
    assert int(Doubling.RECONTRO) == 2


def test_teams_and_seats():
    assert [team_of(s) for s in range(4)] == ["A", "B", "A", "B"]
    assert other("A") == "B" and other("B") == "A"
    with pytest.raises(RulesError):
        team_of(4)


@pytest.mark.parametrize("dealer", range(4))
def test_roles_rotate_to_the_right(dealer):
    r = roles_for(dealer)
    assert r == Roles(dealer, (dealer - 1) % 4, (dealer + 2) % 4, (dealer + 1) % 4)
    # next hand: the previous dealer shuffles
    assert roles_for((dealer + 1) % 4).shuffler == dealer


def test_first_dealer_by_the_tournament_draw():
    # cutter = seat 2: oros -> his right (3), copes -> partner (0), espases -> left (1), bastos -> 2
    assert [first_dealer_by_draw(s, cutter=2) for s in ("oros", "copes", "espases", "bastos")] == [3, 0, 1, 2]
    assert first_dealer_by_draw("7E", cutter=0) == 3
    assignment = {Suit.OROS: 1, Suit.COPES: 3, Suit.ESPASES: 0, Suit.BASTOS: 2}
    assert first_dealer_by_draw("5C", assignment=assignment) == 3
    with pytest.raises(RulesError):
        first_dealer_by_draw("5C")


def test_five_of_espases_custom():
    from kiosk.game import Card
    assert holder_of("5E", {0: [Card.parse("1O")], 1: [], 2: [Card.parse("5E")], 3: []}) == 2


def test_presets_follow_the_rules_table():
    assert set(PRESETS) == {"reglament", "butinet", "girona", "torrefarrera", "regional_234"}
    r = PRESETS["reglament"]
    assert (r.target, r.doubling_multipliers, r.play_rule) == (101, (2, 4, 8), "lliure")
    assert not r.doubling_allowed(Doubling.SANT_VICENC, Trump.BOTIFARRA)
    assert r.doubling_allowed(Doubling.SANT_VICENC, Trump.OROS)
    b = PRESETS["butinet"]
    assert (b.target, b.max_hands, b.time_limit_min, b.points_cap, b.play_rule) == (101, 12, 60, 121, "obligat")
    assert b.multiplier(Trump.BOTIFARRA, Doubling.SANT_VICENC) == 16
    g = PRESETS["girona"]
    assert (g.target, g.max_hands, g.tie_extra_hands, g.play_rule) == (None, 8, 2, "obligat")
    t = PRESETS["torrefarrera"]
    assert not t.doubling_allowed(Doubling.SANT_VICENC, Trump.OROS) and t.points_cap == 121
    assert PRESETS["regional_234"].doubling_multipliers == (2, 3, 4)


@pytest.mark.parametrize("trump,doubling,expected", [
    (Trump.OROS, Doubling.NONE, 1), (Trump.OROS, Doubling.CONTRO, 2),
    (Trump.OROS, Doubling.RECONTRO, 4), (Trump.OROS, Doubling.SANT_VICENC, 8),
    (Trump.BOTIFARRA, Doubling.NONE, 2), (Trump.BOTIFARRA, Doubling.CONTRO, 4),
    (Trump.BOTIFARRA, Doubling.RECONTRO, 8),
])
def test_multiplier(trump, doubling, expected):
    assert PRESETS["reglament"].multiplier(trump, doubling) == expected


def test_regional_multipliers():
    r = PRESETS["regional_234"]
    assert [r.multiplier(Trump.COPES, d) for d in Doubling] == [1, 2, 3, 4]
    assert r.multiplier(Trump.BOTIFARRA, Doubling.RECONTRO) == 6


def test_rules_dict_round_trip_and_overrides():
    r = Rules.from_dict({"preset": "butinet", "target": 151})
    assert r.target == 151 and r.play_rule == "obligat"
    assert Rules.from_dict(r.to_dict()) == r
    assert Rules.from_dict({}) == PRESETS["reglament"]


@pytest.mark.parametrize("data,words", [
    ({"preset": "bridge"}, "unknown preset"),
    ({"target": 0}, "target"),
    ({"target": "101"}, "target"),
    ({"colour": "red"}, "unknown setting"),
    ({"play_rule": "strict"}, "play_rule"),
    ({"target": None}, "needs a target"),
    ({"doubling_multipliers": [2, 4]}, "three whole numbers"),
    ("reglament", "must be an object"),
])
def test_bad_rules_say_what_is_wrong(data, words):
    with pytest.raises(RulesError, match=words) as e:
        Rules.from_dict(data)
    assert isinstance(e.value, ValueError)


def test_every_usual_target_is_accepted():
    from kiosk.game import TARGETS
    assert 101 in TARGETS
    for t in TARGETS:
        assert Rules.from_dict({"target": t}).target == t
