"""VariantMatch: four each for himself, three and two (rector i vicari) as event-sourced
matches: bidding, rotation, scoring, renunci, misdeal, the ends, undo / redo / edit, JSON."""

import pytest

from kiosk.game import DECK, DECK_36, IllegalBidError, InvalidPileError, Match, MatchStateError, match_from_json
from kiosk.game.errors import InvalidScoreError, RulesError
from kiosk.game.variantmatch import VariantMatch
from kiosk.game.variantrules import VariantRules


def bid(m, *events):
    for ev in events:
        m = m.apply(ev)
    return m


def hand(m, trump, points, *, contro=None):
    """One hand: the dealer names trump, maybe a contro from ``contro``, points per seat."""
    m = m.apply({"type": "trump", "seat": m.dealer, "trump": trump})
    if contro is not None:
        m = m.apply({"type": "double", "seat": contro, "level": "contro"})
    return m.apply({"type": "hand_scored", "points": points, "source": "points"})


def test_four_individual_scores_each_player_over_18_and_rotates_to_the_right():
    m = VariantMatch.create("four_individual", first_dealer=2, players=["Anna", "Pere", "Marta", "Joan"])
    assert (m.variant, m.dealer, m.phase, m.totals) == ("four_individual", 2, "choose_trump", (0, 0, 0, 0))
    m = hand(m, "oros", [20, 10, 30, 12], contro=3)
    h = m.hands[-1]
    assert (h.dealer, h.multiplier, h.scored, h.doubled_by) == (2, 2, (4, -16, 24, -12), (3,))
    assert m.dealer == 3 and m.hand_number == 2
    m = hand(m, "botifarra", [18, 18, 18, 18])
    assert m.hands[-1].multiplier == 2 and m.hands[-1].scored == (0, 0, 0, 0)
    assert m.dealer == 0


def test_without_pairs_only_contro_only_by_another_player_and_never_on_botifarra():
    m = VariantMatch.create("three")
    assert {b["type"] for b in m.legal_bids()} == {"trump"}
    with pytest.raises(IllegalBidError, match="no delegating"):
        m.apply({"type": "delegate", "seat": 0})
    with pytest.raises(IllegalBidError, match="the dealer"):
        m.apply({"type": "trump", "seat": 1, "trump": "oros"})
    with pytest.raises(IllegalBidError, match="seats are 0 to 2"):
        m.apply({"type": "trump", "seat": 3, "trump": "oros"})
    b = m.apply({"type": "trump", "seat": 0, "trump": "botifarra"})
    assert b.legal_bids() == [{"type": "play"}]
    with pytest.raises(IllegalBidError, match="botifarra"):
        b.apply({"type": "double", "seat": 1, "level": "contro"})
    o = m.apply({"type": "trump", "seat": 0, "trump": "oros"})
    assert [x["seat"] for x in o.legal_bids() if x["type"] == "double"] == [1, 2]
    with pytest.raises(IllegalBidError, match="did not choose trump"):
        o.apply({"type": "double", "seat": 0, "level": "contro"})
    c = o.apply({"type": "double", "seat": 2, "level": "contro"})
    assert c.contract.multiplier == 2 and c.legal_bids() == [{"type": "play"}]
    with pytest.raises(IllegalBidError, match="only contro"):
        c.apply({"type": "double", "seat": 1, "level": "recontro"})
    with pytest.raises(IllegalBidError, match="already said"):
        c.apply({"type": "double", "seat": 1, "level": "contro"})


def test_two_players_bid_as_the_pair_game_and_score_pair_style():
    m = VariantMatch.create("two", players=["Rector", "Vicari"])
    m = bid(m, {"type": "trump", "seat": 0, "trump": "copes"},
            {"type": "double", "seat": 1, "level": "contro"},
            {"type": "double", "seat": 0, "level": "recontro"})
    with pytest.raises(IllegalBidError, match="recontro is for"):
        bid(VariantMatch.create("two"), {"type": "trump", "seat": 0, "trump": "copes"},
            {"type": "double", "seat": 1, "level": "contro"},
            {"type": "double", "seat": 1, "level": "recontro"})
    m = m.apply({"type": "double", "seat": 1, "level": "sant_vicenc"})
    m = m.apply({"type": "hand_scored", "points": [30, 42]})
    assert m.hands[-1].scored == (0, 6 * 8) and m.totals == (0, 48)


def test_rector_i_vicari_turned_trump_is_a_suit():
    m = VariantMatch.create("two", {"two_trump": "turned"})
    assert "botifarra" not in {b["trump"] for b in m.legal_bids()}
    with pytest.raises(IllegalBidError, match="turned card"):
        m.apply({"type": "trump", "seat": 0, "trump": "botifarra"})


def test_piles_make_the_deck_of_each_game():
    three = [c.code for c in DECK_36]
    m = VariantMatch.create("three").apply({"type": "trump", "seat": 0, "trump": "oros"})
    m2 = m.apply({"type": "hand_scored", "piles": [three[:12], three[12:24], three[24:]]})
    h = m2.hands[-1]
    assert sum(h.points) == 72 and h.tricks == (4, 4, 4) and sum(h.scored) == 0
    with pytest.raises(InvalidPileError, match="2O is not in this deck"):
        m.apply({"type": "hand_scored", "piles": [three[:11] + ["2O"], three[12:24], three[24:]]})
    with pytest.raises(InvalidPileError, match="missing"):
        m.apply({"type": "hand_scored", "piles": [three[:9], three[12:24], three[24:]]})
    with pytest.raises(InvalidPileError, match="give 3 piles"):
        m.apply({"type": "hand_scored", "piles": [three[:12], three[12:]]})
    cards = [c.code for c in DECK]
    two = VariantMatch.create("two").apply({"type": "trump", "seat": 0, "trump": "oros"})
    # 13 tricks against 11: 6 and 5 trick points, the odd one to the player with fewer tricks
    h = two.apply({"type": "hand_scored", "piles": [cards[:26], cards[26:]]}).hands[-1]
    assert h.tricks == (13, 11) and sum(h.points) == 72
    assert h.points[1] - h.card_points[1] == 6 and h.points[0] - h.card_points[0] == 6


def test_points_are_one_per_seat_and_make_72():
    m = VariantMatch.create("four_individual").apply({"type": "trump", "seat": 0, "trump": "oros"})
    with pytest.raises(InvalidScoreError, match="add up to 71"):
        m.apply({"type": "hand_scored", "points": [20, 20, 20, 11]})
    with pytest.raises(InvalidScoreError, match="4 players"):
        m.apply({"type": "hand_scored", "points": [36, 36]})
    with pytest.raises(InvalidScoreError, match="a list"):
        m.apply({"type": "hand_scored", "points": {"A": 36}})


@pytest.mark.parametrize("rule, expected", [("share", (6, -18, 6, 6)), ("each", (18, -54, 18, 18))])
def test_renunci_without_pairs_costs_the_offender_and_adds_up_to_zero(rule, expected):
    m = VariantMatch.create("four_individual", {"renunci": rule})
    m = bid(m, {"type": "trump", "seat": 0, "trump": "oros"}, {"type": "penalty", "offender": 1})
    assert m.hands[-1].scored == expected and sum(expected) == 0
    m3 = bid(VariantMatch.create("three"), {"type": "trump", "seat": 0, "trump": "botifarra"},
             {"type": "penalty", "offender": 2})
    assert m3.hands[-1].scored == (24, 24, -48)
    m2 = bid(VariantMatch.create("two"), {"type": "trump", "seat": 0, "trump": "oros"},
             {"type": "penalty", "offender": 0})
    assert m2.hands[-1].scored == (0, 36)
    with pytest.raises(InvalidScoreError, match="seat 0 to 3"):
        bid(VariantMatch.create("four_individual"), {"type": "trump", "seat": 0, "trump": "oros"},
            {"type": "penalty", "offender": "A"})


def test_a_misdeal_passes_the_deal_to_the_right_and_scores_nothing():
    m = VariantMatch.create("three", first_dealer=2).apply({"type": "misdeal"})
    assert m.dealer == 0 and m.totals == (0, 0, 0) and m.hands[-1].kind == "misdeal"


def test_target_max_hands_time_and_cap():
    m = VariantMatch.create("three", {"target": 73})
    while not m.is_over:
        m = hand(m, "oros", [48, 12, 12], contro=(m.dealer + 1) % 3)
    assert (m.winner, m.end_reason, m.totals[0]) == (0, "target", 96)
    with pytest.raises(MatchStateError, match="over"):
        m.apply({"type": "misdeal"})
    m = VariantMatch.create("four_individual", {"max_hands": 2, "target": None})
    m = hand(hand(m, "oros", [30, 12, 15, 15]), "copes", [10, 20, 21, 21])
    assert (m.end_reason, m.winner) == ("hands", 0)
    m = VariantMatch.create("three", {"points_cap": 10})
    m = hand(m, "oros", [40, 16, 16])
    assert m.totals == (10, -8, -8)


def test_time_up_with_a_shared_lead_plays_on_or_draws():
    m = hand(VariantMatch.create("three"), "oros", [30, 30, 12])
    up = m.apply({"type": "time_up"})
    assert not up.is_over and up.totals == (6, 6, -12)
    up = hand(up, "copes", [25, 23, 24])
    assert (up.is_over, up.end_reason, up.winner) == (True, "time", 0)
    draw = VariantMatch.create("three", {"tie": "draw"})
    draw = hand(draw, "oros", [30, 30, 12]).apply({"type": "time_up"})
    assert (draw.is_over, draw.winner) == (True, None)


def test_undo_redo_and_edit_refold_every_total():
    m = hand(hand(VariantMatch.create("four_individual"), "oros", [30, 12, 15, 15]), "copes", [18] * 4)
    u = m.apply({"type": "undo"})
    assert u.totals == (12, -6, -3, -3) and u.can_redo
    assert u.apply({"type": "redo"}) == m
    e = m.apply({"type": "edit", "hand": 0, "data": {"trump": "oros", "points": [18, 18, 18, 18]}})
    assert e.totals == (0, 0, 0, 0)
    with pytest.raises(MatchStateError, match="no hand 3"):
        m.apply({"type": "edit", "hand": 2, "data": {"trump": "oros", "points": [18] * 4}})


def test_json_round_trip_and_dispatch_from_match():
    m = hand(VariantMatch.create("three", {"target": 200, "three_second": True}, players=["A", "B", "C"]),
             "oros", [30, 20, 22], contro=1).apply({"type": "misdeal"})
    data = m.to_json()
    assert data["variant"] == "three" and data["rules"]["three_second"] is True
    again = match_from_json(data)
    assert isinstance(again, VariantMatch) and again == m
    assert Match.from_events(m.events) == m


def test_rules_fields_are_checked():
    with pytest.raises(RulesError, match="renunci must be one of"):
        VariantRules.from_dict({"renunci": "nobody"})
    with pytest.raises(RulesError, match="unknown setting"):
        VariantRules.from_dict({"renuncia": "share"})
    with pytest.raises(RulesError, match="unknown variant"):
        VariantMatch.create("five")
    with pytest.raises(RulesError, match="3 names"):
        VariantMatch.create("three", players=["a", "b", "c", "d"])


def test_four_individual_discards_in_the_order_oros_copes_espases_bastos():
    from kiosk.game.variants import individual_discards
    assert [c.code for c in individual_discards(["3B", "5E", "12C", "2C"])] == ["12C", "2C"]
    assert [c.code for c in individual_discards(["3B", "5E"])] == ["5E"]
    assert individual_discards([]) == []


def test_the_games_each_table_size_can_play():
    from kiosk.game.variants import GAMES_FOR_PLAYERS, VARIANTS
    assert GAMES_FOR_PLAYERS == {4: ("pairs", "four_individual"), 3: ("three",), 2: ("two",)}
    assert all(VARIANTS[g].players == n for n, games in GAMES_FOR_PLAYERS.items()
               for g in games if g != "pairs")
