"""The digest of the code that plays a match: it follows the code, not its notes."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from esmakker.sim import fingerprint
from esmakker.sim.fingerprint import play_code


@pytest.fixture(autouse=True)
def _fresh_digest() -> Iterator[None]:
    """Forget the digest a test computed on a copy of the code."""
    yield
    play_code.cache_clear()


def _copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Copy the package's playing code to ``tmp_path`` and point the digest at it."""
    for part in fingerprint.PLAY_CODE:
        source = fingerprint.PACKAGE / part
        target = tmp_path / part
        if source.is_dir():
            shutil.copytree(source, target, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
    monkeypatch.setattr(fingerprint, "PACKAGE", tmp_path)
    play_code.cache_clear()
    return tmp_path


def _digest() -> str:
    play_code.cache_clear()
    return play_code()


def test_the_digest_is_sixteen_hex_digits_and_stable() -> None:
    first = _digest()
    assert len(first) == fingerprint.DIGEST_CHARS
    int(first, 16)
    assert _digest() == first


def test_notes_and_layout_leave_the_digest_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _copy(tmp_path, monkeypatch)
    before = _digest()
    module = root / "bots" / "strong.py"
    text = module.read_text()
    changed = text.replace('"""A search player', '"""Another note on a search player', 1)
    module.write_text("# a new comment\n" + changed.replace("\n\n\n", "\n\n\n\n", 1))
    assert changed != text
    assert _digest() == before


@pytest.mark.parametrize(
    ("part", "old", "new"),
    [
        ("bots/strong.py", "DEFAULT_WORLDS = 24", "DEFAULT_WORLDS = 25"),
        ("core/scoring.py", "def ", "def _unused() -> None:\n    pass\n\n\ndef "),
        ("bots/calibration.json", "{", '{"new": 1, '),
    ],
)
def test_a_change_to_what_runs_changes_the_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, part: str, old: str, new: str
) -> None:
    root = _copy(tmp_path, monkeypatch)
    before = _digest()
    path = root / part
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    assert _digest() != before
