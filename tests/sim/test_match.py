"""Duplicate matches: rotation, reproducibility, statistics, the report, Ray."""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from esmakker.bots import endgame, registry
from esmakker.bots.registry import BOT_NAMES, SEARCH_BOTS
from esmakker.cli import main
from esmakker.core.actions import IRON, Action, parse_action
from esmakker.core.presets import PRESET_NAMES
from esmakker.core.record import HandRecord, iter_jsonl
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State
from esmakker.core.view import PlayerView, observe
from esmakker.sim import duplicate
from esmakker.sim.duplicate import (
    ALL_PASS,
    IRON_HAND,
    PLAYED,
    BotFailure,
    DuplicateDeal,
    Hand,
    bot_at,
    dealt,
    play_duplicate,
    seat_of,
)
from esmakker.sim.match import MatchResult, chunk_ranges, run_match
from esmakker.sim.progress import ProgressBar
from esmakker.sim.stats import mean_ci95, ratio_ci95, summarise_match, t_quantile

# --- test bots (in-process only: worker processes know the registry's own bots) -------------


class FirstBot:
    """Always the first legal action other than an iron claim: deterministic and easy to check."""

    name = "first"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def act(self, view: PlayerView) -> Action:
        return next(a for a in view.legal_actions if a != IRON)

    def claim_iron(self, view: PlayerView) -> bool:
        return False


class CheatBot(FirstBot):
    """Plays the spade ace at its first turn, in the auction: illegal."""

    name = "cheat"

    def act(self, view: PlayerView) -> Action:
        return parse_action("play SA")


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._FACTORIES, "first", FirstBot)
    monkeypatch.setitem(registry._FACTORIES, "cheat", CheatBot)


def _summary_text(result: MatchResult) -> str:
    return json.dumps(result.summary(), sort_keys=True)


# --- rotation --------------------------------------------------------------------------------


def test_seat_and_bot_are_inverse() -> None:
    for rotation in range(4):
        assert sorted(seat_of(i, rotation) for i in range(4)) == list(SEATS)
        for bot in range(4):
            assert bot_at(seat_of(bot, rotation), rotation) == bot
            assert seat_of(bot, rotation) == SEATS[(bot + rotation) % 4]


@pytest.mark.usefixtures("test_bots")
def test_each_bot_plays_each_hand_once(tmp_path: Path) -> None:
    bots = ["first", "random", "random", "random"]
    out = tmp_path / "match.jsonl"
    result = run_match(bots, 6, "osterbro", 11, workers=1, out=out)
    records = list(iter_jsonl(out))
    assert len(records) == 4 * 6
    rules = RuleSet.from_preset("osterbro")
    for number in range(1, 7):
        rotations = records[4 * (number - 1) : 4 * number]
        start = dealt(rules, 11, number)
        for rotation, record in enumerate(rotations):
            # the same cards and the same dealer in every rotation
            assert record.hands == start.dealt[0]
            assert record.kitty == start.dealt[1]
            assert record.dealer is SEATS[(number - 1) % 4]
            meta = record.meta
            assert (meta["deal"], meta["rotation"], meta["seed"]) == (
                number,
                rotation,
                f"11/{number}",
            )
            for i, name in enumerate(bots):
                seat = seat_of(i, rotation).name
                assert meta["table"][seat] == f"P{i + 1}"
                assert meta["players"][seat] == f"bot:{name}"
            _check_first_bot_played(record, seat_of(0, rotation))
        # over the four rotations bot i sat at every seat once
        for i in range(4):
            seats = {s for r in rotations for s, p in r.meta["table"].items() if p == f"P{i + 1}"}
            assert seats == set("NESW")
    assert [d.number for d in result.deals] == list(range(1, 7))
    assert all(d.records == () for d in result.deals)  # written, not kept


def _check_first_bot_played(record: HandRecord, seat: Seat) -> None:
    """Replay ``record``: every action at ``seat`` is the first bot's choice."""
    state = State.new(record.rules, record.dealer, record.hands, record.kitty)
    for step in record.steps:
        if step.seat is seat and state.to_act is seat:
            assert step.action == FirstBot(random.Random(0)).act(observe(state, seat))
        state = state.apply(step.action, step.seat)


@pytest.mark.usefixtures("test_bots")
def test_points_are_zero_sum_and_follow_the_bots() -> None:
    bots = ["first", "random", "first", "random"]
    rules = RuleSet.from_preset("hilmarshelte")
    deal = play_duplicate(rules, bots, "z", 3, records=True)
    assert len(deal.hands) == 4
    assert [hand.rotation for hand in deal.hands] == [0, 1, 2, 3]
    for hand, text in zip(deal.hands, deal.records, strict=True):
        assert sum(hand.points) == 0
        record = json.loads(text)
        by_seat = record["result"]["scores"]
        for i in range(4):
            assert hand.points[i] == by_seat[seat_of(i, hand.rotation).name]
    assert sum(deal.points) == 0
    pooled = deal.points_by_name(bots)
    assert pooled["first"] == (deal.points[0] + deal.points[2]) / 2
    assert pooled["first"] + pooled["random"] == pytest.approx(0)


# --- reproducibility -------------------------------------------------------------------------


def test_same_seed_same_match_whatever_the_workers(tmp_path: Path) -> None:
    bots = ["random"] * 4
    one = run_match(bots, 40, "tanya", "r", workers=1, out=tmp_path / "one.jsonl")
    two = run_match(bots, 40, "tanya", "r", workers=2, out=tmp_path / "two.jsonl")
    three = run_match(bots, 40, "tanya", "r", workers=3)
    assert _summary_text(one) == _summary_text(two) == _summary_text(three)
    assert one.deals == two.deals == three.deals
    assert (tmp_path / "one.jsonl").read_text() == (tmp_path / "two.jsonl").read_text()
    other = run_match(bots, 40, "tanya", "s", workers=1)
    assert _summary_text(other) != _summary_text(one)


def test_deal_k_depends_only_on_seed_and_k() -> None:
    rules = RuleSet.from_preset("wikipedia")
    longer = run_match(["random"] * 4, 9, "wikipedia", 5, workers=1)
    assert longer.deals[6] == play_duplicate(rules, ["random"] * 4, 5, 7)
    assert run_match(["random"] * 4, 9, "wikipedia", "5", workers=1).deals == longer.deals


def test_chunks_cover_every_deal_once() -> None:
    for deals in (1, 7, 64, 1000, 5001):
        for workers in (1, 2, 16):
            ranges = chunk_ranges(deals, workers)
            numbers = [n for first, last in ranges for n in range(first, last + 1)]
            assert numbers == list(range(1, deals + 1))
            assert all(last - first < 64 for first, last in ranges)


# --- statistics on hand-made inputs ----------------------------------------------------------


def test_t_quantiles_match_the_tables() -> None:
    table = {1: 12.7062, 2: 4.3027, 5: 2.5706, 10: 2.2281, 29: 2.0452, 30: 2.0423, 120: 1.9799}
    for df, value in table.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)
    assert t_quantile(0.995, 4) == pytest.approx(4.6041, abs=1e-4)
    # the exact inversion and the expansion agree where they meet
    assert t_quantile(0.975, 1000) == pytest.approx(t_quantile(0.975, 1001), abs=1e-5)
    assert t_quantile(0.975, 10**7) == pytest.approx(1.959964, abs=1e-6)
    with pytest.raises(ValueError, match="p must lie"):
        t_quantile(0.4, 3)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t_quantile(0.975, 0)


def test_mean_and_interval() -> None:
    values = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0]
    mean, ci = mean_ci95(values)
    assert mean == pytest.approx(11 / 6)
    s = math.sqrt(sum((x - mean) ** 2 for x in values) / 5)
    half = 2.5706 * s / math.sqrt(6)
    assert ci is not None
    assert ci[0] == pytest.approx(mean - half, abs=1e-3)
    assert ci[1] == pytest.approx(mean + half, abs=1e-3)
    assert mean_ci95([7.0]) == (7.0, None)
    assert mean_ci95([2.0, 2.0, 2.0]) == (2.0, (2.0, 2.0))
    with pytest.raises(ValueError, match="no values"):
        mean_ci95([])


def test_ratio_and_interval_by_the_delta_method() -> None:
    above = [3.0, 1.0, 4.0, 1.0, 5.0]
    below = [4.0, 3.0, 5.0, 2.0, 6.0]
    ratio, ci = ratio_ci95(above, below)
    assert ratio == pytest.approx(14 / 20)
    residuals = [a - 0.7 * b for a, b in zip(above, below, strict=True)]
    s = math.sqrt(sum(r * r for r in residuals) / 4)  # the residuals add up to zero
    half = 2.7764 * s / math.sqrt(5) / (20 / 5)
    assert ci is not None
    assert ci[0] == pytest.approx(0.7 - half, abs=1e-3)
    assert ci[1] == pytest.approx(0.7 + half, abs=1e-3)


def test_ratio_edge_cases() -> None:
    assert ratio_ci95([1.0, 2.0], [2.0, 4.0]) == (0.5, (0.5, 0.5))  # exactly proportional
    assert ratio_ci95([3.0], [4.0]) == (0.75, None)
    assert ratio_ci95([1.0, 1.0], [0.0, 0.0]) == (None, None)
    with pytest.raises(ValueError, match="same positive number"):
        ratio_ci95([1.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="same positive number"):
        ratio_ci95([], [])


def _hand(rotation: int, contract: str | None, declarer: int | None, made: bool | None, points: tuple[int, int, int, int], outcome: str = PLAYED) -> Hand:  # fmt: skip
    nolo = contract is not None and not contract[0].isdigit()
    return Hand(rotation, outcome, contract, nolo, declarer, made, points)


def _made_up_deals() -> list[DuplicateDeal]:
    """Two deals, eight hands: bots 0 and 1 are "a", 2 and 3 are "b"."""
    first = DuplicateDeal(
        1,
        "s/1",
        Seat.N,
        (
            _hand(0, "9", 0, True, (10, 10, -10, -10)),
            _hand(1, "9", 2, False, (10, 10, -10, -10)),
            _hand(2, "sol", 1, True, (30, -10, -10, -10)),
            _hand(3, None, None, None, (0, 0, 0, 0), ALL_PASS),
        ),
    )
    second = DuplicateDeal(
        2,
        "s/2",
        Seat.E,
        (
            _hand(0, "9 vip", 3, True, (-20, 20, -20, 20)),
            _hand(1, "sol", 0, False, (-30, 10, 10, 10)),
            _hand(2, None, None, None, (0, 0, 0, 0), IRON_HAND),
            _hand(3, "9", 1, True, (8, 8, -8, -8)),
        ),
    )
    return [second, first]  # out of order on purpose


def test_summary_of_made_up_deals() -> None:
    bots = ["a", "a", "b", "b"]
    summary = summarise_match(bots, _made_up_deals())
    assert summary["deals"] == 2
    # deal 1: bot points (10+10+30+0)/4 = 12.5, (10+10-10)/4 = 2.5, -7.5, -7.5
    # deal 2: (-20-30+8)/4 = -10.5, (20+10+8)/4 = 9.5, -4.5, 5.5
    a_values = [(12.5 + 2.5) / 2, (-10.5 + 9.5) / 2]
    b_values = [(-7.5 - 7.5) / 2, (-4.5 + 5.5) / 2]
    for name, values in (("a", a_values), ("b", b_values)):
        mean, (low, high) = (
            summary["bots"][name]["mean_points_per_deal"],
            summary["bots"][name]["ci95"],
        )
        assert mean == pytest.approx(sum(values) / 2)
        half = 12.7062 * abs(values[0] - values[1]) / 2  # s = |x1 - x2| / sqrt 2; / sqrt 2 again
        assert (low, high) == pytest.approx((mean - half, mean + half), abs=1e-3)
    contracts = summary["contracts"]
    assert list(contracts) == ["9", "sol", "9 vip"]  # by count, then by name
    assert contracts["9"] == {"share": 3 / 8, "declared_by": {"a": 2, "b": 1}, "make_rate": 2 / 3}
    assert contracts["sol"] == {"share": 2 / 8, "declared_by": {"a": 2, "b": 0}, "make_rate": 0.5}
    assert contracts["9 vip"] == {"share": 1 / 8, "declared_by": {"a": 0, "b": 1}, "make_rate": 1.0}
    assert summary["number_make_rate"] == {"a": 1.0, "b": 0.5}
    assert summary["nolo_make_rate"] == {"a": 0.5, "b": None}
    assert summary["all_pass_share"] == 1 / 8
    assert summary["iron_hand_share"] == 1 / 8
    assert summary["nolo_share"] == 2 / 8
    shares = sum(c["share"] for c in contracts.values())
    assert shares + summary["all_pass_share"] + summary["iron_hand_share"] == pytest.approx(1)


def test_summary_json_shape() -> None:
    result = run_match(["random"] * 4, 30, "hilmarshelte", 2, workers=1)
    summary = json.loads(json.dumps(result.summary()))
    assert set(summary) == {
        "deals",
        "bots",
        "contracts",
        "number_make_rate",
        "nolo_make_rate",
        "all_pass_share",
        # beyond the shape: the two other shares of hands
        "nolo_share",
        "iron_hand_share",
    }
    assert summary["deals"] == 30
    assert list(summary["bots"]) == ["random"]
    entry = summary["bots"]["random"]
    assert set(entry) == {"mean_points_per_deal", "ci95"}
    assert entry["mean_points_per_deal"] == 0  # four random bots: zero-sum, pooled
    assert entry["ci95"] == [0, 0]
    assert summary["contracts"]
    for contract, values in summary["contracts"].items():
        assert isinstance(contract, str)
        assert set(values) == {"share", "declared_by", "make_rate"}
        assert set(values["declared_by"]) == {"random"}
        assert 0 <= values["make_rate"] <= 1
    assert set(summary["number_make_rate"]) == set(summary["nolo_make_rate"]) == {"random"}


@pytest.mark.usefixtures("test_bots")
def test_pooled_bots_balance_the_others() -> None:
    result = run_match(["first", "random", "random", "random"], 30, "wikipedia", 8, workers=1)
    summary = result.summary()
    first = summary["bots"]["first"]["mean_points_per_deal"]
    rest = summary["bots"]["random"]["mean_points_per_deal"]
    assert first + 3 * rest == pytest.approx(0, abs=1e-6)
    assert first != 0
    low, high = summary["bots"]["first"]["ci95"]
    assert low < first < high


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.usefixtures("test_bots")
def test_an_illegal_action_names_deal_rotation_and_bot() -> None:
    with pytest.raises(BotFailure, match=r"deal 1, rotation 0: bot 2 \(cheat\) at E: .*play SA"):
        run_match(["first", "cheat", "first", "first"], 3, "wikipedia", 1, workers=1)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="needs 4 bots, got 5"):
        run_match(["random"] * 5, 1, "wikipedia", 1)
    with pytest.raises(ValueError, match="unknown bot 'nope'"):
        run_match(["random", "nope", "random", "random"], 1, "wikipedia", 1)
    with pytest.raises(ValueError, match="at least one deal"):
        run_match(["random"] * 4, 0, "wikipedia", 1)
    with pytest.raises(ValueError, match="workers must be at least 1"):
        run_match(["random"] * 4, 1, "wikipedia", 1, workers=0)


# --- bots never break the rules --------------------------------------------------------------


def _tables() -> list[tuple[str, ...]]:
    """Each registered rule bot against itself, and all of them at one table.

    Search bots are checked in their own tests: a match of them takes minutes.
    """
    names = [name for name in BOT_NAMES if name not in SEARCH_BOTS]
    tables: list[tuple[str, ...]] = [(name,) * 4 for name in names]
    tables.append(tuple(names[i % len(names)] for i in range(4)))
    return list(dict.fromkeys(tables))


@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_registered_bots_stay_legal_short(preset: str) -> None:
    for table in _tables():
        result = run_match(table, 15, preset, f"legal-{preset}", workers=1)
        assert all(sum(hand.points) == 0 for deal in result.deals for hand in deal.hands)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_registered_bots_stay_legal_over_thousands_of_hands(preset: str) -> None:
    for table in _tables():
        result = run_match(table, 500, preset, f"legal-long-{preset}")  # 2000 hands a table
        assert len(result.deals) == 500


# --- progress bar ----------------------------------------------------------------------------


class _Terminal:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_on_a_terminal_only_after_the_delay() -> None:
    terminal = _Terminal()
    bar = ProgressBar(10, stream=terminal, delay=0.0)  # type: ignore[arg-type]
    bar.advance(4)
    bar.advance(6)
    bar.close()
    assert "10/10 deals" in terminal.text
    assert terminal.text.endswith("\n")
    assert "4/10 deals" in bar.line(0) or "10/10" in bar.line(0)
    quiet = _Terminal()
    late = ProgressBar(10, stream=quiet, delay=60.0)  # type: ignore[arg-type]
    late.advance(10)
    late.close()
    assert quiet.text == ""
    off = _Terminal()
    disabled = ProgressBar(10, stream=off, enabled=False, delay=0.0)  # type: ignore[arg-type]
    disabled.advance(10)
    disabled.close()
    assert off.text == ""


# --- report ----------------------------------------------------------------------------------


class _Checker(HTMLParser):
    """Check that elements nest properly; count the SVG figures and outside references."""

    VOID = frozenset({"meta", "link", "br", "img", "input", "hr", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.svgs = 0
        self.outside: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.svgs += tag == "svg"
        for name, value in attrs:
            if name in {"src", "href", "xlink:href"} and value and not value.startswith("#"):
                self.outside.append(f"{tag} {name}={value}")
        if tag in {"script", "link", "iframe", "img"}:
            self.outside.append(tag)
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
            return
        self.stack.pop()


def test_report_is_one_self_contained_page(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from esmakker.sim.report import write_report

    result = run_match(["random"] * 4, 20, "hilmarshelte", 4, workers=1, overrides={"min_bid": 8})
    page = tmp_path / "report.html"
    write_report(page, result)
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    checker = _Checker()
    checker.feed(text)
    checker.close()
    assert checker.problems == []
    assert checker.stack == []
    assert checker.svgs == 3  # points per bot, contract distribution, make rate
    assert checker.outside == []
    assert "http" not in text
    assert "<table>" in text
    for caption in ("Mean points per deal", "Distribution of final contracts", "make rate"):
        assert caption in text
    assert "min_bid=8" in text
    # the page is the same for the same match
    write_report(tmp_path / "again.html", result)
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == text


def test_report_without_contracts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from esmakker.sim.report import render_report

    passes = DuplicateDeal(
        1,
        "x/1",
        Seat.N,
        tuple(_hand(r, None, None, None, (0, 0, 0, 0), ALL_PASS) for r in range(4)),
    )
    result = MatchResult(("a", "b", "c", "d"), "wikipedia", "x", (passes,))
    text = render_report(result)
    assert text.count("<svg") == 3
    assert "none" in text


# --- Ray -------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_instance() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_local_result(
    ray_instance: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bots = ["random"] * 4
    local = run_match(bots, 24, "hjerteres", "ray", workers=2, out=tmp_path / "local.jsonl")
    on_ray = run_match(
        bots, 24, "hjerteres", "ray", ray_address="local", out=tmp_path / "ray.jsonl"
    )
    assert ray_instance.is_initialized()  # a running instance is used, not replaced
    assert _summary_text(on_ray) == _summary_text(local)
    assert on_ray.deals == local.deals
    assert (tmp_path / "ray.jsonl").read_text() == (tmp_path / "local.jsonl").read_text()
    args = ["match", "--deals", "24", "--preset", "hjerteres", "--seed", "ray", "--json"]
    assert main([*args, "--ray", "local"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(_summary_text(local))


def test_a_search_bot_plays_its_first_deal_with_the_compiled_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    waits: list[bool] = []

    def fake_warm_up(*, wait: bool = False) -> bool:
        waits.append(wait)
        return True

    monkeypatch.setattr(endgame, "COMPILED", True)
    monkeypatch.setattr(endgame, "warm_up", fake_warm_up)
    duplicate._compile_for(["heuristic", "random", "beginner", "heuristic"])
    assert waits == []  # nobody searches: nothing to wait for
    duplicate._compile_for(["Strong ", "heuristic", "heuristic", "heuristic"])
    assert waits == [True]
    monkeypatch.setattr(endgame, "COMPILED", False)  # no numba: the plain solver it is
    duplicate._compile_for(["strong", "heuristic", "heuristic", "heuristic"])
    assert waits == [True]
