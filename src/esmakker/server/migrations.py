"""Versioned schema migrations: a small ordered list instead of Alembic (decision 52).

Each migration is a function of a connection; ``migrate`` applies those above the
database's version in one transaction each and records the new version.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, Engine, func, insert, inspect, select

from esmakker.server import models


def _v1(conn: Connection) -> None:
    """Create the first schema: tables, players, actions, records, server_meta."""
    models.metadata.create_all(conn)


MIGRATIONS: tuple[Callable[[Connection], None], ...] = (_v1,)
"""Migration ``i`` takes the schema from version ``i`` to ``i + 1``."""


def current_version(conn: Connection) -> int:
    """Return the schema version of the database (0 when empty)."""
    if not inspect(conn).has_table("schema_version"):
        return 0
    return int(conn.execute(select(func.max(models.schema_version.c.version))).scalar() or 0)


def migrate(engine: Engine) -> int:
    """Bring the schema up to date; return the version reached."""
    with engine.begin() as conn:
        version = current_version(conn)
    for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
        with engine.begin() as conn:
            step(conn)
            conn.execute(insert(models.schema_version).values(version=number))
    return len(MIGRATIONS)
