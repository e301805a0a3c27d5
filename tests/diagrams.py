"""Deals written as hand diagrams, and checks shared by the auction, declaring and exchange tests.

``table`` builds a deal from the cards a test names; every card it does not name is
filled in deterministically, so a test names only what matters (and names every ace
or king whose holder matters). ``reject`` applies an illegal step and checks that it
is refused with a one-line message and that the state is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from esmakker.core.actions import Action, Bid, format_action, parse_action
from esmakker.core.cards import Card, CardSet
from esmakker.core.errors import IllegalActionError, Reason
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import Result, State
from support import make_state, run

SEAT_LETTERS = ("N", "E", "S", "W")

_FILL_ORDER: tuple[Card, ...] = (
    *(Card.parse(suit + rank) for suit in "SHDC" for rank in "23456789TJQKA"),
    Card.X1,
    Card.X2,
    Card.X3,
)
"""The order unnamed cards are dealt in: spades, hearts, diamonds, clubs, each 2 to A, then jokers."""

_DEFAULT_KITTY = ("D9", "C4", "X3")


def fill(hands: Mapping[str, str], kitty: str, num_jokers: int = 3) -> dict[str, str]:
    """Return all four hands, 13 cards each, completing the named cards.

    The cards nobody names are dealt one at a time, in ``_FILL_ORDER``, to N, E, S, W
    in turn, skipping a seat whose hand is full. The kitty must be named in full.
    """
    named: dict[str, list[Card]] = {s: list(CardSet.parse(hands.get(s, ""))) for s in SEAT_LETTERS}
    kitty_cards = [Card.parse(c) for c in kitty.split()]
    used = [c for cards in named.values() for c in cards] + kitty_cards
    assert len(used) == len(set(used)), f"a card is named twice in {hands} / {kitty}"
    assert len(kitty_cards) == num_jokers, "name the whole kitty"
    deck = [c for c in _FILL_ORDER if c < 52 + num_jokers]
    pool = [c for c in deck if c not in used]
    seat = 0
    for card in pool:
        while len(named[SEAT_LETTERS[seat]]) >= 13:
            seat = (seat + 1) % 4
        named[SEAT_LETTERS[seat]].append(card)
        seat = (seat + 1) % 4
    assert all(len(cards) == 13 for cards in named.values()), named
    return {s: str(CardSet(named[s])) for s in SEAT_LETTERS}


def table(
    ruleset: RuleSet,
    hands: Mapping[str, str] | None = None,
    *,
    kitty: str | None = None,
    dealer: str = "N",
) -> State:
    """Return a deal at the start of its auction (dealer N, so E is forehand, by default)."""
    if kitty is None:
        kitty = " ".join(_DEFAULT_KITTY[: ruleset.num_jokers])
    return make_state(ruleset, dealer, fill(hands or {}, kitty, ruleset.num_jokers), kitty)


def step(state: State, *steps: str) -> State:
    """Apply steps written as in a hand record."""
    return run(state, steps)


def _snapshot(state: State) -> tuple[object, ...]:
    return (
        state.history,
        state.hands,
        state.kitty,
        state.discarded,
        state.phase,
        state.to_act,
        state.legal_actions(),
    )


def reject(state: State, text: str, reason: Reason | None = None) -> IllegalActionError:
    """Apply the illegal step ``text``; check the error and that ``state`` is unchanged."""
    seat, _, action_text = text.partition(" ")
    action = parse_action(action_text)
    before = _snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply(action, Seat.parse(seat))
    assert _snapshot(state) == before
    error = info.value
    message = str(error)
    assert "\n" not in message
    assert message.startswith(f"{seat} {format_action(action)}: "), message
    assert error.seat == seat
    assert error.action == format_action(action)
    if reason is not None:
        assert error.reason is reason, message
    return error


def texts(actions: tuple[Action, ...] | list[Action]) -> list[str]:
    """Return the actions as hand-record text (without the seat)."""
    return [format_action(a) for a in actions]


def bids(state: State) -> list[str]:
    """Return the bids open to the seat to act, low to high (``"8 gode"``, ``"sol"``)."""
    return [str(a) for a in state.legal_actions() if isinstance(a, Bid)]


def play_out(state: State) -> Result:
    """Finish the deal taking the first legal action each time; return its result."""
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
    result = state.result()
    assert result is not None
    return result


def assert_alone(result: Result, declarer: str) -> None:
    """Check a lone declarer's score: three equal defenders, the declarer their sum."""
    seat = Seat.parse(declarer)
    assert result.partner is None
    defenders = [result.scores[s] for s in Seat if s != seat]
    assert len(set(defenders)) == 1, result.scores
    assert result.scores[seat] == -3 * defenders[0] != 0


def assert_pair(result: Result, declarer: str, partner: str) -> None:
    """Check a 2 v 2 score: declarer and partner win or lose the same amount."""
    d, p = Seat.parse(declarer), Seat.parse(partner)
    assert result.partner == p
    others = [s for s in Seat if s not in (d, p)]
    assert result.scores[d] == result.scores[p] == -result.scores[others[0]]
    assert result.scores[others[0]] == result.scores[others[1]] != 0
