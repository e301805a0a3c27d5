#!/usr/bin/env python3
"""Measure the heuristic bot: auctions, make rates, speed, and gain against random bots.

Usage (from the repository root):

    .venv/bin/python scripts/measure_heuristic.py table --preset wikipedia --deals 2000
    .venv/bin/python scripts/measure_heuristic.py versus --preset wikipedia --deals 2000
    .venv/bin/python scripts/measure_heuristic.py tables --deals 2000 --jobs 2

``table``  four heuristic bots: contract levels, nolo share, all-pass share, make rates
           of number and nolo contracts, decision time (median, p95).
``versus`` one bot against three ``--opponent`` bots (default random), duplicate style:
           every deal is played twice per seat, once with the bot in that seat and once
           with an opponent bot there (same cards, same other bots); the gain per deal is
           the difference of that seat's scores, averaged over the four seats. Also the
           bot's plain mean score per deal at the table.
``tables`` ``table`` for every preset; ``all``: both, for every preset.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from esmakker.bots.registry import make_bot
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.sim.bench_bots import TimedBot
from esmakker.sim.runner import play_deal


def _table_chunk(args: tuple[str, str, int, int, str]) -> dict[str, Any]:
    preset, seed, start, stop, bot = args
    rules = RuleSet.from_preset(preset)
    times: list[float] = []
    rows = []
    for number in range(start, stop):
        deal_seed = f"{seed}/{number}"
        dealer = SEATS[number % 4]
        bots = [TimedBot(make_bot(bot, random.Random(f"{deal_seed}/{s}")), times) for s in range(4)]
        state = play_deal(rules, bots, dealer, random.Random(deal_seed))  # type: ignore[arg-type]
        result = state.result()
        assert result is not None
        if result.contract is None:
            rows.append({"kind": "redeal"})
            continue
        rows.append(
            {
                "kind": result.contract.kind.value,
                "nolo": result.contract.is_nolo,
                "level": result.contract.level,
                "made": result.made,
                "side": result.declarer_side_tricks,
                "alone": result.partner is None,
            }
        )
    return {"rows": rows, "times": times}


def table(preset: str, deals: int, seed: str, jobs: int, bot: str = "heuristic") -> dict[str, Any]:
    """Four bots of one kind: the contracts they reach and how they fare."""
    chunks = _chunks(deals, jobs)
    args = [(preset, seed, a, b, bot) for a, b in chunks]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_table_chunk, args))
    rows = [r for p in parts for r in p["rows"]]
    times = sorted(t for p in parts for t in p["times"])
    played = [r for r in rows if r["kind"] != "redeal"]
    number = [r for r in played if not r["nolo"]]
    nolo = [r for r in played if r["nolo"]]
    levels = Counter(r["level"] for r in number)
    kinds = Counter(r["kind"] for r in played)
    return {
        "preset": preset,
        "deals": len(rows),
        "all_pass_share": 1 - len(played) / len(rows),
        "nolo_share": len(nolo) / len(played) if played else 0.0,
        "level_shares": {str(k): v / len(number) for k, v in sorted(levels.items())},
        "share_9_10": (levels[9] + levels[10]) / len(number) if number else 0.0,
        "kinds": {k: v / len(played) for k, v in kinds.most_common()},
        "number_made": _rate(number),
        "number_made_by_level": {
            str(level): _rate([r for r in number if r["level"] == level])
            for level in sorted(levels)
        },
        "alone_share": sum(r["alone"] for r in number) / len(number) if number else 0.0,
        "nolo_made": _rate(nolo),
        "nolo_made_by_kind": {
            k: _rate([r for r in nolo if r["kind"] == k]) for k in sorted({r["kind"] for r in nolo})
        },
        "decisions": len(times),
        "decision_ms_median": 1000 * statistics.median(times) if times else 0.0,
        "decision_ms_p95": 1000 * times[int(0.95 * (len(times) - 1))] if times else 0.0,
        "decision_ms_max": 1000 * times[-1] if times else 0.0,
    }


def _rate(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    made = sum(bool(r["made"]) for r in rows)
    return {"n": n, "made": made / n if n else None}


def _versus_chunk(args: tuple[str, str, int, int, str, str]) -> dict[str, Any]:
    preset, seed, start, stop, bot, opponent = args
    rules = RuleSet.from_preset(preset)
    gains = []
    plain = []
    for number in range(start, stop):
        deal_seed = f"{seed}/{number}"
        dealer = SEATS[number % 4]
        per_seat = []
        for seat in range(4):
            scores = []
            for who in (bot, opponent):
                bots = [
                    make_bot(who if s == seat else opponent, random.Random(f"{deal_seed}/{s}"))
                    for s in range(4)
                ]
                state = play_deal(rules, bots, dealer, random.Random(deal_seed))
                result = state.result()
                assert result is not None
                scores.append(result.scores[seat])
            per_seat.append(scores[0] - scores[1])
            plain.append(scores[0])
        gains.append(sum(per_seat) / 4)
    return {"gains": gains, "plain": plain}


def versus(
    preset: str, deals: int, seed: str, jobs: int, bot: str = "heuristic", opponent: str = "random"
) -> dict[str, Any]:
    """One bot against three opponents, duplicate style (see the module text)."""
    chunks = _chunks(deals, jobs)
    args = [(preset, seed, a, b, bot, opponent) for a, b in chunks]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_versus_chunk, args))
    gains = [g for p in parts for g in p["gains"]]
    plain = [g for p in parts for g in p["plain"]]
    return {
        "preset": preset,
        "deals": len(gains),
        "bot": bot,
        "opponent": opponent,
        "duplicate_gain_per_deal": _mean_ci(gains),
        "mean_score_per_deal": _mean_ci(plain),
    }


def _mean_ci(values: Sequence[float]) -> dict[str, float]:
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    half = 1.96 * sd / math.sqrt(len(values)) if values else 0.0
    return {
        "mean": round(mean, 2),
        "ci95_low": round(mean - half, 2),
        "ci95_high": round(mean + half, 2),
    }


def _chunks(deals: int, jobs: int) -> list[tuple[int, int]]:
    size = math.ceil(deals / jobs)
    return [(a + 1, min(a + size, deals) + 1) for a in range(0, deals, size)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("table", "versus", "all", "tables"))
    parser.add_argument("--preset", default="wikipedia", choices=PRESET_NAMES)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--bot", default="heuristic")
    parser.add_argument("--opponent", default="random")
    args = parser.parse_args(argv)
    presets = PRESET_NAMES if args.what in ("all", "tables") else (args.preset,)
    for preset in presets:
        if args.what in ("table", "all", "tables"):
            out = table(preset, args.deals, args.seed, args.jobs, args.bot)
            print(json.dumps(out), flush=True)
        if args.what in ("versus", "all"):
            out = versus(preset, args.deals, args.seed, args.jobs, args.bot, args.opponent)
            print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
