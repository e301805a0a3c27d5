"""Two match files of the same deals compared deal by deal (``esmakker compare``).

A change to the bots starts a new match file (decision 125), played with the same seed,
so its deal ``k`` holds the same cards as deal ``k`` of the file before. Paired by deal
on the deals both files hold, the difference between two versions of a bot is measured
with far less noise than two separate intervals show: each deal's luck of the cards
cancels. For each file the figures of ``esmakker match`` are read on the common deals
(points per deal, and with ``--dd-loss`` the tricks lost per deal, by role, and their
ratio), and for each bot name the second file's figure minus the first's, deal by deal,
with its 95% interval (decisions 131 and 132).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from esmakker.sim.checkpoint import PLAY_CODE, CheckpointError, read_checkpoint
from esmakker.sim.duplicate import DuplicateDeal
from esmakker.sim.stats import lost_by_role, lost_per_deal, mean_ci95, ratio_ci95

SAME_MATCH = ("bots", "preset", "seed", "overrides", "dd_node_limit")
"""The settings two files must share to hold the same deals played by the same names."""


class CompareError(ValueError):
    """Two match files that cannot be compared deal by deal."""


def compare_files(first: str | os.PathLike[str], second: str | os.PathLike[str]) -> dict[str, Any]:
    """Return the comparison of two match files on the deals both hold (see the module text).

    Keys: ``deals`` (the common deals), ``bots`` (the names), ``files`` (per file its
    ``path``, ``play_code``, ``deals_in_file`` and ``figures``) and ``difference`` (per
    name, the second file's figure minus the first's, each with ``ci95``).

    Raises:
        CheckpointError: if a file is no match file or a line of it cannot be read.
        CompareError: if the files are of different matches or share no deal.
        OSError: if a file cannot be read.
    """
    header_a, deals_a = read_checkpoint(first)
    header_b, deals_b = read_checkpoint(second)
    for key in SAME_MATCH:
        if header_a.get(key) != header_b.get(key):
            raise CompareError(
                f"{first} and {second} are not the same match: {key} is "
                f"{header_a.get(key)!r} and {header_b.get(key)!r}"
            )
    bots = list(header_a["bots"])
    numbers = sorted({d.number for d in deals_a} & {d.number for d in deals_b})
    if not numbers:
        raise CompareError(f"{first} and {second} have no deal in common")
    common_a = _only(deals_a, numbers)
    common_b = _only(deals_b, numbers)
    figures_a = _figures(bots, common_a)
    figures_b = _figures(bots, common_b)
    return {
        "deals": len(numbers),
        "bots": list(dict.fromkeys(bots)),
        "files": [
            _file(first, header_a, deals_a, figures_a),
            _file(second, header_b, deals_b, figures_b),
        ],
        "difference": _difference(figures_a, figures_b),
    }


def _only(deals: Sequence[DuplicateDeal], numbers: Sequence[int]) -> list[DuplicateDeal]:
    wanted = set(numbers)
    return [deal for deal in deals if deal.number in wanted]


def _file(
    path: str | os.PathLike[str],
    header: dict[str, Any],
    deals: Sequence[DuplicateDeal],
    figures: dict[str, Any],
) -> dict[str, Any]:
    return {
        "path": os.fspath(path),
        PLAY_CODE: header.get(PLAY_CODE),
        "deals_in_file": len(deals),
        "figures": {name: _public(values) for name, values in figures["bots"].items()},
        "tricks_lost_ratio": figures["ratio"],
    }


def _public(values: dict[str, Any]) -> dict[str, Any]:
    """Return a name's figures without the per-deal lists kept for the differences."""
    return {key: value for key, value in values.items() if not key.startswith("_")}


def _figures(bots: Sequence[str], deals: Sequence[DuplicateDeal]) -> dict[str, Any]:
    """Return per name the points and tricks lost per deal (means, intervals, per-deal lists)."""
    names = list(dict.fromkeys(bots))
    judged = all(hand.dd is not None for deal in deals for hand in deal.hands)
    result: dict[str, Any] = {}
    by_deal = [deal.points_by_name(bots) for deal in deals]
    hands = [[hand.dd for hand in deal.hands if hand.dd is not None] for deal in deals]
    for name in names:
        points = [values[name] for values in by_deal]
        values: dict[str, Any] = {"_points": points, **_mean("points_per_deal", points)}
        if judged:
            lost = lost_per_deal(bots, name, hands)
            values |= {"_lost": lost, **_mean("tricks_lost_per_deal", lost)}
            values["by_role"] = lost_by_role(bots, name, deals)
        result[name] = values
    ratio = None
    if judged and len(names) == 2:
        value, ci = ratio_ci95(result[names[0]]["_lost"], result[names[1]]["_lost"])
        ratio = {
            "bot": names[0],
            "to": names[1],
            "ratio": value,
            "ci95": None if ci is None else list(ci),
        }
    return {"bots": result, "ratio": ratio}


def _mean(key: str, values: Sequence[float]) -> dict[str, Any]:
    mean, ci = mean_ci95(values)
    return {key: mean, f"{key}_ci95": None if ci is None else list(ci)}


def _difference(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Return per name the second file's figures minus the first's, paired by deal."""
    result: dict[str, Any] = {}
    for name, values_a in first["bots"].items():
        values_b = second["bots"][name]
        found: dict[str, Any] = {}
        for key, figure in (("_points", "points_per_deal"), ("_lost", "tricks_lost_per_deal")):
            if key in values_a and key in values_b:
                pairs = zip(values_b[key], values_a[key], strict=True)
                found |= _mean(figure, [b - a for b, a in pairs])
        result[name] = found
    return result


__all__ = ["SAME_MATCH", "CheckpointError", "CompareError", "compare_files"]
