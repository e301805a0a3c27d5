"""Exporting a fitted lead model as plain trees (``scripts/train_lead_model.py``)."""

from __future__ import annotations

from types import ModuleType, SimpleNamespace

import pytest

from esmakker.bots.lead_model import LeadModel
from support import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("train_lead_model")


def _node(feature: int, threshold: float, left: int, right: int, value: float) -> dict[str, object]:
    leaf = left < 0
    return {
        "feature_idx": feature,
        "num_threshold": threshold,
        "left": 0 if leaf else left,
        "right": 0 if leaf else right,
        "value": value,
        "is_leaf": leaf,
    }


class _Baseline:
    def ravel(self) -> list[float]:
        return [0.25]


def test_a_fitted_models_trees_export_with_their_leaves_marked_and_load_back(
    script: ModuleType,
) -> None:
    nodes = [_node(1, 0.5, 1, 2, 0.0), _node(0, 0, -1, -1, -0.5), _node(0, 0, -1, -1, 0.5)]
    fitted = SimpleNamespace(
        _predictors=[[SimpleNamespace(nodes=nodes)]], _baseline_prediction=_Baseline()
    )
    data = script.export(fitted, ["rank", "joker"])
    assert data["baseline"] == 0.25
    assert data["trees"][0]["left"] == [1, -1, -1]
    model = LeadModel.from_json(data)
    assert model.cost({"rank": 3, "joker": 0}) == pytest.approx(-0.25)
    assert model.cost({"rank": 3, "joker": 1}) == pytest.approx(0.75)
