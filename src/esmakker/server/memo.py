"""Computations kept in memory: one worker thread, one computation per key, the last kept.

The double-dummy analysis and the review of finished deals are slow and pure: each is
computed once per key in the memo's worker thread beside the event loop (one at a time,
never two searches on the server's cores from one memo), and requests for a key being
computed wait for the same computation. A computation that failed is forgotten, so the
next request tries again.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memo(Generic[K, V]):
    """The results of one kind of computation, by key (the most recent ``keep`` of them)."""

    def __init__(self, name: str, keep: int) -> None:
        self.keep = keep
        self._tasks: OrderedDict[K, asyncio.Future[V]] = OrderedDict()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)

    async def get(self, key: K, compute: Callable[[], V]) -> V:
        """Return the result for ``key``: from memory, from the running computation, or new."""
        task = self._tasks.get(key)
        if task is None:
            task = self._start(key, compute)
        return await asyncio.shield(task)

    def _start(self, key: K, compute: Callable[[], V]) -> asyncio.Future[V]:
        task = asyncio.get_running_loop().run_in_executor(self._pool, compute)
        self._tasks[key] = task
        task.add_done_callback(lambda done: self._finished(key, done))
        self._trim()
        return task

    def _finished(self, key: K, task: asyncio.Future[V]) -> None:
        if (task.cancelled() or task.exception() is not None) and self._tasks.get(key) is task:
            del self._tasks[key]

    def _trim(self) -> None:
        while len(self._tasks) > self.keep:
            oldest = next(iter(self._tasks))
            if not self._tasks[oldest].done():
                return
            del self._tasks[oldest]

    def close(self) -> None:
        """Stop the worker thread; a computation still running is left to finish."""
        self._pool.shutdown(wait=False, cancel_futures=True)
