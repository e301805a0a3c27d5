"""Server settings: where the database lives, frame limits, bot pacing, analysis caps."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

ANALYSIS_NODES = 2_000_000
"""Nodes one double-dummy search of a deal's analysis may take (then: unknown)."""
ANALYSIS_BUDGET = 30_000_000
"""Nodes the whole analysis of one deal may take (10-15 s here; later searches: unknown)."""

HINT_WORLDS = 16
"""Worlds a hint searches (at most ``hint_budget`` seconds of them)."""
REVIEW_WORLDS = 6
"""Worlds the review of a finished deal searches per decision."""


def data_dir() -> Path:
    """Return the data folder: ``$ESMAKKER_DATA``, else ``~/.local/share/esmakker``."""
    explicit = os.environ.get("ESMAKKER_DATA")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "esmakker"


def default_db_url() -> str:
    """Return the embedded SQLite database in the data folder (created on demand)."""
    folder = data_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'esmakker.db'}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Settings:
    """What ``create_app`` needs; every field has a sensible default."""

    db_url: str = ""
    """SQLAlchemy URL; empty means the SQLite file in the data folder."""
    secret: str | None = None
    """Key that signs seat tokens; ``None``: one generated once and kept in the database."""
    max_frame: int = 8192
    """Largest client frame in bytes; longer ones get a ``too_large`` error."""
    buffer: int = 64
    """Frames kept per recipient for a reconnecting client; older gaps get a snapshot."""
    bot_delay: float = 0.0
    """Seconds a bot waits before acting (so people can follow); 0 in tests."""
    outbox: int = 1024
    """Frames queued for one slow connection before it is dropped."""
    rate: float = 20.0
    """Client frames per second allowed on one connection (bursts up to twice that)."""
    public_url: str = ""
    """Base URL used in invite links; empty: the request's own base URL."""
    redis_url: str = ""
    """Redis shared by several server processes; empty: one process, Redis unused."""
    node_url: str = ""
    """Base URL at which the other processes reach this one (needed with ``redis_url``)."""
    claim_ttl: float = 10.0
    """Seconds a table's ownership lasts without renewal (a dead owner's tables move after it)."""
    analysis_nodes: int = ANALYSIS_NODES
    """Nodes one double-dummy search of a deal's analysis may take (then: unknown)."""
    analysis_budget: int = ANALYSIS_BUDGET
    """Nodes the whole analysis of one deal may take (later searches: unknown)."""
    hint_worlds: int = HINT_WORLDS
    """Worlds a hint searches (at most ``hint_budget`` seconds of them)."""
    hint_budget: float = 1.0
    """Seconds a hint's search may take before it answers with the worlds it has."""
    review_worlds: int = REVIEW_WORLDS
    """Worlds the review of a finished deal searches per decision."""
    review_budget: float = 0.5
    """Seconds one decision of a review may take (a deal has at most about 20)."""

    def database_url(self) -> str:
        """Return the database URL, the embedded default when none is set."""
        return self.db_url or default_db_url()
