#!/usr/bin/env python3
"""Fit the strong bot's lead model on gathered leads and export it (decisions 135 and 136).

Usage (from the repository root; needs scikit-learn, which the bot itself does not):

    .venv/bin/python scripts/train_lead_model.py leads-*.jsonl --holdout 30000:31200

Each lead gathered by ``scripts/measure_leads.py gather`` is replayed to its position, and
every legal card becomes a row of ``esmakker.bots.lead_model.card_features`` with its
double-dummy cost as the target. Gradient-boosted regression trees are fitted on the
leads outside ``--holdout`` (a range of deal numbers) and judged on those inside it: the
tricks the model's leads lose against the heuristic's, with the paired 95% interval. With
``--out`` the model fitted on every lead is written as plain trees, and the exported
trees are checked to predict what the fitted model predicts.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

from esmakker.bots.knowledge import Knowledge
from esmakker.bots.lead_model import LeadModel, card_features
from esmakker.core.rules import RuleSet
from esmakker.core.view import observe

TREES = 400
DEPTH = 5
LEARNING_RATE = 0.05
LEAF_ROWS = 80


def rows_of(leads: list[dict[str, Any]]) -> list[tuple[int, int, dict[str, float], float]]:
    """Return (lead index, card, features, cost) for every legal card of every lead."""
    sys.path.insert(0, str(Path(__file__).parent))
    import measure_leads as leads_script  # the gathered leads' replay and costs

    rules = RuleSet.from_preset("wikipedia")
    rows = []
    for index, lead in enumerate(leads):
        state = leads_script._replay(lead, rules)
        assert state.to_act is not None
        view = observe(state, state.to_act)
        k = Knowledge.of(view)
        heuristic = lead["chosen"]
        for card, cost in leads_script._costs(lead).items():
            rows.append((index, card, card_features(k, view, card, heuristic), float(cost)))
    return rows


def export(model: Any, names: list[str]) -> dict[str, Any]:
    """Return a fitted ``HistGradientBoostingRegressor`` as plain trees."""
    trees = []
    for (predictor,) in model._predictors:
        nodes = predictor.nodes
        trees.append(
            {
                "feature": [int(n["feature_idx"]) for n in nodes],
                "threshold": [float(n["num_threshold"]) for n in nodes],
                "left": [-1 if n["is_leaf"] else int(n["left"]) for n in nodes],
                "right": [-1 if n["is_leaf"] else int(n["right"]) for n in nodes],
                "value": [float(n["value"]) for n in nodes],
            }
        )
    baseline = float(model._baseline_prediction.ravel()[0])
    return {"features": names, "baseline": baseline, "trees": trees}


def main() -> None:
    """Fit, judge on the held-out deals and export."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", type=Path, nargs="+")
    parser.add_argument("--holdout", help="deal numbers FIRST:LAST judged, not trained on")
    parser.add_argument("--out", type=Path, help="write the model fitted on every lead here")
    args = parser.parse_args()
    try:
        import numpy as np
        from sklearn.ensemble import HistGradientBoostingRegressor
    except ImportError:
        raise SystemExit("train_lead_model needs scikit-learn: pip install scikit-learn") from None
    leads = [json.loads(line) for path in args.files for line in path.read_text().splitlines()]
    rows = rows_of(leads)
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

    lead_of = np.array([row[0] for row in rows])
    if args.holdout:
        first, last = (int(n) for n in args.holdout.split(":"))
        deal_of = np.array([leads[row[0]]["deal"] for row in rows])
        inside = (deal_of >= first) & (deal_of < last)
        predicted = fit(~inside).predict(x)
        _judge(leads, rows, predicted, {int(i) for i in np.unique(lead_of[inside])})
    if args.out:
        model = fit(np.ones(len(y), dtype=bool))
        data = export(model, names)
        plain = LeadModel.from_json(data)
        gap = max(
            abs(plain.cost(row[2]) - p) for row, p in zip(rows, model.predict(x), strict=True)
        )
        print(f"exported trees predict within {gap:.2e} of the fitted model")
        args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


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
