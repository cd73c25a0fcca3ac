"""A tournament from Python: racedeck.run_tournament gives the command's figures as records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import racedeck
from racedeck.core.errors import UsageError
from racedeck.tournament.script import TournamentResult
from tests.tournament.conftest import run_cli


def test_a_tournament_from_python_matches_the_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = dict(matches=6, seed=2, options={"races": 1})
    result = racedeck.run_tournament("lacorsa", ["heuristic", "random", "ismcts-fast"], **args)
    assert isinstance(result, TournamentResult) and result.complete and result.db is None
    assert [m["index"] for m in result.matches] == list(range(6))
    assert all(isinstance(m["seed"], int) and m["status"] == "ok" for m in result.matches)
    assert {row["bot"] for row in result.standings} == {"heuristic", "random", "ismcts-fast"}
    assert result.score["name"] == "points" and result.score["higher_is_better"]
    pairs = {(p["bot"], p["opponent"]) for p in result.head_to_head}
    assert ("heuristic", "random") in pairs
    assert result.crosstable is not None and result.crosstable["random"]["random"] is None
    db = tmp_path / "t.sqlite"
    code, out, err = run_cli(
        [
            "tournament",
            "lacorsa",
            "--bot",
            "heuristic",
            "--bot",
            "random",
            "--bot",
            "ismcts-fast",
            "--matches",
            "6",
            "--seed",
            "2",
            "-o",
            "races=1",
            "--workers",
            "1",
            "--db",
            str(db),
        ],
        capsys,
    )
    assert code == 0, err
    assert out.split("\n\ndatabase:")[0] == str(result)


def test_a_kept_database_goes_on_and_bad_input_raises_the_commands_error(
    tmp_path: Path,
) -> None:
    db = tmp_path / "kept.sqlite"
    first = racedeck.run_tournament(
        "lacorsa", ["heuristic", "random"], matches=2, options={"races": 1}, db=db
    )
    again = racedeck.run_tournament(
        "lacorsa", ["heuristic", "random"], matches=2, options={"races": 1}, db=db
    )
    assert first.db == db and again.matches == first.matches
    with pytest.raises(UsageError, match="holds another tournament"):
        racedeck.run_tournament("lacorsa", ["heuristic", "random"], matches=4, db=db)
    with pytest.raises(UsageError, match="not reproducible"):
        racedeck.run_tournament("lacorsa", ["ismcts-timed", "random"], matches=2)


def test_the_python_example_of_docs_tournaments_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    page = (Path(__file__).parents[2] / "docs" / "tournaments.md").read_text()
    [block] = re.findall(r"```python\n(.*?)```", page, flags=re.S)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "docs/tournaments.md", "exec"), {})
    out = capsys.readouterr().out
    assert "heuristic vs random" in out or "heuristic vs ismcts-fast" in out
