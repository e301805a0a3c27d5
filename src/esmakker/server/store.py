"""Durable storage: every action is committed before it is acknowledged (SQLAlchemy 2 Core).

One synchronous engine; SQLite runs in WAL mode with ``synchronous=NORMAL``, which
survives a killed process (the commit is in the operating system's hands before the
call returns). A PostgreSQL URL works the same way.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    bindparam,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url

from esmakker.server import models
from esmakker.server.migrations import migrate


@dataclass(frozen=True, slots=True)
class StoredPlayer:
    """One occupied place at a table."""

    index: int
    name: str
    bot: str | None
    nonce: str


@dataclass(frozen=True, slots=True)
class StoredAction:
    """One action of the deal in progress."""

    step: int
    seat: str
    action: str
    player: int | None
    command_id: str | None


@dataclass(frozen=True, slots=True)
class StoredTable:
    """Everything needed to restore a table exactly."""

    id: str
    code: str
    config: dict[str, Any]
    seed: str
    host_nonce: str
    status: str
    seq: int
    players: tuple[StoredPlayer, ...]
    records: tuple[str, ...]
    actions: tuple[StoredAction, ...]
    """The actions of the deal after the last finished one, in order."""
    command_ids: dict[int, set[str]]
    """Every command id applied at the table, per player."""


@dataclass(frozen=True, slots=True)
class NewAction:
    """An action to write: its deal, its step in the deal, who took it."""

    deal: int
    step: int
    seat: str
    action: str
    player: int | None
    command_id: str | None


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    # checkpoints (which wait for the disk) run in the store's own thread, not in a commit
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def make_engine(url: str) -> Engine:
    """Return an engine for ``url``; a SQLite file's folder is created."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """The server's database: tables, players, the current deal's actions, finished records."""

    def __init__(self, url: str, checkpoint_every: float = 1.0) -> None:
        self.engine = make_engine(url)
        migrate(self.engine)
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if self.engine.dialect.name == "sqlite":
            self._checkpointer = threading.Thread(
                target=self._checkpoints, args=(checkpoint_every,), daemon=True
            )
            self._checkpointer.start()

    def _checkpoints(self, every: float) -> None:
        """Copy the write-ahead log into the database now and then (SQLite), off the loop."""
        while not self._stop.wait(every):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            except Exception:  # a busy or closing database: try again later
                continue

    def close(self) -> None:
        """Stop the checkpoints and release the connections."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        self.engine.dispose()

    def secret(self) -> str:
        """Return the token-signing key, made once and kept in the database."""
        meta = models.server_meta
        with self.engine.begin() as conn:
            value = conn.execute(select(meta.c.value).where(meta.c.key == "secret")).scalar()
            if value is None:
                value = secrets.token_hex(32)
                conn.execute(insert(meta).values(key="secret", value=value))
        return str(value)

    def create_table(
        self, table_id: str, code: str, config: dict[str, Any], seed: str, host_nonce: str
    ) -> None:
        """Write a new table in the lobby."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(models.tables).values(
                    id=table_id,
                    code=code,
                    config=json.dumps(config),
                    seed=seed,
                    host_nonce=host_nonce,
                    status="lobby",
                    seq=0,
                    created=time.time(),
                )
            )

    def code_taken(self, code: str) -> bool:
        """Return whether a table already has this short code."""
        with self.engine.connect() as conn:
            query = select(models.tables.c.id).where(models.tables.c.code == code)
            return conn.execute(query).first() is not None

    def add_player(self, table_id: str, player: StoredPlayer, seq: int) -> None:
        """Seat a person or a bot."""
        with self.engine.begin() as conn:
            conn.execute(
                insert(models.players).values(
                    table_id=table_id,
                    idx=player.index,
                    name=player.name,
                    bot=player.bot,
                    nonce=player.nonce,
                )
            )
            _set_seq(conn, table_id, seq)

    def set_status(self, table_id: str, status: str, seq: int) -> None:
        """Change a table's status (lobby, running, finished, closed, aborted)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(models.tables).where(models.tables.c.id == table_id).values(status=status)
            )
            _set_seq(conn, table_id, seq)

    def set_seq(self, table_id: str, seq: int) -> None:
        """Keep the table's sequence number (so it never goes back after a restart)."""
        with self.engine.begin() as conn:
            _set_seq(conn, table_id, seq)

    def add_action(self, table_id: str, action: NewAction, seq: int, record: str | None) -> None:
        """Write one action (and the finished deal's record, when it ended the deal)."""
        row = {
            "table_id": table_id,
            "deal": action.deal,
            "step": action.step,
            "seat": action.seat,
            "action": action.action,
            "player": action.player,
            "command_id": action.command_id,
        }
        with self.engine.begin() as conn:
            conn.execute(_INSERT_ACTION, row)
            if record is not None:
                conn.execute(
                    insert(models.records).values(
                        table_id=table_id, deal=action.deal, record=record
                    )
                )
            _set_seq(conn, table_id, seq)

    def remove_action(self, table_id: str, deal: int, step: int, seq: int) -> None:
        """Delete a taken-back action."""
        actions = models.actions
        with self.engine.begin() as conn:
            conn.execute(
                delete(actions).where(
                    actions.c.table_id == table_id, actions.c.deal == deal, actions.c.step == step
                )
            )
            _set_seq(conn, table_id, seq)

    def records(self, table_id: str) -> list[str]:
        """Return a table's finished deals as record JSON texts, oldest first."""
        recs = models.records
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(recs.c.record).where(recs.c.table_id == table_id).order_by(recs.c.deal)
            )
            return [str(row[0]) for row in rows]

    def load(self) -> list[StoredTable]:
        """Return every table with its players, records and the current deal's actions."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(models.tables).order_by(models.tables.c.created)).all()
            return [_load_one(conn, row) for row in rows]

    def table_id(self, ref: str) -> str | None:
        """Return the id of the table with this id or short code, or ``None``."""
        tables = models.tables
        with self.engine.connect() as conn:
            query = select(tables.c.id).where((tables.c.id == ref) | (tables.c.code == ref.upper()))
            found = conn.execute(query).scalar()
            return None if found is None else str(found)

    def load_table(self, ref: str) -> StoredTable | None:
        """Return the table with this id or short code, or ``None``."""
        tables = models.tables
        with self.engine.connect() as conn:
            query = select(tables).where((tables.c.id == ref) | (tables.c.code == ref.upper()))
            row = conn.execute(query).first()
            return None if row is None else _load_one(conn, row)


_INSERT_ACTION = insert(models.actions)
_SET_SEQ = (
    update(models.tables)
    .where(models.tables.c.id == bindparam("table"))
    .values(seq=bindparam("seq"))
)
"""Statements built once: an action is written on every move (hot path)."""


def _set_seq(conn: Connection, table_id: str, seq: int) -> None:
    conn.execute(_SET_SEQ, {"table": table_id, "seq": seq})


def _load_one(conn: Connection, row: Any) -> StoredTable:
    table_id = str(row.id)
    people = models.players
    player_rows = conn.execute(
        select(people).where(people.c.table_id == table_id).order_by(people.c.idx)
    ).all()
    recs = models.records
    record_rows = conn.execute(
        select(recs.c.record).where(recs.c.table_id == table_id).order_by(recs.c.deal)
    ).all()
    acts = models.actions
    current = len(record_rows) + 1
    action_rows = conn.execute(
        select(acts)
        .where(acts.c.table_id == table_id, acts.c.deal == current)
        .order_by(acts.c.step)
    ).all()
    return StoredTable(
        id=table_id,
        code=str(row.code),
        config=json.loads(row.config),
        seed=str(row.seed),
        host_nonce=str(row.host_nonce),
        status=str(row.status),
        seq=int(row.seq),
        players=_players(player_rows),
        records=tuple(str(r[0]) for r in record_rows),
        actions=tuple(
            StoredAction(int(a.step), str(a.seat), str(a.action), a.player, a.command_id)
            for a in action_rows
        ),
        command_ids=_command_ids(conn, table_id),
    )


def _players(rows: Sequence[Any]) -> tuple[StoredPlayer, ...]:
    return tuple(StoredPlayer(int(r.idx), str(r.name), r.bot, str(r.nonce)) for r in rows)


def _command_ids(conn: Connection, table_id: str) -> dict[int, set[str]]:
    acts = models.actions
    rows = conn.execute(
        select(acts.c.player, acts.c.command_id).where(
            acts.c.table_id == table_id, acts.c.command_id.is_not(None)
        )
    )
    applied: dict[int, set[str]] = {}
    for player, command_id in rows:
        if player is not None:
            applied.setdefault(int(player), set()).add(str(command_id))
    return applied
