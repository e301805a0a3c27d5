"""Check the strong bot's auction prices against its scores: ``python -m esmakker.sim.auction_calibration``.

Deals are played under a preset with one ``strong-bidder`` (the seat rotates deal by
deal) among three heuristic bots. At each of its auction decisions with a choice, a
second strong bot with its own random numbers searches the same view and prices the call
the first one made (an independent price carries no best-of-several bias). When the deal
is over, each price is compared with the seat's final score. Per kind of call
(``auction_bias.call_kind``) the report gives the number of calls, the mean of score minus
price with its 95% interval, and the correction the bot will use: that mean where the
interval excludes zero, else nothing (decision 104). ``--write`` stores it where the bot
reads it. Every deal draws from its own seed, so the figures do not depend on
``--workers``.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from esmakker.bots.auction_bias import CALIBRATION_FILE, CALL_KINDS, call_kind
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.strong import StrongBot
from esmakker.core.phase import Phase
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import deal
from esmakker.core.view import observe
from esmakker.sim.stats import mean_ci95

Miss = tuple[str, float, float]
"""One priced call: its kind, the search's price and the seat's final score."""


@dataclass(frozen=True, slots=True)
class Setup:
    """What every deal of a run shares."""

    preset: str
    seed: int
    worlds: int


def play_deal(setup: Setup, index: int) -> list[Miss]:
    """Play deal ``index`` and return its searching seat's priced auction calls."""
    rules = RuleSet.from_preset(setup.preset)
    rng = random.Random(f"auction/{setup.seed}/{index}")
    seat = Seat(index % 4)
    state = deal(rules, Seat(index // 4 % 4), rng)
    bidder = StrongBot(random.Random(rng.getrandbits(64)), worlds=setup.worlds, search_auction=True)
    pricer = StrongBot(random.Random(rng.getrandbits(64)), worlds=setup.worlds, search_auction=True)
    others = {s: HeuristicBot(random.Random(rng.getrandbits(64))) for s in Seat if s != seat}
    priced: list[tuple[str, float]] = []
    while not state.is_terminal:
        actor = state.to_act
        assert actor is not None
        view = observe(state, actor)
        if actor != seat:
            state = state.apply(others[actor].act(view), actor)
            continue
        action = bidder.act(view)
        if view.phase is Phase.AUCTION and len(view.legal_actions) > 1:
            prices = {
                choice.action: choice.mean_score for choice in pricer.choices(view, corrected=False)
            }
            if action in prices:
                priced.append((call_kind(action), prices[action]))
        state = state.apply(action, actor)
    result = state.result()
    assert result is not None
    score = float(result.scores[seat])
    return [(kind, price, score) for kind, price in priced]


def _play_range(job: tuple[Setup, int, int]) -> list[Miss]:
    setup, start, stop = job
    return [miss for index in range(start, stop) for miss in play_deal(setup, index)]


def run(setup: Setup, deals: int, workers: int = 1) -> list[Miss]:
    """Return every priced call of ``deals`` deals, in deal order whatever ``workers``."""
    if workers <= 1:
        return _play_range((setup, 0, deals))
    step = -(-deals // workers)
    jobs = [(setup, start, min(deals, start + step)) for start in range(0, deals, step)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [miss for part in pool.map(_play_range, jobs) for miss in part]


def summarise(misses: Sequence[Miss]) -> dict[str, Any]:
    """Return per kind of call: calls, mean score minus price, its interval, the correction."""
    by_kind: dict[str, list[float]] = defaultdict(list)
    for kind, price, score in misses:
        by_kind[kind].append(score - price)
    kinds: dict[str, Any] = {}
    corrections: dict[str, float] = {}
    for kind in CALL_KINDS:
        values = by_kind.get(kind, [])
        mean, ci = mean_ci95(values) if values else (0.0, None)
        clear = ci is not None and (ci[0] > 0 or ci[1] < 0)
        corrections[kind] = round(mean, 2) if clear else 0.0
        kinds[kind] = {
            "calls": len(values),
            "mean_miss": round(mean, 2),
            "ci95": None if ci is None else [round(ci[0], 2), round(ci[1], 2)],
        }
    return {"kinds": kinds, "corrections": corrections}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check and print (``--json``) or store (``--write``) the figures."""
    parser = argparse.ArgumentParser(prog="python -m esmakker.sim.auction_calibration")
    parser.add_argument("--deals", type=int, default=100, help="deals to play (100)")
    parser.add_argument("--preset", choices=PRESET_NAMES, default="wikipedia")
    parser.add_argument("--seed", type=int, default=1, help="random seed (1)")
    parser.add_argument("--worlds", type=int, default=12, help="worlds per search (12)")
    parser.add_argument("--workers", type=int, default=1, help="processes (1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--write", type=Path, nargs="?", const=CALIBRATION_FILE, default=None,
        help=f"store the figures for the bot (default {CALIBRATION_FILE.name})",
    )  # fmt: skip
    args = parser.parse_args(argv)
    given = list(argv) if argv is not None else sys.argv[1:]
    for name in ("deals", "worlds", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} {getattr(args, name)}: must be at least 1")
    setup = Setup(args.preset, args.seed, args.worlds)
    figures = {
        "command": "python -m esmakker.sim.auction_calibration " + " ".join(given),
        "preset": args.preset,
        "deals": args.deals,
        "seed": args.seed,
        "worlds": args.worlds,
        **summarise(run(setup, args.deals, args.workers)),
    }
    text = json.dumps(figures, indent=1)
    if args.write is not None:
        args.write.write_text(text + "\n", encoding="utf-8")
    if args.json:
        print(text)
    else:
        for kind, row in figures["kinds"].items():
            print(f"{kind:7} calls {row['calls']:4}  score - price {row['mean_miss']:+8.2f}  "
                  f"95% {row['ci95']}  correction {figures['corrections'][kind]:+.2f}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
