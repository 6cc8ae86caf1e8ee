"""Club mode, the kiosk's side: publish the journal to a tournament's broker, receive the
round's pairing and end conditions. Kivy-free; see docs/club.md. The wire protocol
(topics and payloads) is :mod:`clubwire`, shared with the organiser's app."""

from clubwire import ClubError


def start_from_settings(settings, db_path, *, on_round=None):
    """The kiosk's in-process publisher when ``[club] broker`` and ``table`` are set, else
    None. A bad setting is logged and the kiosk runs on without club mode (the table's
    journal keeps everything; ``botifarra-kiosk club publish`` can send it later)."""
    import logging
    if not (settings["club.broker"] and settings["club.table"]):
        return None
    from kiosk.club.publisher import Publisher
    from kiosk.journal import JournalError
    try:
        publisher = Publisher(db_path, settings["club.table"], settings["club.broker"],
                              user=settings["club.user"] or None,
                              password=settings["club.password"] or None,
                              ca_file=settings["club.ca_file"] or None,
                              on_round=on_round)
        publisher.start()
    except (ClubError, JournalError, OSError) as exc:
        logging.getLogger(__name__).error("club mode off: %s", exc)
        return None
    return publisher
