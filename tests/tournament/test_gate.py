"""The gate on a rigged pair: the heuristic bot is far stronger than random at LACORSA."""

from __future__ import annotations

import json

import pytest

from tests.tournament.conftest import PLUGINS, run_cli

GATE = ["gate", "lacorsa", "-o", "races=1", "--seed", "3"]


def test_the_gate_accepts_the_stronger_candidate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        [*GATE, "--candidate", "heuristic", "--baseline", "random", "--workers", "1"], capsys
    )
    assert code == 0, err
    assert out.startswith("gate: heuristic is better than random: after ") and out.count("\n") == 1
    assert "LLR" in out and "decisive deals" in out


def test_the_gate_rejects_the_weaker_candidate(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(
        [*GATE, "--candidate", "random", "--baseline", "heuristic", "--workers", "1"], capsys
    )
    assert code == 1
    assert out.startswith("gate: random is not better than heuristic: after ")
    # At most one line on stderr: what the gate will cost, from its first matches.
    assert len(err.splitlines()) <= 1 and all(
        line.startswith("estimate: ") for line in err.splitlines()
    )


def test_the_gate_is_undecided_at_its_match_limit(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(
        [
            *GATE,
            "--candidate",
            "heuristic",
            "--baseline",
            "random",
            "--max-matches",
            "6",
            "--workers",
            "1",
        ],
        capsys,
    )
    assert code == 5
    assert out.startswith("gate: undecided at the limit of 6 matches: after 6 matches (3 deals)")


def test_the_verdict_is_the_same_with_any_number_of_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = [*GATE, "--candidate", "heuristic", "--baseline", "random", "--players", "3", "--json"]
    one = run_cli([*args, "--workers", "1"], capsys)
    two = run_cli([*args, "--workers", "2"], capsys)
    assert one[0] == two[0] == 0
    assert one[1] == two[1], "the same matches, judged in the same order"
    lines = [json.loads(line) for line in one[1].splitlines()]
    verdict = lines[-1]
    assert verdict["kind"] == "gate" and verdict["decision"] == "better"
    assert [line["index"] for line in lines[:-1]] == list(range(verdict["matches"]))
    assert all(len(line["seats"]) == 3 for line in lines[:-1])


def test_a_candidate_that_crashes_is_not_better(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run_cli(
        [
            *GATE,
            "--plugins-dir",
            str(PLUGINS),
            "--candidate",
            "crasher",
            "--baseline",
            "random",
            "--workers",
            "1",
        ],
        capsys,
    )
    assert code == 1
    assert "crasher won 0 of" in out


def test_gate_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _out, err = run_cli([*GATE, "--candidate", "random", "--baseline", "random"], capsys)
    assert code == 2 and "must be different bots" in err
    code, _out, err = run_cli(
        [*GATE, "--candidate", "heuristic", "--baseline", "random", "--alpha", "0.9"], capsys
    )
    assert code == 2 and "alpha" in err
