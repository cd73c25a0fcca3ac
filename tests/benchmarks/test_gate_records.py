"""The gate records of ``benchmarks/gates/`` are the gates ``docs/bots.md`` reports.

Each row of the docs' "Gate records" table names a record, the verdict it holds and the
matches that verdict came after, and the command that played it. The command is run on a
copy of the record with the limit set to the row's matches, so it judges saved matches and
plays nothing: it must accept the record as its own gate and end with the row's verdict
after the row's matches. A verdict reached sooner ends the gate before the limit, and one
reached later leaves it undecided at the limit, so the count is checked both ways; a
record stopped with matches in flight (a later match saved, an earlier one not) is judged
on the whole deals before the gap, which are the matches its row counts.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.tournament.store import Store
from racedeck.tournament.worker import loaded_versions, version_problem

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "benchmarks" / "gates"
DOCS = ROOT / "docs" / "bots.md"
ROW = re.compile(
    r"^\| `(?P<record>benchmarks/gates/[^`]+)` \| (?P<verdict>[a-z ]+) \| (?P<matches>\d+)"
    r" \| `(?P<command>racedeck gate [^`]+)` \|$"
)
EXIT = {"better": 0, "not better": 1, "undecided": 5}


def _rows() -> dict[str, dict[str, str]]:
    rows = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        found = ROW.match(line)
        if found is not None:
            rows[found["record"]] = found.groupdict()
    return rows


ROWS = _rows()


def _with(args: list[str], flag: str, value: str) -> list[str]:
    """``args`` with ``flag``'s value replaced by ``value``."""
    at = args.index(flag)
    return [*args[: at + 1], value, *args[at + 2 :]]


def test_every_record_has_its_row_and_every_row_its_record() -> None:
    """No record lies in the folder unreported, and no row names a record that is missing."""
    on_disk = {f"benchmarks/gates/{path.name}" for path in RECORDS.glob("*.sqlite")}
    assert on_disk, "benchmarks/gates/ holds no record"
    assert set(ROWS) == on_disk


def test_the_trials_are_listed_in_the_docs_and_not_judged_as_current() -> None:
    """``benchmarks/gates/trials/`` holds gates of configurations not registered: the docs
    list each with its verdict, and no row of the table above names one."""
    trials = sorted(path.name for path in (RECORDS / "trials").glob("*.sqlite"))
    assert trials, "benchmarks/gates/trials/ holds no record"
    lines = DOCS.read_text(encoding="utf-8").splitlines()
    for name in trials:
        assert any(line.startswith(f"| {name} | ") for line in lines), name
    assert not any("/trials/" in record for record in ROWS)


@pytest.mark.parametrize("record", sorted(ROWS))
def test_a_gate_record_gives_its_rows_verdict_from_its_rows_command(
    record: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Judged by the command that played it, a record ends on the row's verdict and count."""
    row = ROWS[record]
    copy = tmp_path / "record.sqlite"
    shutil.copyfile(ROOT / record, copy)
    with Store.open(copy) as store:
        spec, saved = store.spec, store.count()
        problem = version_problem(spec, loaded_versions(spec))
    assert problem is None, f"{record} is stale: {problem}"
    # A gate saves each match as it comes back, so a record may hold a few past its verdict.
    assert saved >= int(row["matches"])
    args = shlex.split(row["command"])[1:]
    assert args[args.index("--save") + 1] == record
    limit = row["matches"]
    args = _with(_with(_with(args, "--save", str(copy)), "--max-matches", limit), "--workers", "1")
    code = main([*args, "--json"])
    out = capsys.readouterr().out
    verdict = json.loads(out.splitlines()[-1])
    assert (verdict["decision"], verdict["matches"]) == (row["verdict"], int(row["matches"]))
    assert code == EXIT[row["verdict"]]
    # Nothing was played: the record holds just what it held.
    with Store.open(copy) as store:
        assert store.count() == saved


def test_a_record_refuses_a_command_for_another_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The check above can fail: the same command with another seed is refused in one line."""
    record, row = next(iter(sorted(ROWS.items())))
    copy = tmp_path / "record.sqlite"
    shutil.copyfile(ROOT / record, copy)
    args = _with(_with(shlex.split(row["command"])[1:], "--save", str(copy)), "--seed", "2")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds another gate" in err
