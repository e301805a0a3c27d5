"""The rules core of esmakker: standard library only.

>>> import random
>>> from esmakker.core import RuleSet, Seat, deal, observe
>>> state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(7))
>>> state.to_act, len(observe(state, Seat.E).hand)
(<Seat.E: 1>, 13)
"""

from esmakker.core.actions import Action, Bid, BidKind, format_action, parse_action
from esmakker.core.cards import Card, CardSet, Suit
from esmakker.core.errors import (
    CorruptRecordError,
    EsmakkerError,
    IllegalActionError,
    InvalidDealError,
    NotationError,
    Reason,
    RulesConfigError,
)
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import Result, State, Step, deal
from esmakker.core.view import PlayerView, observe

__all__ = [
    "PRESET_NAMES",
    "Action",
    "Bid",
    "BidKind",
    "Card",
    "CardSet",
    "CorruptRecordError",
    "EsmakkerError",
    "IllegalActionError",
    "InvalidDealError",
    "NotationError",
    "Phase",
    "PlayerView",
    "Reason",
    "Result",
    "RuleSet",
    "RulesConfigError",
    "Seat",
    "State",
    "Step",
    "Suit",
    "deal",
    "format_action",
    "observe",
    "parse_action",
]
