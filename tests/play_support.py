"""Helpers for the play, called-card, nolo and scoring tests: deals, auctions, tricks.

Deals are written in notation. ``complete`` fills hands with fewer than 13 cards and
a missing kitty from the unused cards in a fixed order (twos first, suits C D H S,
jokers last), so a test names only the cards it cares about.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from esmakker.core.actions import Action, Bid, Decline
from esmakker.core.cards import CARDS
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.scoring import DealOutcome
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State
from esmakker.core.view import observe
from support import make_state

_FILL_ORDER = tuple(
    sorted((c.name for c in CARDS), key=lambda n: (n[0] == "X", "23456789TJQKA".find(n[1]), n))
)


def complete(hands: Mapping[str, str], kitty: str | None = None) -> tuple[dict[str, str], str]:
    """Return 13 cards per seat and a 3-card kitty: the given cards plus the unused ones."""
    used = set()
    for text in (*hands.values(), kitty or ""):
        for card in text.split():
            assert card not in used, f"{card} is dealt twice"
            used.add(card)
    pool = [c for c in _FILL_ORDER if c not in used]
    full: dict[str, str] = {}
    for seat in "NESW":
        cards = hands.get(seat, "").split()
        assert len(cards) <= 13, f"{seat} holds {len(cards)} cards"
        need = 13 - len(cards)
        cards += pool[:need]
        del pool[:need]
        full[seat] = " ".join(cards)
    if kitty is None:
        kitty = " ".join(pool)
        pool = []
    assert not pool, f"cards left over: {pool}"
    assert len(kitty.split()) == 3, f"kitty {kitty!r} does not hold 3 cards"
    return full, kitty


def new_deal(
    ruleset: RuleSet, hands: Mapping[str, str], kitty: str | None = None, dealer: str = "N"
) -> State:
    """Return a deal at the start of its auction (the hands completed, see ``complete``)."""
    full, rest = complete(hands, kitty)
    return make_state(ruleset, dealer, full, rest)


def auction(declarer: str, bid: str, dealer: str = "N", joiners: Sequence[str] = ()) -> list[str]:
    """Return an auction in which ``declarer`` bids ``bid``, ``joiners`` join it, others pass.

    The declarer must be the first to bid (every seat before him passes).
    """
    steps: list[str] = []
    for seat in Seat.parse(dealer).next().iter_from():
        if seat.name == declarer:
            steps.append(f"{seat.name} bid {bid}")
        elif seat.name in joiners:
            steps.append(f"{seat.name} join")
        else:
            steps.append(f"{seat.name} pass")
    return steps


def plays(*tricks: str) -> list[str]:
    """Return play steps from lines of seat and card pairs: ``"E DA S D7 W D4 N DT"``."""
    steps: list[str] = []
    for line in tricks:
        words = line.split()
        assert len(words) % 2 == 0, f"{line!r} is not seat/card pairs"
        steps.extend(
            f"{seat} play {card}" for seat, card in zip(words[::2], words[1::2], strict=True)
        )
    return steps


def decline_all(state: State) -> State:
    """Decline the exchange for every seat offered it (the play starts)."""
    while state.phase is Phase.EXCHANGE:
        state = state.apply(Decline())
    return state


def first_legal(actions: Sequence[Action]) -> Action:
    """Return the first legal action (a deterministic play-out policy)."""
    return actions[0]


def play_out(state: State, pick: Callable[[Sequence[Action]], Action] = first_legal) -> State:
    """Play the deal to its end, choosing each action with ``pick``."""
    while not state.is_terminal:
        state = state.apply(pick(state.legal_actions()))
    return state


def exposed(state: State) -> set[Seat]:
    """Return the seats whose hands lie open to everybody (what a spectator sees)."""
    view = observe(state, None)
    return {SEATS[s] for s, hand in enumerate(view.open_hands) if hand is not None}


def outcome(
    bid: str,
    declarer: int,
    partner: int | None,
    tricks: tuple[int, int, int, int],
    *,
    flips: int = 0,
    joiners: tuple[int, ...] = (),
) -> DealOutcome:
    """Return scoring facts: ``bid`` as written after ``bid`` (``"9 gode"``, ``"sol"``)."""
    parsed = Bid.parse(bid)
    nolo_players = (declarer, *joiners) if parsed.is_nolo else ()
    return DealOutcome(
        bid=parsed,
        declarer=declarer,
        partner=partner,
        nolo_players=nolo_players,
        tricks=tricks,
        vip_flips=flips,
    )
