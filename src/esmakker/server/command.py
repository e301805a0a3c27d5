"""The ``esmakker serve`` and ``esmakker join`` commands (registered by ``esmakker.cli``).

This module imports no third-party package at import time, so the command line works
without the ``server`` extra and says what to install when a server command needs it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from esmakker.server.settings import ANALYSIS_BUDGET, ANALYSIS_NODES, HINT_WORLDS, REVIEW_WORLDS

EXTRA_HINT = "this command needs the server extra: pip install 'esmakker[server]'"
_NEEDED = ("fastapi", "uvicorn", "sqlalchemy", "websockets")


def missing_extra() -> str | None:
    """Return the one-line error when the ``server`` extra is not installed, else ``None``."""
    for name in _NEEDED:
        try:
            importlib.import_module(name)
        except ImportError:
            return f"{EXTRA_HINT} ({name} is missing)"
    return None


def add_serve(commands: Any) -> None:
    """Register ``esmakker serve``."""
    serve = commands.add_parser("serve", help="run the online game server")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (8000)")
    serve.add_argument("--db", default="", help="database URL (default: SQLite in the data folder)")
    serve.add_argument(
        "--bot-delay", type=float, default=0.6, help="seconds a bot waits before acting (0.6)"
    )
    serve.add_argument("--public-url", default="", help="base URL for invite links")
    serve.add_argument(
        "--redis",
        default=os.environ.get("ESMAKKER_REDIS", ""),
        help="Redis URL shared by several server processes ($ESMAKKER_REDIS; default: none)",
    )
    serve.add_argument(
        "--node-url",
        default="",
        help="with --redis: base URL the other processes reach this one at (http://HOST:PORT)",
    )
    serve.add_argument(
        "--claim-ttl",
        type=float,
        default=10.0,
        help="with --redis: seconds before a dead process's tables move to another (10)",
    )
    serve.add_argument(
        "--analysis-nodes",
        type=int,
        default=ANALYSIS_NODES,
        help=f"double-dummy analysis: nodes one search may take ({ANALYSIS_NODES})",
    )
    serve.add_argument(
        "--analysis-budget",
        type=int,
        default=ANALYSIS_BUDGET,
        help=f"double-dummy analysis: nodes one deal may take in all ({ANALYSIS_BUDGET})",
    )
    serve.add_argument(
        "--hint-worlds",
        type=int,
        default=HINT_WORLDS,
        help=f"hints: worlds searched per hint, at most one second of them ({HINT_WORLDS})",
    )
    serve.add_argument(
        "--review-worlds",
        type=int,
        default=REVIEW_WORLDS,
        help=f"reviews of finished deals: worlds searched per decision ({REVIEW_WORLDS})",
    )
    serve.set_defaults(handler=_serve)


def _serve(args: argparse.Namespace) -> int:
    problem = missing_extra()
    if problem is not None:
        sys.stderr.write(f"esmakker: error: {problem}\n")
        return 2
    import uvicorn

    from esmakker.server.app import create_app
    from esmakker.server.settings import Settings

    problem = _redis_problem(args.redis)
    if problem is not None:
        sys.stderr.write(f"esmakker: error: {problem}\n")
        return 2
    settings = Settings(
        db_url=args.db,
        bot_delay=args.bot_delay,
        public_url=args.public_url,
        redis_url=args.redis,
        node_url=args.node_url or f"http://{args.host}:{args.port}",
        claim_ttl=args.claim_ttl,
        analysis_nodes=args.analysis_nodes,
        analysis_budget=args.analysis_budget,
        hint_worlds=max(1, args.hint_worlds),
        review_worlds=max(1, args.review_worlds),
    )
    config = uvicorn.Config(
        create_app(settings),
        host=args.host,
        port=args.port,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=False,  # frames are small; compression costs more CPU than it saves
        log_level="warning",
    )
    sys.stdout.write(f"esmakker server on http://{args.host}:{args.port}\n")
    sys.stdout.flush()
    uvicorn.Server(config).run()
    return 0


def _redis_problem(url: str) -> str | None:
    """Return the one-line error when ``--redis`` is given without redis-py installed."""
    if not url:
        return None
    try:
        importlib.import_module("redis")
    except ImportError:
        return "--redis needs the redis extra: pip install 'esmakker[server,redis]'"
    return None


def add_join(commands: Any) -> None:
    """Register ``esmakker join``."""
    join = commands.add_parser("join", help="join an online table (line mode)")
    join.add_argument("url", help="invite link (http://host:port/t/CODE), or a code with --server")
    join.add_argument(
        "--server", default="http://127.0.0.1:8000", help="server of a bare code (localhost:8000)"
    )
    join.add_argument("--name", help="your name at the table (to take a free place)")
    join.add_argument("--token", help="a seat token from an earlier join (to come back)")
    join.add_argument("--watch", action="store_true", help="watch as a spectator")
    join.set_defaults(handler=_join)


def _join(args: argparse.Namespace) -> int:
    problem = missing_extra()
    if problem is not None:
        sys.stderr.write(f"esmakker: error: {problem}\n")
        return 2
    from esmakker.server.client import run_client

    return run_client(
        args.url, name=args.name, token=args.token, watch=args.watch, server=args.server
    )
