"""The JSON of one hand of the match JSON, as the events it stands for.

Below :mod:`kiosk.game.match` (which uses it to apply an ``edit``) and
:mod:`kiosk.game.matchjson` (which reads whole matches); it imports neither.
"""

from __future__ import annotations

from kiosk.game.bidding import Contract, bid_events, contract_for
from kiosk.game.errors import IllegalBidError, InvalidScoreError, MatchStateError
from kiosk.game.rules import Doubling, Rules, Trump

HAND_KEYS = frozenset({"trump", "delegated", "doubling", "piles", "points", "penalty", "misdeal",
             "source", "evidence", "dealer", "tricks"})


SOURCES = ("camera", "cards", "points", "json")  # where a hand's result came from

_TRUMPS = {t.value: t for t in Trump}  # the common spelling, without Trump.parse's search


def _owned(value: object) -> object:
    """A copy of a hand's piles or points (one level of lists in a dict by pair, or in a list
    by seat), else as given (the core refuses it with its own message)."""
    if isinstance(value, dict):
        return {k: list(v) if isinstance(v, list) else v for k, v in value.items()}
    if isinstance(value, list):
        return [list(v) if isinstance(v, list) else v for v in value]
    return value


def card_events(tricks: object, *, trump, first_lead: int, rules: Rules | None) -> list[dict]:
    """The ``card_played`` events of a hand's ``tricks`` (each trick's cards from its leader,
    as ``hand check`` reads them), with each card's trick and seat."""
    from kiosk.game.handcheck import PlayedHand, plays_of
    if not isinstance(tricks, list) or not all(isinstance(t, list) for t in tricks):
        raise MatchStateError("tricks must be a list of tricks, each the list of its cards in the order played")
    plays, _ = plays_of(PlayedHand.of(tricks, trump=trump, first_lead=first_lead, rules=rules))
    return [{"type": "card_played", "trick": p.trick, "seat": p.seat, "card": p.card.code} for p in plays]


def hand_events(data: object, dealer: int) -> list[dict]:
    """The events one hand of the match JSON stands for (bids, play, then the result)."""
    return read_hand(data, dealer)[0]


def read_hand(data: object, dealer: int,
              rules: Rules | None = None) -> tuple[list[dict], Contract | None]:
    """``hand_events``, and with ``rules`` the contract its bids lead to, made at once
    (``contract_for``; None when there are no bids or the bids must be made one by one)."""
    if not isinstance(data, dict):
        raise MatchStateError(
            "a hand must be an object such as {{\"trump\": \"oros\", \"points\": {{\"A\": 45}}}}")
    if not HAND_KEYS.issuperset(data):
        unknown = sorted(set(data) - HAND_KEYS)
        raise MatchStateError("unknown field {field!r} (use trump, delegated, doubling, "
                              "piles, points, penalty or misdeal)", field=unknown[0])
    check_dealer(data, dealer)
    misdeal = is_misdeal(data)
    delegated = data.get("delegated", False)
    if not isinstance(delegated, bool):
        raise MatchStateError("delegated must be true or false")
    events: list[dict] = []
    contract = None
    if "trump" in data and data["trump"] is not None:
        trump = _TRUMPS.get(data["trump"]) if isinstance(data["trump"], str) else None
        trump = trump or Trump.parse(data["trump"])
        doubling = Doubling.parse(data.get("doubling"))
        events = bid_events(dealer, trump, delegated=delegated, doubling=doubling)
        if rules is not None:
            contract = contract_for(dealer, trump, rules, delegated=delegated, doubling=doubling)
    elif not misdeal:
        raise MatchStateError("trump is missing (oros, copes, espases, bastos or botifarra)")
    elif data.get("doubling") not in (None, "none") or delegated:
        raise MatchStateError("doubling or delegated given without trump")
    if "tricks" in data:  # played trick by trick: each card one event, before the result
        if misdeal or "trump" not in data or data["trump"] is None:
            raise MatchStateError("tricks need the hand's trump")
        events += card_events(data["tricks"], trump=data["trump"], first_lead=(dealer + 1) % 4, rules=rules)
        contract = None  # the cards are folded one by one
    events.append(result_event(data, misdeal))
    return events, contract


def check_dealer(data: dict, dealer: int) -> None:
    """A hand that names its dealer names the one the rotation gives (every game alike)."""
    if "dealer" in data and data["dealer"] != dealer:
        raise MatchStateError("the dealer is seat {dealer} (from first_dealer and the rotation), "
                              "not {value!r}", dealer=dealer, value=data["dealer"])


def is_misdeal(data: dict) -> bool:
    """Whether the hand was misdealt, once it says it ended one way only: a misdeal, or one of
    piles, points and penalty (every game alike). Raises ``MatchStateError``."""
    misdeal = data.get("misdeal", False)
    if not isinstance(misdeal, bool):
        raise MatchStateError("misdeal must be true or false")
    results = [k for k in ("piles", "points", "penalty") if k in data]
    if misdeal and results:
        raise MatchStateError("a misdealt hand cannot also have {field}", field=results[0])
    if not misdeal and len(results) != 1:
        if not results:
            raise MatchStateError("say how the hand ended: piles, points, penalty or misdeal")
        raise MatchStateError("give only one of piles, points and penalty (got {fields})",
                              fields=" and ".join(results))
    return misdeal


def result_event(data: dict, misdeal: bool) -> dict:
    """The event that ends a hand of the match JSON: its misdeal, penalty or score (piles or
    points, copied: the match owns its events), with its source and evidence."""
    source, evidence = data.get("source", "json"), data.get("evidence")
    if misdeal:
        return {"type": "misdeal", "source": source, "evidence": evidence}
    if "penalty" in data:
        return {"type": "penalty", "offender": data["penalty"], "source": source,
                "evidence": evidence}
    key = "piles" if "piles" in data else "points"
    return {"type": "hand_scored", key: _owned(data[key]), "source": source, "evidence": evidence}


def result_source(ev: dict) -> tuple[str, str | None]:
    """Where a hand's closing event came from (one of ``SOURCES``) and its evidence photo,
    checked as every game checks them. Raises ``InvalidScoreError``."""
    source = ev.get("source", "cards")
    if source not in SOURCES:
        raise InvalidScoreError("unknown source {source!r} (camera, cards, points or json)", source=source)
    evidence = ev.get("evidence")
    if evidence is not None and not isinstance(evidence, str):
        raise InvalidScoreError("evidence must be an image path or null")
    return source, evidence


def check_trump_chosen(trump: object, kind: str) -> None:
    """A hand is scored (``kind`` ``hand_scored`` or ``penalty``) only once trump is chosen."""
    if trump is None:
        if kind == "penalty":
            raise IllegalBidError("trump has not been chosen, so a penalty cannot be scored yet")
        raise IllegalBidError("trump has not been chosen, so the hand cannot be scored yet")


def ended_json(said: dict, kind: str, offender: object, piles: object, points: object,
               source: str, evidence: str | None) -> dict:
    """A finished hand in the match JSON: ``said`` (its trump and doubling) and how it ended,
    as ``result_event`` reads it back: misdeal, the ``offender`` of a penalty, or its
    ``piles`` (when given) or ``points``; then its source and evidence."""
    if kind == "misdeal":
        said["misdeal"] = True
    elif kind == "penalty":
        said["penalty"] = offender
    elif piles is not None:
        said["piles"] = piles
    else:
        said["points"] = points
    said["source"] = source
    if evidence is not None:
        said["evidence"] = evidence
    return said
