"""Property tests (hypothesis): points make 72, totals add up, undo/redo and JSON round trips."""

from hypothesis import given, settings, strategies as st

from kiosk.game import DECK, PRESETS, Match, match_from_json, points_from_piles, score_match_json

FAST = settings(max_examples=60, deadline=None)


@st.composite
def split_deck(draw):
    """The 48 cards dealt into two piles of whole tricks."""
    order = draw(st.permutations(range(48)))
    tricks_a = draw(st.integers(0, 12))
    cards = [DECK[i].code for i in order]
    return cards[: 4 * tricks_a], cards[4 * tricks_a:]


@FAST
@given(split_deck())
def test_every_hand_makes_72(piles):
    a, b = piles
    both = points_from_piles({"A": a, "B": b})
    assert sum(both.points.values()) == 72
    assert points_from_piles({"A": a}).points == both.points == points_from_piles({"B": b}).points
    assert both.tricks["A"] == len(a) // 4


def random_step(data, m):
    """One random action a table could take now (legal or a scoring event)."""
    options = list(m.legal_bids())
    if m.phase in ("doubling", "playing"):
        options.append({"type": "hand_scored", "points": {data.draw(st.sampled_from("AB")): data.draw(st.integers(0, 72))},
                        "source": "points"})
        options.append({"type": "penalty", "offender": data.draw(st.sampled_from("AB"))})
    if m.phase != "over":
        options.append({"type": "misdeal"})
    if m.phase != "over" and not m.time_up and data.draw(st.integers(0, 9)) == 0:
        options.append({"type": "time_up"})
    if m.phase != "over" and data.draw(st.integers(0, 19)) == 0:
        options.append({"type": "match_ended", "reason": "abandoned"})
    if m.can_undo:
        options.append({"type": "undo"})
    if m.can_redo:
        options.append({"type": "redo"})
    if m.hands and m.phase != "over":
        options.append({"type": "edit", "hand": data.draw(st.integers(0, len(m.hands) - 1)),
                        "data": {"trump": "copes", "points": {"A": data.draw(st.integers(0, 72))}}})
    return data.draw(st.sampled_from(options))


def play(data, preset, steps):
    m = Match.create(preset, first_dealer=data.draw(st.integers(0, 3)))
    for _ in range(steps):
        ev = random_step(data, m)
        try:
            m = m.apply(ev)
        except Exception as e:  # only an edit that would end the match early may be refused
            assert ev["type"] == "edit" and "would end" in str(e), (ev, e)
    return m


@FAST
@given(st.data(), st.sampled_from(["reglament", "girona", "regional_234"]))
def test_totals_are_the_sum_of_the_hands(data, preset):
    m = play(data, preset, data.draw(st.integers(0, 40)))
    running = {"A": 0, "B": 0}
    for h in m.hands:
        running = {t: running[t] + h.scored[t] for t in "AB"}
        assert h.totals == running
        assert h.points is None or sum(h.points.values()) == 72
        assert h.scored["A"] == 0 or h.scored["B"] == 0  # only one pair scores
    assert m.totals == running


@FAST
@given(st.data())
def test_undo_then_redo_restores_the_state(data):
    m = play(data, data.draw(st.sampled_from(sorted(PRESETS))), data.draw(st.integers(1, 30)))
    if m.can_undo:
        back = m.apply({"type": "undo"}).apply({"type": "redo"})
        assert back == m
        assert (back.phase, back.totals, back.hands, back.legal_bids()) == (m.phase, m.totals, m.hands, m.legal_bids())


@FAST
@given(st.data())
def test_from_events_rebuilds_the_same_match(data):
    m = play(data, data.draw(st.sampled_from(sorted(PRESETS))), data.draw(st.integers(0, 30)))
    assert Match.from_events(m.events) == m


@FAST
@given(st.data())
def test_json_round_trip_scores_identically(data):
    m = play(data, data.draw(st.sampled_from(sorted(PRESETS))), data.draw(st.integers(0, 30)))
    doc = m.to_json()
    again = match_from_json(doc)
    assert again.hands == m.hands and again.totals == m.totals and again.winner == m.winner
    if not (m.contract and m.contract.started):  # bids of a hand in progress are not exported
        assert (again.is_over, again.end_reason, again.phase) == (m.is_over, m.end_reason, m.phase)
    assert score_match_json(again.to_json()) == score_match_json(doc)


@FAST
@given(st.data())
def test_legal_bids_are_exactly_the_bids_that_apply(data):
    from tests.game.test_bidding import ACTIONS
    m = play(data, data.draw(st.sampled_from(sorted(PRESETS))), data.draw(st.integers(0, 25)))
    legal = m.legal_bids()
    for a in ACTIONS:
        if a in legal:
            assert m.apply(a).events[-1] == a
        else:
            try:
                m.apply(a)
            except ValueError as e:  # every BotifarraError about input is also a ValueError
                assert str(e).startswith(f"hand {m.hand_number}: "), str(e)
            except RuntimeError as e:  # MatchStateError: the match is over
                assert m.is_over and "over" in str(e)
            else:
                raise AssertionError(f"{a} applied but is not in legal_bids()")
