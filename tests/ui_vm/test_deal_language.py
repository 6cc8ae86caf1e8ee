"""What the deal-through asks, and what the camera's status says, are said again in the new
language when the language changes while they are shown (they used to stay in the old one: the
Spanish deal screen said "ja comptada")."""

from __future__ import annotations

from kiosk.game import Card
from kiosk.journal import Journal
from kiosk.settings import Settings
from kiosk.table import DraftStore, TableSession
from kiosk.ui import i18n
from kiosk.ui.dealthrough import DealThrough
from kiosk.ui.i18n import N_
from kiosk.ui.pilecamera import PileCamera
from vision.deck.tracker import DealEvent


def test_an_ask_shown_is_said_again_in_the_new_language(table_app):
    cards: list[str] = ["3E"]
    deal = DealThrough(table_app, service=lambda: None, cards=lambda: cards, remove=cards.remove)
    i18n.set_language("ca")
    deal.show(DealEvent("already_counted", Card.parse("12O")))
    assert deal.ask == "12 oros (rei): ja comptada. Traieu-la del munt."
    i18n.set_language("es")
    deal.show_last()  # what the screen's refresh does when the language changes
    assert deal.ask == "12 oros (rei): ya contada. Quitadla del montón.", deal.ask
    assert deal.take_back_text == "Quitad 3 espadas", deal.take_back_text

    deal.take_back()  # "Traieu l'última", then the language changed again
    assert cards == [] and deal.ask == "Quitad la última carta del montón"
    i18n.set_language("ca")
    deal.show_last()
    assert deal.ask == "Traieu l'última carta del munt"

    cards.append("1O")
    deal.show(DealEvent("counted", Card.parse("1O")))  # a card counted clears the ask ...
    i18n.set_language("es")
    deal.show_last()
    assert deal.ask == "" and deal.ticked  # ... and a language change does not bring it back


def test_the_camera_status_shown_is_said_again_in_the_new_language(tmp_path, table_app):
    db = tmp_path / "journal.sqlite"
    session = TableSession(Journal(db), settings=Settings(), drafts=DraftStore(db.with_name("draft.json")))
    session.new_match()
    session.choose_trump(session.state.bids.trumps[0])
    session.begin_score("cards")
    pile = PileCamera(session, table_app, running=N_("Deal the pile face up, one card at a time"))
    i18n.set_language("ca")
    pile.show_status("lost")  # the camera service's status, handed to the UI thread
    assert pile.status == "S'ha perdut la càmera: comproveu el cable. Es reconnectarà sola."
    i18n.set_language("es")
    pile.refresh()  # what the screen's refresh does when the language changes
    assert pile.status == "Se ha perdido la cámara: comprobad el cable. Se reconectará sola.", pile.status
    pile.show_status("running")
    i18n.set_language("ca")
    pile.refresh()
    assert pile.status == i18n._("Deal the pile face up, one card at a time") != \
        "Deal the pile face up, one card at a time"
