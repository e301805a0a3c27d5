"""The match report: one self-contained HTML page with plots and tables.

The plots are drawn with matplotlib (the ``report`` extra: ``pip install
'esmakker[report]'``), imported only here, and put into the page as inline SVG
with the text drawn as paths: the page loads nothing from anywhere else.
"""

from __future__ import annotations

import html
import io
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from esmakker.core.actions import Bid
from esmakker.core.errors import EsmakkerError
from esmakker.core.ladder import bid_key
from esmakker.core.rules import RuleSet
from esmakker.sim.match import MatchResult, MatchSetupError
from esmakker.sim.stats import ratio_sentence

if TYPE_CHECKING:
    from matplotlib.figure import Figure

_NUMBER = "#4c72b0"
_NOLO = "#dd8452"
_REDEAL = "#8c8c8c"


def check_report_extra() -> None:
    """Make sure matplotlib can be imported.

    Raises:
        MatchSetupError: if it cannot (the ``report`` extra is not installed).
    """
    try:
        import matplotlib  # noqa: F401 (only whether it imports)
    except ImportError as exc:
        raise MatchSetupError("--report needs matplotlib: pip install 'esmakker[report]'") from exc


def write_report(
    path: str | os.PathLike[str], result: MatchResult, summary: dict[str, Any] | None = None
) -> None:
    """Write the report page of ``result`` to ``path``.

    Raises:
        MatchSetupError: if matplotlib is not installed.
        OSError: if the file cannot be written.
    """
    page = render_report(result, summary)
    Path(path).write_text(page, encoding="utf-8")


def render_report(result: MatchResult, summary: dict[str, Any] | None = None) -> str:
    """Return the report page of ``result`` as HTML text.

    Raises:
        MatchSetupError: if matplotlib is not installed.
    """
    check_report_extra()
    figures = summary if summary is not None else result.summary()
    ruleset = RuleSet.from_preset(result.preset, result.overrides)
    hands = 4 * figures["deals"]
    title = f"esmakker match: {', '.join(result.bots)}"
    rules = result.preset + "".join(
        f" {key}={_json_text(value)}" for key, value in result.overrides.items()
    )
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        f"<h1>{_e(title)}</h1>",
        "<p>"
        f"Rules <b>{_e(rules)}</b>, seed <b>{_e(result.seed)}</b>, "
        f"{figures['deals']} deals played in duplicate: each deal four times with the bots "
        f"rotated through the seats, so each bot held each hand once ({hands} hands in all)."
        "</p>",
        "<h2>Points per deal</h2>",
        _bots_table(figures),
        '<p class="note">Points per deal: a bot\'s mean score over the four rotations of a '
        "deal; bots of the same name are pooled deal by deal. 95% interval: Student t on the "
        "per-deal values, mean &plusmn; t(0.975, n&minus;1)&middot;s/&radic;n.</p>",
        _figure(_points_plot(figures), "Mean points per deal with 95% confidence interval"),
        *_dd_section(figures),
        "<h2>Contracts</h2>",
        _outcomes_table(figures),
        _figure(
            _distribution_plot(figures, ruleset), "Distribution of final contracts (share of hands)"
        ),
        _figure(_make_rate_plot(figures, ruleset, hands), "Declarer's make rate per contract type"),
        _contracts_table(figures, ruleset, hands),
        _families_table(figures),
        "</body>",
        "</html>",
    ]
    return "\n".join(parts) + "\n"


# --- tables ----------------------------------------------------------------------------------


def _bots_table(figures: dict[str, Any]) -> str:
    rows = []
    for name, values in figures["bots"].items():
        ci = values["ci95"]
        interval = "&ndash;" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{values['mean_points_per_deal']:+.2f}</td>"
            f"<td>{interval}</td></tr>"
        )
    return _table(["bot", "mean points per deal", "95% interval"], rows)


def _dd_section(figures: dict[str, Any]) -> list[str]:
    """Return the double-dummy heading, table and note (nothing without ``--dd-loss``)."""
    dd = figures.get("dd_loss")
    if dd is None:
        return []
    rows = []
    for name, values in dd["bots"].items():
        regret = values["regret_per_declared_deal"]
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{values['tricks_lost_per_deal']:.2f}</td>"
            f"<td>{_interval(values['ci95'])}</td><td>{_percent(values['card_coverage'])}</td>"
            f"<td>{'&ndash;' if regret is None else f'{regret:.1f}'}</td>"
            f"<td>{_interval(values['regret_ci95'])}</td>"
            f"<td>{values['regret_solved']} of {values['declared']}</td></tr>"
        )
    head = [
        "bot",
        "tricks lost per deal",
        "95% interval",
        "cards judged",
        "regret per declared deal",
        "95% interval",
        "regrets judged",
    ]
    note = (
        f'<p class="note">Double dummy, at most {dd["node_limit"]:,} nodes per card: a card '
        "loses the tricks its side gives away against best play by everyone from there; a "
        "card the solver could not judge within the limit (and every card before it in the "
        "hand) is skipped, so below full coverage the figure counts the judged cards only. "
        "Regret: the points of the best contract the solver finds on the cards minus those "
        "of the contract played, both at their double-dummy result from the opening lead "
        "(docs/decisions.md 82&ndash;85).</p>"
    )
    return [
        "<h2>Double dummy</h2>",
        _table(head, rows),
        *_ratio_note(dd.get("tricks_lost_ratio")),
        _roles_table(dd["bots"]),
        note,
    ]


def _roles_table(bots: dict[str, Any]) -> str:
    """Return the tricks lost a hand per bot name and role (the hands in brackets)."""
    roles = list(next(iter(bots.values()))["by_role"])
    rows = []
    for name, values in bots.items():
        cells = []
        for role in roles:
            figure = values["by_role"][role]
            lost = figure["tricks_lost_per_hand"]
            shown = "&ndash;" if lost is None else f"{lost:.2f}"
            cells.append(f"<td>{shown} ({figure['hands']})</td>")
        rows.append(f"<tr><td>{_e(name)}</td>{''.join(cells)}</tr>")
    head = ["tricks lost a hand (hands)", *(role.replace("_", " ") for role in roles)]
    return _table(head, rows)


def _ratio_note(ratio: dict[str, Any] | None) -> list[str]:
    """Return the paragraph comparing two bots' card play (nothing for other matches)."""
    sentence = ratio_sentence(ratio)
    return [] if sentence is None else [f"<p>{_e(sentence)}</p>"]


def _interval(ci: list[float] | None) -> str:
    return "&ndash;" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _outcomes_table(figures: dict[str, Any]) -> str:
    played = 1 - figures["all_pass_share"] - figures["iron_hand_share"]
    rows = [
        f"<tr><td>{label}</td><td>{share:.1%}</td></tr>"
        for label, share in (
            ("contract played", played),
            ("nolo contract", figures["nolo_share"]),
            ("all passed (redeal)", figures["all_pass_share"]),
            ("iron hand (redeal)", figures["iron_hand_share"]),
        )
    ]
    return _table(["hands", "share"], rows)


def _contracts_table(figures: dict[str, Any], rules: RuleSet, hands: int) -> str:
    names = list(figures["bots"])
    rows = []
    for contract in _ladder_order(figures["contracts"], rules):
        values = figures["contracts"][contract]
        declared = "".join(f"<td>{values['declared_by'][name]}</td>" for name in names)
        rows.append(
            f"<tr><td>{_e(contract)}</td><td>{round(values['share'] * hands)}</td>"
            f"<td>{values['share']:.1%}</td><td>{values['make_rate']:.1%}</td>{declared}</tr>"
        )
    head = ["contract", "hands", "share", "make rate", *(f"declared by {n}" for n in names)]
    return _table(head, rows)


def _families_table(figures: dict[str, Any]) -> str:
    rows = []
    for name in figures["bots"]:
        number = figures["number_make_rate"][name]
        nolo = figures["nolo_make_rate"][name]
        rows.append(
            f"<tr><td>{_e(name)}</td><td>{_percent(number)}</td><td>{_percent(nolo)}</td></tr>"
        )
    return _table(["declaring bot", "number contracts made", "nolo contracts made"], rows)


def _table(head: Sequence[str], rows: Sequence[str]) -> str:
    cells = "".join(f"<th>{_e(cell)}</th>" for cell in head)
    body = "\n".join(rows) if rows else f'<tr><td colspan="{len(head)}">none</td></tr>'
    return f"<table>\n<thead><tr>{cells}</tr></thead>\n<tbody>\n{body}\n</tbody>\n</table>"


def _percent(rate: float | None) -> str:
    return "&ndash;" if rate is None else f"{rate:.1%}"


# --- plots -----------------------------------------------------------------------------------


def _points_plot(figures: dict[str, Any]) -> Figure:
    from matplotlib.figure import Figure

    names = list(figures["bots"])
    means = [figures["bots"][n]["mean_points_per_deal"] for n in names]
    low = [
        m - ci[0] if (ci := figures["bots"][n]["ci95"]) else 0.0
        for n, m in zip(names, means, strict=True)
    ]
    high = [
        ci[1] - m if (ci := figures["bots"][n]["ci95"]) else 0.0
        for n, m in zip(names, means, strict=True)
    ]
    figure = Figure(figsize=(7, 1.5 + 0.5 * len(names)), layout="constrained")
    axes = figure.add_subplot()
    rows = list(range(len(names)))
    axes.errorbar(means, rows, xerr=[low, high], fmt="o", color=_NUMBER, capsize=5)
    axes.axvline(0, color=_REDEAL, linewidth=0.8)
    axes.set_yticks(rows, names)
    axes.set_ylim(-0.6, len(names) - 0.4)
    axes.invert_yaxis()
    axes.set_xlabel("mean points per deal (95% interval)")
    axes.grid(axis="x", alpha=0.3)
    return figure


def _make_rate_plot(figures: dict[str, Any], rules: RuleSet, hands: int) -> Figure:
    from matplotlib.figure import Figure

    contracts = _ladder_order(figures["contracts"], rules)
    figure = Figure(figsize=(7, 1.5 + 0.3 * max(3, len(contracts))), layout="constrained")
    axes = figure.add_subplot()
    rates = [figures["contracts"][c]["make_rate"] for c in contracts]
    colours = [_NOLO if _is_nolo(c) else _NUMBER for c in contracts]
    axes.barh(range(len(contracts)), rates, color=colours)
    for row, (contract, rate) in enumerate(zip(contracts, rates, strict=True)):
        count = round(figures["contracts"][contract]["share"] * hands)
        axes.text(min(rate, 0.8) + 0.01, row, f"{rate:.0%} of {count}", va="center", fontsize=8)
    axes.set_yticks(range(len(contracts)), contracts)
    axes.invert_yaxis()
    axes.set_xlim(0, 1)
    axes.set_xlabel("share of contracts made by the declarer (orange: nolo)")
    axes.grid(axis="x", alpha=0.3)
    if not contracts:
        axes.set_yticks([])
        axes.text(
            0.5, 0.5, "no contract was played", ha="center", va="center", transform=axes.transAxes
        )
    return figure


def _distribution_plot(figures: dict[str, Any], rules: RuleSet) -> Figure:
    from matplotlib.figure import Figure

    contracts = _ladder_order(figures["contracts"], rules)
    labels = [*contracts, "all pass", "iron hand"]
    shares = [figures["contracts"][c]["share"] for c in contracts]
    shares += [figures["all_pass_share"], figures["iron_hand_share"]]
    colours = [_NOLO if _is_nolo(c) else _NUMBER for c in contracts] + [_REDEAL, _REDEAL]
    figure = Figure(figsize=(max(7.0, 0.45 * len(labels)), 3.6), layout="constrained")
    axes = figure.add_subplot()
    axes.bar(range(len(labels)), shares, color=colours)
    axes.set_xticks(range(len(labels)), labels, rotation=60, ha="right")
    axes.set_ylabel("share of hands")
    axes.grid(axis="y", alpha=0.3)
    return figure


def _figure(figure: Figure, caption: str) -> str:
    from matplotlib import rc_context

    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "path", "svg.hashsalt": "esmakker"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None})
    return f"<figure>\n{_inline_svg(buffer.getvalue())}\n<figcaption>{_e(caption)}</figcaption>\n</figure>"


def _inline_svg(text: str) -> str:
    """Return matplotlib's SVG file as an element for an HTML page.

    The XML declaration, the DOCTYPE (which names the SVG DTD by URL), the metadata
    block and the namespace declarations go: an HTML parser puts ``<svg>`` and
    ``xlink:href`` in their namespaces by itself.
    """
    text = text[text.index("<svg") :]
    text = re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.DOTALL)
    text = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", text)
    return text.strip()


# --- helpers ---------------------------------------------------------------------------------


def _ladder_order(contracts: dict[str, Any], rules: RuleSet) -> list[str]:
    """Return the contract names from the lowest bid of the rules' ladder to the highest."""

    def key(contract: str) -> tuple[tuple[int, int], str]:
        try:
            return bid_key(Bid.parse(contract), rules), contract
        except (EsmakkerError, ValueError):  # not a bid of these rules: last
            return (10**6, 0), contract

    return sorted(contracts, key=key)


def _is_nolo(contract: str) -> bool:
    return not contract.split(" ")[0].isdigit()


def _json_text(value: Any) -> str:
    return json.dumps(value)


def _e(text: str) -> str:
    return html.escape(text, quote=True)


_CSS = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.2rem; margin-top: 2rem; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead { background: #f0f0f0; }
figure { margin: 1rem 0; }
figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.9rem; color: #555; }
.note { font-size: 0.9rem; color: #555; }
""".strip()
