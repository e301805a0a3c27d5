"""``esmakker bench server``: N tables of four simulated clients over loopback (AC-P1).

The server runs as its own process (``esmakker serve`` on a free port, a temporary
SQLite file); this process opens four WebSockets per table and, at one action per table
per second, lets the player to act send a random legal action. The figure is the time
from sending an action to each of the four clients receiving its broadcast.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from esmakker.bench import print_figures
from esmakker.server.command import missing_extra


@dataclass(slots=True)
class BenchTable:
    """One table's pacing: when its last action was sent, and its round number."""

    id: str
    tokens: list[str]
    sent_at: float = 0.0
    round: int = 0
    next_at: float = 0.0


@dataclass(slots=True)
class Figures:
    """What the clients measured."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    measuring: bool = False
    server_cpu: float = 0.0
    client_cpu: float = 0.0


def main(args: argparse.Namespace) -> int:
    """Run the benchmark from the command line; print its figures."""
    problem = missing_extra()
    if problem is not None:
        sys.stderr.write(f"esmakker: {problem}\n")
        return 2
    figures = server_bench(tables=args.tables, seconds=args.seconds, seed=args.seed)
    print_figures(figures, as_json=args.json)
    return 0


def server_bench(
    *, tables: int, seconds: float, seed: int = 1, rate: float = 1.0
) -> dict[str, Any]:
    """Drive ``tables`` tables for ``seconds`` seconds; return the latency figures."""
    with tempfile.TemporaryDirectory() as folder:
        port = _free_port()
        server = _start_server(Path(folder), port)
        try:
            base = f"http://127.0.0.1:{port}"
            made = [_open_table(base) for _ in range(tables)]
            figures = _run_clients(base, made, seconds, random.Random(seed), rate, server.pid)
            figures["server_rss_mb"] = _rss_mb(server.pid)
            return figures
        finally:
            server.kill()
            server.wait(10)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _start_server(folder: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "esmakker.cli", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{folder / 'bench.db'}", "--bot-delay", "0"]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            _call(f"http://127.0.0.1:{port}/api/presets")
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the server did not start")


def _call(url: str, body: dict[str, Any] | None = None, token: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
    with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=30) as answer:
        return json.loads(answer.read())


def _open_table(base: str) -> tuple[BenchTable, str]:
    created = _call(f"{base}/api/tables", {"host_name": "p0", "private": True})
    tokens = [created["seat"]["token"]]
    for name in ("p1", "p2", "p3"):
        tokens.append(_call(f"{base}/api/tables/{created['id']}/join", {"name": name})["token"])
    return BenchTable(created["id"], tokens), created["host_token"]


def _run_clients(
    base: str,
    made: list[tuple[BenchTable, str]],
    seconds: float,
    rng: random.Random,
    rate: float,
    pid: int,
) -> dict[str, Any]:
    drive = _drive(base, made, seconds, rng, rate, pid)
    try:
        import uvloop
    except ImportError:
        return asyncio.run(drive)
    return uvloop.run(drive)


async def _drive(
    base: str,
    made: list[tuple[BenchTable, str]],
    seconds: float,
    rng: random.Random,
    rate: float,
    pid: int,
) -> dict[str, Any]:
    import websockets

    figures = Figures()
    ws_base = "ws" + base[4:]
    sockets = []
    for table, _ in made:
        for token in table.tokens:
            sockets.append(
                (
                    table,
                    await websockets.connect(
                        f"{ws_base}/ws/{table.id}?token={token}", compression=None
                    ),
                )
            )
    start = time.perf_counter()
    for table, host in made:
        table.next_at = float("inf")
        await asyncio.to_thread(_call, f"{base}/api/tables/{table.id}/start", {}, host)
    await asyncio.sleep(1)
    # each table's turns are spread evenly over the second and keep their phase
    begin = time.perf_counter()
    for table, _ in made:
        table.next_at = begin + rng.random() / rate
    figures.measuring = True
    cpu = _cpu_seconds(pid), time.process_time()
    tasks = [asyncio.create_task(_client(t, s, figures, rng, rate)) for t, s in sockets]
    await asyncio.sleep(seconds)
    figures.measuring = False
    figures.server_cpu = _cpu_seconds(pid) - cpu[0]
    figures.client_cpu = time.process_time() - cpu[1]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for _, sock in sockets:
        await sock.close()
    return _summary(len(made), figures, time.perf_counter() - start)


async def _client(
    table: BenchTable, sock: Any, figures: Figures, rng: random.Random, rate: float
) -> None:
    seen = 0
    ids = 0
    try:
        async for text in sock:
            frame = json.loads(text)
            kind = frame["type"]
            if kind == "error":
                figures.errors += 1
                continue
            if kind != "update" and kind != "snapshot":
                continue
            events = frame.get("events", [])
            if seen < table.round and any(e.get("kind") == "action" for e in events):
                seen = table.round
                if figures.measuring:
                    figures.latencies.append(time.perf_counter() - table.sent_at)
            view = frame.get("view")
            if view and view["legal_actions"]:
                while (wait := table.next_at - time.perf_counter()) > 0:
                    await asyncio.sleep(min(wait, 1.0))
                ids += 1
                action = rng.choice(view["legal_actions"])
                table.round += 1
                table.sent_at = time.perf_counter()
                table.next_at += 1 / rate
                figures.actions += 1
                command = {"v": 1, "type": "act", "id": f"b{ids}", "action": action}
                await sock.send(json.dumps(command))
    except asyncio.CancelledError:
        raise
    except Exception:
        figures.errors += 1


def _summary(tables: int, figures: Figures, elapsed: float) -> dict[str, Any]:
    ordered = sorted(figures.latencies)

    def at(share: float) -> float:
        if not ordered:
            return 0.0
        return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 2)

    return {
        "tables": tables,
        "clients": 4 * tables,
        "seconds": round(elapsed, 1),
        "actions": figures.actions,
        "broadcasts": len(ordered),
        "p50_ms": at(0.50),
        "p95_ms": at(0.95),
        "p99_ms": at(0.99),
        "max_ms": at(1.0),
        "errors": figures.errors,
        "server_cpu_s": round(figures.server_cpu, 2),
        "server_cpu_ms_per_action": round(1000 * figures.server_cpu / max(figures.actions, 1), 2),
        "client_cpu_s": round(figures.client_cpu, 2),
    }


def _cpu_seconds(pid: int) -> float:
    """Return the CPU time (user + system) a process has used so far (Linux; else 0)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


def _rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0
