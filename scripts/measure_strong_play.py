#!/usr/bin/env python3
"""Measure the strong bot's card play decision by decision against the double-dummy optimum.

Usage (from the repository root):

    .venv/bin/python scripts/measure_strong_play.py --deals 1030:1130 --max-left 11

Four heuristic bots play each deal (wikipedia, the dealer by the deal number); at every
card with a choice, at most ``--max-left`` tricks left and at least ``--min-left``, a
strong bot for that seat is asked for its card on the same view (``--seats dealer`` asks
only at the dealer's seat, as this script did before decision 113). Both cards are judged on the real deal by the
compiled solver (tricks lost against the best card, as ``--dd-loss`` counts them;
exactly-one nolo and positions past 3,000,000 nodes are left out). Prints the tricks lost
by each bot per tricks-left count, per seat from the dealer and per side, and the strong
bot's decision times. The positions are the heuristic's, so the comparison is paired.
With ``--positions own`` it also prints the median number of worlds the playing bot's
searched decisions valued, per tricks left (decision 128).

``--positions own`` plays the deals as the duplicate match does: one seat a deal (it
steps through the four places from the dealer over 16 deals) plays the first sampler's
strong bot, the others and the auction are the heuristic's, and at that seat's cards the
heuristic's card for the same view is judged beside the strong bot's. These are the
positions the strong bot reaches itself, which the match's figure counts (decision 118):
on the heuristic's own positions the strong bot looks better than it plays.

``--samplers uniform,chain`` asks one strong bot per sampler on every position, each
with the same seed, all judged on the same cards: ``uniform`` deals the worlds uniformly,
``inference`` weights them by inference (``StrongBot(inference=True)``), ``chain`` draws
them from the policy chain (``StrongBot(chain=True)``). ``--budget`` sets the decision
budget (default the bot's).

``--variant chain_tricks=11,mean_tricks=11`` (repeatable) asks one more chain strong bot
on the same positions with settings changed for its calls only: ``chain_tricks`` (the
chain deals its worlds from this many tricks left), ``mean_tricks`` (the best mean is
played from this many), ``chain_share`` (the chain's share of the budget),
``chain_penalty`` (the chain's weight per miss), ``burn_in`` and ``carried_burn_in``
(the chain's steps before it keeps a world, from a fresh or a carried start), ``repair``
(the swaps a chain's repair judges at most), ``budget_s`` (the bot's decision
budget), ``worlds`` (the most worlds a decision deals), ``confidence`` (the standard
errors a search must gain by), ``inference`` (1: worlds weighted by inference where the
chain does not deal them) and ``trick_tie`` (the points a solved world adds per trick the
seat's side keeps: 1000 values tricks before the score, decision 132) and ``chain_reads``
(``cards``: the cards played and laid away, as built; ``calls``: the auction's calls and
the declarer's choices too, decision 133), ``lead_model`` and ``follow_model`` (0: none,
1: the shipped model, else the path of a model ``scripts/train_lead_model.py --out``
wrote), ``follow_tricks`` (the follow model plays from this many tricks left,
decisions 137 and 138) and ``fewest`` (1: a chained decision values only the worlds with
the fewest misses, decision 140). The module-level
settings are set around each of its calls and restored after. ``--variant-max-left``
asks the variants only up to that many tricks left, ``--variant-min-left`` only from
that many (they cost a bot's time each). ``--losses`` prints a line for every judged
card on which some bot lost a trick: the deal, tricks left, the seat's side, the
contract, its hand, the trick so far, each bot's card and cost, and the best cards.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import get_args

from esmakker.bots import endgame, strong
from esmakker.bots.follow_model import FollowModel
from esmakker.bots.follow_model import default_model as default_follow_model
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.lead_model import LeadModel, default_model
from esmakker.bots.sampling import chain
from esmakker.bots.strong import DEFAULT_BUDGET_S, DEFAULT_WORLDS, TRICKS, StrongBot
from esmakker.core.actions import Action, Iron, Play
from esmakker.core.cards import Card
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import PlayerView, observe
from esmakker.solver.position import EXACTLY_ONE, from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

SAMPLERS: dict[str, dict[str, bool]] = {
    "uniform": {"inference": False, "chain": False},
    "inference": {"inference": True, "chain": False},
    "chain": {"inference": False, "chain": True},
}


READS: dict[str, tuple[type, ...]] = {
    "cards": strong.CHAIN_READS,
    "calls": tuple(kind for kind in get_args(Action) if kind is not Iron),
}
"""The choices a ``chain_reads`` variant's chain reads: the cards as built, or the calls too."""


def _reads(name: str) -> tuple[type, ...]:
    if name not in READS:
        raise ValueError(name)
    return READS[name]


def _lead_model(value: str) -> LeadModel | None:
    """Return the shipped lead model for 1, none for 0, else the model in the file named."""
    if value in ("0", "1"):
        return default_model() if value == "1" else None
    return LeadModel.from_json(_model_file(value))


def _follow_model(value: str) -> FollowModel | None:
    """Return the shipped follow model for 1, none for 0, else the model in the file named."""
    if value in ("0", "1"):
        return default_follow_model() if value == "1" else None
    return FollowModel.from_json(_model_file(value))


def _model_file(name: str) -> dict[str, object]:
    """Return an exported model's data (``scripts/train_lead_model.py --out``), gzipped or plain."""
    try:
        raw = Path(name).read_bytes()
        data = json.loads(gzip.decompress(raw) if name.endswith(".gz") else raw)
    except (OSError, json.JSONDecodeError, gzip.BadGzipFile) as error:
        raise ValueError(f"{name}: {error}") from None
    if not isinstance(data, dict) or not {"features", "baseline", "trees"} <= set(data):
        raise ValueError(f"{name}: not an exported model")
    return data


SETTINGS: dict[str, tuple[ModuleType | None, str, Callable[[str], object]]] = {
    "chain_tricks": (None, "chain_tricks", int),
    "mean_tricks": (strong, "MEAN_TRICKS", int),
    "chain_share": (strong, "CHAIN_SHARE", float),
    "chain_penalty": (chain, "CHAIN_PENALTY", float),
    "burn_in": (chain, "CHAIN_BURN_IN", int),
    "carried_burn_in": (chain, "CHAIN_CARRIED_BURN_IN", int),
    "repair": (chain, "CHAIN_REPAIR", int),
    "budget_s": (None, "budget_s", float),
    "worlds": (None, "worlds", int),
    "confidence": (strong, "CONFIDENCE", float),
    "inference": (None, "inference", int),
    "trick_tie": (endgame, "TRICK_TIE", float),
    "chain_reads": (None, "chain_reads", _reads),
    "lead_model": (None, "lead_model", _lead_model),
    "follow_model": (None, "follow_model", _follow_model),
    "follow_tricks": (strong, "FOLLOW_MODEL_TRICKS", int),
    "fewest": (strong, "FEWEST_MISSES", lambda text: bool(int(text))),
    "search_tricks": (strong, "SEARCH_TRICKS", int),
    "first_chain": (strong, "FIRST_CHAIN_FACTOR", float),
    "first_chain_worlds": (strong, "FIRST_CHAIN_WORLDS", int),
}
"""A variant's settings: the module whose constant it sets (``None``: the bot's attribute)."""


def parse_variant(text: str) -> dict[str, object]:
    """Return a variant's settings from ``name=value,name=value``; one-line error if bad."""
    settings: dict[str, object] = {}
    for part in text.split(","):
        name, sep, value = part.partition("=")
        if not sep or name not in SETTINGS:
            known = ", ".join(SETTINGS)
            raise argparse.ArgumentTypeError(f"bad setting {part!r} in {text!r} (known: {known})")
        try:
            settings[name] = SETTINGS[name][2](value)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"bad value {value!r} for {name} in {text!r}"
            ) from None
    return settings


@contextlib.contextmanager
def _set(bot: StrongBot, settings: dict[str, object]) -> Iterator[None]:
    """Apply a variant's settings for the duration of one call, then restore them."""
    saved = []
    for name, value in settings.items():
        module, attribute, _ = SETTINGS[name]
        target: object = bot if module is None else module
        saved.append((target, attribute, getattr(target, attribute)))
        setattr(target, attribute, value)
    try:
        yield
    finally:
        for target, attribute, old in reversed(saved):
            setattr(target, attribute, old)


def _text(value: object) -> str:
    """Return a setting's value as the variant wrote it."""
    if isinstance(value, tuple):
        return next(name for name, reads in READS.items() if reads == value)
    return str(value)


ROLES = ("dealer", "forehand", "second", "third", "declarer", "partner", "defender")
"""Seats from the dealer (forehand leads the first trick), then sides of the contract."""


def _roles(state: State, seat: int) -> tuple[str, str]:
    """Return the seat's place from the dealer and its side in the contract."""
    engine = state.engine
    place = ROLES[(seat - int(state.dealer)) % 4]
    if seat == engine.declarer:
        return place, "declarer"
    return place, "partner" if seat == engine.partner else "defender"


def _own_seat(number: int) -> int:
    """Return the seat the strong bot plays in deal ``number`` with ``--positions own``."""
    return (number + number // 4) % 4


def _print_losses(
    number: int,
    view: PlayerView,
    side: str,
    chosen: dict[str, Action],
    values: dict[int, int],
    best: int,
) -> None:
    """Print one judged card's line if some bot's card lost a trick on it."""
    costs = {name: abs(best - values[int(card.card)]) for name, card in _plays(chosen)}
    if not any(costs.values()):
        return
    contract = view.contract
    assert contract is not None
    assert view.seat is not None
    cards = " ".join(f"{name}={card.card.name}:{costs[name]}" for name, card in _plays(chosen))
    best_cards = " ".join(Card(c).name for c, v in sorted(values.items()) if v == best)
    trick = " ".join(card.name for card in view.trick) or "lead"
    print(
        f"loss deal {number} left {TRICKS - len(view.tricks)} {view.seat.name} {side}"
        f" {contract.bid} trump {contract.trump.name if contract.trump is not None else '-'}"
        f" hand {view.hand} trick {trick} | {cards} | best {best_cards}",
        flush=True,
    )


def _plays(chosen: dict[str, Action]) -> Iterator[tuple[str, Play]]:
    for name, card in chosen.items():
        assert isinstance(card, Play)
        yield name, card


def main() -> None:
    """Parse the arguments, play the deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1030:1130", help="deal numbers FIRST:LAST (exclusive)")
    parser.add_argument(
        "--max-left", type=int, default=11, help="judge cards up to this many tricks left"
    )
    parser.add_argument(
        "--min-left", type=int, default=1, help="judge cards from this many tricks left"
    )
    parser.add_argument("--worlds", type=int, default=DEFAULT_WORLDS)
    parser.add_argument(
        "--samplers",
        default="uniform",
        help="comma-separated strong bots by their worlds: uniform, inference, chain",
    )
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S)
    parser.add_argument(
        "--seats", choices=("all", "dealer"), default="all", help="judge every seat's cards"
    )
    parser.add_argument(
        "--positions",
        choices=("heuristic", "own"),
        default="heuristic",
        help="whose cards make the positions: four heuristic bots, or one strong seat a deal",
    )
    parser.add_argument(
        "--variant",
        type=parse_variant,
        action="append",
        default=[],
        help="a chain strong bot with settings changed, e.g. chain_tricks=11,mean_tricks=11",
    )
    parser.add_argument(
        "--variant-max-left", type=int, help="ask the variants up to this many tricks left"
    )
    parser.add_argument(
        "--variant-min-left",
        type=int,
        default=0,
        help="ask the variants from this many tricks left",
    )
    parser.add_argument(
        "--losses", action="store_true", help="print each judged card on which a bot lost"
    )
    args = parser.parse_args()
    first, last = (int(x) for x in args.deals.split(":"))
    endgame.warm_up(wait=True)
    rules = RuleSet.from_preset("wikipedia")
    judge = Solver(table_bits=18, node_limit=3_000_000)
    samplers = args.samplers.split(",")
    unknown = set(samplers) - set(SAMPLERS)
    if unknown:
        parser.error(f"unknown sampler {sorted(unknown)[0]!r} (known: {', '.join(SAMPLERS)})")
    names = {m: f"strong+{m}" for m in samplers}
    bots_asked: list[tuple[str, dict[str, bool], dict[str, object]]] = [
        (names[m], SAMPLERS[m], {}) for m in samplers
    ]
    for settings in args.variant:
        text = ",".join(f"{k}={_text(v)}" for k, v in settings.items())
        bots_asked.append((f"variant:{text}", SAMPLERS["chain"], settings))
    variant_max_left = args.max_left if args.variant_max_left is None else args.variant_max_left
    variants = {name: settings for name, _, settings in bots_asked if settings}
    lost: dict[str, dict[int, list[int]]] = {name: defaultdict(list) for name, _, _ in bots_asked}
    lost["heuristic"] = defaultdict(list)
    by_role: dict[str, dict[str, int]] = {name: defaultdict(int) for name in lost}
    role_cards: dict[str, dict[str, int]] = {name: defaultdict(int) for name in lost}
    times: dict[str, list[float]] = {name: [] for name, _, _ in bots_asked}
    searched: dict[int, list[int]] = defaultdict(list)
    """With ``--positions own``, the worlds each searched decision of the playing bot valued."""
    for number in range(first, last):
        state = deal(rules, Seat(number % 4), random.Random(number))
        bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
        judged = {number % 4} if args.seats == "dealer" else set(range(4))
        if args.positions == "own":
            judged = {_own_seat(number)}
        strongs = {
            (name, seat): StrongBot(
                random.Random(f"s{number}" if args.seats == "dealer" else f"s{number}/{seat}"),
                worlds=args.worlds,
                budget_s=args.budget,
                **kwargs,
            )
            for name, kwargs, _ in bots_asked
            for seat in judged
        }
        playing = next(iter(strongs.values())) if args.positions == "own" else None
        while not state.is_terminal:
            seat = state.to_act
            assert seat is not None
            view = observe(state, seat)
            action = bots[seat].act(view)
            played = action
            if playing is not None and int(seat) in judged and state.phase is Phase.PLAY:
                start = time.perf_counter()
                decision = playing.decide(view)  # the strong bot's own card makes the positions
                times[names[samplers[0]]].append(time.perf_counter() - start)
                played = decision.action
                if decision.choices:
                    searched[TRICKS - len(view.tricks)].append(decision.choices[0].worlds)
            if state.phase is Phase.PLAY and int(seat) in judged and len(view.legal_actions) > 1:
                pos = from_state(state)
                if args.min_left <= pos.left <= args.max_left and pos.objective != EXACTLY_ONE:
                    judge.clear()
                    try:
                        values = judge.card_values(pos)
                    except SolverGaveUpError:
                        values = {}
                    if values:
                        chosen: dict[str, Action] = {}
                        for (name, at), strong in strongs.items():
                            if strong is playing:
                                chosen[name] = played
                            elif at == int(seat) and (
                                name not in variants
                                or args.variant_min_left <= pos.left <= variant_max_left
                            ):
                                start = time.perf_counter()
                                with _set(strong, variants.get(name, {})):
                                    chosen[name] = strong.act(view)
                                times[name].append(time.perf_counter() - start)
                        chosen["heuristic"] = action
                        wants_high = pos.maximisers >> int(seat) & 1
                        best = max(values.values()) if wants_high else min(values.values())
                        roles = _roles(state, int(seat))
                        if args.losses:
                            _print_losses(number, view, roles[1], chosen, values, best)
                        for name, card in _plays(chosen):
                            cost = abs(best - values[int(card.card)])
                            lost[name][pos.left].append(cost)
                            for role in roles:
                                by_role[name][role] += cost
                                role_cards[name][role] += 1
            state = state.apply(played, seat)
    for name, by_left in lost.items():
        total = sum(sum(v) for v in by_left.values())
        cards = sum(len(v) for v in by_left.values())
        detail = " ".join(
            f"{k}:{sum(v)}/{len(v)}" for k, v in sorted(by_left.items(), reverse=True)
        )
        print(f"{name}: {total} tricks lost on {cards} cards (tricks left: lost/cards) {detail}")
        shares = " ".join(
            f"{role}:{by_role[name][role]}/{role_cards[name][role]}" for role in ROLES
        )
        print(f"{name}: by seat and side (lost/cards) {shares}")
    for name, spent in times.items():
        if spent:
            median, most = statistics.median(spent), max(spent)
            print(f"{name} decision time: median {median:.3f} s, max {most:.3f} s")
    if searched:
        detail = " ".join(
            f"{left}:{statistics.median(counts):g}"
            for left, counts in sorted(searched.items())[::-1]
        )
        print(f"{names[samplers[0]]} worlds a searched decision (tricks left: median) {detail}")


if __name__ == "__main__":
    main()
