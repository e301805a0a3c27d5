"""The hand record: one deal as JSON, read, written and replayed (hand-record.md).

``loads`` parses a record, replays every action and checks a stored result;
``dumps`` writes the canonical form (hands sorted, actions canonical, the result
always present). Every error is a ``CorruptRecordError`` whose message is one
line naming the place (``deal.N``, ``actions[12] 'E play S4'``, ``result.scores``),
with the underlying exception kept as ``__cause__``.

>>> import random
>>> from esmakker.core import RuleSet, Seat, deal, parse_action
>>> state = deal(RuleSet.from_preset("wikipedia"), Seat.N, random.Random(1))
>>> for _ in range(4):
...     state = state.apply(parse_action("pass"))
>>> record = loads(dumps(record_of(state)))
>>> [str(step) for step in record.steps], record.result["outcome"]
(['E pass', 'S pass', 'W pass', 'N pass'], 'redeal')
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

from esmakker.core.actions import Action, format_action, parse_action
from esmakker.core.cards import Card, CardSet
from esmakker.core.errors import (
    CorruptRecordError,
    IllegalActionError,
    InvalidDealError,
    NotationError,
    Reason,
    RulesConfigError,
)
from esmakker.core.presets import preset_options
from esmakker.core.rules import RuleSet
from esmakker.core.seats import SEATS, Seat
from esmakker.core.state import State, Step

FORMAT = "esmakker-hand/1"
"""The value of a record's ``format`` field."""

_FIELDS = ("format", "rules", "dealer", "deal", "actions", "result", "meta")
_DEAL_FIELDS = ("N", "E", "S", "W", "kitty")

StrPath = str | PathLike[str]


class RecordRulesError(CorruptRecordError, RulesConfigError):
    """A record whose ``rules`` do not form a rule set (unknown preset or option, bad value)."""


class RecordDealError(CorruptRecordError, InvalidDealError):
    """A record whose cards do not form a deal under its rules."""


class RecordActionError(CorruptRecordError, IllegalActionError):
    """A record with an action that is illegal where it stands (or names the wrong seat)."""

    def __init__(
        self, message: str, *, index: int, reason: Reason, seat: str | None, action: str
    ) -> None:
        IllegalActionError.__init__(self, message, reason=reason, seat=seat, action=action)
        self.index = index
        """The position of the offending step in ``actions``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class HandRecord:
    """One deal: rules, dealer, the cards as dealt, every step, the result and free meta data."""

    rules: RuleSet
    dealer: Seat
    hands: tuple[CardSet, ...]
    """The four hands as dealt, N, E, S, W."""
    kitty: tuple[Card, ...]
    """The kitty in turning order (first listed is turned first)."""
    steps: tuple[Step, ...] = ()
    result: dict[str, Any] | None = None
    """The result object (hand-record.md, Result); ``None`` while the deal is unfinished."""
    meta: dict[str, Any] = field(default_factory=dict)


# --- building and replaying ------------------------------------------------------------------


def record_of(state: State, meta: Mapping[str, Any] | None = None) -> HandRecord:
    """Return the record of a deal, finished or in progress."""
    hands, kitty = state.dealt
    result = state.result()
    return HandRecord(
        rules=state.rules,
        dealer=state.dealer,
        hands=hands,
        kitty=kitty,
        steps=state.history,
        result=None if result is None else result.to_json(),
        meta=dict(meta or {}),
    )


def replay(record: HandRecord) -> State:
    """Return the state after every step of ``record``, checking its stored result.

    Raises:
        CorruptRecordError: if the deal is invalid (``RecordDealError``), a step is
            illegal or names the wrong seat (``RecordActionError``), or the stored
            result differs from the replayed one.
    """
    texts = [str(step) for step in record.steps]
    return _replay(record, texts)


def _replay(record: HandRecord, texts: list[str]) -> State:
    try:
        state = State.new(record.rules, record.dealer, record.hands, record.kitty)
    except InvalidDealError as exc:
        raise RecordDealError(f"deal: {exc}") from exc
    for index, (step, text) in enumerate(zip(record.steps, texts, strict=True)):
        state = _apply(state, index, step, text)
    if record.result is not None:
        _check_result(state, record.result, len(texts))
    return state


def _apply(state: State, index: int, step: Step, text: str) -> State:
    try:
        return state.apply(step.action, step.seat)
    except IllegalActionError as exc:
        raise RecordActionError(
            f"actions[{index}] {text!r}: {_without_prefix(str(exc), step)}",
            index=index,
            reason=exc.reason,
            seat=step.seat.name,
            action=format_action(step.action),
        ) from exc


def _without_prefix(message: str, step: Step) -> str:
    """Drop the engine's ``"E play S4: "`` prefix; the record's step text replaces it."""
    for prefix in (f"{step}: ", f"{format_action(step.action)}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


def _check_result(state: State, stored: Mapping[str, Any], count: int) -> None:
    result = state.result()
    if result is None:
        seat = state.to_act
        raise CorruptRecordError(
            f"result: a result is stored, but the deal is unfinished after {count} action(s) "
            f"({'nobody' if seat is None else seat.name} to act)"
        )
    replayed = result.to_json()
    problems = [
        f"result.{key}: stored {_show(stored[key])}, replay gives {_show(value)}"
        if key in stored
        else f"result.{key}: missing, replay gives {_show(value)}"
        for key, value in replayed.items()
        if key not in stored or not _same(stored[key], value)
    ]
    problems += [f"result.{key}: unknown field" for key in stored if key not in replayed]
    if problems:
        more = len(problems) - 1
        tail = f" (and {more} more difference{'s' * (more > 1)})" if more else ""
        raise CorruptRecordError(problems[0] + tail)


def _same(a: Any, b: Any) -> bool:
    """Compare JSON values strictly (``true`` is not ``1``; key order is free)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- JSON text -------------------------------------------------------------------------------


def to_json(record: HandRecord) -> dict[str, Any]:
    """Return the record as a JSON-ready object in canonical form.

    Raises:
        CorruptRecordError: if ``record.result`` is ``None`` and the steps do not replay.
    """
    result = record.result
    if result is None:
        final = replay(record).result()
        result = None if final is None else final.to_json()
    hands = {seat.name: str(hand) for seat, hand in zip(SEATS, record.hands, strict=True)}
    return {
        "format": FORMAT,
        "rules": {"preset": record.rules.preset, "overrides": record.rules.overrides},
        "dealer": record.dealer.name,
        "deal": {**hands, "kitty": " ".join(card.name for card in record.kitty)},
        "actions": [str(step) for step in record.steps],
        "result": result,
        "meta": record.meta,
    }


def dumps(record: HandRecord, *, indent: int | None = None) -> str:
    """Return the record's canonical JSON text (one line unless ``indent`` is given).

    Raises:
        CorruptRecordError: if ``record.result`` is ``None`` and the steps do not replay.
    """
    return json.dumps(to_json(record), ensure_ascii=False, indent=indent)


def loads(text: str, *, source: str = "") -> HandRecord:
    """Read one record, replay it and check its stored result.

    ``source`` (a file name, ``file:line``) is put in front of error messages.
    The returned record holds the canonical steps and the replayed result
    (``None`` for an unfinished deal).

    Raises:
        CorruptRecordError: with a one-line message naming what is wrong and where.
    """
    try:
        return _loads(text)
    except CorruptRecordError as exc:
        if source:
            exc.args = (f"{source}: {exc.args[0]}",)
        raise


def _loads(text: str) -> HandRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CorruptRecordError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from exc
    return from_json(data)


def from_json(data: Any) -> HandRecord:
    """Read a record from its parsed JSON object, replay it and check its stored result.

    Raises:
        CorruptRecordError: with a one-line message naming what is wrong and where.
    """
    if not isinstance(data, dict):
        raise CorruptRecordError(f"a hand record is a JSON object, not {_json_type(data)}")
    _check_fields(data)
    rules = _rules_of(data["rules"])
    dealer = _dealer_of(data["dealer"])
    hands, kitty = _deal_of(data["deal"])
    steps, texts = _steps_of(data["actions"])
    stored = data.get("result")
    if stored is not None and not isinstance(stored, dict):
        raise CorruptRecordError(f"result: expected an object, got {_json_type(stored)}")
    record = HandRecord(
        rules=rules,
        dealer=dealer,
        hands=hands,
        kitty=kitty,
        steps=steps,
        result=stored,
        meta=_meta_of(data.get("meta")),
    )
    state = _replay(record, texts)
    result = state.result()
    return HandRecord(
        rules=record.rules,
        dealer=record.dealer,
        hands=record.hands,
        kitty=record.kitty,
        steps=state.history,
        result=None if result is None else result.to_json(),
        meta=record.meta,
    )


def _check_fields(data: dict[str, Any]) -> None:
    for key in data:
        if key not in _FIELDS:
            raise CorruptRecordError(f"{key}: unknown field (expected {', '.join(_FIELDS)})")
    if "format" not in data:
        raise CorruptRecordError(f'format: missing (expected "{FORMAT}")')
    if data["format"] != FORMAT:
        raise CorruptRecordError(f'format: {_show(data["format"])} is not "{FORMAT}"')
    for key in ("rules", "dealer", "deal", "actions"):
        if key not in data:
            raise CorruptRecordError(f"{key}: missing")


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), "a number")


def _rules_of(value: Any) -> RuleSet:
    if isinstance(value, str):
        return _ruleset(value, {}, "rules")
    if isinstance(value, dict):
        for key in value:
            if key not in ("preset", "overrides"):
                raise CorruptRecordError(f"rules.{key}: unknown field (expected preset, overrides)")
        preset, overrides = value.get("preset"), value.get("overrides", {})
        if not isinstance(preset, str):
            raise CorruptRecordError(f"rules.preset: expected a preset name, got {_show(preset)}")
        if not isinstance(overrides, dict):
            raise CorruptRecordError(f"rules.overrides: expected an object, got {_show(overrides)}")
        return _ruleset(preset, overrides, "rules.preset")
    raise CorruptRecordError(
        f"rules: expected a preset name or {{preset, overrides}}, got {_json_type(value)}"
    )


def _ruleset(preset: str, overrides: dict[str, Any], where: str) -> RuleSet:
    try:
        preset_options(preset)
    except RulesConfigError as exc:
        raise RecordRulesError(f"{where}: {exc}") from exc
    try:
        return RuleSet.from_preset(preset, overrides)
    except (RulesConfigError, TypeError) as exc:
        raise RecordRulesError(f"{_culprit(preset, overrides, str(exc))}: {exc}") from exc


def _culprit(preset: str, overrides: dict[str, Any], message: str) -> str:
    """Return the place of the one override that fails alone with ``message``.

    A conflict between several options is placed at ``rules.overrides``.
    """
    for key, value in overrides.items():
        try:
            RuleSet.from_preset(preset, {key: value})
        except (RulesConfigError, TypeError) as exc:
            if str(exc) == message:
                return f"rules.overrides.{key}"
    return "rules.overrides"


def _dealer_of(value: Any) -> Seat:
    if not isinstance(value, str):
        raise CorruptRecordError(f"dealer: expected a seat letter, got {_show(value)}")
    try:
        return Seat.parse(value)
    except NotationError as exc:
        raise CorruptRecordError(f"dealer: {exc}") from exc


def _deal_of(value: Any) -> tuple[tuple[CardSet, ...], tuple[Card, ...]]:
    if not isinstance(value, dict):
        raise CorruptRecordError(f"deal: expected an object, got {_json_type(value)}")
    for key in value:
        if key not in _DEAL_FIELDS:
            raise CorruptRecordError(f"deal.{key}: unknown field (expected N, E, S, W, kitty)")
    texts = {}
    for key in _DEAL_FIELDS:
        text = value.get(key)
        if not isinstance(text, str):
            got = "missing" if key not in value else f"expected cards, got {_show(text)}"
            raise CorruptRecordError(f"deal.{key}: {got}")
        texts[key] = text
    hands = tuple(_cards(f"deal.{seat}", texts[seat]) for seat in "NESW")
    kitty = _kitty(texts["kitty"])
    return hands, kitty


def _cards(place: str, text: str) -> CardSet:
    try:
        return CardSet.parse(text)
    except NotationError as exc:
        raise CorruptRecordError(f"{place}: {exc}") from exc


def _kitty(text: str) -> tuple[Card, ...]:
    try:
        return tuple(Card.parse(token) for token in text.split())
    except NotationError as exc:
        raise CorruptRecordError(f"deal.kitty: {exc}") from exc


def _steps_of(value: Any) -> tuple[tuple[Step, ...], list[str]]:
    if not isinstance(value, list):
        raise CorruptRecordError(f"actions: expected a list of strings, got {_json_type(value)}")
    steps = []
    for index, text in enumerate(value):
        if not isinstance(text, str):
            raise CorruptRecordError(
                f'actions[{index}]: expected a string like "E play S4", got {_show(text)}'
            )
        steps.append(_step(index, text))
    return tuple(steps), value


def _step(index: int, text: str) -> Step:
    seat_text, _, action_text = text.strip().partition(" ")
    try:
        seat = Seat.parse(seat_text)
        action: Action = parse_action(action_text)
    except NotationError as exc:
        raise CorruptRecordError(f"actions[{index}] {text!r}: {exc}") from exc
    return Step(seat, action)


def _meta_of(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise CorruptRecordError(f"meta: expected an object, got {_json_type(value)}")
    return value


# --- files -----------------------------------------------------------------------------------


def load(path: StrPath) -> HandRecord:
    """Read a record file (one JSON object); errors name the file.

    Raises:
        CorruptRecordError: if the record is malformed or inconsistent.
        OSError: if the file cannot be read.
    """
    text = Path(path).read_text(encoding="utf-8")
    return loads(text, source=str(path))


def dump(record: HandRecord, path: StrPath, *, indent: int | None = 2) -> None:
    """Write a record file in canonical form (indented by default, for people to read)."""
    Path(path).write_text(dumps(record, indent=indent) + "\n", encoding="utf-8")


def iter_jsonl(path: StrPath) -> Iterator[HandRecord]:
    """Yield the records of a JSON Lines file, skipping blank lines; errors name ``file:line``.

    Raises:
        CorruptRecordError: at the first malformed or inconsistent record.
        OSError: if the file cannot be read.
    """
    with Path(path).open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if line.strip():
                yield loads(line, source=f"{path}:{number}")


def write_jsonl(records: Iterable[HandRecord], path: StrPath) -> int:
    """Write records one per line (canonical form); return how many were written."""
    count = 0
    with Path(path).open("w", encoding="utf-8") as out:
        for record in records:
            out.write(dumps(record) + "\n")
            count += 1
    return count
