"""The strength ladder: rows on fixed duplicate deals, ratings, and the table in the docs."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from racedeck.bots import ladder
from racedeck.bots.ladder import END, RUNGS, START, play_row, table, table_sizes, write_into

DOCS = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
MAKEFILE = Path(__file__).resolve().parents[2] / "Makefile"


def test_a_row_is_the_same_with_any_number_of_workers() -> None:
    alone = play_row("lacorsa", 2, "heuristic", 3)
    with ProcessPoolExecutor(max_workers=2) as pool:
        spread = play_row("lacorsa", 2, "heuristic", 3, pool=pool)
    assert alone.scores == spread.scores and alone.matches == spread.matches
    assert alone.baseline == "random" and len(alone.matches) == 6
    seats = {seats for seats, _ in alone.matches}
    assert seats == {("heuristic", "random"), ("random", "heuristic")}


def test_the_table_gives_scores_intervals_ratings_deals_and_the_command() -> None:
    rows = [play_row("lacorsa", 2, "heuristic", 4)]
    text = table("lacorsa", 2, rows)
    row = rows[0]
    assert f"{row.mean:.3f}" in text
    assert "python -m racedeck.bots.ladder lacorsa --players 2 --rung heuristic --deals 4" in text
    lines = {
        line.split("|")[1].strip(): line for line in text.splitlines() if line.startswith("| `")
    }
    mu = {
        rung: float(lines[key].split("|")[3].split()[0])
        for key, rung in [("`random`", "random"), ("`heuristic` vs `random`", "heuristic")]
    }
    if row.mean > 0.5:
        assert mu["heuristic"] > mu["random"]


def test_the_ladder_plays_two_players_and_the_largest_table() -> None:
    assert table_sizes("lacorsa") == (2, 6)
    assert table_sizes("famous-500") == (2,)
    assert table_sizes("wacky-races") == (2, 6)


def test_the_table_is_written_between_the_markers_only(tmp_path: Path) -> None:
    doc = tmp_path / "bots.md"
    doc.write_text(f"before\n{START}\nold\n{END}\nafter\n", encoding="utf-8")
    write_into(doc, "new table")
    assert doc.read_text(encoding="utf-8") == f"before\n{START}\nnew table\n{END}\nafter\n"
    bare = tmp_path / "bare.md"
    bare.write_text("no markers\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="no ladder markers"):
        write_into(bare, "x")
    assert bare.read_text(encoding="utf-8") == "no markers\n"


def test_make_strength_writes_the_ladder_into_the_bots_doc() -> None:
    assert START in DOCS.read_text(encoding="utf-8") and END in DOCS.read_text(encoding="utf-8")
    make = MAKEFILE.read_text(encoding="utf-8")
    assert "strength:" in make and "racedeck.bots.ladder --workers 2 --write docs/bots.md" in make
    assert RUNGS == ("random", "heuristic", "ismcts-fast", "ismcts", "ismcts-strong")


def test_one_row_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        ladder.main(
            ["lacorsa", "--players", "2", "--rung", "heuristic", "--deals", "2", "--workers", "1"]
        )
        == 0
    )
    assert "lacorsa 2p heuristic vs random: score" in capsys.readouterr().out
    assert ladder.main(["nowhere", "--players", "2", "--rung", "heuristic"]) == 2
    assert "unknown game 'nowhere'" in capsys.readouterr().err
