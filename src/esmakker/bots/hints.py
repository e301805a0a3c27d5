"""Hints for people: the strong bot's suggestion with a one-line reason (issue 8).

``hint(view, rng)`` searches the seat's decision as the strong bot would and returns
the action the strong bot would take there, with the expected points of the best few
choices, so a player can see how close the alternatives are (``play HQ: +52 expected
points over 16 worlds (then play H4 +31, play SA -12)``). The suggestion follows the
bot's own rule (``StrongBot.decide``): where a better mean is not clearly better over
the worlds searched, the heuristic's choice stands and the reason says so.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from esmakker.bots.strong import DEFAULT_BUDGET_S, Choice, Decision, StrongBot
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
    decision = bot.decide(view)
    if not decision.choices:
        action = decision.action
        return Hint(
            action, (), f"{format_action(action)}: by the rules of thumb (no world searched)"
        )
    choices = _suggested_first(decision)
    return Hint(decision.action, choices, _reason(choices, decision))


def _suggested_first(decision: Decision) -> tuple[Choice, ...]:
    """Return the decision's choices with the suggested action first, the rest best first."""
    chosen = [c for c in decision.choices if c.action == decision.action]
    return (*chosen, *(c for c in decision.choices if c.action != decision.action))


def _reason(choices: tuple[Choice, ...], decision: Decision) -> str:
    best, *rest = choices
    worlds = f"{best.worlds} world" + ("" if best.worlds == 1 else "s")
    others = ", ".join(
        f"{format_action(c.action)} {c.mean_score:+.0f}" for c in rest[:SHOWN_ALTERNATIVES]
    )
    text = f"{format_action(best.action)}: {best.mean_score:+.0f} expected points over {worlds}"
    if others:
        text = f"{text} (then {others})"
    if decision.choices[0].mean_score > best.mean_score:
        text = f"{text}; no other choice is clearly better"
    return text
