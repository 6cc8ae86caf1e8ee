"""The deal-through's ask about a card unseen under the card just counted (issue 21, round 17):
the card counted stays counted and is named in the ask, with what the player does (lift it, show
the card under it, lay it back); lifting it off is heard as "taken back" and the ask stays until
the card under it is counted."""

from __future__ import annotations

from kiosk.game import Card
from kiosk.ui import i18n
from kiosk.ui.dealthrough import DealThrough
from vision.deck.tracker import COUNTED, TAKEN_BACK, UNDER, DealEvent


def test_a_card_unseen_under_the_one_counted_is_asked_about_and_the_count_stands(table_app):
    try:
        cards: list[str] = ["10B"]
        deal = DealThrough(table_app, service=lambda: None, cards=lambda: cards, remove=cards.remove)
        i18n.set_language("ca")
        cards.append("8C")  # (the reader's events come after the cards they counted)
        deal.show(DealEvent(COUNTED, Card.parse("8C")))
        deal.show(DealEvent(UNDER, Card.parse("8C")))
        assert deal.ask == ("8 copes comptada. N'hi ha una a sota sense veure: aixequeu-la, torneu a posar la de "
                            "sota i després aquesta a sobre."), deal.ask
        assert deal.last_card == "8 copes" and deal.take_back_text == "Traieu 8 copes" and cards == ["10B", "8C"]
        i18n.set_language("es")
        deal.show_last()
        assert deal.ask.startswith("8 copas contada. Hay una debajo sin ver: levantadla"), deal.ask

        deal.show(DealEvent(TAKEN_BACK, Card.parse("8C")))  # the player lifts 8C off: the ask stays
        assert cards == ["10B"] and deal.ask.startswith("8 copas contada.")
        cards.append("5B")
        deal.show(DealEvent(COUNTED, Card.parse("5B")))  # the card under it, laid again and counted
        assert deal.ask == "" and deal.ticked
    finally:
        i18n.set_language("ca")
