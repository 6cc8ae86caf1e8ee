"""The game's words as the kiosk shows them, kept once: trumps, the doubling ladder, the
rules presets (marked for gettext; translated where shown). Kivy-free: the screens and the
PDF score sheet both read them. The keys are the core's (``Trump.value``, ``Doubling.key``,
``kiosk.game.PRESETS``)."""

from __future__ import annotations

from kiosk.game import PRESETS as RULES_PRESETS
from kiosk.game import TARGETS, Doubling, Trump
from kiosk.ui.i18n import N_, _

TRUMP_NAMES = {"oros": N_("Oros"), "copes": N_("Copes"), "espases": N_("Espases"), "bastos": N_("Bastos"),
               "botifarra": N_("Botifarra")}
TRUMPS = tuple(t.value for t in Trump)
LEVEL_NAMES = {"none": "", "contro": N_("Contro"), "recontro": N_("Recontro"),
               "sant_vicenc": N_("Sant Vicenç")}
LEVELS = tuple(d.key for d in Doubling if d is not Doubling.NONE)
PRESET_NAMES = {"reglament": N_("Reglament"), "butinet": N_("Butinet (tournament)"),
                "girona": N_("Girona (8 hands)"), "torrefarrera": N_("Torrefarrera"),
                "regional_234": N_("Regional 2-3-4")}
PRESETS = tuple(RULES_PRESETS)
__all__ = ["TRUMP_NAMES", "TRUMPS", "LEVEL_NAMES", "LEVELS", "PRESET_NAMES", "PRESETS", "TARGETS",
           "trump_name", "level_name"]


def trump_name(trump: str | None) -> str:
    return _(TRUMP_NAMES.get(trump, "")) if trump else ""


def level_name(level: str | None) -> str:
    return _(LEVEL_NAMES.get(level or "none", "")) if level and level != "none" else ""
