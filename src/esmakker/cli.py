"""The ``esmakker`` command: ``sim``, ``match``, ``replay``, ``review``, ``play``, ``bench``, ``serve`` ….

Errors of the user's making (an unknown preset, a bad override, an unreadable or
inconsistent file) end the command with one line on stderr and a non-zero exit
code, never a traceback: 2 for bad arguments (and a missing optional extra, an
unreachable Ray cluster), 1 for a file that cannot be read or replayed and for a
bot that breaks the rules in a match.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from esmakker import __version__
from esmakker.bots.review import REVIEW_WORLDS
from esmakker.core.actions import format_action
from esmakker.core.errors import EsmakkerError, RulesConfigError
from esmakker.core.presets import PRESET_NAMES, preset_options
from esmakker.core.record import HandRecord, dumps, iter_jsonl, load, record_of
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.server.command import add_join, add_serve
from esmakker.sim.checkpoint import CheckpointError
from esmakker.sim.compare import CompareError
from esmakker.sim.compare_command import add_compare
from esmakker.sim.ddloss import DEFAULT_NODE_LIMIT as DD_NODE_LIMIT
from esmakker.sim.duplicate import BotFailure
from esmakker.sim.match import MatchResult, MatchSetupError, run_match
from esmakker.sim.runner import SimDeal, simulate_deals, summarise
from esmakker.sim.stats import ratio_sentence
from esmakker.solver.commands import SolverInputError, add_analyze, add_solve
from esmakker.solver.solve import SolverGaveUpError
from esmakker.table import RecordReview, review_record
from esmakker.tui.command import add_play, add_show, names_of, show_record

PROG = "esmakker"


class UsageError(Exception):
    """A command-line argument that makes no sense (exit code 2)."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (no usage dump)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        if args.handler is None:
            raise UsageError(
                "a command is required: play, serve, join, sim, match, compare, replay, review, "
                "bench, solve or analyze"
                " (see --help)"
            )
        code: int = args.handler(args)
        return code
    except KeyboardInterrupt:  # Ctrl-C, in a long match say
        return _fail("interrupted", 130)
    except BrokenPipeError:  # the reader went away (``esmakker replay … | head``)
        _silence_stdout()
        return 1
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else 0
    except (UsageError, MatchSetupError, SolverInputError, CompareError, CheckpointError) as exc:
        return _fail(str(exc), 2)
    except (BotFailure, SolverGaveUpError) as exc:
        return _fail(_one_line(exc), 1)
    except RulesConfigError as exc:
        return _fail(str(exc), 2)
    except (EsmakkerError, OSError) as exc:
        return _fail(_one_line(exc), 1)


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real file behind stdout (tests)
        pass


def _fail(message: str, code: int) -> int:
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return code


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.filename is not None:
        return f"{exc.filename}: {exc.strerror or exc}"
    return " ".join(str(exc).split())


def _parser() -> _Parser:
    parser = _Parser(
        prog=PROG, description="Danish call-ace whist: simulate, match bots, replay, bench."
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    parser.set_defaults(handler=None)
    commands = parser.add_subparsers(title="commands", parser_class=_Parser)
    _add_sim(commands)
    _add_match(commands)
    add_compare(commands)
    _add_replay(commands)
    _add_review(commands)
    _add_bench(commands)
    add_play(commands)
    add_serve(commands)
    add_join(commands)
    add_solve(commands)
    add_analyze(commands)
    return parser


# --- sim -------------------------------------------------------------------------------------


def _add_sim(commands: Any) -> None:
    sim = commands.add_parser("sim", help="play random deals with bots and summarise them")
    sim.add_argument("--preset", default="wikipedia", help=f"one of {', '.join(PRESET_NAMES)}")
    sim.add_argument("--deals", type=_positive, default=1000, help="number of deals (1000)")
    sim.add_argument("--seed", default="1", help="run seed; deal k uses the seed 'SEED/k' (1)")
    sim.add_argument(
        "--bots",
        default="random,random,random,random",
        help="4 to 6 comma-separated bot names, clockwise from the first dealer",
    )
    sim.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option of rules.md section 9; VALUE is JSON or a plain word",
    )
    sim.add_argument("--out", type=Path, help="write the hand records to this .jsonl file")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.set_defaults(handler=_sim)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def _overrides(items: Sequence[str]) -> dict[str, Any]:
    overrides: dict[str, Any] = {}
    for item in items:
        key, equals, value = item.partition("=")
        if not equals or not key.strip():
            raise UsageError(f"--override {item!r}: expected KEY=VALUE")
        try:
            overrides[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            overrides[key.strip()] = value.strip()
    return overrides


def _sim(args: argparse.Namespace) -> int:
    bots = [name.strip() for name in args.bots.split(",")]
    overrides = _overrides(args.override)
    _check_rules(args.preset, overrides)
    try:
        deals = simulate_deals(args.preset, args.deals, args.seed, bots, overrides)
    except ValueError as exc:
        raise UsageError(f"--bots {args.bots}: {exc}") from exc
    if args.out is None:
        summary = summarise(d.state for d in deals)
    else:
        with args.out.open("w", encoding="utf-8") as out:
            summary = summarise(d.state for d in _written(deals, out))
    header = {"preset": args.preset, "overrides": overrides, "seed": args.seed, "bots": bots}
    if args.json:
        print(json.dumps({**header, **summary}))
    else:
        print(_summary_text(header, summary, args.out))
    return 0


def _check_rules(preset: str, overrides: dict[str, Any]) -> None:
    try:
        preset_options(preset)
    except RulesConfigError as exc:
        raise UsageError(f"--preset: {exc}") from exc
    try:
        RuleSet.from_preset(preset, overrides)
    except RulesConfigError as exc:
        raise UsageError(f"--override: {exc}") from exc


def _written(deals: Iterator[SimDeal], out: TextIO) -> Iterator[SimDeal]:
    """Pass the deals on, writing each one's hand record as a line of ``out``."""
    for sim_deal in deals:
        out.write(dumps(record_of(sim_deal.state, sim_deal.meta())) + "\n")
        yield sim_deal


def _summary_text(header: dict[str, Any], summary: dict[str, Any], out: Path | None) -> str:
    rules = header["preset"] + "".join(
        f" {k}={json.dumps(v)}" for k, v in header["overrides"].items()
    )
    lines = [
        f"{rules}: {summary['deals']} deals, seed {header['seed']}, bots {','.join(header['bots'])}",
        f"played {summary['played']}, redeals {summary['redeals']} "
        f"(all pass {summary['redeals_all_pass']}, iron hand {summary['redeals_iron_hand']})",
    ]
    if summary["contracts"]:
        shares = ", ".join(f"{k} {v:.1%}" for k, v in summary["contracts"].items())
        lines.append(f"contracts: {shares}")
    families = summary["contracts_by_family"]
    for family in ("number", "nolo"):
        rate = summary["make_rate"][family]
        if rate is not None:
            lines.append(f"{family} contracts made: {rate:.1%} of {families[family]}")
    lines.append(f"mean |score| per seat and played deal: {summary['mean_abs_score']:.1f}")
    lines.append(f"zero-sum: {'yes' if summary['zero_sum'] else 'NO'}")
    if out is not None:
        lines.append(f"records written to {out}")
    return "\n".join(lines)


# --- match -----------------------------------------------------------------------------------


def _add_match(commands: Any) -> None:
    match = commands.add_parser(
        "match",
        help="play a duplicate match between four bots and compare them",
        description="Play every deal four times with the bots rotated through the seats, so "
        "each bot holds each hand once; report each bot's mean points per deal with a 95%% "
        "interval, and the contract statistics.",
    )
    match.add_argument(
        "--bots",
        default="random,random,random,random",
        help="4 comma-separated bot names; bots of the same name are pooled",
    )
    match.add_argument("--deals", type=_positive, default=1000, help="number of deals (1000)")
    match.add_argument("--preset", default="wikipedia", help=f"one of {', '.join(PRESET_NAMES)}")
    match.add_argument("--seed", default="1", help="match seed; deal k uses the seed 'SEED/k' (1)")
    match.add_argument(
        "--workers", type=_positive, help="worker processes (all cores); 1 plays in-process"
    )
    match.add_argument(
        "--override",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a rule option of rules.md section 9; VALUE is JSON or a plain word",
    )
    match.add_argument(
        "--out", type=Path, help="write a hand record per played rotation to this .jsonl file"
    )
    match.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    match.add_argument(
        "--report", type=Path, help="write an HTML page with plots (needs esmakker[report])"
    )
    match.add_argument(
        "--ray",
        metavar="ADDRESS",
        help="run on a Ray cluster: 'auto', 'local' (start one here) or HOST:PORT "
        "(needs esmakker[ray])",
    )
    match.add_argument(
        "--dd-loss",
        action="store_true",
        help="also judge every card and contract double dummy: tricks lost per deal and "
        "bidding regret per bot (slow: about a second per hand)",
    )
    match.add_argument(
        "--dd-node-limit",
        type=_positive,
        metavar="N",
        help=f"nodes the solver may search per card with --dd-loss ({DD_NODE_LIMIT:_}); "
        "a card that needs more is skipped and counted",
    )
    match.add_argument(
        "--checkpoint",
        type=Path,
        metavar="FILE",
        help="keep the finished deals in this file; the same command run again after a stop "
        "plays only the deals not in it (not with --out)",
    )
    match.add_argument("--no-progress", action="store_true", help="never draw a progress bar")
    match.set_defaults(handler=_match)


def _match(args: argparse.Namespace) -> int:
    bots = [name.strip() for name in args.bots.split(",")]
    overrides = _overrides(args.override)
    _check_rules(args.preset, overrides)
    if args.out is not None and args.checkpoint is not None:
        raise UsageError("--out and --checkpoint: records are written by one run only")
    for option, path in (
        ("--out", args.out),
        ("--report", args.report),
        ("--checkpoint", args.checkpoint),
    ):
        if path is not None:
            _check_writable(option, path)
    if args.report is not None:
        from esmakker.sim.report import check_report_extra

        check_report_extra()
    if args.dd_node_limit is not None and not args.dd_loss:
        raise UsageError(f"--dd-node-limit {args.dd_node_limit}: only with --dd-loss")
    dd_node_limit = (args.dd_node_limit or DD_NODE_LIMIT) if args.dd_loss else None
    try:
        result = run_match(
            bots,
            args.deals,
            args.preset,
            args.seed,
            workers=args.workers,
            overrides=overrides,
            progress=not args.no_progress and not args.json,
            ray_address=args.ray,
            out=args.out,
            dd_node_limit=dd_node_limit,
            checkpoint=args.checkpoint,
        )
    except CheckpointError as exc:
        raise UsageError(f"--checkpoint {exc}") from exc
    except ValueError as exc:
        raise UsageError(f"--bots {args.bots}: {exc}") from exc
    summary = result.summary()
    if args.report is not None:
        from esmakker.sim.report import write_report

        write_report(args.report, result, summary)
    if args.json:
        print(json.dumps(summary))
    else:
        print(_match_text(result, summary, args.out, args.report))
    return 0


def _check_writable(option: str, path: Path) -> None:
    """Refuse an output path that cannot be written, before a long run starts."""
    folder = path.parent
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a folder")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: no such folder {folder}")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise UsageError(f"{option} {path}: not writable")


def _match_text(
    result: MatchResult, summary: dict[str, Any], out: Path | None, report: Path | None
) -> str:
    rules = result.preset + "".join(f" {k}={json.dumps(v)}" for k, v in result.overrides.items())
    hands = 4 * summary["deals"]
    lines = [
        f"{rules}: {summary['deals']} deals in duplicate ({hands} hands), seed {result.seed}, "
        f"bots {','.join(result.bots)}",
        "points per deal (mean over the 4 rotations; 95% interval, Student t):",
    ]
    width = max(len(name) for name in summary["bots"])
    for name, values in summary["bots"].items():
        ci = values["ci95"]
        interval = "no interval" if ci is None else f"[{ci[0]:+.2f}, {ci[1]:+.2f}]"
        lines.append(f"  {name:<{width}}  {values['mean_points_per_deal']:+9.2f}  {interval}")
    lines.append(
        f"hands: all pass {summary['all_pass_share']:.1%}, "
        f"iron hand {summary['iron_hand_share']:.1%}, nolo {summary['nolo_share']:.1%}"
    )
    if summary["contracts"]:
        width = max(8, *(len(contract) for contract in summary["contracts"]))
        lines.append(f"  {'contract':<{width}}   share    made  declared by")
        for contract, values in summary["contracts"].items():
            declared = ", ".join(f"{n} {c}" for n, c in values["declared_by"].items() if c)
            lines.append(
                f"  {contract:<{width}}  {values['share']:6.1%}  {values['make_rate']:6.1%}  "
                f"{declared}"
            )
    for family in ("number", "nolo"):
        rates = summary[f"{family}_make_rate"]
        shown = ", ".join(f"{n} {r:.1%}" for n, r in rates.items() if r is not None)
        if shown:
            lines.append(f"{family} contracts made: {shown}")
    if "dd_loss" in summary:
        lines.extend(_dd_loss_text(summary["dd_loss"]))
    if out is not None:
        lines.append(f"records written to {out}")
    if report is not None:
        lines.append(f"report written to {report}")
    return "\n".join(lines)


def _dd_loss_text(figures: dict[str, Any]) -> list[str]:
    lines = [
        f"double dummy, {figures['node_limit']:_} nodes per card: cards judged "
        f"{_share(figures['card_coverage'])}, regrets judged "
        f"{figures['regret_solved']} of {figures['number_contracts']} number contracts",
    ]
    width = max(len(name) for name in figures["bots"])
    lines.append(
        f"  {'bot':<{width}}  tricks lost/deal  95% interval      cards judged  "
        "regret/declared deal  95% interval"
    )
    for name, values in figures["bots"].items():
        lost = f"{values['tricks_lost_per_deal']:.2f}"
        regret = values["regret_per_declared_deal"]
        lines.append(
            f"  {name:<{width}}  {lost:>16}  {_interval(values['ci95']):<16}  "
            f"{_share(values['card_coverage']):>12}  "
            f"{'-' if regret is None else f'{regret:.1f}':>20}  "
            f"{_interval(values['regret_ci95'])} ({values['regret_solved']} of "
            f"{values['declared']} judged)"
        )
    for name, values in figures["bots"].items():
        lines.append(f"  {name:<{width}}  tricks lost a hand by role: {_roles_text(values)}")
    sentence = ratio_sentence(figures.get("tricks_lost_ratio"))
    if sentence is not None:
        lines.append(f"  {sentence}")
    return lines


def _roles_text(values: dict[str, Any]) -> str:
    parts = []
    for role, figure in values["by_role"].items():
        lost = figure["tricks_lost_per_hand"]
        shown = "-" if lost is None else f"{lost:.2f}"
        parts.append(f"{role.replace('_', ' ')} {shown} ({figure['hands']} hands)")
    return ", ".join(parts)


def _share(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _interval(ci: list[float] | None) -> str:
    return "-" if ci is None else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


# --- replay ----------------------------------------------------------------------------------


def _add_replay(commands: Any) -> None:
    replay = commands.add_parser("replay", help="replay a hand record and print its result")
    replay.add_argument("file", type=Path, help="a .json record, or a .jsonl file of records")
    replay.add_argument("--json", action="store_true", help="print exactly the result object")
    add_show(replay)
    replay.set_defaults(handler=_replay)


def _replay(args: argparse.Namespace) -> int:
    path: Path = args.file
    if args.seat is not None and not args.show:
        raise UsageError(f"--seat {args.seat}: only with --show")
    seat = None if args.seat is None else _seat_option(args.seat)
    records = iter_jsonl(path) if path.suffix == ".jsonl" else iter([load(path)])
    if args.show:  # the first record of a .jsonl file
        first = next(records, None)
        if first is None:
            return _fail(f"{path}: no record to show", 1)
        return show_record(first, path.name, seat)
    for number, record in enumerate(records, start=1):
        if args.json:
            print(json.dumps(record.result, ensure_ascii=False))
        else:
            print(_result_text(record, number if path.suffix == ".jsonl" else None))
    return 0


def _result_text(record: HandRecord, number: int | None) -> str:
    prefix = "" if number is None else f"{number}: "
    result = record.result
    if result is None:
        return f"{prefix}unfinished after {len(record.steps)} action(s)"
    scores = " ".join(f"{seat} {score:+d}" for seat, score in result["scores"].items())
    if result["outcome"] == "redeal":
        return f"{prefix}redeal; scores {scores}"
    side = result["declarer"]
    if result["partner"] is not None:
        side += f"+{result['partner']}"
    trump = result["trump"] or "none"
    called = f", called {result['called']}" if result["called"] else ""
    verdict = "made" if result["made"] else "failed"
    return (
        f"{prefix}{result['contract']} by {side} (trump {trump}{called}): "
        f"{result['declarer_side_tricks']} tricks, {verdict}; scores {scores}"
    )


# --- review ----------------------------------------------------------------------------------

REVIEW_JSON_VERSION = 1
"""``version`` of ``esmakker review --json`` (docs/analysis.md, Review)."""
CLI_REVIEW_BUDGET_S = 10.0
"""Seconds one decision may take: a cap, so the result depends on the seed alone."""


def _add_review(commands: Any) -> None:
    review = commands.add_parser(
        "review",
        help="list where a seat's choices in a played deal cost expected points",
        description="Search each of the seat's decisions as the strong bot would (from what "
        "the seat knew then) and list those where a better choice gained expected points.",
    )
    review.add_argument("record", type=Path, help="a hand record (.json)")
    review.add_argument("--seat", required=True, help="the seat reviewed: N, E, S or W")
    review.add_argument(
        "--worlds",
        type=_positive,
        default=REVIEW_WORLDS,
        help=f"worlds per decision ({REVIEW_WORLDS})",
    )
    review.add_argument("--seed", default="1", help="the search's seed (1)")
    review.add_argument(
        "--budget",
        type=float,
        default=CLI_REVIEW_BUDGET_S,
        metavar="SECONDS",
        help=f"most seconds per decision ({CLI_REVIEW_BUDGET_S:g})",
    )
    review.add_argument("--json", action="store_true", help="print JSON (docs/analysis.md)")
    review.set_defaults(handler=_review)


def _review(args: argparse.Namespace) -> int:
    seat = _seat_option(args.seat)
    if not args.budget > 0:
        raise UsageError(f"--budget {args.budget}: must be more than 0 seconds")
    record = _record_arg(args.record)
    rng = random.Random(f"review/{args.seed}/{seat.name}")
    try:
        found = review_record(record, seat, rng, worlds=args.worlds, budget_s=args.budget)
    except EsmakkerError as exc:
        raise UsageError(_one_line(exc)) from None
    if args.json:
        print(json.dumps(_review_json(found, args), ensure_ascii=False))
    else:
        print(_review_text(found, record, args))
    return 0


def _seat_option(text: str) -> Seat:
    try:
        return Seat.parse(text)
    except EsmakkerError as exc:
        raise UsageError(f"--seat: {exc}") from None


def _record_arg(path: Path) -> HandRecord:
    """Load a record; a missing or corrupt file is a usage error (exit code 2)."""
    try:
        return load(path)
    except (EsmakkerError, OSError) as exc:
        raise UsageError(_one_line(exc)) from None


def _review_json(found: RecordReview, args: argparse.Namespace) -> dict[str, Any]:
    return {
        "version": REVIEW_JSON_VERSION,
        "seat": found.seat.name,
        "worlds": args.worlds,
        "seed": args.seed,
        "decisions": found.decisions,
        "mistakes": [costly.to_json() for costly in found.costly],
    }


def _review_text(found: RecordReview, record: HandRecord, args: argparse.Namespace) -> str:
    name = names_of(record)[found.seat]
    who = found.seat.name if name == found.seat.name else f"{found.seat.name} ({name})"
    lines = [
        f"{args.record.name}, seat {who}: {len(found.costly)} costly choice(s) in "
        f"{found.decisions} decision(s) searched, {args.worlds} worlds each, seed {args.seed}"
    ]
    if not found.costly:
        return lines[0]
    rows = [("step", "trick", "chose", "better", "points")]
    for costly in found.costly:
        mistake = costly.mistake
        where = str(mistake.trick) if mistake.trick else str(mistake.phase)
        chose, better = format_action(mistake.action), format_action(mistake.best)
        rows.append((str(costly.step + 1), where, chose, better, f"{mistake.cost:.0f}"))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        lines.append(
            f"  {row[0]:>{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:<{widths[2]}}  "
            f"{row[3]:<{widths[3]}}  {row[4]:>{widths[4]}}"
        )
    lines.append("step k is the record's k-th action, as the replays number it")
    return "\n".join(lines)


# --- bench -----------------------------------------------------------------------------------


def _add_bench(commands: Any) -> None:
    bench = commands.add_parser("bench", help="measure speed")
    bench.add_argument(
        "target", choices=["engine", "bots", "server", "solver"], help="what to measure"
    )
    bench.add_argument("--seconds", type=float, default=5.0, help="time per measurement (5)")
    bench.add_argument("--preset", default="wikipedia", help=f"one of {', '.join(PRESET_NAMES)}")
    bench.add_argument("--seed", type=int, default=1, help="random seed (1)")
    bench.add_argument("--json", action="store_true", help="print the figures as JSON")
    bench.add_argument("--bots", default="heuristic,beginner,random", help="bots: comma list")
    bench.add_argument(
        "--deals", type=_positive, default=None, help="deals (bots: 50 per bot; solver: 10)"
    )
    bench.add_argument("--tables", type=_positive, default=10, help="server: tables to drive (10)")
    bench.set_defaults(handler=_bench)


def _bench(args: argparse.Namespace) -> int:
    if args.deals is None:
        args.deals = 10 if args.target == "solver" else 50
    if args.target == "solver":
        from esmakker.bench_solver import run_solver_bench

        return run_solver_bench(args)
    _check_rules(args.preset, {})
    if args.target == "bots":
        return _bench_bots(args)
    if args.target == "server":
        return int(importlib.import_module("esmakker.bench_server").main(args))
    try:
        bench = importlib.import_module("esmakker.bench")
    except ImportError:
        return _fail("the benchmark module esmakker.bench is not installed", 1)
    figures = bench.engine_bench(seconds=args.seconds, preset=args.preset, seed=args.seed)
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key}: {value:,.1f}" if isinstance(value, float) else f"{key}: {value}")
    return 0


def _bench_bots(args: argparse.Namespace) -> int:
    from esmakker.sim.bench_bots import bots_bench

    names = [name.strip() for name in args.bots.split(",") if name.strip()]
    if args.deals < 1 or not names:
        raise UsageError("--deals must be at least 1 and --bots must name a bot")
    try:
        figures = bots_bench(names, deals=args.deals, preset=args.preset, seed=args.seed)
    except ValueError as exc:
        raise UsageError(f"--bots: {exc}") from exc
    if args.json:
        print(json.dumps(figures))
        return 0
    for name, row in figures.items():
        print(
            f"{name}: median {row['median_ms']} ms, p95 {row['p95_ms']} ms,"
            f" max {row['max_ms']} ms, {row['decisions']} decisions"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
