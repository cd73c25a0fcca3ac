"""A saved gate (``racedeck gate --save DB``): it goes on where it stopped, to the verdict one
uninterrupted run gives, and never plays a match twice."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from racedeck.plugins import load_registry
from racedeck.tournament.executors import Batch, Executor, InlineExecutor
from racedeck.tournament.gate import BETTER, UNDECIDED, Sprt, run_gate
from racedeck.tournament.plan import plan_tournament
from racedeck.tournament.record import MatchRecord, PlayedMatch
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store
from tests.tournament.conftest import rows, rows_or_none, run_cli
from tests.tournament.test_gate import GATE as BASE
from tests.tournament.test_live import _racedeck


def _gate(candidate: str, baseline: str, workers: int = 1) -> list[str]:
    """The command line of a one-race LACORSA gate on seed 3."""
    return [*BASE, "--candidate", candidate, "--baseline", baseline, "--workers", str(workers)]


GATE = _gate("heuristic", "random")


class Counting(InlineExecutor):
    """Plays in this process and remembers every match index it was asked for."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        def counted() -> Iterator[Batch]:
            for batch in batches:
                self.asked.extend(batch)
                yield batch

        return super().run(spec, counted(), tick)


class Refusing(Executor):
    """An executor that must not be asked for any match."""

    workers = 1

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        raise AssertionError("the verdict was in the saved matches: nothing should be played")


def _spec(matches: int) -> TournamentSpec:
    return plan_tournament(
        load_registry(entry_points=False),
        "lacorsa",
        ["heuristic", "random", "random"],
        matches=matches,
        seed=3,
        format="gate",
        players=2,
        options={"races": 1},
    )


def test_saved_matches_are_judged_again_and_only_the_rest_are_played() -> None:
    whole = Counting()
    judged_whole: list[MatchRecord] = []
    one_run = run_gate(_spec(2000), whole, Sprt(), judged_whole.append)
    assert one_run.decision == BETTER

    # A first run stops at a limit of 10 matches and keeps what it played.
    kept: list[MatchRecord] = []
    first = Counting()
    stopped = run_gate(_spec(10), first, Sprt(), on_played=kept.extend)
    assert stopped.decision == UNDECIDED and stopped.matches == 10
    assert sorted(r.index for r in kept) == list(range(10))

    # The second, with a higher limit, is handed those and plays from index 10 on.
    second = Counting()
    judged_again: list[MatchRecord] = []
    went_on = run_gate(_spec(2000), second, Sprt(), judged_again.append, recorded=kept)
    assert second.asked and min(second.asked) == 10
    assert not set(second.asked) & {r.index for r in kept}
    assert judged_again == judged_whole, "the same matches, judged in the same order"
    assert (went_on.decision, went_on.matches, went_on.sprt) == (
        one_run.decision,
        one_run.matches,
        one_run.sprt,
    )


def test_a_gate_whose_verdict_is_saved_plays_nothing() -> None:
    played: list[MatchRecord] = []
    first = run_gate(_spec(2000), Counting(), Sprt(), on_played=played.extend)
    again = run_gate(_spec(2000), Refusing(), Sprt(), recorded=played)
    assert (again.decision, again.matches, again.sprt) == (
        first.decision,
        first.matches,
        first.sprt,
    )


def test_a_gap_in_the_saved_matches_is_played(tmp_path: Path) -> None:
    played: list[MatchRecord] = []
    run_gate(_spec(12), Counting(), Sprt(), on_played=played.extend)
    holed = [r for r in played if r.index not in (4, 5)]
    counting = Counting()
    result = run_gate(_spec(12), counting, Sprt(), recorded=holed)
    assert sorted(counting.asked) == [4, 5]
    assert result.matches == 12


def test_the_saved_gate_on_the_command_line_gives_one_runs_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    whole = run_cli([*GATE, "--json"], capsys)
    code, _out, err = run_cli([*GATE, "--max-matches", "6", "--save", str(db)], capsys)
    assert code == 5, err
    assert [row[0] for row in rows(db)] == list(range(6))
    again = run_cli([*GATE, "--json", "--save", str(db)], capsys)
    # A match played twice would be refused by the database ("already recorded").
    assert again[0] == whole[0] == 0, again[2]
    assert again[1] == whole[1], "the same match lines and the same verdict"
    judged = json.loads(again[1].splitlines()[-1])["matches"]
    saved = [row[0] for row in rows(db)]
    assert saved == sorted(set(saved)) and saved[:judged] == list(range(judged))
    # Run once more: the verdict comes from the database alone, with the same output.
    assert run_cli([*GATE, "--json", "--save", str(db)], capsys)[:2] == whole[:2]
    assert [row[0] for row in rows(db)] == saved
    # The test's own settings are not the gate's matches: another margin judges them too.
    code, out, err = run_cli([*GATE, "--margin", "0.2", "--save", str(db)], capsys)
    assert code in (0, 1, 5) and out.startswith("gate: "), err
    # It is a tournament database like any other.
    code, out, _err = run_cli(["tournament", "report", str(db)], capsys)
    assert code == 0 and "heuristic" in out and "random" in out


@pytest.mark.parametrize(
    "changed",
    [
        ["--seed", "4"],
        ["--players", "3"],
        ["-o", "races=2"],
        ["--field", "heuristic"],
        ["--time-limit", "30"],
    ],
    ids=["seed", "table", "option", "bot", "time-limit"],
)
def test_a_database_of_another_gate_is_refused(
    changed: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "4", "--save", str(db)], capsys)[0] == 5
    before = rows(db)
    # The last of a repeated option wins: each run differs from the saved gate in one thing.
    code, out, err = run_cli([*GATE, *changed, "--max-matches", "4", "--save", str(db)], capsys)
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"racedeck: error: {db} holds another gate or tournament (another game, bots, seed,"
        " options, table or time limit); choose another --save"
    ]
    assert rows(db) == before


def test_save_and_db_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _out, err = run_cli(
        [
            "gate",
            "--db",
            str(tmp_path / "t.sqlite"),
            "--candidate",
            "a",
            "--baseline",
            "b",
            "--save",
            str(tmp_path / "g.sqlite"),
        ],
        capsys,
    )
    assert code == 2
    assert "--db judges a tournament that already ran; --save plays a gate" in err
    assert not (tmp_path / "g.sqlite").exists()


def test_ctrl_c_keeps_the_saved_matches_and_the_gate_goes_on(tmp_path: Path) -> None:
    db = tmp_path / "gate.sqlite"
    args = [*_gate("ismcts-fast", "heuristic", 2), "--max-matches", "40", "--save", str(db)]
    process = _racedeck(args)
    deadline = time.monotonic() + 120
    while len(rows_or_none(db) or []) < 4 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert rows_or_none(db), "no match finished within two minutes"
    os.killpg(process.pid, signal.SIGINT)
    _out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    saved = [row[0] for row in rows(db)]
    assert err.decode().strip().splitlines()[-1] == (
        f"racedeck: error: interrupted; {len(saved)} matches are saved in {db}; run the same"
        " gate with the same --save to go on"
    )
    went_on = _racedeck([*args, "--json"])
    out, err2 = went_on.communicate(timeout=600)
    assert went_on.returncode in (0, 1, 5), err2.decode()
    whole = _racedeck([*args[:-2], "--json"])
    expected, _ = whole.communicate(timeout=600)
    assert out == expected, "going on gives what one uninterrupted run gives"


def test_a_saved_gate_is_judged_by_its_deals_with_db_playing_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "6", "--save", str(db)], capsys)[0] == 5
    judge = ["gate", "--db", str(db), "--candidate", "heuristic", "--baseline", "random"]
    code, out, _err = run_cli(judge, capsys)
    assert code == 5
    assert out.startswith("gate: undecided over the saved matches: after 6 matches (3 deals) ")
    whole = run_cli([*GATE, "--save", str(db)], capsys)
    before = rows(db)
    code, out, _err = run_cli(judge, capsys)
    # The same verdict, word for word, as the gate that played them; nothing was played.
    assert (code, out) == whole[:2] and code == 0
    assert rows(db) == before
    code, out, _err = run_cli([*judge, "--json"], capsys)
    assert json.loads(out.splitlines()[-1])["counted"] == "deals"


def test_a_saved_gate_is_judged_only_for_its_own_candidate_and_baseline(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "4", "--save", str(db)], capsys)[0] == 5
    code, out, err = run_cli(
        ["gate", "--db", str(db), "--candidate", "random", "--baseline", "heuristic"], capsys
    )
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        "racedeck: error: this database holds the gate of heuristic against random;"
        " judge it with --candidate heuristic --baseline random"
    ]


def test_a_tournament_or_a_file_that_is_no_database_is_refused_as_a_gates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = tmp_path / "t.sqlite"
    played = ["tournament", "lacorsa", "--bot", "heuristic", "--bot", "random", "-o", "races=1"]
    assert run_cli([*played, "--matches", "2", "--db", str(tournament)], capsys)[0] == 0
    code, _out, err = run_cli([*GATE, "--save", str(tournament)], capsys)
    assert code == 2 and "holds another gate or tournament" in err
    junk = tmp_path / "junk.sqlite"
    junk.write_text("<script>not a database</script>\n")
    code, out, err = run_cli([*GATE, "--save", str(junk)], capsys)
    assert code == 3 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"racedeck: error: {junk}: not a tournament")
    assert junk.read_text() == "<script>not a database</script>\n"


def test_a_raised_limit_is_stored_and_the_report_names_the_database_a_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "4", "--save", str(db)], capsys)[0] == 5
    assert run_cli([*GATE, "--max-matches", "6", "--save", str(db)], capsys)[0] == 5
    code, out, _err = run_cli(["tournament", "report", str(db)], capsys)
    # Not "6 of 4 matches": the spec holds the limit the gate now runs to, and a gate's
    # count is not called complete or incomplete, since a gate mostly ends at its verdict.
    assert code == 0
    assert out.splitlines()[0] == "lacorsa gate, 2 players, seed 3: 6 matches played (limit 6)"


def test_tournament_resume_refuses_a_gate_which_only_the_gate_goes_on_with(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "4", "--save", str(db)], capsys)[0] == 5
    before = rows(db)
    code, out, err = run_cli(["tournament", "resume", str(db)], capsys)
    # A tournament's resume would play the rest of the limit, past any verdict.
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"racedeck: error: {db} holds a gate of heuristic against random, which stops at its"
        f" verdict: run that gate again with --save {db} to go on"
    ]
    assert rows(db) == before


def test_a_forged_gate_database_cannot_write_control_characters_through_the_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--max-matches", "2", "--save", str(db)], capsys)[0] == 5
    with sqlite3.connect(db) as connection:
        (raw,) = connection.execute("SELECT value FROM meta WHERE key = 'spec'").fetchone()
        spec = json.loads(raw)
        spec["bots"][0] = "evil\x1b[2J\rname"
        connection.execute("UPDATE meta SET value = ? WHERE key = 'spec'", (json.dumps(spec),))
    code, out, err = run_cli(["tournament", "resume", str(db)], capsys)
    # A stranger's database names the bots: the one line shows them escaped, never raw.
    assert code == 2 and out == ""
    (line,) = err.strip().splitlines()
    assert "\x1b" not in line and "\r" not in line
    assert "holds a gate of evil" in line and "which stops at its verdict" in line


def test_a_running_gates_record_is_judged_without_a_copy_and_copied_whole_by_a_backup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    spec = _spec(6)
    wal = db.with_name(db.name + "-wal")
    judge = ["gate", "--db", str(db), "--candidate", "heuristic", "--baseline", "random"]
    with Store.create(db, spec) as running:
        run_gate(spec, InlineExecutor(), Sprt(), on_played=running.add_many)
        # The gate still holds its database open, so its matches sit in the write-ahead log.
        assert wal.stat().st_size > 0, "the test needs a live log"
        before = (db.read_bytes(), wal.read_bytes())
        code, out, _err = run_cli(judge, capsys)
        assert code == 5
        assert out.startswith("gate: undecided over the saved matches: after 6 matches (3 deals) ")
        code, out, _err = run_cli(["tournament", "report", str(db)], capsys)
        assert code == 0
        assert out.splitlines()[0] == "lacorsa gate, 2 players, seed 3: 6 matches played (limit 6)"
        # Neither reader wrote: the gate goes on committing to a database no one else changed.
        assert (db.read_bytes(), wal.read_bytes()) == before
        plain, backup = tmp_path / "plain.sqlite", tmp_path / "backup.sqlite"
        shutil.copyfile(db, plain)
        with sqlite3.connect(db) as source, sqlite3.connect(backup) as target:
            source.backup(target)
        # What docs/tournaments.md warns of: the file alone lacks what the log still holds.
        assert rows(plain) == []
        assert rows(backup) == rows(db) and len(rows(backup)) == 6


def test_a_decided_gate_database_is_complete_and_says_its_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "gate.sqlite"
    assert run_cli([*GATE, "--save", str(db)], capsys)[0] == 0
    code, out, _err = run_cli(["tournament", "report", str(db), "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and report["complete"] and report["decision"] == "better"
    assert report["recorded"] < report["scheduled"]
    # Undecided, a gate's database is complete only once it played to its limit.
    undecided = tmp_path / "short.sqlite"
    assert run_cli([*GATE, "--max-matches", "4", "--save", str(undecided)], capsys)[0] == 5
    code, out, _err = run_cli(["tournament", "report", str(undecided), "--json"], capsys)
    report = json.loads(out)
    assert report["decision"] == "undecided" and report["recorded"] == report["scheduled"] == 4
    assert report["complete"]
