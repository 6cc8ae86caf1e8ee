"""Trump, the doubling ladder, and the match rules (presets from RULES.md)."""

from __future__ import annotations

import enum
from dataclasses import asdict, dataclass, fields, replace

from kiosk.game.cards import Suit
from kiosk.game.errors import RulesError


class Trump(enum.Enum):
    """The trump chosen for a hand; ``BOTIFARRA`` = no trump (doubles the hand)."""

    OROS = "oros"
    COPES = "copes"
    ESPASES = "espases"
    BASTOS = "bastos"
    BOTIFARRA = "botifarra"

    @property
    def suit(self) -> Suit | None:
        return None if self is Trump.BOTIFARRA else Suit[self.name]

    @classmethod
    def parse(cls, value: "Trump | str") -> "Trump":
        if isinstance(value, Trump):
            return value
        if isinstance(value, str):
            exact = _TRUMPS.get(value)  # the usual spelling, without the search below
            if exact is not None:
                return exact
            v = value.strip().lower()
            for t in cls:
                if v == t.value:
                    return t
        raise RulesError("unknown trump {value!r}: say oros, copes, espases, bastos or botifarra",
                         value=value)


class Doubling(enum.IntEnum):
    """The doubling ladder of one hand: contro, recontro, Sant Vicenç."""

    NONE = 0
    CONTRO = 1
    RECONTRO = 2
    SANT_VICENC = 3

    @property
    def key(self) -> str:
        return _DOUBLING_KEYS[self]

    @property
    def catalan(self) -> str:
        return ("cap", "contro", "recontro", "Sant Vicenç")[self]

    @classmethod
    def parse(cls, value: "Doubling | str | None") -> "Doubling":
        if isinstance(value, Doubling):
            return value
        if value is None:
            return cls.NONE
        if isinstance(value, str):
            exact = _DOUBLINGS.get(value)
            if exact is not None:
                return exact
            v = value.strip().lower().replace(" ", "_").replace("ç", "c")
            for d in cls:
                if v == d.key:
                    return d
        raise RulesError("unknown doubling {value!r}: say none, contro, recontro or sant_vicenc", value=value)


# Looked up once per bid of every hand of a match: a dict, not a search of the members.
_TRUMPS = {t.value: t for t in Trump}
_DOUBLING_KEYS = {d: d.name.lower() for d in Doubling}
_DOUBLINGS = {k: d for d, k in _DOUBLING_KEYS.items()}

PLAY_RULES = ("lliure", "obligat", "intermediate")
TARGETS = (51, 73, 100, 101, 151, 200, 201)   # targets in use (RULES.md); 101 is the default
SANT_VICENC_POLICIES = ("not_on_botifarra", "always", "never")


@dataclass(frozen=True, slots=True)
class Rules:
    """How a match is played and when it ends. Build with ``PRESETS[name]`` or
    ``Rules.from_dict({"preset": "butinet", "target": 151})``.

    End conditions combine: the match ends at whichever comes first.
    """

    preset: str = "reglament"
    target: int | None = 101          # first pair to reach it wins (None: no target)
    max_hands: int | None = None      # fixed number of hands (misdeals not counted)
    tie_extra_hands: int = 0          # Girona: a tie after max_hands -> this many more
    time_limit_min: int | None = None # the kiosk sends a time_up event when it runs out
    points_cap: int | None = None     # at most this many points counted per pair
    doubling_multipliers: tuple[int, int, int] = (2, 4, 8)  # contro, recontro, Sant Vicenç
    botifarra_multiplier: int = 2
    sant_vicenc: str = "not_on_botifarra"  # "not_on_botifarra" | "always" | "never"
    play_rule: str = "lliure"         # "lliure" | "obligat" | "intermediate"
    three_second: bool = False        # the 3 ranks second after the 9 (ordering only)

    def __post_init__(self) -> None:
        def positive(name: str, value: object, *, optional: bool = True) -> None:
            if value is None and optional:
                return
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RulesError("rules: {name} must be a whole number of at least 1, not {value!r}",
                                 name=name, value=value)

        positive("target", self.target)
        positive("max_hands", self.max_hands)
        positive("time_limit_min", self.time_limit_min)
        positive("points_cap", self.points_cap)
        positive("botifarra_multiplier", self.botifarra_multiplier, optional=False)
        if isinstance(self.tie_extra_hands, bool) or not isinstance(self.tie_extra_hands, int) \
                or self.tie_extra_hands < 0:
            raise RulesError("rules: tie_extra_hands must be 0 or more, not {value!r}",
                             value=self.tie_extra_hands)
        if self.tie_extra_hands and self.max_hands is None:
            raise RulesError("rules: tie_extra_hands needs max_hands")
        if self.target is None and self.max_hands is None:
            raise RulesError("rules: a match needs a target or a number of hands to end")
        m = self.doubling_multipliers
        if not isinstance(m, tuple) or len(m) != 3 or any(
                isinstance(x, bool) or not isinstance(x, int) or x < 1 for x in m):
            raise RulesError("rules: doubling_multipliers must be three whole numbers "
                             "(contro, recontro, Sant Vicenç), not {value!r}", value=m)
        if self.sant_vicenc not in SANT_VICENC_POLICIES:
            raise RulesError("rules: sant_vicenc must be one of {choices}, not {value!r}",
                             choices=", ".join(SANT_VICENC_POLICIES), value=self.sant_vicenc)
        if self.play_rule not in PLAY_RULES:
            raise RulesError("rules: play_rule must be lliure, obligat or intermediate, not {value!r}",
                             value=self.play_rule)
        if not isinstance(self.three_second, bool):
            raise RulesError("rules: three_second must be true or false")
        if not isinstance(self.preset, str) or not self.preset:
            raise RulesError("rules: preset must be a name")

    # -- doubling -------------------------------------------------------------------
    def doubling_allowed(self, level: Doubling, trump: Trump) -> bool:
        if level is Doubling.SANT_VICENC:
            if self.sant_vicenc == "never":
                return False
            if self.sant_vicenc == "not_on_botifarra" and trump is Trump.BOTIFARRA:
                return False
        return True

    def doubling_refusal(self, level: Doubling, trump: Trump) -> RulesError | None:
        """The error saying why the rules forbid a doubling (None when allowed)."""
        if self.doubling_allowed(level, trump):
            return None
        if self.sant_vicenc == "never":
            return RulesError("{level} is not played (preset {preset})",
                              level=Doubling.SANT_VICENC.key, preset=self.preset)
        return RulesError("{level} is not allowed when trump is botifarra (preset {preset})",
                          level=Doubling.SANT_VICENC.key, preset=self.preset)

    def multiplier(self, trump: Trump, doubling: Doubling = Doubling.NONE) -> int:
        """botifarra ×2 times the doubling (×2 ×4 ×8 by default)."""
        m = self.botifarra_multiplier if trump is Trump.BOTIFARRA else 1
        if doubling:
            m *= self.doubling_multipliers[doubling - 1]
        return m

    # -- (de)serialisation -------------------------------------------------------------
    def to_dict(self) -> dict:
        d = asdict(self)
        d["doubling_multipliers"] = list(self.doubling_multipliers)
        return d

    @classmethod
    def from_dict(cls, data: "dict | None") -> "Rules":
        """A preset name (default ``reglament``) plus overrides of any field."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise RulesError("rules must be an object such as {{\"preset\": \"reglament\", \"target\": 101}}")
        name = data.get("preset", "reglament")
        if name not in PRESETS:
            raise RulesError("unknown preset {name!r}: use one of {choices}", name=name,
                             choices=", ".join(PRESETS))
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError("rules: unknown setting {name!r}", name=unknown[0])
        overrides = {k: v for k, v in data.items() if k != "preset"}
        if "doubling_multipliers" in overrides and isinstance(overrides["doubling_multipliers"], list):
            overrides["doubling_multipliers"] = tuple(overrides["doubling_multipliers"])
        try:
            return replace(PRESETS[name], **overrides)
        except TypeError as e:  # pragma: no cover - fields are checked above
            raise RulesError("rules: {error}", error=str(e)) from None

    def describe(self) -> str:
        ends = []
        if self.target:
            ends.append(f"first to {self.target}")
        if self.max_hands:
            ends.append(f"{self.max_hands} hands")
        if self.time_limit_min:
            ends.append(f"{self.time_limit_min} min")
        if self.points_cap:
            ends.append(f"max {self.points_cap} counted")
        return f"{self.preset}: {', '.join(ends)}; {self.play_rule}"


PRESETS: dict[str, Rules] = {
    "reglament": Rules(),
    "butinet": Rules(preset="butinet", target=101, max_hands=12, time_limit_min=60,
                     points_cap=121, sant_vicenc="always", play_rule="obligat"),
    "girona": Rules(preset="girona", target=None, max_hands=8, tie_extra_hands=2,
                    play_rule="obligat"),
    "torrefarrera": Rules(preset="torrefarrera", target=101, max_hands=12, time_limit_min=55,
                          points_cap=121, sant_vicenc="never"),
    "regional_234": Rules(preset="regional_234", doubling_multipliers=(2, 3, 4)),
}
