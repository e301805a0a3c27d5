#!/usr/bin/env python3
"""Fit the strong bot's lead or follow model on gathered cards and export it (decisions 135-137).

Usage (from the repository root; needs scikit-learn, which the bot itself does not):

    .venv/bin/python scripts/train_lead_model.py leads-*.jsonl --holdout 30000:31200
    .venv/bin/python scripts/train_lead_model.py --follows follows-*.jsonl --holdout 41000:42000

Each lead gathered by ``scripts/measure_leads.py gather`` is replayed to its position, and
every legal card becomes a row of ``esmakker.bots.lead_model.card_features`` with its
double-dummy cost as the target. Gradient-boosted regression trees are fitted on the
leads outside ``--holdout`` (a range of deal numbers) and judged on those inside it: the
tricks the model's leads lose against the heuristic's, with the paired 95% interval. With
``--out`` the model fitted on every lead is written as plain trees to six significant
digits, and the exported trees are checked to predict what the fitted model predicts
(within ``EXPORT_TOLERANCE``). With ``--average-with MODEL.json`` both the judged and the
exported model are the mean of the fitted one and that exported one (decision 138: the
shipped lead model averages two models fitted on different deals). With ``--follows``
the files hold the cards played to a trick (``measure_leads.py gather --follows``), each
legal card a row of ``esmakker.bots.follow_model.follow_features``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from esmakker.bots.follow_model import follow_features
from esmakker.bots.knowledge import Knowledge
from esmakker.bots.lead_model import LeadModel, card_features
from esmakker.core.rules import RuleSet
from esmakker.core.view import observe

TREES = 400
DEPTH = 5
LEARNING_RATE = 0.05
LEAF_ROWS = 80
EXPORT_TOLERANCE = 1e-3
"""Tricks by which the exported (rounded) trees may predict apart from the fitted model."""


def rows_of(
    leads: list[dict[str, Any]], *, follows: bool = False
) -> list[tuple[int, int, dict[str, float], float]]:
    """Return (lead index, card, features, cost) for every legal card of every lead.

    With ``follows`` the positions are cards played to a trick (``gather --follows``),
    described by ``follow_features``.
    """
    leads_script = _leads_script()
    rules = RuleSet.from_preset("wikipedia")
    rows = []
    for index, lead in enumerate(leads):
        state = leads_script._replay(lead, rules)
        assert state.to_act is not None
        view = observe(state, state.to_act)
        k = Knowledge.of(view)
        heuristic = lead["chosen"]
        costs = leads_script._costs(lead)
        legal = sorted(costs)
        for card, cost in costs.items():
            if follows:
                features = follow_features(k, view, card, heuristic, legal)
            else:
                features = card_features(k, view, card, heuristic)
            rows.append((index, card, features, float(cost)))
    return rows


def _leads_script() -> ModuleType:
    """Return ``measure_leads`` beside this script: the gathered leads' files, replay and costs."""
    sys.path.insert(0, str(Path(__file__).parent))
    import measure_leads

    return measure_leads


def export(model: Any, names: list[str]) -> dict[str, Any]:
    """Return a fitted ``HistGradientBoostingRegressor`` as plain trees (six significant digits)."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append(
            {
                "feature": [int(n["feature_idx"]) for n in nodes],
                "threshold": [_six(n["num_threshold"]) for n in nodes],
                "left": [-1 if n["is_leaf"] else int(n["left"]) for n in nodes],
                "right": [-1 if n["is_leaf"] else int(n["right"]) for n in nodes],
                "value": [_six(n["value"]) for n in nodes],
            }
        )
    baseline = _six(model._baseline_prediction.ravel()[0])
    return {"features": names, "baseline": baseline, "trees": trees}


def average(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Return the mean of two exported models of the same features: every tree at half weight.

    The second model's trees are renumbered to the first's order of features, so two models
    fitted on different deals predict as one (decision 138).
    """
    if set(first["features"]) != set(second["features"]):
        raise ValueError("the two models read different features")
    place = {name: index for index, name in enumerate(first["features"])}
    renumber = [place[name] for name in second["features"]]

    def halved(tree: dict[str, list[Any]], features: list[int]) -> dict[str, list[Any]]:
        return {**tree, "feature": features, "value": [_six(v / 2) for v in tree["value"]]}

    trees = [halved(tree, tree["feature"]) for tree in first["trees"]]
    trees += [halved(tree, [renumber[f] for f in tree["feature"]]) for tree in second["trees"]]
    baseline = _six((first["baseline"] + second["baseline"]) / 2)
    return {"features": first["features"], "baseline": baseline, "trees": trees}


def _six(value: float) -> float:
    """Return ``value`` to six significant digits: the thresholds lie between whole numbers."""
    return float(f"{float(value):.6g}")


def main() -> None:
    """Fit, judge on the held-out deals and export."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--holdout", help="deal numbers FIRST:LAST judged, not trained on")
    parser.add_argument("--out", type=Path, help="write the model fitted on every lead here")
    parser.add_argument("--follows", action="store_true", help="the files hold follows")
    parser.add_argument(
        "--average-with",
        type=Path,
        help="judge and export the mean of the fitted model and this exported one",
    )
    args = parser.parse_args()
    other = _other_model(args.average_with)
    try:
        import numpy as np
        from sklearn.ensemble import HistGradientBoostingRegressor
    except ImportError:
        raise SystemExit("train_lead_model needs scikit-learn: pip install scikit-learn") from None
    leads = _leads_script().load(args.files)
    rows = rows_of(leads, follows=args.follows)
    names = list(rows[0][2])
    x = np.array([[row[2][name] for name in names] for row in rows], dtype=float)
    y = np.array([row[3] for row in rows])

    def fit(mask: Any) -> Any:
        return HistGradientBoostingRegressor(
            max_iter=TREES,
            max_depth=DEPTH,
            learning_rate=LEARNING_RATE,
            min_samples_leaf=LEAF_ROWS,
            random_state=0,
        ).fit(x[mask], y[mask])

    other_costs = np.array([other.cost(row[2]) for row in rows]) if other else None

    def predict(model: Any) -> Any:
        own = model.predict(x)
        return own if other_costs is None else (own + other_costs) / 2

    lead_of = np.array([row[0] for row in rows])
    if args.holdout:
        first, last = (int(n) for n in args.holdout.split(":"))
        deal_of = np.array([leads[row[0]]["deal"] for row in rows])
        inside = (deal_of >= first) & (deal_of < last)
        predicted = predict(fit(~inside))
        _judge(leads, rows, predicted, {int(i) for i in np.unique(lead_of[inside])})
    if args.out:
        model = fit(np.ones(len(y), dtype=bool))
        data = export(model, names)
        if other:
            data = average(data, other.data)
        plain = LeadModel.from_json(data)
        gap = max(abs(plain.cost(row[2]) - p) for row, p in zip(rows, predict(model), strict=True))
        print(f"exported trees predict within {gap:.2e} of the fitted model")
        if gap > EXPORT_TOLERANCE:
            raise SystemExit(f"exported trees differ from the fitted model by {gap:.2e}")
        args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


class _Exported:
    """An exported model read back: its data and its predictions."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.model = LeadModel.from_json(data)

    def cost(self, features: dict[str, float]) -> float:
        return self.model.cost(features)


def _other_model(path: Path | None) -> _Exported | None:
    """Return the exported model in ``path``, gzipped or plain (none without a path).

    Exits with a one-line error where the file is unreadable or not an exported model.
    """
    if path is None:
        return None
    screen = _leads_script()._sibling("measure_strong_play")
    try:
        return _Exported(screen._model_file(str(path)))
    except ValueError as error:
        raise SystemExit(str(error)) from None


def _judge(
    leads: list[dict[str, Any]],
    rows: list[tuple[int, int, dict[str, float], float]],
    predicted: Any,
    judged: set[int],
) -> None:
    """Print the tricks the model's leads lose on the judged leads against the heuristic's."""
    by_lead: dict[int, list[tuple[float, int, float]]] = {}
    for (index, card, _, cost), guess in zip(rows, predicted, strict=True):
        if index in judged:
            by_lead.setdefault(index, []).append((float(guess), card, cost))
    gains = []
    for index, cards in by_lead.items():
        heuristic = next(cost for _, card, cost in cards if card == leads[index]["chosen"])
        chosen = min(cards)[2]
        gains.append(chosen - heuristic)
    mean = sum(gains) / len(gains)
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (len(gains) - 1))
    half = 1.96 * spread / math.sqrt(len(gains))
    print(
        f"{len(gains)} held-out leads: the model loses {sum(gains):+.0f} tricks against the "
        f"heuristic, {mean:+.4f} a lead [{mean - half:+.4f}, {mean + half:+.4f}]"
    )


if __name__ == "__main__":
    main()
