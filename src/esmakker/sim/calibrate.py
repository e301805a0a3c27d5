"""Fit the evaluation's constants on simulated deals: ``python -m esmakker.sim.calibrate``.

Every deal is dealt at random under a preset (``wikipedia`` three times as often as each
other preset) and a contract is forced on it: the seat whose hand the current
calibration likes best for a randomly drawn contract bids it and the others pass (the
strongest hand wins real auctions, so the other hands are weaker, as in play). Four
standard heuristic bots then declare, exchange and play the deal out.

* Number contracts: a least-squares fit of the declaring side's tricks on
  ``number_features`` of the declarer's dealt hand with the trumps actually played (vip:
  with the turned cards, which the declarer takes home) plus an intercept per attachment
  gives the suit model; then, per attachment, a line from the bid-time estimate
  (``family_raw``) to the tricks taken, with the spread of what is left over.
* Nolo contracts: a logistic fit of "contract kept" on ``nolo_features`` per contract and
  trick limit.

The fit runs ``--rounds`` times, each round choosing declarers with the previous round's
constants; the result is written as JSON with the command that produced it.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from esmakker.bots.evaluation import (
    CALIBRATION_FILE,
    FAMILIES,
    NOLO_FEATURES,
    NUMBER_FEATURES,
    Calibration,
    calibration_from_json,
    family_raw,
    load_calibration,
    nolo_features,
    nolo_key,
    nolo_probability,
    number_features,
)
from esmakker.bots.heuristic import HeuristicBot
from esmakker.core.actions import PASS, Bid, BidKind
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS
from esmakker.core.state import State, deal
from esmakker.core.view import observe

NOLO_RANDOM_DECLARER = 0.5
"""Share of nolo deals declared by a seat drawn at random (the rest: the best nolo hand)."""
PRESET_WEIGHTS = {name: (3 if name == "wikipedia" else 1) for name in PRESET_NAMES}


def _pick_preset(rng: random.Random) -> str:
    names = list(PRESET_WEIGHTS)
    return rng.choices(names, weights=[PRESET_WEIGHTS[n] for n in names])[0]


def _force(state: State, declarer: int, bid: Bid) -> State:
    """Play the auction: ``declarer`` bids ``bid``, everybody else passes."""
    while state.phase.value == "auction":
        seat = state.to_act
        assert seat is not None
        action = bid if int(seat) == declarer and bid in state.legal_actions() else PASS
        state = state.apply(action, seat)
    return state


def _play_out(state: State, seed: str) -> State:
    bots = [HeuristicBot(random.Random(f"{seed}/{s}")) for s in range(4)]
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
    return state


def _number_sample(seed: str, cal: Calibration) -> dict[str, Any] | None:
    rng = random.Random(seed)
    preset = _pick_preset(rng)
    rules = RuleSet.from_preset(preset)
    family = rng.choice(["plain", *rules.attachments])
    dealer = rng.randrange(4)
    state = deal(rules, SEATS[dealer], rng)
    hands = [h.mask for h in state.hands]
    declarer = max(range(4), key=lambda s: family_raw(hands[s], family, rules, cal))
    bid = Bid(rules.min_bid, BidKind(family))
    state = _force(state, declarer, bid)
    state = _play_out(state, seed)
    result = state.result()
    assert result is not None
    if result.contract is None:
        return None
    trump = -1 if result.trump is None else int(result.trump)
    hand = hands[declarer]
    features_hand = hand
    if result.contract.kind is BidKind.VIP:
        contract = observe(state, None).contract
        assert contract is not None
        for card in contract.vip_turned:
            features_hand |= 1 << int(card)
    return {
        "preset": preset,
        "family": family,
        "hand": hand,
        "features_hand": features_hand,
        "trump": trump,
        "features": list(number_features(features_hand, trump)),
        "tricks": result.declarer_side_tricks,
        "alone": result.partner is None,
    }


def _nolo_sample(seed: str, cal: Calibration) -> dict[str, Any] | None:
    rng = random.Random(seed)
    preset = _pick_preset(rng)
    rules = RuleSet.from_preset(preset)
    kind = BidKind(rng.choice(rules.nolo_contracts))
    dealer = rng.randrange(4)
    state = deal(rules, SEATS[dealer], rng)
    hands = [h.mask for h in state.hands]
    if rng.random() < NOLO_RANDOM_DECLARER:
        declarer = rng.randrange(4)
    else:
        declarer = max(range(4), key=lambda s: nolo_probability(hands[s], kind, rules, cal))
    state = _force(state, declarer, Bid(None, kind))
    state = _play_out(state, seed)
    result = state.result()
    assert result is not None
    if result.contract is None:
        return None
    return {
        "preset": preset,
        "key": nolo_key(kind, rules),
        "hand": hands[declarer],
        "aces_low": rules.nolo_aces_low,
        "features": list(nolo_features(hands[declarer], rules.nolo_aces_low)),
        "made": bool(result.made),
        "tricks": result.tricks[declarer],
    }


def _chunk(args: tuple[str, int, int, dict[str, Any], str]) -> list[dict[str, Any]]:
    seed, start, stop, cal_json, what = args
    cal = calibration_from_json(cal_json)
    out = []
    for i in range(start, stop):
        sample_seed = f"{seed}/{what}/{i}"
        sample = (
            _number_sample(sample_seed, cal) if what == "number" else _nolo_sample(sample_seed, cal)
        )
        if sample is not None:
            out.append(sample)
    return out


def collect(what: str, deals: int, seed: str, cal: Calibration, jobs: int) -> list[dict[str, Any]]:
    """Play ``deals`` forced contracts of one kind (``number`` or ``nolo``)."""
    size = max(1, math.ceil(deals / jobs))
    args = [(seed, a, min(a + size, deals), cal.raw, what) for a in range(0, deals, size)]
    if jobs == 1:
        parts = [_chunk(a) for a in args]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_chunk, args))
    return [s for part in parts for s in part]


# --- fitting ---------------------------------------------------------------------------------


def solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve a small linear system by Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        if abs(a[col][col]) < 1e-12:
            continue
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                if f:
                    for c in range(col, n + 1):
                        a[r][c] -= f * a[col][c]
    return [a[i][n] / a[i][i] if abs(a[i][i]) > 1e-12 else 0.0 for i in range(n)]


def least_squares(
    rows: Sequence[Sequence[float]], ys: Sequence[float], ridge: float
) -> list[float]:
    """Return ridge-regularised least-squares weights (no penalty on column 0... all columns)."""
    k = len(rows[0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in zip(rows, ys, strict=True):
        for i in range(k):
            xi = x[i]
            if not xi:
                continue
            xty[i] += xi * y
            row = xtx[i]
            for j in range(k):
                row[j] += xi * x[j]
    for i in range(k):
        xtx[i][i] += ridge
    return solve(xtx, xty)


def logistic(rows: Sequence[Sequence[float]], ys: Sequence[bool], ridge: float) -> list[float]:
    """Return L2-regularised logistic-regression weights (Newton's method)."""
    k = len(rows[0])
    w = [0.0] * k
    for _ in range(30):
        grad = [0.0] * k
        hess = [[0.0] * k for _ in range(k)]
        for x, y in zip(rows, ys, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            err = p - (1.0 if y else 0.0)
            v = p * (1 - p)
            for i in range(k):
                grad[i] += err * x[i]
                hi = hess[i]
                vx = v * x[i]
                for j in range(k):
                    hi[j] += vx * x[j]
        for i in range(k):
            grad[i] += ridge * w[i]
            hess[i][i] += ridge
        step = solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def fit_number(samples: list[dict[str, Any]], previous: Calibration) -> dict[str, Any]:
    """Fit the suit model and the per-family lines."""
    families = [f for f in FAMILIES if any(s["family"] == f for s in samples)]
    rows = []
    ys = []
    for s in samples:
        dummies = [1.0 if s["family"] == f else 0.0 for f in families]
        rows.append([*s["features"], *dummies])
        ys.append(float(s["tricks"]))
    beta = least_squares(rows, ys, ridge=1.0)
    n = len(NUMBER_FEATURES)
    weights = {name: round(beta[i], 4) for i, name in enumerate(NUMBER_FEATURES)}
    intercepts = {f: round(beta[n + i], 4) for i, f in enumerate(families)}
    for f in FAMILIES:
        intercepts.setdefault(f, intercepts.get("plain", 3.0))
    suit_model = {"weights": weights, "intercepts": intercepts}
    stage1 = calibration_from_json(
        {**previous.raw, "suit_model": suit_model, "families": previous.raw["families"]}
    )
    by_family: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for s in samples:
        rules = RuleSet.from_preset(s["preset"])
        raw = family_raw(s["hand"], s["family"], rules, stage1)
        by_family[s["family"]].append((raw, float(s["tricks"])))
    lines: dict[str, Any] = {}
    for f, pairs in by_family.items():
        a, b = least_squares([[1.0, x] for x, _ in pairs], [y for _, y in pairs], ridge=1e-6)
        resid = [y - (a + b * x) for x, y in pairs]
        sd = math.sqrt(sum(r * r for r in resid) / max(1, len(resid) - 2))
        lines[f] = {"a": round(a, 4), "b": round(b, 4), "sd": round(sd, 4), "n": len(pairs)}
    for f in FAMILIES:
        lines.setdefault(f, lines.get("plain", {"a": 0.0, "b": 1.0, "sd": 1.7, "n": 0}))
    return {"suit_model": suit_model, "families": lines}


def fit_nolo(samples: list[dict[str, Any]]) -> dict[str, Any]:
    """Fit one logistic model per nolo contract and trick limit."""
    by_key: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for s in samples:
        by_key[s["key"]].append(s)
    models: dict[str, Any] = {}
    for key, group in sorted(by_key.items()):
        w = logistic([g["features"] for g in group], [g["made"] for g in group], ridge=1.0)
        model: dict[str, Any] = {name: round(w[i], 4) for i, name in enumerate(NOLO_FEATURES)}
        model["n"] = len(group)
        model["made"] = round(sum(g["made"] for g in group) / len(group), 4)
        models[key] = model
    return models


def report(samples: list[dict[str, Any]], cal: Calibration) -> dict[str, Any]:
    """Return calibration checks: mean estimate against mean tricks per estimate bin."""
    bins: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for s in samples:
        if "family" not in s:
            continue
        rules = RuleSet.from_preset(s["preset"])
        raw = family_raw(s["hand"], s["family"], rules, cal)
        a, b, _ = cal.stage2[s["family"]]
        est = a + b * raw
        bins[s["family"]][round(est)].append(s["tricks"] - est)
    return {
        f: {str(k): [len(v), round(sum(v) / len(v), 2)] for k, v in sorted(d.items())}
        for f, d in bins.items()
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the calibration and write the JSON file."""
    parser = argparse.ArgumentParser(prog="python -m esmakker.sim.calibrate")
    parser.add_argument("--deals", type=int, default=12000, help="number deals per round")
    parser.add_argument("--nolo-deals", type=int, default=12000, help="nolo deals per round")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", default="calibrate")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=CALIBRATION_FILE)
    args = parser.parse_args(argv)
    cal = load_calibration(args.out) if args.out.exists() else load_calibration()
    command = "python -m esmakker.sim.calibrate " + " ".join(
        a for a in (argv if argv is not None else sys.argv[1:])
    )
    for round_no in range(1, args.rounds + 1):
        seed = f"{args.seed}/{round_no}"
        number = collect("number", args.deals, seed, cal, args.jobs)
        nolo = collect("nolo", args.nolo_deals, seed, cal, args.jobs)
        fitted = fit_number(number, cal)
        data = {
            "command": command.strip(),
            "round": round_no,
            "samples": {"number": len(number), "nolo": len(nolo)},
            **fitted,
            "nolo": fit_nolo(nolo),
        }
        cal = calibration_from_json(data)
        data["check_mean_residual_by_estimate"] = report(number, cal)
        cal = calibration_from_json(data)
        sys.stdout.write(json.dumps({"round": round_no, "families": data["families"]}) + "\n")
    args.out.write_text(json.dumps(cal.raw, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
