"""Hints for people: the strong bot's suggestion with a one-line reason (issue 8).

``hint(view, rng)`` searches the seat's decision as the strong bot would and returns
the suggested action with the expected points of the best few choices, so a player
can see how close the alternatives are (``play HQ: +52 (play H4 +31, play SA -12)``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from esmakker.bots.strong import DEFAULT_BUDGET_S, Choice, StrongBot
from esmakker.core.actions import Action, format_action
from esmakker.core.view import PlayerView

SHOWN_ALTERNATIVES = 2
HINT_WORLDS = 16
"""Worlds a hint searches (more than a bot's move: a person waits for one answer)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested action, the ranked choices behind it and a one-line reason."""

    action: Action
    choices: tuple[Choice, ...]
    reason: str


def hint(
    view: PlayerView,
    rng: random.Random,
    *,
    worlds: int = HINT_WORLDS,
    budget_s: float = DEFAULT_BUDGET_S,
) -> Hint:
    """Return the strong bot's suggestion for the seat to act in ``view``.

    The search stops with the worlds it has after ``budget_s`` seconds.

    Raises:
        ValueError: if the view has no legal action (not this seat's turn, or a spectator).
    """
    if not view.legal_actions:
        raise ValueError("no decision to hint at: the seat has no legal action now")
    bot = StrongBot(rng, worlds=worlds, budget_s=budget_s, search_auction=True)
    if len(view.legal_actions) == 1:
        only = view.legal_actions[0]
        return Hint(only, (), f"{format_action(only)}: the only legal action")
    choices = tuple(bot.choices(view))
    return Hint(choices[0].action, choices, _reason(choices))


def _reason(choices: tuple[Choice, ...]) -> str:
    best, *rest = choices
    others = ", ".join(
        f"{format_action(c.action)} {c.mean_score:+.0f}" for c in rest[:SHOWN_ALTERNATIVES]
    )
    text = f"{format_action(best.action)}: {best.mean_score:+.0f} expected points"
    return f"{text} (then {others})" if others else text
