"""Club mode's wire protocol: the MQTT topics and the typed JSON payloads that a table's
kiosk and the tournament organiser's app both speak. Standard library only, so each side
installs it without the other's dependencies (docs/club.md)."""

from clubwire.errors import BadBrokerURL, BadMessage, BadTableName, ClubError  # noqa: F401
from clubwire.payloads import (  # noqa: F401
    Ack, Confirmation, EndConditions, EventMessage, RoundAssignment, TableReport,
)
