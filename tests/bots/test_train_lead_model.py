"""Exporting a fitted lead model as plain trees (``scripts/train_lead_model.py``)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
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


def _model(features: list[str], feature: int, baseline: float, low: float) -> dict[str, object]:
    tree = {
        "feature": [feature, 0, 0],
        "threshold": [0.5, 0, 0],
        "left": [1, -1, -1],
        "right": [2, -1, -1],
        "value": [0, low, -low],
    }
    return {"features": features, "baseline": baseline, "trees": [tree]}


def test_two_models_average_into_one_with_the_second_renumbered_to_the_firsts_features(
    script: ModuleType,
) -> None:
    first = _model(["rank", "joker"], 1, 0.2, 1.0)
    second = _model(["joker", "rank"], 1, 0.4, 0.5)
    both = LeadModel.from_json(script.average(first, second))
    one, two = LeadModel.from_json(first), LeadModel.from_json(second)
    for rank, joker in ((0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)):
        row = {"rank": rank, "joker": joker}
        assert both.cost(row) == pytest.approx((one.cost(row) + two.cost(row)) / 2)
    assert script.average(first, second)["trees"][1]["feature"][0] == 0


def test_models_of_different_features_do_not_average(script: ModuleType) -> None:
    with pytest.raises(ValueError, match="different features"):
        script.average(_model(["rank"], 0, 0, 1), _model(["joker"], 0, 0, 1))


def test_the_model_to_average_with_reads_gzipped_and_refuses_other_files(
    script: ModuleType, tmp_path: Path
) -> None:
    data = _model(["rank"], 0, 0.1, 1.0)
    packed = tmp_path / "model.json.gz"
    packed.write_bytes(gzip.compress(json.dumps(data).encode()))
    other = script._other_model(packed)
    assert other.data == data
    assert other.cost({"rank": 0}) == pytest.approx(1.1)
    assert script._other_model(None) is None
    broken = tmp_path / "broken.json"
    broken.write_text("[1]")
    with pytest.raises(SystemExit, match=r"broken\.json: not an exported model"):
        script._other_model(broken)
    with pytest.raises(SystemExit, match=r"missing\.json"):
        script._other_model(tmp_path / "missing.json")
