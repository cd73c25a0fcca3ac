"""Training a learned policy (``tools.distill``): the teacher's choices, the fit, the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.bots.linear import check_weights
from tools.distill import Decision, agreement, describe, fit, load_parts, load_taught, main, teach

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
    taught = teach("lacorsa", {"races": 1}, TINY, [(2, 1)], 40, workers=1)
    assert len(taught) > 20
    for kept in taught:
        assert len(kept.legal) == len(kept.visits) > 1
    for decision in describe("lacorsa", taught):
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
        ["--matches", "1", "--version", "t", "--taught", "kept.jsonl"],
    ],
)
def test_counts_that_cannot_train_are_refused_before_playing(extra: list[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["lacorsa", "--players", "2", *extra])
    assert caught.value.code == 2  # argparse's usage error


def test_kept_decisions_fit_to_the_same_file_as_teaching_them(tmp_path: Path) -> None:
    teaching = ["lacorsa", "-o", "races=1", "--players", "2", "--matches", "2", "--teacher", TINY]
    fitting = ["--version", "t", "--iterations", "30", "--workers", "1"]
    kept, direct, refit = tmp_path / "taught.jsonl", tmp_path / "a.json", tmp_path / "b.json"
    assert main([*teaching, *fitting, "--keep", str(kept), "--write", str(direct)]) == 0
    assert main(["lacorsa", "--taught", str(kept), *fitting, "--write", str(refit)]) == 0
    first, second = (check_weights(f.read_bytes(), f.name) for f in (direct, refit))
    assert first.weights == second.weights
    assert f"taught by {TINY}" in second.trained
    game_line, *lines = kept.read_bytes().splitlines()
    assert b'"game":"lacorsa"' in game_line and lines
    _, taught = load_taught(kept)
    assert len(taught) == len(lines)


def _kept(folder: Path) -> Path:
    """Teach one tiny two-player match of LACORSA, keeping its decisions; return the file."""
    kept = folder / "taught.jsonl"
    teaching = ["lacorsa", "-o", "races=1", "--players", "2", "--matches", "1"]
    assert main([*teaching, "--teacher", TINY, "--workers", "1", "--keep", str(kept)]) == 0
    return kept


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda lines: lines[:-1], "decisions, its first line counts"),
        (lambda lines: [*lines[:2], b'{"match": "x"}', *lines[3:]], r"taught.jsonl:3: "),
        (lambda lines: [lines[0].replace(b"lacorsa", b"nogame"), *lines[1:]], r":1: "),
        (lambda lines: [b"[]"], r":1: "),
    ],
)
def test_a_kept_file_cut_short_or_forged_is_one_line_naming_where(
    damage: object, said: str, tmp_path: Path
) -> None:
    kept = _kept(tmp_path)
    assert callable(damage)
    kept.write_bytes(b"\n".join(damage(kept.read_bytes().splitlines())) + b"\n")
    with pytest.raises(SystemExit, match=said):
        main(["lacorsa", "--taught", str(kept), "--version", "t"])


def test_kept_decisions_of_another_game_are_refused(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    with pytest.raises(SystemExit, match="holds lacorsa's decisions"):
        main(["famous-500", "--taught", str(kept), "--version", "t"])


@pytest.mark.parametrize(
    ("forge", "said"),
    [
        (lambda d: {**d, "visits": [0] * len(d["visits"])}, "decision 1: its visits or choice"),
        (lambda d: {**d, "visits": d["visits"][:-1]}, "decision 1: its visits or choice"),
        (lambda d: {**d, "heuristic": 99}, "decision 1: its visits or choice"),
        (
            lambda d: {**d, "observation": {**d["observation"], "deciding_car": 99}},
            "decision 1: not a lacorsa situation",
        ),
    ],
)
def test_a_kept_decision_that_decodes_but_fits_no_situation_is_one_line(
    forge: object, said: str, tmp_path: Path
) -> None:
    import json

    kept = _kept(tmp_path)
    first, decision, *rest = kept.read_bytes().splitlines()
    assert callable(forge)
    forged = json.dumps(forge(json.loads(decision))).encode()
    kept.write_bytes(b"\n".join([first, forged, *rest]) + b"\n")
    with pytest.raises(SystemExit, match=said):
        main(["lacorsa", "--taught", str(kept), "--version", "t"])


@pytest.mark.parametrize(
    "position",
    [{"lap": -(10**9)}, {"setup": {"laps": 10**9}}, {"section": 99}],
)
def test_a_kept_famous_500_position_no_race_has_is_one_line_not_a_hang(
    position: dict[str, object], tmp_path: Path
) -> None:
    """The heuristic the policy asks walks the sections still to race lap by lap: a forged
    lap a billion laps back, or a race of a billion laps, is refused before that walk."""
    import json

    kept = tmp_path / "taught.jsonl"
    teaching = ["famous-500", "--players", "2", "--matches", "1", "--teacher", TINY]
    assert main([*teaching, "--workers", "1", "--keep", str(kept)]) == 0
    first, *decisions = kept.read_bytes().splitlines()
    racing = next(i for i, d in enumerate(decisions) if b'"phase":"choose"' in d)
    decision = json.loads(decisions[racing])
    seen = decision["observation"]
    for key, value in position.items():
        seen[key] = {**seen[key], **value} if isinstance(value, dict) else value
    decisions[racing] = json.dumps(decision).encode()
    kept.write_bytes(b"\n".join([first, *decisions]) + b"\n")
    with pytest.raises(SystemExit, match=f"decision {racing + 1}: not a famous-500 situation"):
        main(["famous-500", "--taught", str(kept), "--version", "t"])


def test_teaching_kept_in_parts_fits_as_one_teaching(tmp_path: Path) -> None:
    """Long teaching is done in parts, each file from its own first seed: fitting them
    together numbers each file's matches on from the last one's, so one match in five of
    them all is held out, as if they had been taught in one go."""
    parts = []
    for number, seed in enumerate((40, 45)):
        kept = tmp_path / f"part-{number}.jsonl"
        teaching = ["lacorsa", "-o", "races=1", "--players", "2", "--matches", "1"]
        arguments = ["--first-seed", str(seed), "--teacher", TINY, "--workers", "1"]
        assert main([*teaching, *arguments, "--keep", str(kept)]) == 0
        parts.append(kept)
    out = tmp_path / "policy.json"
    fitting = ["--version", "t", "--iterations", "10", "--write", str(out)]
    assert main(["lacorsa", "--taught", str(parts[0]), "--taught", str(parts[1]), *fitting]) == 0
    assert "2 files" in check_weights(out.read_bytes(), out.name).trained
    teaching, joined = load_parts("lacorsa", parts)
    alone = [load_taught(part)[1] for part in parts]
    assert teaching.tables == [(2, 1), (2, 1)] and teaching.decisions == len(joined)
    assert [t.match for t in joined] == [0] * len(alone[0]) + [1] * len(alone[1])
    assert [t.observation for t in joined] == [t.observation for t in alone[0] + alone[1]]


def test_parts_taught_by_different_teachers_are_not_fitted_together(tmp_path: Path) -> None:
    kept = _kept(tmp_path)
    other = tmp_path / "other.jsonl"
    first, *rest = kept.read_bytes().splitlines()
    other.write_bytes(b"\n".join([first.replace(b"simulations=", b"simulations=9"), *rest]) + b"\n")
    with pytest.raises(SystemExit, match=r"other\.jsonl was taught by"):
        main(["lacorsa", "--taught", str(kept), "--taught", str(other), "--version", "t"])


def test_kept_options_the_game_refuses_are_one_line(tmp_path: Path) -> None:
    """The policy is started under the options the teacher played under, read from the
    kept file's first line: options the game refuses there stop the fit in one line."""
    kept = _kept(tmp_path)
    first, *rest = kept.read_bytes().splitlines()
    assert b'"races":1' in first
    kept.write_bytes(b"\n".join([first.replace(b'"races":1', b'"races":0'), *rest]) + b"\n")
    with pytest.raises(SystemExit, match=r"^distill: lacorsa: races") as caught:
        main(["lacorsa", "--taught", str(kept), "--version", "t"])
    assert "\n" not in str(caught.value)
