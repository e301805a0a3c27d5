"""``esmakker solve`` and ``esmakker analyze``: output and one-line errors with exit code 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from esmakker.cli import main

DEAL = "N:A.Q8542.J82.KQ85 JT76.97.KT76.743 Q542.J3.A953.AJ9 K983.AKT6.Q4.T62"
SMALL = "N:AK.Q8.J2.K Q5.J3.A9.J 98.AK.Q4.T JT.97.KT.7"
GOLDEN = Path(__file__).parent.parent / "golden"


def test_solve_a_pbn_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--deal", SMALL, "--trump", "N", "--leader", "E", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"ns_tricks"}
    assert 0 <= out["ns_tricks"] <= 7


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--deal", "N:AK.Q8.J2.K Q5.J3.A9.J 98.AK.Q4.T", "--trump", "N", "--leader", "E"], "4 hands"),
        (["--deal", "N:AK.Q8.J2.KQ Q5.J3.A9.J 98.AK.Q4.T JT.97.KT.7", "--trump", "N", "--leader", "E"], "as many cards"),
        (["--deal", "N:AK.Q8.J2.K Q5.J3.A9.J 98.AK.Q4.T JT.97.KT.Z", "--trump", "N", "--leader", "E"], "not a rank"),
        (["--deal", SMALL, "--trump", "X", "--leader", "E"], "strain"),
        (["--deal", SMALL, "--trump", "N"], "--leader"),
        ([str(GOLDEN / "plain-9-made-with-overtricks.json"), "--step", "999"], "out of range"),
        ([str(GOLDEN / "plain-9-made-with-overtricks.json"), "--step", "0"], "not in the play"),
        ([str(GOLDEN / "all-pass-redeal.json")], "never reaches the play"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_with_code_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", *args]) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1


def test_bad_record_is_code_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["analyze", str(bad)]) == 2
    assert "bad.json" in capsys.readouterr().err
