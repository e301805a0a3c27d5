"""How the hand-made golden records in this folder were built (run: ``python handmade.py``).

Each deal is written in notation: the four hands, the kitty in turning order, the
calls and, where the play matters card by card, every trick. The other deals are
played out by a fixed policy (each listed seat plays its strongest legal card, the
others their weakest). The records are frozen: ``tests/core/test_golden.py`` replays
them and checks the stored results and the hand-computed scores written here. Rerun
this script only after a deliberate rules change, and check the new figures by hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from esmakker.core.actions import Action, Play, parse_action
from esmakker.core.cards import Card, CardSet
from esmakker.core.record import dump, record_of
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Handmade:
    """One hand-made deal and the scores it must reach (checked by hand against rules.md 7)."""

    name: str
    why: str
    """The scoring, worked by hand (rules.md 7.1 and 7.3)."""
    preset: str
    dealer: str
    hands: dict[str, str]
    kitty: str
    steps: tuple[str, ...]
    scores: dict[str, int]
    strong: str | None = None
    """Play the rest by policy: these seats play their strongest card (None: no policy)."""
    overrides: dict[str, object] = field(default_factory=dict)


def _tricks(*lines: str) -> tuple[str, ...]:
    """Turn ``"E: H2 H4 HA H7"`` (leader, then clockwise) into play steps."""
    steps = []
    for line in lines:
        leader, _, cards = line.partition(": ")
        seat = Seat.parse(leader)
        for offset, card in enumerate(cards.split()):
            steps.append(f"{seat.next(offset).name} play {card}")
    return tuple(steps)


HANDMADE: tuple[Handmade, ...] = (
    Handmade(
        name="plain-9-made-with-overtricks",
        why="9 plain, 11 tricks: base 40 x (1 + 2 overtricks) = 120 a player, 2 v 2",
        preset="wikipedia",
        dealer="N",
        hands={
            "N": "S6 S5 H9 H8 H7 DA DJ DT D7 D6 CA CJ CT",
            "E": "SA SK SQ SJ ST S9 H3 H2 DK DQ CK CQ X1",
            "S": "S4 S3 S2 HT H6 H5 H4 D5 D4 D3 D2 C5 C4",
            "W": "S8 S7 HA HK HQ HJ D9 D8 C9 C8 C7 C6 X2",
        },
        kitty="C3 C2 X3",
        steps=(
            "E bid 8",
            "S pass",
            "W bid 8 gode",
            "E bid 9",
            "W pass",
            "N pass",
            "E trump S",
            "E call HA",
            "E decline",
            "S take",
            "S discard C3",
            "S discard C2",
            "S discard D2",
            *_tricks(
                "E: H2 H4 HA H7",
                "W: HK H8 H3 H5",
                "W: HQ H9 S9 H6",
                "E: SA S2 S7 S5",
                "E: SK S3 S8 S6",
                "E: SQ S4 C6 CT",
                "E: DK D3 D8 DA",
                "N: CA CQ C4 C7",
                "N: CJ CK C5 C8",
                "E: DQ D4 D9 DJ",
                "E: SJ D5 C9 D6",
                "E: X1 HT HJ D7",
                "E: ST X3 X2 DT",
            ),
        ),
        scores={"N": -120, "E": 120, "S": -120, "W": 120},
    ),
    Handmade(
        name="gode-9-failed",
        why="9 gode, 7 tricks: 2 x base 40 x gode 2 x 2 undertricks = 320 a player, 2 v 2",
        preset="wikipedia",
        dealer="W",
        hands={
            "N": "S4 S3 S2 HA HK H9 H2 DA D2 CA CK CQ X1",
            "E": "SK SQ SJ ST HQ HJ HT DQ DJ C9 C8 C7 X2",
            "S": "SA S9 S8 H5 H4 H3 D9 D8 D7 D6 D5 C4 C3",
            "W": "S7 S6 S5 H8 H7 H6 DT D4 D3 CJ CT C6 C5",
        },
        kitty="DK C2 X3",
        steps=(
            "N bid 8",
            "E bid 8 vip",
            "N bid 9 gode",
            "E pass",
            "S pass",
            "W pass",
            "N call SA",
            "N decline",
            "E take",
            "E discard C2",
            "E discard HT",
            "E discard DJ",
            *_tricks(
                "N: CA C7 C3 C5",
                "N: CK C8 C4 C6",
                "N: CQ C9 D5 CT",
                "N: HA HJ H3 H6",
                "N: HK HQ H4 H7",
                "N: S2 SK SA S5",
                "S: D6 D3 DA DK",
                "N: S3 SQ S9 S6",
                "E: X2 D7 D4 D2",
                "E: X3 D8 DT S4",
                "E: DQ D9 CJ H2",
                "W: S7 H9 ST S8",
                "E: SJ H5 H8 X1",
            ),
        ),
        scores={"N": -320, "E": 320, "S": -320, "W": 320},
    ),
    Handmade(
        name="vip-9-third-card-forced",
        why="9 vip, H7 and CJ turned down, D4 forced (diamonds); 10 tricks: "
        "base 40 x vip 2 x (1 + 1) = 160 a player, 2 v 2",
        preset="wikipedia",
        dealer="S",
        hands={
            "N": "SJ ST S6 S4 HQ HT H9 D8 CA CT C8 C6 X3",
            "E": "S8 S7 S5 HJ H6 H4 DT D7 D5 D3 CK CQ C4",
            "S": "SQ S9 H8 H5 H3 H2 D9 D6 D2 C9 C7 C5 X2",
            "W": "SA SK S3 S2 HA HK DA DK DQ DJ C3 C2 X1",
        },
        kitty="H7 CJ D4",
        steps=(
            "W bid 9 vip",
            "N pass",
            "E pass",
            "S pass",
            "W call CA",
            "W turn",
            "W turn",
            "W turn",
            "W take",
            "W discard C3",
            "W discard C2",
            "W discard S2",
        ),
        strong="",
        scores={"N": 160, "E": -160, "S": -160, "W": 160},
    ),
    Handmade(
        name="halve-10-made-with-overtrick",
        why="10 halve, partner N names spades; 11 tricks: "
        "base 80 x halve 2 x (1 + 1) = 320 a player, 2 v 2",
        preset="wikipedia",
        dealer="E",
        hands={
            "N": "ST S9 S7 S2 HA HK HQ HT H8 H6 D3 CQ X1",
            "E": "S6 S5 S3 HJ H7 H5 DT D8 D7 C7 C5 C3 X2",
            "S": "SA SK SQ SJ H3 H2 DA DK DQ CA CK C8 C6",
            "W": "S8 S4 H9 H4 DJ D9 D6 D5 D4 CJ CT C9 C4",
        },
        kitty="C2 D2 X3",
        steps=(
            "S bid 10 halve",
            "W pass",
            "N pass",
            "E pass",
            "S call HA",
            "N trump S",
            "S take",
            "S discard C2",
            "S discard D2",
            "S discard H2",
        ),
        strong="EW",
        scores={"N": 320, "E": -320, "S": 320, "W": -320},
    ),
    Handmade(
        name="plain-8-called-ace-in-kitty-alone",
        why="8 plain in hearts, DA called lies in the kitty: E plays alone (and takes it); "
        "8 tricks: V = base 20, each defender pays 20, E wins 3 x 20 = 60",
        preset="wikipedia",
        dealer="N",
        hands={
            "N": "SJ S4 DK DJ DT D5 D3 D2 CQ C9 C8 C6 C4",
            "E": "SA SK S9 S6 HA HK HQ HJ HT D7 CA CK CJ",
            "S": "SQ ST S8 S7 S5 S3 H9 H7 H5 H4 DQ CT C5",
            "W": "S2 H8 H6 H3 H2 D9 D8 D6 D4 C7 C2 X1 X2",
        },
        kitty="DA C3 X3",
        steps=(
            "E bid 8",
            "S pass",
            "W pass",
            "N pass",
            "E trump H",
            "E call DA",
            "E take",
            "E discard C3",
            "E discard S6",
            "E discard D7",
        ),
        strong="SW",
        scores={"N": -20, "E": 60, "S": -20, "W": -20},
    ),
    Handmade(
        name="sol-made-one-trick",
        why="sol (wikipedia: exactly one trick), E wins only the CK trick: "
        "50 from each defender, E +150",
        preset="wikipedia",
        dealer="N",
        hands={
            "N": "SK SJ S6 HK H6 D9 D8 D7 CA CT C7 C2 X1",
            "E": "S5 S4 S3 S2 H5 H4 H3 H2 D5 D4 D3 D2 CK",
            "S": "SQ ST HA H9 H8 H7 DQ CQ CJ C6 C5 C3 X2",
            "W": "S9 S8 S7 HQ HJ HT DA DK DJ DT D6 C8 C4",
        },
        kitty="SA C9 X3",
        steps=("E bid sol", "S pass", "W pass", "N pass", "E decline"),
        strong="",
        scores={"N": -50, "E": 150, "S": -50, "W": -50},
    ),
    Handmade(
        name="ren-sol-broken-at-trick-3",
        why="ren sol, E forced to win trick 3 with SQ (aces low): play stops there; "
        "E pays 2 x 100 to each defender, -600",
        preset="wikipedia",
        dealer="N",
        hands={
            "N": "SJ S5 S4 HA HK HJ H5 DQ D8 CA CQ CT C7",
            "E": "SK SQ S2 H4 H3 H2 D4 D3 D2 C5 C4 C3 C2",
            "S": "SA ST S6 HQ H9 H8 H7 H6 D9 D7 CK CJ C9",
            "W": "S9 S8 S7 S3 HT DA DK DJ DT D6 C8 X1 X2",
        },
        kitty="D5 C6 X3",
        steps=(
            "E bid ren_sol",
            "S pass",
            "W pass",
            "N pass",
            "E decline",
            *_tricks("E: H2 H9 HT HJ", "N: S5 S2 S6 S7", "W: S8 SJ SQ ST"),
        ),
        scores={"N": 200, "E": -600, "S": 200, "W": 200},
    ),
    Handmade(
        name="all-pass-redeal",
        why="all four pass: redeal, every score 0",
        preset="wikipedia",
        dealer="N",
        hands={
            "N": "SJ S5 S4 HA HK HJ H5 DQ D8 CA CQ CT C7",
            "E": "SK SQ S2 H4 H3 H2 D4 D3 D2 C5 C4 C3 C2",
            "S": "SA ST S6 HQ H9 H8 H7 H6 D9 D7 CK CJ C9",
            "W": "S9 S8 S7 S3 HT DA DK DJ DT D6 C8 X1 X2",
        },
        kitty="D5 C6 X3",
        steps=("E pass", "S pass", "W pass", "N pass"),
        scores={"N": 0, "E": 0, "S": 0, "W": 0},
    ),
    Handmade(
        name="iron-hand-redeal",
        why="hilmarshelte: S holds only 2-10 and claims iron hand out of turn: redeal, 0",
        preset="hilmarshelte",
        dealer="N",
        hands={
            "N": "SA SK SQ SJ S6 S5 S4 HA HK HQ HJ DA X1",
            "E": "S3 S2 HT H5 H4 H3 H2 DK DQ DJ DT CA CK",
            "S": "ST S9 S8 S7 H9 H8 H7 H6 D9 D8 D7 D6 C9",
            "W": "D5 D4 D3 D2 CQ CJ CT C8 C7 C6 C5 C4 X2",
        },
        kitty="C3 C2 X3",
        steps=("S iron",),
        scores={"N": 0, "E": 0, "S": 0, "W": 0},
    ),
)


def build(deal: Handmade) -> State:
    """Deal the cards, apply the steps, and play the rest by the policy if one is given."""
    rules = RuleSet.from_preset(deal.preset, deal.overrides)
    hands = [CardSet.parse(deal.hands[seat.name]) for seat in Seat]
    kitty = tuple(Card.parse(card) for card in deal.kitty.split())
    state = State.new(rules, Seat.parse(deal.dealer), hands, kitty)
    for step in deal.steps:
        seat, _, action = step.partition(" ")
        state = state.apply(parse_action(action), Seat.parse(seat))
    if deal.strong is not None:
        state = _play_out(state, deal.strong)
    return state


def _play_out(state: State, strong: str) -> State:
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        plays = [a for a in state.legal_actions() if isinstance(a, Play)]
        pick = max if seat.name in strong else min
        state = state.apply(pick(plays, key=lambda a: _strength(state, a)), seat)
    return state


def _strength(state: State, action: Action) -> tuple[int, int]:
    """Order the cards from weakest to strongest for the trick in progress (a rough guide)."""
    assert isinstance(action, Play)
    card, trick, engine = action.card, state.current_trick, state.engine
    if card.is_joker:
        return (100 if not trick and state.tricks else -1, -int(card))
    rank = card.rank or 0
    nolo = engine.bid is not None and engine.bid.is_nolo
    if nolo and rank == 14 and state.rules.nolo_aces_low:
        rank = 1
    if engine.trump is not None and engine.trump >= 0 and card.suit == engine.trump:
        return (50 + rank, -int(card))
    if trick and not trick[0].is_joker and card.suit != trick[0].suit:
        return (rank - 20, -int(card))
    return (rank, -int(card))


def main() -> None:
    """Write one indented record per deal into this folder."""
    for deal in HANDMADE:
        state = build(deal)
        meta = {"golden": deal.name, "why": deal.why}
        dump(record_of(state, meta), HERE / f"{deal.name}.json")
        result = state.result()
        print(deal.name, None if result is None else result.to_json()["scores"])  # noqa: T201


if __name__ == "__main__":
    main()
