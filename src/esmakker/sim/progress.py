"""A small progress bar for long runs, drawn on a terminal only (standard library only)."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_WIDTH = 30


class ProgressBar:
    """Draw ``done/total`` on ``stream`` once a run has lasted ``delay`` seconds.

    Nothing is drawn when ``enabled`` is false or ``stream`` is not a terminal, nor
    for runs that end within ``delay``; so short runs, pipes and tests stay silent.
    """

    def __init__(
        self,
        total: int,
        *,
        label: str = "deals",
        stream: TextIO | None = None,
        enabled: bool = True,
        delay: float = 1.0,
    ) -> None:
        self.total = total
        self.done = 0
        self.label = label
        self.stream = sys.stderr if stream is None else stream
        self.enabled = enabled and _is_tty(self.stream)
        self.delay = delay
        self._start = time.monotonic()
        self._drawn_at: float | None = None

    def advance(self, count: int) -> None:
        """Count ``count`` more items done and redraw (at most ten times a second)."""
        self.done += count
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay:
            return
        if self._drawn_at is None or now - self._drawn_at >= 0.1 or self.done >= self.total:
            self._draw(now)

    def close(self) -> None:
        """End the bar's line, if a bar was drawn."""
        if self._drawn_at is not None:
            self._draw(time.monotonic())
            self.stream.write("\n")
            self.stream.flush()
            self._drawn_at = None

    def line(self, now: float) -> str:
        """Return the bar's text at time ``now`` (``time.monotonic()``)."""
        fraction = self.done / self.total if self.total else 1.0
        filled = round(fraction * _WIDTH)
        elapsed = now - self._start
        text = (
            f"[{'#' * filled}{'.' * (_WIDTH - filled)}] {fraction:4.0%} "
            f"{self.done}/{self.total} {self.label}, {elapsed:.0f} s"
        )
        if 0 < self.done < self.total:
            text += f", about {elapsed * (self.total - self.done) / self.done:.0f} s left"
        return text

    def _draw(self, now: float) -> None:
        self.stream.write("\r" + self.line(now) + "\x1b[K")
        self.stream.flush()
        self._drawn_at = now


def _is_tty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
