#!/usr/bin/env python3
"""Measure what the heuristic's early leads cost against the double-dummy optimum.

Usage (from the repository root):

    .venv/bin/python scripts/measure_leads.py gather --deals 20000:20600 --out leads.jsonl
    .venv/bin/python scripts/measure_leads.py report leads.jsonl

``gather``: four heuristic bots play each deal (wikipedia, the dealer by the deal
number); at every lead of a number contract with at least ``--min-left`` tricks left and
more than one legal card, every legal card is valued double dummy on the real deal by
the compiled solver (positions past 3,000,000 nodes are left out). Each lead becomes a
JSON line: the deal, tricks left, the leader's role, trumps, the called card, the hand,
the cards played before and on the table (``trick``), each card's value, the
heuristic's card and the deal's actions before the lead (``step``: the lead replays from
it). With ``--follows`` the positions are the cards played to a trick instead (decision
137). Every command reads gathered files gzipped (``.gz``) as well as plain.

``report``: the heuristic's loss a lead (by role, for the opening lead), then the leads by
*type* (``TYPES``: a joker, a top or lower trump, a side suit's top card, a side honour,
a low card beside a side honour, a low card of a suit without one) and, for each role and
type of the heuristic's lead, what a card of each other type would have cost (the mean
over that type's cards: a rule naming a type, not a card). Last, *type rules*: in each
such cell, play the type that cost least instead of the heuristic's card, chosen on all
the leads (in sample, an optimistic bound) and by five-fold cross-validation over deals
(what such a rule would be worth on new deals). This is decision 124's study.

``evaluate``: replay each gathered lead (its deal and ``step``) and ask the strong bot as
built and each ``--variant`` (the settings of ``measure_strong_play.py``) for its card at
the same view, each from the same generator; every card's cost is read off the lead's
values, so the bots are compared paired on the same positions without solving again
(decision 135). Prints each bot's tricks lost by tricks left and by role, and each
variant's difference from the bot as built with its 95% interval.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import json
import random
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from esmakker.bots import endgame
from esmakker.bots.heuristic import HeuristicBot
from esmakker.bots.strong import StrongBot
from esmakker.core.actions import Play
from esmakker.core.phase import Phase
from esmakker.core.rules import RuleSet
from esmakker.core.seats import Seat
from esmakker.core.state import State, deal
from esmakker.core.view import observe
from esmakker.sim.stats import mean_ci95
from esmakker.solver.position import from_state
from esmakker.solver.solve import Solver, SolverGaveUpError

TYPES = ("joker", "trump_top", "trump_low", "side_top", "side_honour", "low_by_honour", "side_low")
ROLES = ("declarer", "partner", "defender")
JOKERS = range(52, 55)
JACK_INDEX = 9  # a card's rank index within its suit: two 0 … ace 12


def gather(first: int, last: int, min_left: int, out: Path, *, follows: bool = False) -> None:
    """Play the deals and write one JSON line per judged lead (``follows``: per follow)."""
    endgame.warm_up(wait=True)
    rules = RuleSet.from_preset("wikipedia")
    judge = Solver(table_bits=18, node_limit=3_000_000)
    with out.open("a", encoding="utf-8") as file:
        for number in range(first, last):
            for lead in _deal_leads(number, rules, judge, min_left, follows=follows):
                file.write(json.dumps(lead) + "\n")
            file.flush()


def _deal_leads(
    number: int, rules: RuleSet, judge: Solver, min_left: int, *, follows: bool = False
) -> Iterator[dict[str, Any]]:
    """Yield the judged leads of one deal played by four heuristic bots (or its follows)."""
    state = deal(rules, Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    step = 0
    while not state.is_terminal:
        seat = state.to_act
        assert seat is not None
        view = observe(state, seat)
        action = bots[seat].act(view)
        if (
            state.phase is Phase.PLAY
            and bool(view.trick) == follows
            and len(view.legal_actions) > 1
            and view.contract is not None
            and not view.contract.bid.is_nolo
        ):
            pos = from_state(state)
            if pos.left >= min_left:
                values: dict[int, int] = {}
                judge.clear()
                with contextlib.suppress(SolverGaveUpError):
                    values = judge.card_values(pos)
                if values:
                    assert isinstance(action, Play)
                    lead = _lead_record(number, state, int(seat), values, int(action.card))
                    yield lead | {"step": step}
        state = state.apply(action, seat)
        step += 1


def _lead_record(
    number: int, state: State, seat: int, values: dict[int, int], chosen: int
) -> dict[str, Any]:
    """Return one lead as a JSON object, values as tricks for the leader's side."""
    view = observe(state, Seat(seat))
    contract = view.contract
    assert contract is not None
    engine = state.engine
    pos = from_state(state)
    wants_high = pos.maximisers >> seat & 1
    sign = 1 if wants_high else -1
    role = (
        "declarer"
        if seat == engine.declarer
        else "partner"
        if seat == engine.partner
        else "defender"
    )
    played = [int(card) for trick in view.tricks for card in trick.cards]
    return {
        "deal": number,
        "left": pos.left,
        "role": role,
        "trump": -1 if contract.trump is None else int(contract.trump),
        "called": -1 if contract.called is None else int(contract.called),
        "hand": [int(card) for card in view.hand],
        "played": played,
        "trick": [int(card) for card in view.trick],
        "values": {str(card): sign * value for card, value in values.items()},
        "chosen": chosen,
    }


def load(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Return the gathered positions of JSON Lines files, gzipped where they end in ``.gz``."""
    records = []
    for path in paths:
        data = path.read_bytes()
        if path.suffix == ".gz":
            data = gzip.decompress(data)
        records += [json.loads(line) for line in data.decode("utf-8").splitlines()]
    return records


def lead_type(card: int, lead: dict[str, Any]) -> str:
    """Return the type of leading ``card`` from the lead's hand (one of ``TYPES``)."""
    if card in JOKERS:
        return "joker"
    suit, rank = divmod(card, 13)
    hand = set(lead["hand"])
    gone = hand | set(lead["played"])
    top = all(higher in gone for higher in range(card + 1, suit * 13 + 13))
    if suit == lead["trump"]:
        return "trump_top" if top else "trump_low"
    if top:
        return "side_top"
    if rank >= JACK_INDEX:
        return "side_honour"
    honour = any(c // 13 == suit and c % 13 >= JACK_INDEX for c in hand)
    return "low_by_honour" if honour else "side_low"


def _costs(lead: dict[str, Any]) -> dict[int, int]:
    """Return each legal card's cost: tricks below the best card, for the leader's side."""
    values = {int(card): value for card, value in lead["values"].items()}
    best = max(values.values())
    return {card: best - value for card, value in values.items()}


def _type_costs(lead: dict[str, Any]) -> dict[str, float]:
    """Return the mean cost of the legal cards of each type present."""
    by_type: dict[str, list[int]] = defaultdict(list)
    for card, cost in _costs(lead).items():
        by_type[lead_type(card, lead)].append(cost)
    return {kind: sum(costs) / len(costs) for kind, costs in by_type.items()}


def _cell(lead: dict[str, Any]) -> tuple[str, str]:
    return lead["role"], lead_type(lead["chosen"], lead)


def _rule_cost(lead: dict[str, Any], rule: dict[tuple[str, str], str]) -> float:
    """Return the cost of a lead under a type rule (the heuristic's card where it says keep)."""
    kind = rule.get(_cell(lead))
    types = _type_costs(lead)
    if kind is None or kind not in types:
        return _costs(lead)[lead["chosen"]]
    return types[kind]


def fit_rule(leads: Iterable[dict[str, Any]]) -> dict[tuple[str, str], str]:
    """Return, per cell, the type whose cards cost least where present, if below keeping."""
    saving: dict[tuple[str, str], dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for lead in leads:
        kept = _costs(lead)[lead["chosen"]]
        for kind, cost in _type_costs(lead).items():
            saving[_cell(lead)][kind] += kept - cost
    rule = {}
    for cell, by_kind in saving.items():
        kind, gain = max(by_kind.items(), key=lambda item: item[1])
        if gain > 0:
            rule[cell] = kind
    return rule


def report(paths: list[Path]) -> None:
    """Print the heuristic's lead loss, the cells by type and the type rules' worth."""
    leads = load(paths)
    deals = sorted({lead["deal"] for lead in leads})
    kept = [_costs(lead)[lead["chosen"]] for lead in leads]
    print(f"{len(leads)} leads of {len(deals)} deals: the heuristic lost {sum(kept)} tricks")
    _print_split("by role", leads, lambda lead: lead["role"])
    _print_split("by tricks left", leads, lambda lead: str(lead["left"]))
    print("cells (role, the heuristic's lead type): leads, its cost a lead; other types' cost")
    cells: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for lead in leads:
        cells[_cell(lead)].append(lead)
    for cell, group in sorted(cells.items(), key=lambda item: -len(item[1])):
        own = sum(_costs(lead)[lead["chosen"]] for lead in group) / len(group)
        others = defaultdict(list)
        for lead in group:
            for kind, cost in _type_costs(lead).items():
                others[kind].append(cost)
        text = " ".join(
            f"{kind} {sum(v) / len(v):.2f} ({len(v)})" for kind, v in sorted(others.items())
        )
        print(f"  {cell[0]:9s} {cell[1]:14s} {len(group):5d} {own:.2f} | {text}")
    rule = fit_rule(leads)
    in_sample = sum(_rule_cost(lead, rule) for lead in leads)
    folds = 5
    cross = 0.0
    for fold in range(folds):
        test = {d for i, d in enumerate(deals) if i % folds == fold}
        fitted = fit_rule(lead for lead in leads if lead["deal"] not in test)
        cross += sum(_rule_cost(lead, fitted) for lead in leads if lead["deal"] in test)
    print(f"type rule in sample: {in_sample:.1f} tricks ({len(rule)} cells changed)")
    print(f"type rule, {folds}-fold cross-validation by deal: {cross:.1f} tricks")
    for cell, kind in sorted(rule.items()):
        print(f"  {cell[0]} {cell[1]} -> {kind}")


def _replay(lead: dict[str, Any], rules: RuleSet) -> State:
    """Return the state at a gathered lead: its deal replayed by the same heuristic bots."""
    number = lead["deal"]
    state = deal(rules, Seat(number % 4), random.Random(number))
    bots = [HeuristicBot(random.Random(f"{number}/{s}")) for s in range(4)]
    for _ in range(lead["step"]):
        seat = state.to_act
        assert seat is not None
        state = state.apply(bots[seat].act(observe(state, seat)), seat)
    return state


def evaluate(
    paths: list[Path], min_left: int, max_left: int, every: int, variants: list[str]
) -> None:
    """Ask the strong bot and its variants at each gathered lead; print their costs, paired."""
    leads = load(paths)
    leads = [lead for lead in leads if min_left <= lead["left"] <= max_left][::every]
    unplaced = next((lead for lead in leads if "step" not in lead), None)
    if unplaced is not None:
        raise SystemExit(f"a lead of deal {unplaced['deal']} has no step: gather it again")
    screen = _sibling("measure_strong_play")  # its variant settings
    endgame.warm_up(wait=True)
    rules = RuleSet.from_preset("wikipedia")
    bots: list[tuple[str, dict[str, object]]] = [("strong", {})]
    bots += [(f"variant:{text}", screen.parse_variant(text)) for text in variants]
    costs: dict[str, list[int]] = {"heuristic": [], **{name: [] for name, _ in bots}}
    for index, lead in enumerate(leads):
        state = _replay(lead, rules)
        assert state.to_act is not None
        view = observe(state, state.to_act)
        lead_costs = _costs(lead)
        costs["heuristic"].append(lead_costs[lead["chosen"]])
        for name, settings in bots:
            bot = StrongBot(random.Random(f"lead{lead['deal']}/{lead['step']}"))
            with screen._set(bot, settings):
                action = bot.act(view)
            assert isinstance(action, Play)
            costs[name].append(lead_costs[int(action.card)])
        if (index + 1) % 100 == 0:
            print(f"{index + 1} of {len(leads)} leads", flush=True)
    _print_evaluation(leads, costs)


def _sibling(name: str) -> ModuleType:
    """Return the module of the script ``name`` beside this one (the scripts are no package)."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name(f"{name}.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _print_evaluation(leads: list[dict[str, Any]], costs: dict[str, list[int]]) -> None:
    """Print each bot's tricks lost by tricks left and role, and the variants' paired gains."""
    print(f"{len(leads)} leads of {len({lead['deal'] for lead in leads})} deals")
    for name, values in costs.items():
        split = defaultdict(int)
        for lead, cost in zip(leads, values, strict=True):
            split[str(lead["left"])] += cost
            split[lead["role"]] += cost
        text = " ".join(f"{key}:{value}" for key, value in sorted(split.items()))
        print(f"{name}: {sum(values)} tricks lost | {text}")
    base = costs["strong"]
    for name, values in costs.items():
        if name == "strong":
            continue
        mean, interval = mean_ci95([a - b for a, b in zip(values, base, strict=True)])
        low, high = interval or (mean, mean)
        print(f"{name} minus strong: {mean:+.4f} a lead [{low:+.4f}, {high:+.4f}]")


def _print_split(title: str, leads: list[dict[str, Any]], key: Any) -> None:
    groups: dict[str, list[int]] = defaultdict(list)
    for lead in leads:
        groups[key(lead)].append(_costs(lead)[lead["chosen"]])
    text = " ".join(f"{k}:{sum(v) / len(v):.2f}/{len(v)}" for k, v in sorted(groups.items()))
    print(f"{title} (cost a lead/leads): {text}")


def main() -> None:
    """Parse the arguments and gather or report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    gathering = commands.add_parser("gather", help="play heuristic deals and judge their leads")
    gathering.add_argument("--deals", default="20000:20600", help="deal numbers FIRST:LAST")
    gathering.add_argument("--min-left", type=int, default=10)
    gathering.add_argument("--out", type=Path, required=True, help="JSON Lines file to append to")
    gathering.add_argument(
        "--follows", action="store_true", help="judge the cards played to a trick, not leads"
    )
    reporting = commands.add_parser("report", help="print the figures of gathered leads")
    reporting.add_argument("files", type=Path, nargs="+")
    evaluating = commands.add_parser("evaluate", help="ask the strong bot and variants")
    evaluating.add_argument("files", type=Path, nargs="+")
    evaluating.add_argument("--min-left", type=int, default=10)
    evaluating.add_argument("--max-left", type=int, default=13)
    evaluating.add_argument("--every", type=int, default=1, help="ask every n-th lead")
    evaluating.add_argument("--variant", action="append", default=[], help="e.g. mean_tricks=11")
    args = parser.parse_args()
    if args.command == "gather":
        first, last = (int(x) for x in args.deals.split(":"))
        gather(first, last, args.min_left, args.out, follows=args.follows)
    elif args.command == "evaluate":
        evaluate(args.files, args.min_left, args.max_left, args.every, args.variant)
    else:
        report(args.files)


if __name__ == "__main__":
    main()
