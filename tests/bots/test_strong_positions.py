"""The strong bot's known-answer positions: endings where the right card is sure.

Each position is dealt through the engine (chosen hands, a fixed auction, a declined
exchange, eight tricks played) so that five tricks are left: the bot values the cards
by the double-dummy solver in every world it samples. Each test checks the bot's card
and that the card is right for the right reason: in every sampled world the solver
scores it at least as high as every other card, and higher in some. The heuristic bot
plays all three right too (asserted, so a change shows); where the search gains on it
is measured over many endings instead (decision 92).
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from esmakker.bots.endgame import NODE_LIMIT, Ending, card_scores, new_ending, warm_up
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.sampling import sample_world
from esmakker.bots.strong import CHAIN_WORLDS_FACTOR, StrongBot, _rollout
from esmakker.core.actions import Play
from esmakker.core.cards import Card
from esmakker.core.rules import RuleSet
from esmakker.core.state import State
from esmakker.core.view import PlayerView, observe
from esmakker.solver.jit import HAVE_NUMBA
from esmakker.solver.solve import Solver, SolverGaveUpError
from play_support import decline_all, plays
from support import make_state, run

WP = RuleSet.from_preset("wikipedia")

# Dealer N; N declares 9 in spades and calls DA (S is the partner); E and W defend.
# E shows out of hearts in trick 3; N draws trumps in tricks 4-7; trick 8 leaves the lead
# with S. Five tricks are left.
FINESSE_DEAL = {
    "N": "C3 D7 H7 SA SK SQ SJ D9 HA HQ H4 D3 D2",
    "E": "C8 D8 C4 ST S9 S8 C5 C6 CK CQ CJ CT C9",
    "S": "CA DA H2 S7 S6 S5 H8 DT H6 H5 DK DQ DJ",
    "W": "C2 D6 H3 S4 S3 S2 C7 D4 HK HJ HT H9 D5",
}
NUMBER_AUCTION = ["E pass", "S pass", "W pass", "N bid 9", "N trump S", "N call DA"]
NUMBER_TRICKS = (
    "E C8 S CA W C2 N C3",
    "S DA W D6 N D7 E D8",
    "S H2 W H3 N H7 E C4",
    "N SA E ST S S7 W S4",
    "N SK E S9 S S6 W S3",
    "N SQ E S8 S S5 W S2",
    "N SJ E C5 S H8 W C7",
)

# The same deal with N's HA swapped for the joker X1 (HA lies in the kitty) and N's D9 for
# S's DT, so that N wins trick 8 and leads to trick 9 with X1 HQ H4 D3 D2.
JOKER_DEAL = {
    "N": "C3 D7 H7 SA SK SQ SJ DT X1 HQ H4 D3 D2",
    "E": FINESSE_DEAL["E"],
    "S": "CA DA H2 S7 S6 S5 H8 D9 H6 H5 DK DQ DJ",
    "W": FINESSE_DEAL["W"],
}

# Dealer N; E (forehand) plays ren sol: no trick at all, aces low. E loses the first
# eight tricks; W leads a heart to trick 9 and N follows low.
REN_SOL_DEAL = {
    "N": "S8 S9 ST D6 D9 DQ C8 C9 H5 H6 H7 H2 H3",
    "E": "S3 S4 S5 D3 D4 D5 C3 C4 H9 H4 S2 D2 C2",
    "S": "S7 SJ SQ D7 DT DK C6 CT HA HT HJ CQ CK",
    "W": "S6 SK SA D8 DJ DA C7 CJ H8 HK HQ CA C5",
}
REN_SOL_AUCTION = ["E bid ren_sol", "S pass", "W pass", "N pass"]
REN_SOL_TRICKS = (
    "E S3 S S7 W S6 N S8",
    "N S9 E S4 S SJ W SA",
    "S SQ W SK N ST E S5",
    "W D8 N D9 E D3 S D7",
    "N D6 E D4 S DT W DJ",
    "W DA N DQ E D5 S DK",
    "S C6 W C7 N C8 E C3",
    "N C9 E C4 S CT W CJ",
)


def position(
    hands: dict[str, str], kitty: str, auction: list[str], *tricks: str
) -> tuple[State, PlayerView]:
    """Return the deal after the auction, a declined exchange and ``tricks``, and the view."""
    state = run(make_state(WP, "N", hands, kitty), auction)
    state = run(decline_all(state), plays(*tricks))
    seat = state.to_act
    assert seat is not None
    return state, observe(state, seat)


def finesse() -> tuple[State, PlayerView]:
    return position(
        FINESSE_DEAL, "X1 X2 X3", NUMBER_AUCTION, *NUMBER_TRICKS, "N D9 E C6 S DT W D4", "S H6 W H9"
    )


def joker_lead() -> tuple[State, PlayerView]:
    return position(JOKER_DEAL, "HA X2 X3", NUMBER_AUCTION, *NUMBER_TRICKS, "N DT E C6 S D9 W D4")


def ren_sol_duck() -> tuple[State, PlayerView]:
    return position(REN_SOL_DEAL, "X1 X2 X3", REN_SOL_AUCTION, *REN_SOL_TRICKS, "W H8 N H5")


def strong_card(view: PlayerView, seed: int = 0) -> str:
    action = StrongBot(random.Random(seed), budget_s=1e9).act(view)
    assert isinstance(action, Play)
    return action.card.name


def heuristic_card(view: PlayerView) -> str:
    action = HeuristicBot(random.Random(0)).act(view)
    assert isinstance(action, Play)
    return action.card.name


def dominates(view: PlayerView, card: str, worlds: int = 12) -> bool:
    """Return whether the solver scores ``card`` best in every sampled world, strictly in one.

    In points: the trick tie-break (``TRICK_TIE``) is left out.
    """
    assert view.seat is not None
    rng = random.Random(7)
    strict = False
    for _ in range(worlds):
        scores = {
            c.name: round(s)
            for c, s in card_scores(
                sample_world(view, rng), int(view.seat), new_ending().solver
            ).items()
        }
        others = [s for c, s in scores.items() if c != card]
        if scores[card] < max(others):
            return False
        strict = strict or scores[card] > min(others)
    return strict


def test_a_finesse_against_a_known_void_plays_the_queen() -> None:
    """S leads H6, W plays H9; E showed out of hearts, so HK is with W (or laid away).

    HQ wins now and HA later; HA now would set up W's king. The heuristic finds HQ too.
    """
    _, view = finesse()
    assert strong_card(view) == "HQ"
    assert dominates(view, "HQ")
    assert heuristic_card(view) == "HQ"


def test_the_ren_sol_declarer_ducks_under_the_led_card() -> None:
    """W leads H8 and N plays H5: E (ren sol, no trick allowed) must play H4, not H9.

    The heuristic ducks as well.
    """
    _, view = ren_sol_duck()
    assert strong_card(view) == "H4"
    assert dominates(view, "H4")
    assert heuristic_card(view) == "H4"


def test_a_joker_is_led_while_its_holder_has_the_lead() -> None:
    """N leads to trick 9 with X1 HQ H4 D3 D2: a led joker wins (after trick 1), an unled
    one never does, and N holds no other sure winner to come back with: X1 now.

    The heuristic leads the joker too (it has no sure side winner to cash first).
    """
    _, view = joker_lead()
    assert strong_card(view) == "X1"
    assert dominates(view, "X1")
    assert heuristic_card(view) == "X1"


@pytest.mark.parametrize("build", [finesse, joker_lead, ren_sol_duck])
def test_every_world_of_a_known_position_is_valued_by_the_solver(
    build: Callable[[], tuple[State, PlayerView]],
) -> None:
    _, view = build()
    bot = StrongBot(random.Random(3), budget_s=1e9)
    search = bot._search(view, HeuristicBot(random.Random(3)).act(view))
    assert set(search.candidates) == set(view.legal_actions)
    assert search.solved is not None
    ending = bot._current_ending()
    _, searched = bot._allowance(view, ending, bot._chained(view, ending))
    assert searched >= bot.worlds
    assert all(len(row) == searched for row in search.solved)


def test_a_rollout_that_ends_double_dummy_scores_a_known_ending_exactly() -> None:
    """From 5 tricks left the roll-out is the solver's: each card's score is its card_scores."""
    state, view = finesse()
    seat = int(state.to_act or 0)
    solver = Solver(pure=True, node_limit=NODE_LIMIT)
    ending = Ending(solver, tricks=0, rollout_tricks=5, rollout_node_limit=NODE_LIMIT)
    exact = card_scores(state, seat, solver)
    for action in view.legal_actions:
        assert isinstance(action, Play)
        assert _rollout(state, view, action, 1, ending) == exact[action.card]
    assert max(exact, key=lambda c: exact[c]).name == "HQ"


def test_a_rollout_whose_solver_gives_up_is_played_to_the_end() -> None:
    state, view = joker_lead()
    plain = Ending(Solver(pure=True), tricks=0)
    given_up = Ending(Solver(pure=True), tricks=0, rollout_tricks=5, rollout_node_limit=1)
    solved = Ending(Solver(pure=True), tricks=0, rollout_tricks=5)
    for action in view.legal_actions:
        played = _rollout(state, view, action, 2, plain)
        assert played == round(played)  # a finished deal's score: no tie-break
        assert _rollout(state, view, action, 2, given_up) == played
    exact = card_scores(state, int(state.to_act or 0), solved.solver)
    for action in view.legal_actions:
        assert isinstance(action, Play)
        assert _rollout(state, view, action, 2, solved) == exact[action.card]


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_NUMBA, reason="the compiled kernel needs numba")
def test_the_compiled_ending_finds_the_finesse_in_every_world() -> None:
    assert warm_up(wait=True)
    _, view = finesse()
    bot = StrongBot(random.Random(0), budget_s=1e9, compiled_solver=True)
    search = bot._search(view, HeuristicBot(random.Random(0)).act(view))
    assert search.solved is not None
    assert bot.act(view) == Play(Card.parse("HQ"))


def test_a_world_whose_ending_the_solver_gives_up_on_is_skipped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = [0]

    def every_other(world: State, seat: int, ending: Ending) -> dict[Card, float]:
        calls[0] += 1
        if calls[0] % 2:
            raise SolverGaveUpError("a hard world")
        return card_scores(world, seat, ending.solver)

    monkeypatch.setattr("esmakker.bots.strong.capped_card_scores", every_other)
    _, view = finesse()
    default = HeuristicBot(random.Random(0)).act(view)
    monkeypatch.setattr("esmakker.bots.strong.FIRST_CHAIN_WORLDS", 1)  # a chain's usual worlds
    search = StrongBot(random.Random(0), worlds=6, budget_s=1e9)._search(view, default)
    assert search.solved is not None
    asked = 6 * CHAIN_WORLDS_FACTOR  # the chain deals this ending: every world asked for is tried
    assert [len(row) for row in search.solved] == [asked // 2] * len(search.candidates)


def test_an_ending_the_solver_gives_up_on_in_every_world_is_rolled_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def never(world: State, seat: int, ending: Ending) -> dict[Card, float]:
        raise SolverGaveUpError("too hard")

    monkeypatch.setattr("esmakker.bots.strong.capped_card_scores", never)
    _, view = finesse()
    default = HeuristicBot(random.Random(0)).act(view)
    bot = StrongBot(random.Random(0), worlds=6, budget_s=1e9)
    search = bot._search(view, default)
    assert search.solved is None
    assert [len(row) for row in search.scores] == [1] * len(search.candidates)
    assert bot.act(view) == default  # one world: no confident gain
