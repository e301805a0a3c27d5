"""Run a duplicate match on all cores, or on a Ray cluster (``esmakker match``).

The deals are cut into chunks of consecutive deal numbers; each chunk is played
by a worker process (``concurrent.futures.ProcessPoolExecutor``) or, with
``ray_address``, by a Ray task. Every deal depends only on the seed and its number
(see ``esmakker.sim.duplicate``) and the results are put back in deal order, so a
match gives the same figures and the same records whatever the number of
workers, the chunk size, the order in which chunks finish, or the backend.

Ray is an optional extra (``pip install 'esmakker[ray]'``) imported only when
``ray_address`` is given: ``local`` starts a Ray instance on this machine for the
run, ``auto`` joins the cluster this machine belongs to, any other value is an
address for ``ray.init`` (``HOST:PORT``, ``ray://HOST:PORT``). A Ray instance that
this process has already started is used as it is. The cluster's nodes need the
same esmakker installed.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import json
import logging
import math
import multiprocessing
import os
import random
import socket
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from esmakker.bots.registry import make_bot
from esmakker.core.rules import RuleSet
from esmakker.sim.checkpoint import PLAY_CODE, Checkpoint
from esmakker.sim.duplicate import BotFailure, DuplicateDeal, play_duplicate
from esmakker.sim.fingerprint import play_code
from esmakker.sim.progress import ProgressBar
from esmakker.sim.stats import summarise_dd_loss, summarise_match

_MAX_CHUNK = 64
"""The most deals in one chunk (smaller chunks balance the load and move the progress bar)."""


_CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Ray cluster's address to answer."""


class MatchSetupError(Exception):
    """A match that cannot start: a missing optional extra, an unreachable Ray cluster."""


@dataclass(frozen=True, slots=True)
class Chunk:
    """Deals ``first`` to ``last`` (inclusive) of a match: all a worker needs to play them."""

    bots: tuple[str, ...]
    preset: str
    overrides_json: str
    """The rule overrides as JSON text (hashable, so a worker builds each rule set once)."""
    seed: str
    first: int
    last: int
    records: bool
    dd_node_limit: int | None = None
    """Nodes per card for the double-dummy figures (``--dd-loss``); ``None``: none."""


def play_chunk(chunk: Chunk) -> list[DuplicateDeal]:
    """Play the deals of ``chunk`` in all rotations (the work of one worker task).

    Raises:
        BotFailure: if a bot chooses an illegal action or fails otherwise.
    """
    rules = _rules(chunk.preset, chunk.overrides_json)
    return [
        play_duplicate(
            rules,
            chunk.bots,
            chunk.seed,
            number,
            records=chunk.records,
            dd_node_limit=chunk.dd_node_limit,
        )
        for number in range(chunk.first, chunk.last + 1)
    ]


@functools.lru_cache(maxsize=8)
def _rules(preset: str, overrides_json: str) -> RuleSet:
    return RuleSet.from_preset(preset, json.loads(overrides_json))


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match: its settings and every deal, in deal order (without the records)."""

    bots: tuple[str, ...]
    preset: str
    seed: str
    deals: tuple[DuplicateDeal, ...]
    overrides: dict[str, Any] = field(default_factory=dict)
    dd_node_limit: int | None = None
    """Nodes per card of the double-dummy figures; ``None`` when they were not asked for."""

    def summary(self) -> dict[str, Any]:
        """Return the figures as the JSON object of ``esmakker match --json``.

        With double-dummy figures it has one more key, ``dd_loss`` (``summarise_dd_loss``).
        """
        summary = summarise_match(self.bots, self.deals)
        if self.dd_node_limit is not None:
            summary["dd_loss"] = summarise_dd_loss(self.bots, self.deals, self.dd_node_limit)
        return summary


def run_match(
    bots: Sequence[str],
    deals: int,
    preset: str,
    seed: int | str,
    workers: int | None = None,
    overrides: Mapping[str, Any] | None = None,
    progress: bool = False,
    ray_address: str | None = None,
    *,
    out: str | os.PathLike[str] | None = None,
    dd_node_limit: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> MatchResult:
    """Play a duplicate match of ``deals`` deals between four named bots.

    ``workers`` is the number of processes (default ``os.cpu_count()``; 1 plays in
    this process), or with Ray the number of CPUs of a ``local`` instance.
    ``progress`` draws a progress bar on standard error when it is a terminal and
    the run lasts more than a second. ``out`` names a JSON Lines file for the hand
    records, one per played rotation, in deal and rotation order. ``dd_node_limit``
    adds the double-dummy figures (``esmakker.sim.ddloss``), computed by the workers,
    each card's searches within that many nodes. ``checkpoint`` names a file that keeps
    the finished deals (``esmakker.sim.checkpoint``): a match stopped and run again
    plays only the deals not in it, with the same figures as one run (not with ``out``).

    Raises:
        ValueError: for a wrong number of bots, an unknown bot name, fewer than one
            deal or worker.
        RulesConfigError: for an unknown preset or a bad override.
        MatchSetupError: if Ray is asked for but not installed or not reachable.
        BotFailure: if a bot chooses an illegal action or fails otherwise.
        CheckpointError: if ``checkpoint`` holds another match or a line it cannot read.
        OSError: if ``out`` or ``checkpoint`` cannot be written.
    """
    names = tuple(name.strip().lower() for name in bots)
    if len(names) != 4:
        raise ValueError(f"a duplicate match needs 4 bots, got {len(names)}")
    for name in names:
        make_bot(name, random.Random(0))
    if deals < 1:
        raise ValueError(f"a match needs at least one deal, got {deals}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if dd_node_limit is not None and dd_node_limit < 1:
        raise ValueError(f"the node limit must be at least 1, got {dd_node_limit}")
    if out is not None and checkpoint is not None:
        raise ValueError("records (out) are written by one run only, not with a checkpoint")
    overrides = dict(overrides or {})
    RuleSet.from_preset(preset, overrides)
    overrides_json = json.dumps(overrides, sort_keys=True)
    ray = None if ray_address is None else _import_ray()
    settings = {
        "bots": list(names),
        "preset": preset,
        "seed": str(seed),
        "overrides": overrides,
        "dd_node_limit": dd_node_limit,
    }
    saved = None
    if checkpoint is not None:
        saved = Checkpoint(checkpoint, {**settings, PLAY_CODE: play_code()})
    done = {} if saved is None else {n: d for n, d in saved.done.items() if n <= deals}
    missing = [number for number in range(1, deals + 1) if number not in done]
    with _Collector(deals, out, progress, done, saved) as collector:
        chunk_of = functools.partial(
            Chunk,
            names,
            preset,
            overrides_json,
            str(seed),
            records=out is not None,
            dd_node_limit=dd_node_limit,
        )
        if ray is not None and ray_address is not None and missing:
            _run_on_ray(ray, ray_address, workers, missing, chunk_of, collector.add)
        elif missing:
            count = workers or os.cpu_count() or 1
            chunks = [chunk_of(first, last) for first, last in chunk_runs(missing, count)]
            _run_local(chunks, count, collector.add)
        played = collector.deals()
    return MatchResult(names, preset, str(seed), played, overrides, dd_node_limit)


def chunk_ranges(deals: int, workers: int) -> list[tuple[int, int]]:
    """Return ``(first, last)`` deal numbers of the chunks: about 8 per worker, at most 64 deals.

    >>> chunk_ranges(10, 1)
    [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10)]
    """
    return chunk_runs(range(1, deals + 1), workers)


def chunk_runs(numbers: Sequence[int], workers: int) -> list[tuple[int, int]]:
    """Return ``(first, last)`` chunks of runs of consecutive deal numbers, as ``chunk_ranges``.

    >>> chunk_runs([*range(1, 21), 25, 26], 1)
    [(1, 3), (4, 6), (7, 9), (10, 12), (13, 15), (16, 18), (19, 20), (25, 26)]
    """
    size = max(1, min(_MAX_CHUNK, math.ceil(len(numbers) / (8 * max(workers, 1)))))
    chunks: list[tuple[int, int]] = []
    start = 0
    for index in range(1, len(numbers) + 1):
        if index == len(numbers) or numbers[index] != numbers[index - 1] + 1:
            run = numbers[start:index]
            chunks += [(run[i], run[min(i + size, len(run)) - 1]) for i in range(0, len(run), size)]
            start = index
    return chunks


class _Collector:
    """Gather chunk results as they come; write records in deal order; move the progress bar."""

    def __init__(
        self,
        deals: int,
        out: str | os.PathLike[str] | None,
        progress: bool,
        done: dict[int, DuplicateDeal],
        checkpoint: Checkpoint | None,
    ) -> None:
        self._file: IO[str] | None = None
        if out is not None:
            self._file = Path(out).open("w", encoding="utf-8")  # noqa: SIM115 (closed in __exit__)
        self._bar = ProgressBar(deals - len(done), enabled=progress)
        self._deals: dict[int, DuplicateDeal] = dict(done)
        self._checkpoint = checkpoint
        self._next = 1  # the first deal whose records are not written yet

    def __enter__(self) -> _Collector:
        return self

    def __exit__(self, *exc: object) -> None:
        self._bar.close()
        if self._file is not None:
            self._file.close()
        if self._checkpoint is not None:
            self._checkpoint.close()

    def add(self, results: list[DuplicateDeal]) -> None:
        if self._checkpoint is not None:
            self._checkpoint.save(results)
        for result in results:
            self._deals[result.number] = result
        while self._next in self._deals:
            result = self._deals[self._next]
            if self._file is not None and result.records:
                self._file.write("".join(text + "\n" for text in result.records))
                self._deals[self._next] = dataclasses.replace(result, records=())
            self._next += 1
        self._bar.advance(len(results))

    def deals(self) -> tuple[DuplicateDeal, ...]:
        return tuple(self._deals[number] for number in sorted(self._deals))


def _run_local(
    chunks: list[Chunk], workers: int, add: Callable[[list[DuplicateDeal]], None]
) -> None:
    if workers == 1 or len(chunks) == 1:
        for chunk in chunks:
            add(play_chunk(chunk))
        return
    # forkserver (spawn where there is none): workers start clean, safe even when this
    # process runs threads (Ray, a UI), which plain fork is not.
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    if method == "forkserver":
        multiprocessing.set_forkserver_preload(["esmakker.sim.match"])
    context = multiprocessing.get_context(method)
    with ProcessPoolExecutor(max_workers=min(workers, len(chunks)), mp_context=context) as pool:
        pending: set[Future[list[DuplicateDeal]]] = {
            pool.submit(play_chunk, chunk) for chunk in chunks
        }
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    add(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")  # an optional extra, only on this path
    except ImportError as exc:
        raise MatchSetupError("--ray needs Ray: pip install 'esmakker[ray]'") from exc


def _run_on_ray(
    ray: Any,
    address: str,
    workers: int | None,
    numbers: Sequence[int],
    chunk_of: Callable[[int, int], Chunk],
    add: Callable[[list[DuplicateDeal]], None],
) -> None:
    started = not ray.is_initialized()
    if started:
        _start_ray(ray, address, workers)
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1)) or 1
        chunks = [chunk_of(first, last) for first, last in chunk_runs(numbers, cpus)]
        task = ray.remote(play_chunk)
        pending = [task.remote(chunk) for chunk in chunks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                add(_ray_get(ray, ref))
    finally:
        if started:
            ray.shutdown()


def _start_ray(ray: Any, address: str, workers: int | None) -> None:
    if address not in ("local", "auto"):
        _check_reachable(address)
    options: dict[str, Any] = {"logging_level": logging.WARNING, "include_dashboard": False}
    try:
        if address == "local":
            ray.init(num_cpus=workers, **options)
        else:
            ray.init(address=address, **options)
    except Exception as exc:  # Ray raises several kinds (ConnectionError, ValueError, …)
        raise MatchSetupError(f"--ray {address}: {' '.join(str(exc).split())}") from exc


def _check_reachable(address: str) -> None:
    """Fail fast on a cluster address that does not answer (``ray.init`` would retry forever).

    Raises:
        MatchSetupError: if ``HOST:PORT`` (after an optional ``ray://``) refuses or times out.
    """
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        raise MatchSetupError(f"--ray {address}: expected auto, local or HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_TIMEOUT).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise MatchSetupError(f"--ray {address}: cannot reach {host}:{port}: {reason}") from exc


def _ray_get(ray: Any, ref: Any) -> list[DuplicateDeal]:
    try:
        result: list[DuplicateDeal] = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BotFailure):
            raise BotFailure(*cause.args) from exc  # the bot's error, without Ray's dump
        raise
    return result
