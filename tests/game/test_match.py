"""The event-sourced match: apply, undo/redo, edit, ends, phases."""

import pytest

from kiosk.game import (
    DECK, BotifarraError, IllegalBidError, InvalidPileError, Match, MatchStateError, Rules,
)


def bids(m, trump="oros", doubling=(), delegated=False):
    d = m.dealer
    if delegated:
        m = m.apply({"type": "delegate", "seat": d})
        m = m.apply({"type": "trump", "seat": (d + 2) % 4, "trump": trump})
    else:
        m = m.apply({"type": "trump", "seat": d, "trump": trump})
    for lv in doubling:
        seat = d if lv == "recontro" else (d + 1) % 4
        m = m.apply({"type": "double", "seat": seat, "level": lv})
    return m.apply({"type": "play"})


def hand(m, a_points, trump="oros", doubling=()):
    return bids(m, trump, doubling).apply({"type": "hand_scored", "points": {"A": a_points}, "source": "points"})


def test_apply_returns_a_new_match_and_never_mutates():
    m0 = Match.create("reglament")
    m1 = m0.apply({"type": "trump", "seat": 0, "trump": "oros"})
    assert m0.phase == "choose_trump" and m1.phase == "doubling"
    assert len(m0.events) == 1 and len(m1.events) == 2
    ev = {"type": "trump", "seat": 0, "trump": "copes"}
    m2 = m0.apply(ev)
    ev["trump"] = "oros"  # the caller's dict changing later must not reach the match
    assert m2.contract.trump.value == "copes"


def test_phases_through_a_hand():
    m = Match.create()
    assert m.phase == "choose_trump"
    m = m.apply({"type": "delegate", "seat": 0})
    assert m.phase == "delegated"
    m = m.apply({"type": "trump", "seat": 2, "trump": "botifarra"})
    assert m.phase == "doubling" and m.contract.multiplier == 2 and m.contract.trump_team == "A"
    m = m.apply({"type": "double", "seat": 1, "level": "contro"})
    assert m.contract.multiplier == 4
    m = m.apply({"type": "play"})
    assert m.phase == "playing" and m.legal_bids() == []
    m = m.apply({"type": "hand_scored", "points": {"B": 45}, "source": "points"})
    assert m.totals == {"A": 0, "B": 36}
    assert m.phase == "choose_trump" and m.dealer == 1 and m.roles.first_lead == 2
    h = m.hands[0]
    assert (h.number, h.dealer, h.kind, h.delegated, h.multiplier) == (1, 0, "played", True, 4)


def test_hand_number_in_error_messages():
    m = hand(hand(Match.create(), 45), 40)
    m = bids(m, "botifarra", ("contro", "recontro"))
    with pytest.raises(IllegalBidError) as e:
        hand(Match.create(), 40).apply({"type": "trump", "seat": 0, "trump": "oros"})
    assert str(e.value).startswith("hand 2: ")
    m = Match.create()
    m = m.apply({"type": "trump", "seat": 0, "trump": "botifarra"})
    m = m.apply({"type": "double", "seat": 1, "level": "contro"})
    m = m.apply({"type": "double", "seat": 2, "level": "recontro"})
    with pytest.raises(IllegalBidError) as e:
        m.apply({"type": "double", "seat": 3, "level": "sant_vicenc"})
    assert str(e.value) == "hand 1: Sant Vicenç is not allowed when trump is botifarra (preset reglament)"


def test_score_before_trump_is_refused():
    with pytest.raises(IllegalBidError, match="hand 1: trump has not been chosen"):
        Match.create().apply({"type": "hand_scored", "points": {"A": 40}})


def test_bad_piles_name_the_hand():
    m = bids(Match.create())
    with pytest.raises(InvalidPileError, match="^hand 1: pile A has 3 cards"):
        m.apply({"type": "hand_scored", "piles": {"A": ["9O", "1O", "12O"]}})


def test_target_ends_the_match_and_later_hands_are_refused():
    m = Match.create(Rules.from_dict({"target": 51}))
    for _ in range(5):
        m = hand(m, 46)  # +10 each
    assert not m.is_over and m.totals["A"] == 50
    m = hand(m, 37)
    assert m.is_over and m.winner == "A" and m.phase == "over" and m.end_reason == "target"
    assert m.legal_bids() == [] and m.contract is None
    with pytest.raises(MatchStateError, match="hand 7: the match is over: team A reached 51 in hand 6"):
        m.apply({"type": "trump", "seat": m.dealer, "trump": "oros"})


def test_undo_and_redo_bids_and_hands():
    m0 = Match.create()
    assert not m0.can_undo and not m0.can_redo
    with pytest.raises(MatchStateError, match="nothing to undo"):
        m0.apply({"type": "undo"})
    m1 = hand(m0, 45)
    m2 = m1.apply({"type": "undo"})
    assert m2.phase == "playing" and m2.totals == {"A": 0, "B": 0} and m2.can_redo
    m3 = m2.apply({"type": "redo"})
    assert m3 == m1 and m3.totals == {"A": 9, "B": 0}
    assert not m3.can_redo
    with pytest.raises(MatchStateError, match="nothing to redo"):
        m3.apply({"type": "redo"})
    # a new action after undo drops the redo
    m4 = m2.apply({"type": "undo"}).apply({"type": "double", "seat": 1, "level": "contro"})
    assert not m4.can_redo


def test_undo_after_the_end_reopens_the_match():
    m = Match.create(Rules.from_dict({"target": 10}))
    m = hand(m, 50)
    assert m.is_over
    assert m.apply({"type": "undo"}).phase == "playing"


def test_misdeal_voids_the_hand_and_the_deal_passes_right():
    m = Match.create(first_dealer=3)
    m = m.apply({"type": "misdeal"})
    h = m.hands[0]
    assert (h.kind, h.dealer, h.scored, h.multiplier) == ("misdeal", 3, {"A": 0, "B": 0}, None)
    assert m.dealer == 0 and m.phase == "choose_trump"


def test_penalty():
    m = bids(Match.create(), "copes", ("contro", "recontro"))
    m = m.apply({"type": "penalty", "offender": "A"})
    assert m.hands[0].scored == {"A": 0, "B": 144} and m.hands[0].kind == "penalty"
    with pytest.raises(BotifarraError, match="offender"):
        bids(Match.create()).apply({"type": "penalty", "offender": "C"})


def test_edit_a_past_hand_recomputes_totals():
    m = hand(hand(hand(Match.create(), 45), 30), 40)
    assert [h.totals for h in m.hands] == [{"A": 9, "B": 0}, {"A": 9, "B": 6}, {"A": 13, "B": 6}]
    e = m.apply({"type": "edit", "hand": 1, "data": {"trump": "botifarra", "points": {"B": 46}}})
    assert [h.totals for h in e.hands] == [{"A": 9, "B": 0}, {"A": 9, "B": 20}, {"A": 13, "B": 20}]
    assert e.hands[1].dealer == 1 and e.hands[1].trump.value == "botifarra"
    assert e.apply({"type": "undo"}) == m
    with pytest.raises(MatchStateError, match="no hand 4 to change"):
        m.apply({"type": "edit", "hand": 3, "data": {"misdeal": True}})
    with pytest.raises(IllegalBidError, match="^hand 2: Sant Vicenç"):
        m.apply({"type": "edit", "hand": 1, "data": {"trump": "botifarra", "doubling": "sant_vicenc",
                                                       "points": {"A": 40}}})


def test_edit_that_would_end_the_match_early_is_refused():
    m = Match.create(Rules.from_dict({"target": 20}))
    m = hand(hand(m, 45), 45)  # 18
    with pytest.raises(MatchStateError, match="would end after hand 1"):
        m.apply({"type": "edit", "hand": 0, "data": {"trump": "oros", "points": {"A": 60}}})


def test_fixed_hands_highest_total_wins_or_draw():
    m = Match.create(Rules.from_dict({"target": None, "max_hands": 2}))
    m = hand(hand(m, 45), 27)
    assert m.is_over and m.winner is None and m.end_reason == "hands"
    m2 = hand(hand(Match.create(Rules.from_dict({"target": None, "max_hands": 2})), 45), 30)
    assert m2.winner == "A"


def test_misdeals_do_not_count_as_hands():
    m = Match.create(Rules.from_dict({"target": None, "max_hands": 1}))
    m = m.apply({"type": "misdeal"})
    assert not m.is_over
    assert hand(m, 40).is_over


def test_girona_tie_plays_two_more_hands():
    m = Match.create("girona")
    for i in range(8):
        m = hand(m, 45 if i % 2 == 0 else 27)  # A +9, B +9 ...
    assert m.totals == {"A": 36, "B": 36} and not m.is_over
    m = hand(m, 40)
    assert not m.is_over  # hand 9 of 10
    m = hand(m, 36)
    assert m.is_over and m.winner == "A" and len(m.hands) == 10


def test_time_up_ends_after_the_hand_in_progress():
    m = bids(Match.create("butinet"))
    m = m.apply({"type": "time_up"})
    assert not m.is_over and m.time_up
    m = m.apply({"type": "hand_scored", "points": {"B": 50}})
    assert m.is_over and m.winner == "B" and m.end_reason == "time"
    # between hands: over at once
    m = hand(Match.create("butinet"), 40).apply({"type": "time_up"})
    assert m.is_over and m.winner == "A"
    with pytest.raises(MatchStateError, match="over"):
        m.apply({"type": "time_up"})


def test_points_cap_counts_at_most_121():
    m = Match.create("butinet")
    m = hand(m, 72, "botifarra", ("contro", "recontro"))  # (72-36) x 8 = 288
    assert m.is_over and m.totals == {"A": 121, "B": 0}
    assert m.hands[0].scored == {"A": 121, "B": 0}


def test_match_ended_abandoned():
    m = hand(Match.create(), 45).apply({"type": "match_ended", "reason": "abandoned"})
    assert m.is_over and m.winner is None and m.end_reason == "abandoned"
    assert m.apply({"type": "undo"}).phase == "choose_trump"


def test_from_events_replays_the_journal():
    m = hand(hand(Match.create(players=["Anna", "Pere", "Marta", "Joan"]), 45), 30)
    for _ in range(3):  # hand_scored, play, trump
        m = m.apply({"type": "undo"})
    m = m.apply({"type": "trump", "seat": 1, "trump": "espases"})
    assert m.phase == "doubling" and m.can_undo
    again = Match.from_events(m.events)
    assert again == m and again.events == m.events and again.players[0] == "Anna"


@pytest.mark.parametrize("events,words", [
    ([], "no events"),
    ([{"type": "trump"}], "first event must be match_created"),
    ([{"type": "match_created", "rules": {"preset": "x"}}], "unknown preset"),
    ([{"type": "match_created", "first_dealer": 5}], "first_dealer"),
    ([{"type": "match_created", "players": ["a"]}], "players"),
    ([{"type": "match_created"}, {"type": "jump"}], "unknown event type"),
    ([{"type": "match_created"}, {"type": "match_created"}], "already exists"),
    ([{"type": "match_created"}, "trump"], "must be an object"),
])
def test_from_events_errors(events, words):
    with pytest.raises(BotifarraError, match=words):
        Match.from_events(events)


def test_edit_can_reopen_a_finished_match():
    m = Match.create(Rules.from_dict({"target": 20}))
    m = hand(hand(m, 45), 50)  # 9 + 14 = 23: over
    assert m.is_over
    e = m.apply({"type": "edit", "hand": 1, "data": {"trump": "oros", "points": {"A": 40}}})
    assert not e.is_over and e.phase == "choose_trump" and e.totals == {"A": 13, "B": 0}
    assert e.hands[1].source == "points"
    assert e.dealer == 2 and e.legal_bids()[0] == {"type": "trump", "seat": 2, "trump": "oros"}


def test_edit_that_would_end_the_match_during_a_hand_in_progress_is_refused():
    m = Match.create(Rules.from_dict({"target": 20}))
    m = hand(m, 45).apply({"type": "trump", "seat": 1, "trump": "oros"})
    with pytest.raises(MatchStateError, match="hand 2 has already begun"):
        m.apply({"type": "edit", "hand": 0, "data": {"trump": "oros", "points": {"A": 60}}})
    with pytest.raises(MatchStateError, match="'hand' must be the index"):
        m.apply({"type": "edit", "hand": "first", "data": {}})


def test_state_and_records_as_plain_data():
    import json
    m = hand(Match.create(), 45, "botifarra", ("contro",))
    m = m.apply({"type": "trump", "seat": 1, "trump": "copes"})
    st = m.state()
    assert st["phase"] == "doubling" and st["hand"] == 2 and st["contract"]["trump_team"] == "B"
    rec = m.hands[0].to_dict()
    assert rec["scored"] == {"A": 36, "B": 0} and rec["doubling"] == "contro" and rec["multiplier"] == 4
    json.dumps(st), json.dumps(rec)
    assert m.hands[0].winner == "A"


def test_available_events_follow_the_phase():
    m = Match.create()
    assert m.available_events() == ["misdeal", "time_up", "match_ended"]
    m = m.apply({"type": "trump", "seat": 0, "trump": "oros"})
    assert m.available_events()[:2] == ["hand_scored", "penalty"] and "undo" in m.available_events()
    m = Match.create(Rules.from_dict({"target": 5})).apply({"type": "trump", "seat": 0, "trump": "oros"})
    m = m.apply({"type": "hand_scored", "points": {"A": 50}})
    assert m.is_over and m.available_events() == ["edit", "undo"]


def test_rematch_continues_the_dealing():
    m = Match.create(Rules.from_dict({"target": 5}), first_dealer=2, players=["a", "b", "c", "d"],
                     team_names={"A": "Els de casa", "B": "Visitants"})
    m = hand(m, 50)
    r = m.rematch()
    assert r.first_dealer == 3 and r.players == m.players and r.team_names == m.team_names
    assert r.rules == m.rules and r.hands == [] and r.phase == "choose_trump"


def test_preview_before_confirming_changes_nothing():
    m = bids(Match.create(), "botifarra", ("contro",))
    preview = m.apply({"type": "hand_scored", "piles": {"A": [c.code for c in DECK[:12]]}})
    h = preview.hands[-1]
    assert (h.card_points["A"], h.tricks["A"], h.points["A"], h.scored["A"]) == (15, 3, 18, 0)
    assert h.scored["B"] == (54 - 36) * 4 and m.hands == []
