"""A digest of the code that decides how a match is played (``play_code``).

A long match is played over several runs (``match --checkpoint``); its deals are only
one match if the bots, the rules engine, the solver and the duplicate harness did not
change between the runs. ``play_code`` hashes that code as Python sees it, so a
change to a comment, a docstring or the layout leaves the digest alone and a change to
what runs does not.
"""

from __future__ import annotations

import ast
import hashlib
import json
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``esmakker`` package's folder."""
PLAY_CODE = ("core", "bots", "solver", "sim/duplicate.py", "sim/ddloss.py", "sim/runner.py")
"""The parts of the package that decide a match's deals, relative to ``PACKAGE``."""
DIGEST_CHARS = 16


@cache
def play_code() -> str:
    """Return the digest of the code in ``PLAY_CODE``: 16 hex digits."""
    digest = hashlib.sha256()
    for path in _files():
        digest.update(path.relative_to(PACKAGE).as_posix().encode())
        digest.update(b"\0" + _meaning(path).encode() + b"\0")
    return digest.hexdigest()[:DIGEST_CHARS]


def _files() -> list[Path]:
    found: list[Path] = []
    for part in PLAY_CODE:
        path = PACKAGE / part
        if path.is_dir():
            found += (p for p in path.rglob("*") if p.suffix in (".py", ".json"))
        else:
            found.append(path)
    return sorted(found)


def _meaning(path: Path) -> str:
    """Return the file's content without what cannot change how it runs."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return json.dumps(json.loads(text), sort_keys=True)
    tree = ast.parse(text, filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            node.body = [stmt for stmt in node.body if not _is_docstring(stmt)] or [ast.Pass()]
    return ast.dump(tree)


def _is_docstring(stmt: ast.stmt) -> bool:
    """Return whether the statement is a bare string: a docstring or an attribute's note."""
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )
