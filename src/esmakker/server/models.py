"""The database schema (SQLAlchemy 2 Core tables, dialect-neutral: SQLite and PostgreSQL)."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

metadata = MetaData()

schema_version = Table(
    "schema_version",
    metadata,
    Column("version", Integer, primary_key=True),
)

server_meta = Table(
    "server_meta",
    metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)

tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("code", String(16), nullable=False),
    Column("config", Text, nullable=False),
    Column("seed", String(64), nullable=False),
    Column("host_nonce", String(32), nullable=False),
    Column("status", String(16), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("created", Float, nullable=False),
    UniqueConstraint("code", name="uq_tables_code"),
)

players = Table(
    "players",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("nonce", String(32), nullable=False),
)

actions = Table(
    "actions",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("seat", String(1), nullable=False),
    Column("action", String(64), nullable=False),
    Column("player", Integer, nullable=True),
    Column("command_id", String(64), nullable=True),
)

records = Table(
    "records",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("deal", Integer, primary_key=True),
    Column("record", Text, nullable=False),
)
