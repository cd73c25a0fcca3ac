"""The strength ladder: rows on fixed duplicate deals, ratings, and the table in the docs."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from tools import ladder
from tools.ladder import END, RUNGS, START, play_row, table, table_sizes, write_into

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


def test_a_one_deal_row_at_a_big_table_is_shared_out_match_by_match() -> None:
    """The workers take a deal's matches one by one; the deal is gathered seat by seat."""
    alone = play_row("lacorsa", 4, "heuristic", 2)
    with ProcessPoolExecutor(max_workers=3) as pool:
        spread = play_row("lacorsa", 4, "heuristic", 2, pool=pool)
    assert alone.scores == spread.scores and alone.matches == spread.matches
    assert [names.index("heuristic") for names, _ in spread.matches] == [0, 1, 2, 3] * 2


def test_the_table_gives_scores_intervals_ratings_deals_and_the_command() -> None:
    rows = [play_row("lacorsa", 2, "heuristic", 4)]
    text = table("lacorsa", 2, rows)
    row = rows[0]
    assert f"{row.mean:.3f}" in text
    assert "python -m tools.ladder lacorsa --players 2 --rung heuristic --deals 4" in text
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
    assert "strength:" in make and "tools.ladder --workers 2 --write docs/bots.md" in make
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


def test_the_hour_plan_plays_every_rung_of_every_table_with_fewer_deals_where_it_must() -> None:
    for game in ladder.CHEAPEST_FIRST:
        for players in ladder.table_sizes(game):
            for rung in RUNGS[1:]:
                assert ladder.deals_for(game, players, rung, full=False) >= 1, (game, players)
    # Every table fits at its defaults now; a plan, where one is set, plays fewer deals.
    assert ladder.deals_for("detroit-cleveland", 6, "ismcts-strong", full=False) == 1
    assert ladder.deals_for("detroit-cleveland", 2, "ismcts-strong", full=False) == 4
    assert ladder.deals_for("lacorsa", 2, "ismcts", full=False) == 8
    original = dict(ladder.HOUR_PLAN)
    ladder.HOUR_PLAN[("detroit-cleveland", 2)] = dict(ladder.DEALS, **{"ismcts-strong": 1})
    try:
        assert ladder.deals_for("detroit-cleveland", 2, "ismcts-strong", full=False) == 1
        assert ladder.deals_for("detroit-cleveland", 2, "ismcts-strong", full=True) == 4
    finally:
        ladder.HOUR_PLAN.clear()
        ladder.HOUR_PLAN.update(original)


def test_a_row_the_plan_leaves_out_is_named_in_the_table() -> None:
    text = table("lacorsa", 2, [play_row("lacorsa", 2, "heuristic", 1)], ["ismcts-strong"])
    assert "| `ismcts-strong` vs `ismcts` | not played within the hour |" in text


def test_an_interrupted_ladder_names_the_tables_still_to_play(tmp_path: Path) -> None:
    doc = tmp_path / "bots.md"
    doc.write_text(f"{START}\n{END}\n", encoding="utf-8")
    plan = dict.fromkeys(RUNGS[1:], 0) | {"heuristic": 1}
    original = dict(ladder.HOUR_PLAN)
    ladder.HOUR_PLAN.update({("lacorsa", 2): plan, ("lacorsa", 6): plan})
    try:
        seen = []
        real = ladder.write_into

        def spy(path: Path, text: str, games: list[str] | None = None) -> None:
            seen.append(text)
            real(path, text, games)

        ladder.write_into = spy  # type: ignore[assignment]
        text, _ = ladder.run_ladder(["lacorsa"], workers=1, write=doc)
    finally:
        ladder.write_into = real  # type: ignore[assignment]
        ladder.HOUR_PLAN.clear()
        ladder.HOUR_PLAN.update(original)
    assert len(seen) == 1 and "(Still to play: lacorsa at 6 players.)" in seen[0]
    assert "**lacorsa, 2 players**" in text and "**lacorsa, 6 players**" in text


def test_one_deal_gives_no_interval_and_no_verdict() -> None:
    text = table("lacorsa", 2, [play_row("lacorsa", 2, "heuristic", 1)])
    assert "(one deal: no interval)" in text and "**" not in text.split("`heuristic` vs")[1]


def test_an_interval_stays_between_no_score_and_a_full_score() -> None:
    """Two deals scoring 0 and 0.5 give a normal interval reaching below 0; a score lies in
    [0, 1], so the table cuts the interval there (the mean and the verdict are untouched)."""
    low_row = ladder.Row(
        "detroit-cleveland", 2, "ismcts-fast", "heuristic", 2, 1, (0.0, 0.5), (), 1.0
    )
    assert low_row.mean - low_row.half_width < 0
    assert low_row.interval == (0.0, pytest.approx(low_row.mean + low_row.half_width))
    high_row = ladder.Row("famous-500", 2, "heuristic", "random", 3, 1, (1.0, 1.0, 0.75), (), 1.0)
    assert high_row.mean + high_row.half_width > 1
    assert high_row.interval[1] == 1.0
    text = table("detroit-cleveland", 2, [low_row])
    assert "0.250 (0.000-0.740)" in text


def test_playing_some_games_again_replaces_their_tables_and_keeps_the_others(
    tmp_path: Path,
) -> None:
    lacorsa = "**lacorsa, 2 players**\n\n| rung |\n|---|\n| old lacorsa row |"
    famous = "**famous-500, 2 players**\n\n| rung |\n|---|\n| old famous-500 row |"
    whole = "This ladder took 47.0 minutes with 2 worker processes (`...`)."
    doc = tmp_path / "bots.md"
    doc.write_text(f"before\n{START}\n{lacorsa}\n\n{famous}\n\n{whole}\n{END}\nafter\n")
    plan = dict.fromkeys(RUNGS[1:], 0) | {"heuristic": 1}
    original = dict(ladder.HOUR_PLAN)
    ladder.HOUR_PLAN[("famous-500", 2)] = plan
    try:
        for _ in range(2):  # a second refresh replaces the first one's line
            assert ladder.main(["famous-500", "--workers", "1", "--write", str(doc)]) == 0
    finally:
        ladder.HOUR_PLAN.clear()
        ladder.HOUR_PLAN.update(original)
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(f"before\n{START}\n{lacorsa}\n\n**famous-500, 2 players**")
    assert text.endswith(f"\n{END}\nafter\n")
    assert "old famous-500 row" not in text and "| `heuristic` vs `random` |" in text
    assert text.count(whole) == 1
    assert text.count("The tables of famous-500 were played again after the rest") == 1
    assert text.index(whole) < text.index("The tables of famous-500")
