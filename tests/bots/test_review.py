"""The post-deal review: costly choices flagged, forced and best ones never."""

from __future__ import annotations

import random

from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.review import Mistake, review, worst_first
from esmakker.core.actions import Action, Play, parse_action
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.seats import Seat
from esmakker.core.state import State
from esmakker.core.view import PlayerView, observe
from play_support import decline_all, plays
from support import make_state, rules, run

# N declares 9 in spades (E the partner, shown by DA in trick 1). In trick 2 E leads C4 and
# S covers with CQ: N, void in clubs, ruffs and wins the trick, or throws a diamond and
# lets the defence have it.
HANDS = {
    "N": "SA SK S4 S3 S2 HA H5 H4 D9 D8 D7 D6 D5",
    "E": "SQ SJ S7 HK HQ H3 DA DK D4 CA CK C4 X1",
    "S": "ST S9 S6 S5 HJ HT H9 DQ DJ D3 CQ CJ C3",
    "W": "S8 H8 H7 H6 H2 DT D2 CT C9 C8 C7 C6 C5",
}
AUCTION = ["E pass", "S pass", "W pass", "N bid 9", "N trump S", "N call DA"]
SURE = 60.0
"""A budget no search reaches: the worlds searched, and so the verdicts, never depend on load."""
RUFF = run(
    decline_all(run(make_state(rules(), "N", HANDS, "C2 X2 X3"), AUCTION)),
    plays("E DA S D3 W D2 N D5", "E C4 S CQ W C5"),
)


def _view(state: State) -> PlayerView:
    assert state.to_act is not None
    return observe(state, state.to_act)


def _last_decision(state: State, seat: Seat) -> tuple[PlayerView, Action]:
    """Play the deal out with heuristic bots; return ``seat``'s last decision (one card)."""
    bots = [HeuristicBot(random.Random(s)) for s in range(4)]
    last = None
    while not state.is_terminal:
        view = _view(state)
        action = bots[state.to_act].act(view)  # type: ignore[index]
        if view.seat == seat:
            last = (view, action)
        state = state.apply(action, view.seat)
    assert last is not None
    return last


def test_throwing_a_diamond_instead_of_ruffing_is_flagged() -> None:
    view = _view(RUFF)
    assert view.seat == Seat.N
    [mistake] = review([(view, parse_action("play D6"))], random.Random(1), budget_s=SURE)
    assert mistake.index == 0
    assert mistake.action == parse_action("play D6")
    assert mistake.best in {Play(Card.parse(name)) for name in ("S2", "S3", "S4")}
    assert mistake.cost >= view.rules.base_unit
    assert (mistake.trick, mistake.phase) == (2, Phase.PLAY)
    assert mistake.to_json()["action"] == "play D6"


def test_the_best_choice_and_a_forced_one_are_never_flagged() -> None:
    forced = _last_decision(RUFF, Seat.N)
    assert len(forced[0].legal_actions) == 1
    ruff = (_view(RUFF), parse_action("play S2"))
    assert review([ruff, forced], random.Random(1), budget_s=SURE) == []


def test_a_review_is_deterministic_and_keeps_the_decision_order() -> None:
    decisions = [
        (_view(RUFF), parse_action("play S3")),
        (_view(RUFF), parse_action("play D9")),
    ]
    first = review(decisions, random.Random(1), worlds=4, budget_s=SURE)
    assert first == review(decisions, random.Random(1), worlds=4, budget_s=SURE)
    assert [m.index for m in first] == [1]


def test_worst_first_sorts_by_cost_then_deal_order() -> None:
    play = parse_action("play D6")
    mistakes = [
        Mistake(index, play, play, cost, None, Phase.PLAY)
        for index, cost in enumerate([20.0, 50.0, 20.0])
    ]
    assert [m.index for m in worst_first(mistakes)] == [1, 0, 2]


def test_a_high_threshold_flags_nothing() -> None:
    decisions = [(_view(RUFF), parse_action("play D6"))]
    assert review(decisions, random.Random(1), min_units=1000, budget_s=SURE) == []


def test_a_stopped_review_searches_no_further_decision() -> None:
    decisions = [(_view(RUFF), parse_action("play D6")), (_view(RUFF), parse_action("play D9"))]
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 1  # the first decision is searched, the second is not

    [mistake] = review(decisions, random.Random(1), budget_s=SURE, stop=stop)
    assert mistake.index == 0
    assert len(asked) == 2
