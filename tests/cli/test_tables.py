"""On a terminal the standings are rich's tables; off one, the plain text scripts read."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from racedeck.cli.output import _Cleaning
from racedeck.cli.tables import print_standings_table
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.report import standings_table
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import compute_standings
from tests.tournament.conftest import run_cli


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def standings(bots: tuple[str, ...] = ("amy", "bob", "cid")) -> object:
    records = [
        MatchRecord(
            index=i,
            seed=i,
            deal=i,
            seats=(bots[i % 3], bots[(i + 1) % 3]),
            status="ok",
            ranks=(1, 2),
            scores=(9, 3),
            unit="places",
        )
        for i in range(6)
    ]
    spec = TournamentSpec(game="g", bots=bots, players=2, matches=6, seed=0)
    return compute_standings(spec, records)


def test_a_terminal_gets_boxed_tables_with_the_same_figures() -> None:
    terminal = Terminal()
    table = standings()
    print_standings_table(table, terminal)  # type: ignore[arg-type]
    drawn = terminal.getvalue()
    assert "───" in drawn
    assert "mean places ↓ (95% CI)" in drawn and "crosstable" in drawn and "by seat" in drawn
    plain = standings_table(table)  # type: ignore[arg-type]
    for name in ("amy", "bob", "cid"):
        assert name in drawn and name in plain
    assert "───" not in plain


def test_behind_the_cleaning_of_stdout_rich_draws_in_its_own_escapes_and_cleans_the_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every command's stdout passes ``clean`` (``output.cleaned``), which would show rich's
    own escape sequences as text (``\x1b[1m``); the tables go to the stream under it, and
    what they show is cleaned before rich draws it: a name's escape stays harmless text."""
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    terminal = Terminal()
    table = standings(("amy", "bob", "evil\x1b[2J"))
    print_standings_table(table, _Cleaning(terminal))  # type: ignore[arg-type]
    drawn = terminal.getvalue()
    assert "\x1b[1m" in drawn, "rich drew no style: the test would prove nothing"
    assert "\\x1b[1m" not in drawn
    assert "evil\\x1b[2J" in drawn and "\x1b[2J" not in drawn


def test_off_a_terminal_the_command_prints_the_plain_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "tournament",
        "lacorsa",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "-o",
        "races=1",
        "--matches",
        "2",
        "--workers",
        "1",
        "--db",
        str(tmp_path / "t.sqlite"),
    ]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    assert out.splitlines()[2].split()[:2] == ["bot", "matches"] and "───" not in out
