"""``esmakker compare``: two match files of the same deals, deal by deal (``sim.compare``)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from esmakker.sim.compare import compare_files

FIGURES = (
    ("points_per_deal", "points per deal", "+.2f"),
    ("tricks_lost_per_deal", "tricks lost a hand against the double-dummy optimum", ".3f"),
)
"""The figures compared: key, heading, number format."""


def add_compare(commands: Any) -> None:
    """Register ``esmakker compare``."""
    compare = commands.add_parser(
        "compare",
        help="compare two match files of the same deals, deal by deal",
        description="Read two files of `esmakker match --checkpoint` played with the same bots, "
        "preset and seed (the same cards deal by deal), and print each file's figures on "
        "the deals both hold with the second minus the first, paired by deal, each with "
        "its 95%% interval.",
    )
    compare.add_argument("first", type=Path, help="a match file (.jsonl)")
    compare.add_argument("second", type=Path, help="a match file of the same match")
    compare.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    compare.set_defaults(handler=run_compare)


def run_compare(args: argparse.Namespace) -> int:
    """Print the comparison of the two files as text or JSON."""
    result = compare_files(args.first, args.second)
    print(json.dumps(result) if args.json else compare_text(result))
    return 0


def compare_text(result: dict[str, Any]) -> str:
    """Return the comparison as lines of text."""
    first, second = result["files"]
    lines = [
        f"{result['deals']} deals in both files, bots {', '.join(result['bots'])}:",
        *(
            f"  {label} {f['path']} (play_code {f['play_code']}, {f['deals_in_file']} deals)"
            for label, f in (("first ", first), ("second", second))
        ),
    ]
    width = max(len(name) for name in result["bots"])
    for key, heading, style in FIGURES:
        if key not in result["difference"][result["bots"][0]]:
            continue
        lines.append(f"{heading} (95% interval):")
        lines.append(f"  {'bot':<{width}}  {'first':<27}  {'second':<27}  second - first")
        for name in result["bots"]:
            cells = [_cell(f["figures"][name], key, style) for f in (first, second)] + [
                _cell(result["difference"][name], key, style)
            ]
            lines.append(f"  {name:<{width}}  {cells[0]:<27}  {cells[1]:<27}  {cells[2]}")
    lines += _roles(result)
    ratios = [f["tricks_lost_ratio"] for f in (first, second)]
    if all(ratio is not None for ratio in ratios):
        shown = " and ".join(_ratio(ratio) for ratio in ratios)
        lines.append(f"tricks lost, {ratios[0]['bot']} over {ratios[0]['to']}: {shown}")
    return "\n".join(lines)


def _roles(result: dict[str, Any]) -> list[str]:
    """Return per bot name the tricks lost a hand by role, the first file's then the second's.

    Not paired by deal: a role's hands differ between the files where the auctions differ.
    """
    first, second = result["files"]
    if "by_role" not in first["figures"][result["bots"][0]]:
        return []
    lines = ["tricks lost a hand by role, first -> second (hands):"]
    for name in result["bots"]:
        roles_a, roles_b = (f["figures"][name]["by_role"] for f in (first, second))
        cells = [
            f"{role.replace('_', ' ')} {_per_hand(roles_a[role])} -> {_per_hand(roles_b[role])}"
            for role in roles_a
        ]
        lines.append(f"  {name}: " + ", ".join(cells))
    return lines


def _per_hand(figure: dict[str, Any]) -> str:
    lost = figure["tricks_lost_per_hand"]
    return ("-" if lost is None else f"{lost:.2f}") + f" ({figure['hands']})"


def _cell(values: dict[str, Any], key: str, style: str) -> str:
    ci = values[f"{key}_ci95"]
    interval = "" if ci is None else f" [{ci[0]:{style}}, {ci[1]:{style}}]"
    return f"{values[key]:{style}}{interval}"


def _ratio(ratio: dict[str, Any]) -> str:
    value, ci = ratio["ratio"], ratio["ci95"]
    if value is None:
        return "-"
    return f"{value:.3f}" + ("" if ci is None else f" [{ci[0]:.3f}, {ci[1]:.3f}]")
