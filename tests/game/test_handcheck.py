"""The hand check: winners, points and the first renunci with its proof, against a referee
written apart from kiosk.game (tests/game/handgen.py)."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from kiosk.game import BotifarraError, Trump, IllegalPlayError, InvalidCardError, MatchStateError, RulesError
from kiosk.game.handcheck import PlayedHand, check_hand, read_played_hand
from tests.game.handgen import Referee, deal_and_play

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def check(doc):
    return check_hand(read_played_hand(doc)).to_json()


def referee(doc):
    rules = doc["rules"]
    return Referee(doc["trump"], rules["play_rule"], rules["three_second"]).judge(doc["tricks"], doc["first_lead"])


def cut(doc, cards):
    """The hand as it stood after its first ``cards`` cards."""
    flat = [(n, c) for n, trick in enumerate(doc["tricks"]) for c in trick][:cards]
    tricks = [[c for n, c in flat if n == k] for k in range(12)]
    return dict(doc, tricks=[t for t in tricks if t])


# --- examples ----------------------------------------------------------------------------

def test_the_issue_example_one_trick():
    out = check({"rules": {"preset": "girona"}, "trump": "oros", "first_lead": 1,
                 "tricks": [["1O", "3O", "12O", "9O"]]})
    # seat 1 leads: 1O (1), 3O (2), 12O (3), 9O (0): the manilla wins for seat 0, pair A
    assert out == {"winners": [0], "points": {"A": 13, "B": 0}, "renunci": None}


def test_a_player_who_did_not_follow_suit_is_caught_by_his_later_card():
    # lliure, trump bastos. Trick 1: seat 0 leads 9C; seat 1 plays 2O although he holds 4C,
    # which he plays in trick 2: that proves it.
    doc = {"trump": "bastos", "first_lead": 0,
           "tricks": [["9C", "2O", "3C", "5C"], ["6C", "4C", "7C", "8C"]]}
    out = check(doc)
    assert out["winners"] == [0, 3]
    assert out["renunci"] == {"trick": 1, "seat": 1, "card": "2O", "proof": {"trick": 2, "card": "4C"}}


def test_the_card_that_shows_a_renunci_at_once_before_the_proof_is_final():
    # seat 1 does not follow the 1C; his 4C shows it, but he may still hold the 9C (which he
    # would have had to play to beat the 1C): the proof waits, shown_by does not
    doc = {"trump": "bastos", "first_lead": 0, "tricks": [["1C", "2O", "3C", "5C"], ["6C", "4C"]]}
    r = check_hand(read_played_hand(doc)).renunci
    assert (r.card.code, r.proof, r.shown_by.trick, r.shown_by.card.code) == ("2O", None, 2, "4C")


def test_obligat_not_playing_the_lowest_card_is_a_renunci_lliure_is_not():
    # an opponent wins with 9C; seat 2 cannot beat it and plays 7C, then 2C in trick 2
    tricks = [["9C", "7C", "5C", "3C"], ["2C", "8C", "4C", "6C"]]
    lliure = check({"rules": {"preset": "reglament"}, "trump": "oros", "first_lead": 0, "tricks": tricks})
    assert lliure["renunci"] is None
    # seat 1 has 7C and 8C: under obligat he had to play his lowest, 7C; fine. Seat 2 played
    # 5C holding 4C: not his lowest
    obligat = check({"rules": {"play_rule": "obligat"}, "trump": "oros", "first_lead": 0, "tricks": tricks})
    assert obligat["renunci"] == {"trick": 1, "seat": 2, "card": "5C", "proof": {"trick": 2, "card": "4C"}}


def test_botifarra_has_no_trump():
    out = check({"trump": "botifarra", "first_lead": 3, "tricks": [["8E", "9O", "9C", "1E"]]})
    assert out["winners"] == [2]          # 1E, the highest espases, for seat 2
    assert out["points"] == {"A": 15, "B": 0}


@given(SEEDS)
@settings(max_examples=150, deadline=None)
def test_a_whole_hand_makes_72_points_and_its_winners_lead_the_next_trick(seed):
    doc = deal_and_play(random.Random(seed)).doc
    out = check(doc)
    assert sum(out["points"].values()) == 72 and len(out["winners"]) == 12
    assert out == referee(doc)


# --- properties: legal hands are clean, one forbidden card is caught with its proof --------

@given(SEEDS)
@settings(max_examples=300, deadline=None)
def test_every_legal_hand_is_clean_at_every_card(seed):
    rng = random.Random(seed)
    doc = deal_and_play(rng).doc
    assert check(doc)["renunci"] is None
    for cards in rng.sample(range(1, 48), 6):
        assert check(cut(doc, cards))["renunci"] is None


@given(SEEDS)
@settings(max_examples=400, deadline=None)
def test_one_forbidden_card_is_caught_with_its_proof(seed):
    drawn = deal_and_play(random.Random(seed), renunci=True)
    if drawn.renunci is None:    # nobody ever held a forbidden card after the chosen moment
        assert check(drawn.doc)["renunci"] is None
        return
    out = check(drawn.doc)
    expected = referee(drawn.doc)
    assert out == expected
    r = out["renunci"]
    assert (r["trick"], r["seat"], r["card"]) == drawn.renunci
    assert r["proof"]["trick"] > r["trick"]
    # a whole hand always has a later card that shows it on its own (not always the proof:
    # under intermediate a point card he could have "loaded" proves nothing by itself)
    shown = check_hand(read_played_hand(drawn.doc)).renunci.shown_by
    assert shown is not None and shown.trick > r["trick"]


@given(SEEDS)
@settings(max_examples=80, deadline=None)
def test_an_unfinished_hand_never_accuses_wrongly_and_its_proof_is_final(seed):
    rng = random.Random(seed)
    drawn = deal_and_play(rng, renunci=True)
    checked = check_hand(read_played_hand(drawn.doc))
    whole = checked.to_json()
    final = checked.renunci  # (the whole hand's: the same for every cut)
    for cards in range(1, 48):
        part = cut(drawn.doc, cards)
        checked = check_hand(read_played_hand(part))  # (its JSON is ``check``'s: checked once)
        out = checked.to_json()
        assert out["winners"] == whole["winners"][:len(out["winners"])]
        r = out["renunci"]
        if r is None:
            continue
        w = whole["renunci"]
        assert (r["trick"], r["seat"], r["card"]) == (w["trick"], w["seat"], w["card"])
        assert r["proof"] in (None, w["proof"])
        # the card that shows it at once is among the cards played, and stays the same
        found = checked.renunci
        played = {c for t in part["tricks"] for c in t}
        if found.shown_by is not None:
            assert found.shown_by == final.shown_by and found.shown_by.card.code in played


def test_a_renunci_is_shown_before_the_hand_ends():
    # seat 1 shows no copes in trick 1, then plays a copa in trick 2: proven there, at card 6
    doc = {"trump": "oros", "first_lead": 0, "tricks": [["9C", "2E", "3C", "5C"], ["6C", "4C"]]}
    assert check(doc)["renunci"] == {"trick": 1, "seat": 1, "card": "2E", "proof": {"trick": 2, "card": "4C"}}
    assert check(cut(doc, 5))["renunci"] is None


def test_the_last_card_of_the_deck_is_known_before_it_is_played():
    # a hand whose proof is the 48th card: after 47 cards the one card left must be the
    # offender's, so the renunci is already proven (its proof card not yet on the table)
    for seed in range(2000):
        drawn = deal_and_play(random.Random(seed), renunci=True)
        whole = check(drawn.doc)
        if whole["renunci"] and whole["renunci"]["proof"]["card"] == drawn.doc["tricks"][-1][-1]:
            break
    else:
        pytest.fail("no drawn hand is proven by its last card")
    r = whole["renunci"]
    assert check(cut(drawn.doc, 47))["renunci"] == dict(r, proof=None)


# --- bad input ---------------------------------------------------------------------------

GOOD = {"trump": "oros", "first_lead": 1, "tricks": [["1O", "3O", "12O", "9O"], ["5C"]]}


@pytest.mark.parametrize("change,error,words", [
    ({"tricks": [["1O", "3O", "12O", "1O"]]}, IllegalPlayError, "trick 1: 1O was already played in trick 1"),
    ({"tricks": [["1O", "3O", "12O", "9O"], ["1O"]]}, IllegalPlayError, "trick 2: 1O was already played in trick 1"),
    ({"tricks": [["1O", "3O", "13O", "9O"]]}, InvalidCardError, "trick 1: unknown card '13O'"),
    ({"tricks": [["1O", "3O", "12O"], ["9O"]]}, IllegalPlayError, "trick 1: a trick has 4 cards, not 3"),
    ({"tricks": [["1O", "3O", "12O", "9O"], []]}, IllegalPlayError, "trick 2: a trick has 4 cards, not 0"),
    ({"tricks": [["1O", "3O", "12O", "9O", "2O"]]}, IllegalPlayError, "a trick has 4 cards, not 5"),
    ({"tricks": [["1O"]] * 13}, IllegalPlayError, "at most 12 tricks, not 13"),
    ({"tricks": "1O 3O"}, MatchStateError, "tricks must be a list"),
    ({"tricks": [[1, 2]]}, InvalidCardError, "unknown card 1"),
    ({"tricks": [["1O", "²O"]]}, InvalidCardError, "trick 1: unknown card '²O'"),
    ({"tricks": [["09O"]]}, InvalidCardError, "trick 1: unknown card '09O'"),
    ({"trump": None}, MatchStateError, "trump is missing"),
    ({"trump": "pebrots"}, RulesError, "unknown trump 'pebrots'"),
    ({"first_lead": 4}, MatchStateError, "first_lead must be the seat 0-3"),
    ({"first_lead": True}, MatchStateError, "first_lead must be the seat 0-3"),
    ({"first_lead": None}, MatchStateError, "first_lead must be the seat 0-3"),
    ({"rules": {"preset": "girona", "jugar": "petit"}}, RulesError, "unknown setting 'jugar'"),
    ({"rules": {"play_rule": "petit"}}, RulesError, "play_rule must be lliure, obligat or intermediate"),
    ({"rules": {"preset": ["girona"]}}, RulesError, "preset must be a name"),
    ({"rules": "lleida"}, RulesError, "unknown preset 'lleida'"),
    ({"dealer": 0}, MatchStateError, "unknown field 'dealer'"),
])
def test_bad_input_is_refused_with_its_reason(change, error, words):
    with pytest.raises(error, match=words.replace("(", r"\(")):
        read_played_hand(dict(GOOD, **change))


def test_a_hand_that_is_not_an_object_is_refused():
    with pytest.raises(MatchStateError, match="must be an object"):
        read_played_hand([["1O"]])


def test_a_played_hand_needs_a_known_play_rule():
    with pytest.raises(BotifarraError, match="unknown play rule 'petit'"):
        PlayedHand(Trump.OROS, 0, (), play_rule="petit")
