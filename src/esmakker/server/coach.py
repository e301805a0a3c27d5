"""Hints for the seat to act and reviews of finished deals, each in its own worker thread.

A hint searches one decision as the strong bot would (``esmakker.bots.hints``) for at
most ``Settings.hint_budget`` seconds; a seat has at most one hint in flight (a second
request meanwhile is refused with ``hint_busy``). Hints of every table queue for one
worker thread, so people asking cannot take more than one core from the game.
The review of a seat's play in a finished deal (``esmakker.bots.review``) is computed
once per table, deal and seat in another worker thread and kept, like the analysis.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from esmakker.bots.hints import hint
from esmakker.core.actions import format_action
from esmakker.core.record import HandRecord
from esmakker.core.seats import Seat
from esmakker.core.view import PlayerView
from esmakker.server import errors
from esmakker.server.errors import ApiError
from esmakker.server.memo import Memo
from esmakker.server.settings import Settings
from esmakker.table import review_record

KEEP = 256
"""Reviews kept in memory (the oldest finished one is dropped first)."""

HintKey = tuple[str, int]
"""A table's id and a place at it."""
ReviewKey = tuple[str, int, str]
"""A table's id, a deal's number and a seat."""


class Coach:
    """Hints and reviews for the people at the server's tables."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._busy: set[HintKey] = set()
        self._hints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hint")
        self._reviews: Memo[ReviewKey, dict[str, Any]] = Memo("review", KEEP)

    async def hint(self, key: HintKey, view: PlayerView, seed: str) -> dict[str, Any]:
        """Return the suggestion for ``view``'s decision (429 ``hint_busy`` while one runs)."""
        if key in self._busy:
            raise ApiError(429, errors.HINT_BUSY, "a hint for this seat is still being computed")
        self._busy.add(key)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._hints, self._hint, view, seed)
        finally:
            self._busy.discard(key)

    def _hint(self, view: PlayerView, seed: str) -> dict[str, Any]:
        found = hint(
            view,
            random.Random(seed),
            worlds=self.settings.hint_worlds,
            budget_s=self.settings.hint_budget,
        )
        return {
            "seat": None if view.seat is None else view.seat.name,
            "step": len(view.steps),
            "action": format_action(found.action),
            "reason": found.reason,
            "choices": [
                {
                    "action": format_action(c.action),
                    "mean": round(c.mean_score, 1),
                    "worlds": c.worlds,
                }
                for c in found.choices
            ],
        }

    async def review(self, key: ReviewKey, record: HandRecord, seat: Seat) -> dict[str, Any]:
        """Return where ``seat``'s choices in the finished deal cost expected points."""
        return await self._reviews.get(key, lambda: self._review(record, seat, key[1]))

    def _review(self, record: HandRecord, seat: Seat, number: int) -> dict[str, Any]:
        found = review_record(
            record,
            seat,
            random.Random(f"review/{number}/{seat.name}"),
            worlds=self.settings.review_worlds,
            budget_s=self.settings.review_budget,
        )
        return {
            "deal": number,
            "seat": seat.name,
            "decisions": found.decisions,
            "mistakes": [costly.to_json() for costly in found.costly],
        }

    def close(self) -> None:
        """Stop the worker threads; a computation still running is left to finish."""
        self._hints.shutdown(wait=False, cancel_futures=True)
        self._reviews.close()
