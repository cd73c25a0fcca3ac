"""Training a learned policy (``tools.distill``): the teacher's choices, the fit, the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.bots.linear import check_weights
from tools.distill import Decision, agreement, fit, main, teach

TINY = "ismcts:simulations=4,rollout=heuristic,effort=none,horizon=none,bias=none"


def test_the_fit_weighs_up_the_feature_the_teacher_always_chose() -> None:
    decisions = [
        Decision(n, [["plain", f"noise {n % 3}"], ["chosen", "plain"], ["plain"]], (1, 7, 2), -1)
        for n in range(30)
    ]
    weights = fit(decisions, iterations=200, l2=1e-4, rate=0.05)
    assert weights["chosen"] > 1.0
    assert agreement(decisions, weights) == 1.0
    assert agreement(decisions, None) == 0.0  # no heuristic choice recorded: never agrees


def test_the_teacher_is_asked_at_every_decision_with_a_choice() -> None:
    decisions = teach("lacorsa", {"races": 1}, TINY, [(2, 1)], 40, workers=1)
    assert len(decisions) > 20
    for decision in decisions:
        assert len(decision.described) == len(decision.visits) > 1
        assert 0 < sum(decision.visits) <= 4
        assert 0 <= decision.heuristic < len(decision.visits)


def test_the_same_command_writes_the_same_file_whatever_the_workers(tmp_path: Path) -> None:
    written = []
    for workers in (1, 2):
        (tmp_path / str(workers)).mkdir()
        out = tmp_path / str(workers) / "policy.json"
        command = ["lacorsa", "-o", "races=1", "--players", "2", "--matches", "2"]
        command += ["--players", "3", "--matches", "1", "--teacher", TINY, "--version", "t"]
        command += ["--iterations", "30", "--workers", str(workers), "--write", str(out)]
        assert main(command) == 0
        said = out.read_bytes().replace(f"--workers {workers}".encode(), b"")
        written.append(said.replace(str(tmp_path / str(workers)).encode(), b""))
    assert written[0] == written[1]
    stored = check_weights(written[0], "policy.json")
    assert stored.version == "t" and stored.weights
    assert "held out" in stored.trained


def test_a_teacher_that_is_not_a_search_is_refused() -> None:
    with pytest.raises(SystemExit, match="not a search"):
        teach("lacorsa", {"races": 1}, "heuristic", [(2, 1)], 1, workers=1)


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--players", "9", "--matches", "1"], "lacorsa is for 2 to 6 players, not 9"),
        (["--players", "2", "--matches", "1", "-o", "races=0"], "distill: "),
        (["--players", "2", "--matches", "1", "--teacher", "nobody"], "unknown bot 'nobody'"),
    ],
)
def test_a_table_an_option_or_a_teacher_racedeck_refuses_is_one_line(
    extra: list[str], said: str, tmp_path: Path
) -> None:
    out = tmp_path / "policy.json"
    with pytest.raises(SystemExit, match=said):
        main(["lacorsa", "--version", "t", "--write", str(out), *extra])
    assert not out.exists() and not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    "extra",
    [
        ["--matches", "0", "--version", "t"],
        ["--matches", "1", "--version", "t", "--workers", "0"],
        ["--matches", "1", "--version", " "],
    ],
)
def test_counts_that_cannot_train_are_refused_before_playing(extra: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["lacorsa", "--players", "2", *extra])
    assert caught.value.code == 2  # argparse's usage error
