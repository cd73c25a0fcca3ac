"""From a tournament's rows to its matches: ``tournament matches`` and ``tournament log``."""

from __future__ import annotations

import gzip
import json
import shlex
from pathlib import Path

import pytest

from racedeck.core.errors import EXIT_USAGE
from racedeck.plugins import load_registry
from racedeck.tournament.lookup import FAULT, LOSS, WIN, seat_result, select
from racedeck.tournament.record import ERROR, FORFEIT, OK, MatchRecord
from tests.tournament.conftest import run_cli

_REGISTRY = load_registry(entry_points=False)


def kept_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], game_name: str
) -> tuple[Path, str]:
    """Play a tiny tournament of ``game_name`` keeping every log; return its db and stderr."""
    game = _REGISTRY.games[game_name]
    db = tmp_path / "t.sqlite"
    args = ["tournament", game_name, "--bot", "heuristic", "--bot", "random"]
    args += ["--players", str(max(game.min_players, 2)), "--matches", "2", "--seed", "5"]
    args += ["--workers", "1", "--keep-logs", "all", "--db", str(db)]
    for key, value in game.conformance_options[0].items():
        args += ["-o", f"{key}={json.dumps(value)}"]
    code, _out, err = run_cli(args, capsys)
    assert code == 0, err
    return db, err


@pytest.mark.parametrize("game_name", sorted(_REGISTRY.games))
def test_tournament_log_writes_the_very_log_keep_logs_kept_in_every_game(
    game_name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, err = kept_tournament(tmp_path, capsys, game_name)
    folder = tmp_path / "t-logs"
    assert f"kept logs (every match's log): 2 in {folder}" in err
    for index in (0, 1):
        kept = folder / f"match-{index:07d}.jsonl.gz"
        plain, packed = tmp_path / f"{index}.jsonl", tmp_path / f"{index}.jsonl.gz"
        code, out, err = run_cli(
            ["tournament", "log", str(db), str(index), "--out", str(plain)], capsys
        )
        assert code == 0, err
        assert plain.read_bytes() == gzip.decompress(kept.read_bytes())
        args = ["tournament", "log", str(db), str(index), "--out", str(packed), "--json"]
        code, out, err = run_cli(args, capsys)
        assert code == 0, err
        assert packed.read_bytes() == kept.read_bytes()
        assert json.loads(out)["kind"] == "match-log"


def test_tournament_matches_lists_and_filters(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _err = kept_tournament(tmp_path, capsys, "lacorsa")
    code, out, err = run_cli(["tournament", "report", str(db), "--json"], capsys)
    assert code == 0 and json.loads(out)["logs"] == str(tmp_path / "t-logs")
    code, out, err = run_cli(["tournament", "matches", str(db), "--json"], capsys)
    assert code == 0, err
    listed = json.loads(out)
    assert listed["kind"] == "matches" and listed["count"] == 2
    first = listed["matches"][0]
    assert isinstance(first["seed"], str) and first["log"].endswith("match-0000000.jsonl.gz")
    assert sorted(first["results"]) == [LOSS, WIN]
    winner = first["seats"][first["results"].index(WIN)]
    args = ["tournament", "matches", str(db), "--bot", winner, "--result", "win", "--json"]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    won = json.loads(out)["matches"]
    assert won and all(m["seats"][m["results"].index(WIN)] == winner for m in won)
    code, out, err = run_cli(["tournament", "matches", str(db), "--seat", "0"], capsys)
    assert code == 0 and out.splitlines()[0].startswith("2 of the 2 matches recorded")
    assert f"seed {first['seed']}" in out.splitlines()[1]


def test_bad_requests_are_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, _err = kept_tournament(tmp_path, capsys, "lacorsa")
    taken = tmp_path / "taken.jsonl"
    taken.write_text("mine")
    for args, said in [
        (
            ["log", str(db), "7", "--out", str(tmp_path / "x")],
            "no match 7: the tournament has matches 0 to 1",
        ),
        (["log", str(db), "seven", "--out", str(tmp_path / "x")], "Invalid value for 'N': 'seven'"),
        (["log", str(db), "0", "--out", str(taken)], f"--out {taken} exists"),
        (
            ["matches", str(db), "--result", "draw"],
            "--result must be one of win, loss, fault, error",
        ),
        (
            ["matches", str(db), "--bot", "ismcts"],
            "--bot 'ismcts' did not play in this tournament: heuristic, random",
        ),
        (["matches", str(db), "--seat", "2"], "--seat 2: the tournament's seats go from 0 to 1"),
    ]:
        code, _out, err = run_cli(["tournament", *args], capsys)
        assert code == EXIT_USAGE, err
        assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert taken.read_text() == "mine"


def test_each_seat_has_its_own_result() -> None:
    base = {"index": 0, "seed": 1, "deal": 0, "seats": ("a", "b")}
    won = MatchRecord(**base, status=OK, ranks=(2, 1))
    faulted = MatchRecord(**base, status=FORFEIT, ranks=(2, 1), fault_seat=0)
    failed = MatchRecord(**base, status=ERROR)
    assert [seat_result(won, s) for s in (0, 1)] == [LOSS, WIN]
    assert [seat_result(faulted, s) for s in (0, 1)] == [FAULT, WIN]
    assert seat_result(failed, 1) == ERROR
    records = [won, faulted, failed]
    assert list(select(records, bot="a", result=FAULT)) == [faulted]
    assert list(select(records, seat=1, result=WIN)) == [won, faulted]
    assert list(select(records, bot="b", seat=0)) == []


def test_the_walk_from_a_row_to_its_log_in_docs_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (Path(__file__).parents[2] / "docs" / "debugging.md").read_text()
    block = text.split("<!-- tested: tests/tournament/test_match_lookup.py -->\n```\n")[1]
    commands = block.split("```")[0].strip().splitlines()
    monkeypatch.chdir(tmp_path)
    outs = []
    for line in commands:
        args = shlex.split(line.split("  #")[0])
        assert args[0] == "racedeck"
        code, out, err = run_cli(args[1:], capsys)
        assert code == 0, (line, err)
        outs.append(out)
    lost = outs[1].splitlines()[1:]
    assert lost and all("random (loss" in row for row in lost)
    assert json.loads(outs[2])["count"] == 4
    assert (tmp_path / "match-1.jsonl").exists()


def test_a_rows_match_played_again_with_explain_is_the_same_match_with_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (Path(__file__).parents[2] / "docs" / "debugging.md").read_text()
    marker = "<!-- tested: tests/tournament/test_match_lookup.py, explained -->\n```\n"
    commands = text.split(marker)[1].split("```")[0].strip().splitlines()
    monkeypatch.chdir(tmp_path)
    seed = ""
    for line in commands:
        args = shlex.split(line.split("  #")[0].replace("SEED", seed))
        code, out, err = run_cli(args[1:], capsys)
        assert code == 0, (line, err)
        if "matches" in args:
            first = json.loads(out)["matches"][0]
            assert first["index"] == 0 and first["seats"][0] == "ismcts:simulations=20"
            seed = first["seed"]
    assert run_cli(["tournament", "log", "s.sqlite", "0", "--out", "kept.jsonl"], capsys)[0] == 0

    def lines(name: str, kind: str) -> list[object]:
        parsed = [json.loads(line) for line in (tmp_path / name).read_text().splitlines()]
        return [line[kind] for line in parsed if line["kind"] == kind]

    assert lines("explained.jsonl", "event") == lines("kept.jsonl", "event")
    notes = lines("explained.jsonl", "debug")
    assert notes and not lines("kept.jsonl", "debug")
