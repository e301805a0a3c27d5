"""Double-dummy analysis of finished deals for the browser: computed once, in a thread, kept.

One worker thread runs the solver (``esmakker.solver.analysis.analyze``) with a node cap per
search and a node budget per deal, so one request cannot hold the server for long; requests
for a deal being analysed wait for the same computation. Results stay in memory per table
and deal (the most recent ``KEEP`` of them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from esmakker.core.record import HandRecord
from esmakker.server import errors
from esmakker.server.errors import ApiError
from esmakker.server.memo import Memo

KEEP = 256
"""Analyses kept in memory (the oldest finished one is dropped first)."""

Key = tuple[str, int]
Analyzer = Callable[[HandRecord], dict[str, Any]]


def load_analyzer(per_search: int, budget: int) -> Analyzer:
    """Return ``record -> analysis`` with the given caps; 501 if the solver is not installed."""
    try:
        analysis = importlib.import_module("esmakker.solver.analysis")
        solve = importlib.import_module("esmakker.solver.solve")
    except ImportError as exc:
        raise ApiError(
            501, errors.SOLVER_NOT_INSTALLED, f"the double-dummy solver is not installed ({exc})"
        ) from exc

    def run(record: HandRecord) -> dict[str, Any]:
        solver = solve.Solver(node_limit=per_search, node_budget=budget)
        result: dict[str, Any] = analysis.analyze(record, solver)
        return result

    return run


class Analyses:
    """The analyses of finished deals: one computation per deal, shared by every request."""

    def __init__(self, per_search: int, budget: int) -> None:
        self.per_search = per_search
        self.budget = budget
        self._memo: Memo[Key, dict[str, Any]] = Memo("analysis", KEEP)

    async def get(self, key: Key, record: HandRecord) -> dict[str, Any]:
        """Return the deal's analysis: from memory, from the running computation, or new."""
        return await self._memo.get(key, lambda: self._run(record))

    def _run(self, record: HandRecord) -> dict[str, Any]:
        return load_analyzer(self.per_search, self.budget)(record)

    def close(self) -> None:
        """Stop the worker thread; a computation still running is left to finish."""
        self._memo.close()
