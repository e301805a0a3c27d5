"""Vip: the trump a turned kitty card gives (rules.md 5.3.2); a pure rule bots may use too."""

from __future__ import annotations

from collections.abc import Sequence

from esmakker.core.cards import JOKER_BASE


def vip_trump(turned: Sequence[int], joker_rule: str) -> int:
    """Return the trump fixed by the last turned card (-1 for no trumps).

    A joker means no trumps, except under ``take_previous`` where it gives the
    suit of the most recent non-joker turned before it (clarification 7).
    """
    last = turned[-1]
    if last < JOKER_BASE:
        return last // 13
    if joker_rule == "take_previous":
        for card in reversed(turned):
            if card < JOKER_BASE:
                return card // 13
    return -1
