"""The rule set: every option key of rules.md section 9, as one frozen value.

A rule set is a preset (rules.md section 10) plus overrides. ``RuleSet.from_preset``
builds one; ``ruleset.overrides`` gives back exactly the options that differ from
its preset, which is what a hand record stores. Option values are the strings,
numbers, lists and maps of rules.md section 9; lists are held as tuples and maps
as sorted tuples of pairs so the value stays hashable.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Any

from esmakker.core.errors import RulesConfigError

ATTACHMENTS = ("vip", "gode", "halve", "staerke", "sans")
NOLO_CONTRACTS = (
    "sol",
    "ren_sol",
    "bordlaegger",
    "ren_bordlaegger",
    "super_bordlaegger",
    "double_nolo",
)
SCORING_SCHEMES = ("simple", "pywhist", "it_whist", "jlor", "toke_classic")

Pairs = tuple[tuple[str, int], ...]


def _pairs(mapping: Mapping[str, int]) -> Pairs:
    return tuple(sorted(mapping.items()))


_DEFAULT_NOLO_ANCHOR = _pairs(
    {
        "sol": 9,
        "ren_sol": 10,
        "bordlaegger": 11,
        "ren_bordlaegger": 12,
        "super_bordlaegger": 12,
        "double_nolo": 12,
    }
)
_DEFAULT_ATTACHMENT_FACTOR = _pairs(dict.fromkeys(ATTACHMENTS, 2))
_DEFAULT_NOLO_VALUES = _pairs(
    {
        "sol": 50,
        "ren_sol": 100,
        "bordlaegger": 150,
        "ren_bordlaegger": 200,
        "super_bordlaegger": 200,
        "double_nolo": 200,
    }
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSet:
    """Every rule option (rules.md section 9); build it with ``from_preset``."""

    preset: str = "wikipedia"
    """The preset this rule set starts from; ``overrides`` is measured against it."""
    # 3.1, 3.6, 4.1 deal and auction basics
    num_jokers: int = 3
    iron_hand: str = "off"
    iron_hand_redeal_dealer: str = "same"
    all_pass_redeal_dealer: str = "same"
    all_pass_action: str = "redeal"
    forehand_must_open: bool = False
    min_bid: int = 7
    # 4.2, 4.5, 4.6 the bids and their ladder
    attachments: tuple[str, ...] = ("vip", "gode", "halve")
    attachment_ranking: str = "equal_no_overcall"
    attachment_order: tuple[str, ...] = ("vip", "gode", "halve")
    nolo_contracts: tuple[str, ...] = ("sol", "ren_sol", "bordlaegger", "ren_bordlaegger")
    nolo_anchor: Pairs = _DEFAULT_NOLO_ANCHOR
    nolo_anchor_position: str = "above_plain"
    super_bordlaegger_unbeatable: bool = False
    sol_limit: str = "at_most_1"
    bordlaegger_limit: str = "at_most_1"
    # 4.3, 4.4 hold and gå med
    hold_privilege: str = "none"
    gaa_med: str = "none"
    gaa_med_settlement: str = "solo_each"
    # 5.2, 5.3 declaring
    plain_clubs_allowed: bool = True
    plain_no_trump_allowed: bool = False
    may_call_own_ace: bool = False
    king_call_trigger: str = "all_side_aces"
    partner_card_cascade: tuple[str, ...] = ("A", "K", "Q", "J")
    vip_call_before_turn: bool = True
    vip_trump_may_equal_called_suit: bool = True
    vip_joker_rule: str = "wp"
    vip_exchange: str = "mandatory_whole"
    halve_exchanger: str = "partner"
    halve_partner_special_choices: bool = False
    # 5.4 exchange
    exchange_model: str = "whole_pass_on"
    nolo_exchange: bool = True
    # 6 play
    first_lead: str = "forehand"
    no_joker_lead_trick1: bool = True
    unled_joker: str = "powerless"
    joker_only_when_void: bool = True
    after_joker_lead: str = "free"
    called_ace_forced_on_own_lead: bool = True
    called_ace_may_be_discarded: bool = True
    nolo_aces_low: bool = True
    open_timing_bordlaegger: str = "after_first_trick"
    open_who_bordlaegger: str = "declarer"
    stop_when_nolo_broken: bool = True
    double_redouble: bool = False
    marker_card: bool = False
    # 7 scoring
    base_unit: int = 10
    made_formula: str = "base_x_1_plus_over"
    failed_formula: str = "2_base_x_under"
    attachment_factor: Pairs = _DEFAULT_ATTACHMENT_FACTOR
    vip_flip_factor: Pairs | None = None
    alone_factor: int = 3
    nolo_values: Pairs = _DEFAULT_NOLO_VALUES
    nolo_fail_factor: int = 2

    _hash: int = field(init=False, compare=False, repr=False, default=0)
    """Cached hash: rule sets key many caches (the ladder, legal bids)."""

    def __post_init__(self) -> None:
        _validate(self)
        values = tuple(getattr(self, name) for name in option_names())
        object.__setattr__(self, "_hash", hash((self.preset, values)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def from_preset(
        cls, preset: str = "wikipedia", overrides: Mapping[str, Any] | None = None
    ) -> RuleSet:
        """Return a preset's rule set with option overrides (keys of rules.md section 9).

        Raises:
            RulesConfigError: for an unknown preset or option, a bad value, or a
                combination of options that makes no sense.
        """
        from esmakker.core.presets import preset_options

        options = dict(preset_options(preset))
        overrides = dict(overrides or {})
        scheme = overrides.pop("scoring_scheme", None)
        if scheme is not None:
            options.update(scoring_scheme_options(str(scheme)))
        for key, value in overrides.items():
            options[key] = _coerce(key, value)
        return cls(preset=preset, **options)

    @property
    def overrides(self) -> dict[str, Any]:
        """Return the options that differ from the preset, as JSON-ready values."""
        return dict(_overrides(self))

    @property
    def scoring_scheme(self) -> str:
        """Return the named scoring scheme these options match, or ``custom``."""
        for name, options in _scheme_table().items():
            if all(getattr(self, key) == value for key, value in options.items()):
                return name
        return "custom"

    def option(self, key: str) -> Any:
        """Return one option's JSON-ready value."""
        return _to_json(getattr(self, key))

    def attachment_factor_of(self, attachment: str) -> int:
        """Return the scoring factor of an attachment."""
        return dict(self.attachment_factor)[attachment]

    def nolo_value_of(self, contract: str) -> int:
        """Return the per-defender value of a nolo contract."""
        return dict(self.nolo_values)[contract]

    def nolo_anchor_of(self, contract: str) -> int:
        """Return the level a nolo contract is anchored at."""
        return dict(self.nolo_anchor)[contract]

    @property
    def kitty_size(self) -> int:
        """Return the number of kitty cards: one per joker (rules.md 3.1)."""
        return self.num_jokers

    def replace(self, **changes: Any) -> RuleSet:
        """Return a copy with some options changed (validated again)."""
        return dataclasses.replace(self, **{k: _coerce(k, v) for k, v in changes.items()})


@lru_cache(maxsize=256)
def _overrides(rules: RuleSet) -> tuple[tuple[str, Any], ...]:
    """Return ``rules.overrides`` as pairs (remembered: views ask for it on every frame)."""
    base = RuleSet.from_preset(rules.preset)
    return tuple(
        (key, _to_json(getattr(rules, key)))
        for key in option_names()
        if getattr(rules, key) != getattr(base, key)
    )


@cache
def option_names() -> tuple[str, ...]:
    """Return the option keys in declaration order (without ``preset``)."""
    return tuple(f.name for f in dataclasses.fields(RuleSet) if f.name not in ("preset", "_hash"))


def scoring_scheme_options(scheme: str) -> dict[str, Any]:
    """Return the scoring options a named scheme stands for (landscape.md 6.1).

    ``scoring_scheme`` is a shorthand accepted by ``from_preset``: it expands to
    these section 9 keys, and only the keys are stored.

    Raises:
        RulesConfigError: if no scheme has that name.
    """
    if scheme not in SCORING_SCHEMES:
        raise RulesConfigError(
            f"scoring_scheme {scheme!r} is unknown (expected one of {', '.join(SCORING_SCHEMES)})"
        )
    return dict(_scheme_table()[scheme])


def _scheme_table() -> dict[str, dict[str, Any]]:
    from esmakker.core.presets import SCORING_SCHEME_OPTIONS

    return SCORING_SCHEME_OPTIONS


# --- value checking -------------------------------------------------------------------

_CHOICES: dict[str, tuple[Any, ...]] = {
    "num_jokers": (2, 3),
    "iron_hand": ("off", "optional"),
    "iron_hand_redeal_dealer": ("same", "next"),
    "all_pass_redeal_dealer": ("same", "next"),
    "all_pass_action": ("redeal", "paskrig"),
    "min_bid": (7, 8, 9),
    "attachment_ranking": (
        "equal_no_overcall",
        "ordered",
        "equal_distinct_once",
        "equal_distinct_cycle",
    ),
    "sol_limit": ("at_most_1", "exactly_1", "zero"),
    "bordlaegger_limit": ("at_most_1", "exactly_1", "zero"),
    "hold_privilege": ("none", "forehand_only", "earlier_bidder"),
    "gaa_med": ("none", "nolo", "nolo_and_vip"),
    "gaa_med_settlement": ("solo_each",),
    "king_call_trigger": ("all_four_aces", "all_side_aces"),
    "vip_joker_rule": ("wp", "take_previous", "skip_first"),
    "vip_exchange": ("mandatory_whole", "optional"),
    "halve_exchanger": ("declarer", "partner"),
    "exchange_model": ("whole_pass_on", "partial_pass_remainder", "whole_declarer_only"),
    "first_lead": ("forehand", "declarer"),
    "unled_joker": ("powerless", "beats_plain"),
    "after_joker_lead": ("free", "next_card_sets_suit"),
    "open_timing_bordlaegger": (
        "after_first_trick",
        "after_first_lead",
        "after_declarer_first_card",
    ),
    "open_who_bordlaegger": ("declarer", "all"),
    "base_unit": (10, 5, 1),
    "made_formula": (
        "base_x_1_plus_over",
        "base_x_tricks",
        "base_x_tricks_minus_6",
        "flat",
        "toke",
    ),
    "failed_formula": ("2_base_x_under", "base_x_under_plus_1", "flat", "toke"),
    "alone_factor": (3,),
    "nolo_fail_factor": (1, 2),
}

_UNSUPPORTED: dict[str, Any] = {
    "all_pass_action": "paskrig",
    "gaa_med": "nolo_and_vip",
    "plain_no_trump_allowed": True,
    "halve_partner_special_choices": True,
    "double_redouble": True,
    "marker_card": True,
}
"""Values rules.md (clarifications 13, 14) leaves without a defined single-deal meaning."""

_CASCADES = (("A", "K"), ("A", "K", "Q", "J"))
_PAIR_KEYS = ("nolo_anchor", "attachment_factor", "nolo_values", "vip_flip_factor")
_TUPLE_KEYS = ("attachments", "attachment_order", "nolo_contracts", "partner_card_cascade")


def _coerce(key: str, value: Any) -> Any:
    """Turn a JSON-style option value into the stored form."""
    if key not in option_names():
        raise RulesConfigError(f"unknown rule option {key!r} (see rules.md section 9)")
    if key in _PAIR_KEYS:
        if value is None or value == "off":
            if key != "vip_flip_factor":
                raise RulesConfigError(f"rule option {key} needs a map, got {value!r}")
            return None
        if isinstance(value, Mapping):
            return _pairs({str(k): v for k, v in value.items()})
        if isinstance(value, tuple):
            return value
        raise RulesConfigError(f"rule option {key} needs a map, got {value!r}")
    if key in _TUPLE_KEYS:
        if isinstance(value, str) or not hasattr(value, "__iter__"):
            raise RulesConfigError(f"rule option {key} needs a list, got {value!r}")
        return tuple(value)
    return value


def _to_json(value: Any) -> Any:
    if value is None:
        return "off"
    if isinstance(value, tuple) and value and isinstance(value[0], tuple):
        return dict(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def _fail(message: str) -> None:
    raise RulesConfigError(message)


def _validate(rules: RuleSet) -> None:
    _validate_values(rules)
    _validate_collections(rules)
    _validate_conflicts(rules)


def _validate_values(rules: RuleSet) -> None:
    for key, choices in _CHOICES.items():
        value = getattr(rules, key)
        if value not in choices or type(value) is not type(choices[0]):
            _fail(
                f"rule option {key} = {value!r} is not one of {', '.join(repr(c) for c in choices)}"
            )
    for f in dataclasses.fields(RuleSet):
        if f.type in ("bool",) and not isinstance(getattr(rules, f.name), bool):
            _fail(f"rule option {f.name} must be true or false, got {getattr(rules, f.name)!r}")
    for key, value in _UNSUPPORTED.items():
        if getattr(rules, key) == value:
            _fail(
                f"rule option {key} = {_to_json(value)!r} is unsupported: rules.md gives it "
                "no single-deal meaning yet (clarifications 13 and 14)"
            )


def _validate_collections(rules: RuleSet) -> None:
    _check_subset("attachments", rules.attachments, ATTACHMENTS)
    _check_subset("nolo_contracts", rules.nolo_contracts, NOLO_CONTRACTS)
    _check_subset("attachment_order", rules.attachment_order, ATTACHMENTS)
    if rules.partner_card_cascade not in _CASCADES:
        _fail("rule option partner_card_cascade must be ['A', 'K'] or ['A', 'K', 'Q', 'J']")
    nolos, attachments = rules.nolo_contracts, rules.attachments
    _check_map("nolo_anchor", rules.nolo_anchor, nolos, range(7, 14), NOLO_CONTRACTS)
    _check_map("nolo_values", rules.nolo_values, nolos, range(1, 100001), NOLO_CONTRACTS)
    _check_map(
        "attachment_factor", rules.attachment_factor, attachments, range(1, 101), ATTACHMENTS
    )
    if rules.vip_flip_factor is not None:
        counts = tuple(str(n) for n in range(1, rules.kitty_size + 1))
        flips = ("1", "2", "3")
        _check_map("vip_flip_factor", rules.vip_flip_factor, counts, range(1, 101), flips)


def _check_subset(key: str, values: tuple[str, ...], allowed: tuple[str, ...]) -> None:
    for value in values:
        if value not in allowed:
            _fail(f"rule option {key} holds {value!r}, which is not one of {', '.join(allowed)}")
    if len(set(values)) != len(values):
        _fail(f"rule option {key} lists a value twice: {list(values)}")


def _check_map(
    key: str, pairs: Pairs, needed: tuple[str, ...], allowed: range, known: tuple[str, ...]
) -> None:
    mapping = dict(pairs)
    for name in mapping:
        if name not in known:
            _fail(
                f"rule option {key} has an entry for {name!r}, which is not one of {', '.join(known)}"
            )
    for name in needed:
        if name not in mapping:
            _fail(f"rule option {key} has no entry for {name!r}")
    for name, value in mapping.items():
        if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
            _fail(f"rule option {key}[{name!r}] = {value!r} is out of range")


def _validate_conflicts(rules: RuleSet) -> None:
    if rules.attachment_ranking == "ordered" and not set(rules.attachments) <= set(
        rules.attachment_order
    ):
        _fail(
            "rule options attachment_order and attachments conflict: with ordered ranking "
            "attachment_order must rank every attachment"
        )
    position = rules.nolo_anchor_position
    if position.startswith("above_attachment:"):
        name = position.split(":", 1)[1]
        if rules.attachment_ranking != "ordered" or name not in rules.attachments:
            _fail(
                "rule options nolo_anchor_position and attachment_ranking conflict: "
                f"{position!r} needs ordered attachments that include {name!r}"
            )
    elif position not in ("above_plain", "above_all_of_level"):
        _fail(f"rule option nolo_anchor_position = {position!r} is not a known position")
    if not rules.vip_trump_may_equal_called_suit and rules.vip_call_before_turn:
        _fail(
            "rule options vip_trump_may_equal_called_suit = false and vip_call_before_turn "
            "= true conflict: the ace is called before the trump is known (clarification 12)"
        )
    if rules.super_bordlaegger_unbeatable and "super_bordlaegger" not in rules.nolo_contracts:
        _fail(
            "rule options super_bordlaegger_unbeatable and nolo_contracts conflict: "
            "super_bordlaegger is not a contract"
        )
    if rules.gaa_med != "none" and not rules.nolo_contracts:
        _fail("rule options gaa_med and nolo_contracts conflict: there is no nolo contract to join")
    if rules.min_bid > min(dict(rules.nolo_anchor).values(), default=13) and rules.nolo_contracts:
        anchors = {c: rules.nolo_anchor_of(c) for c in rules.nolo_contracts}
        low = [c for c, level in anchors.items() if level < rules.min_bid]
        if low:
            _fail(
                f"rule options min_bid and nolo_anchor conflict: {', '.join(low)} "
                f"anchored below the minimum bid {rules.min_bid}"
            )
