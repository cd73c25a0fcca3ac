"""The cost bench: seconds a match of a search against the heuristic, the machine's yardstick."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import bench_match_cost, match_cost
from benchmarks.harness import (
    Benchmark,
    Measurement,
    Ratio,
    RatioMeasurement,
    measure,
    measure_ratio,
    ratio_line,
    report_line,
)


def test_the_tables_measured_are_two_players_and_the_largest() -> None:
    assert match_cost.tables("lacorsa") == (2, 6)
    assert match_cost.tables("famous-500") == (2,)
    assert match_cost.tables("wacky-races") == (2, 6)
    assert match_cost.tables("detroit-cleveland") == (2, 6)


def test_a_cheaper_budget_costs_less_processor_time() -> None:
    """Effort 0.25 with playouts cut at 20 steps against the general ``ismcts``'s 200 full
    playouts."""
    cheap = match_cost.match_seconds(
        "wacky-races", "ismcts:simulations=none,effort=0.25,horizon=20,rollout=heuristic", 2
    )
    dear = match_cost.match_seconds(
        "wacky-races", "ismcts:simulations=200,rollout=heuristic,bias=none", 2
    )
    assert 0 < cheap < dear


def test_make_bench_reports_seconds_a_match_between_two_runs_of_the_plain_loop() -> None:
    found = bench_match_cost.benchmarks()
    names = [b.name for b in found if isinstance(b, Benchmark)]
    assert names[0].startswith("plain loop") and names[-1].startswith("plain loop")
    assert "ismcts effort 1, horizon 20 vs heuristic: detroit-cleveland, 6 players" in names
    # The registered ismcts and effort 1, each at every game's two players and largest table.
    assert len(names) == 2 + 7 + 7
    registered = {b.name: b for b in found if isinstance(b, Benchmark) and "registered" in b.name}
    assert len(registered) == 7 and all(b.per_unit for b in registered.values())
    assert all(b.repeats is None for b in registered.values())
    # Every game's own budgets, each beside the general one: a tenth of the time or less.
    ratios = {r.name: r for r in found if isinstance(r, Ratio)}
    assert set(ratios) == {
        f"{game}: {name} matches a second, its own budget / the general one"
        for game, names in (
            ("detroit-cleveland", ("ismcts", "ismcts-fast", "ismcts-strong")),
            ("famous-500", ("ismcts", "ismcts-fast", "ismcts-strong")),
            ("lacorsa", ("ismcts", "ismcts-fast", "ismcts-strong")),
            ("wacky-races", ("ismcts", "ismcts-fast", "ismcts-strong")),
        )
        for name in names
    }
    assert all(r.target == 10.0 for r in ratios.values())
    # Detroit-Cleveland's general searches take a minute of a core a match or more: timed once.
    slow = {name for name, r in ratios.items() if r.reference.repeats == 1}
    assert slow == {
        f"detroit-cleveland: {name} matches a second, its own budget / the general one"
        for name in ("ismcts", "ismcts-fast", "ismcts-strong")
    }
    assert bench_match_cost.general("ismcts", "detroit-cleveland") == "ismcts:searched=none"
    assert bench_match_cost.general("ismcts-fast", "detroit-cleveland") == (
        "ismcts-fast:simulations=50,horizon=none,searched=none"
    )
    assert bench_match_cost.general("ismcts-fast", "famous-500") == (
        "ismcts-fast:simulations=50,effort=none,rollout=heuristic,bias=none,horizon=none"
    )
    assert bench_match_cost.general("ismcts", "famous-500") == (
        "ismcts:simulations=200,effort=none,horizon=none"
    )
    assert bench_match_cost.general("ismcts", "lacorsa") == (
        "ismcts:simulations=200,rollout=heuristic,bias=none"
    )
    slow = Benchmark("a match", "match", lambda: 1, per_unit=True)
    line = report_line(Measurement(slow, (0.5, 0.25, 2.0)))
    assert "2.00 s/match" in line and "(min 0.50, max 4.00)" in line


def test_a_benchmark_with_its_own_repeats_runs_that_often_and_is_not_warmed_up() -> None:
    runs: list[int] = []

    def once() -> int:
        runs.append(1)
        return 1

    assert len(measure(Benchmark("slow", "match", once, per_unit=True, repeats=1), 5).rates) == 1
    assert len(runs) == 1
    runs.clear()
    assert len(measure(Benchmark("usual", "match", once), 3).rates) == 3
    assert len(runs) == 1 + 3  # a warm-up, then the repeats


def test_a_ratio_with_a_side_timed_once_is_timed_once_and_not_warmed_up() -> None:
    runs: list[str] = []

    def side(name: str) -> Benchmark:
        def run() -> int:
            runs.append(name)
            return 1

        return Benchmark(name, "match", run, repeats=1 if name == "slow" else None)

    found = measure_ratio(Ratio("cost", side("own"), side("slow"), 10.0), 5)
    assert (len(found.measured), len(found.reference)) == (1, 1)
    assert runs == ["slow", "own"]
    runs.clear()
    found = measure_ratio(Ratio("cost", side("own"), side("usual"), 10.0), 3)
    assert len(found.measured) == 3 and len(runs) == 2 + 2 * 3  # warm-ups, then turns


def test_a_ratio_of_slow_matches_gives_seconds_a_match_on_each_side() -> None:
    own = Benchmark("own", "match", lambda: 1)
    general = Benchmark("general", "match", lambda: 1)
    line = ratio_line(RatioMeasurement(Ratio("cost", own, general, 10.0), (2.0,), (0.2,)))
    assert "(0.50 against 5.00 s/match; ratios 10.00-10.00)" in line and line.endswith("ok")
    line = ratio_line(RatioMeasurement(Ratio("cost", own, general, 10.0), (14.0,), (1.1,)))
    assert "(0.07 against 0.91 s/match;" in line
    fast = Benchmark("fold", "events", lambda: 1)
    line = ratio_line(RatioMeasurement(Ratio("fold", fast, fast), (30_000.0,), (10_000.0,)))
    assert "(30,000 against 10,000 events/s;" in line


def test_a_share_under_a_tenth_keeps_three_decimals() -> None:
    """Detroit-Cleveland's 127 simulations a second beside 8,836 races is 0.014, not 0.01."""
    sims = Benchmark("ismcts", "sims", lambda: 1)
    loop = Benchmark("plain loop", "races", lambda: 1)
    line = ratio_line(RatioMeasurement(Ratio("share", sims, loop), (127.0,), (8_836.0,)))
    assert " 0.014 x  (127 against 8,836 sims/s; ratios 0.014-0.014)" in line


def test_a_match_played_in_a_tree_of_its_own_ends_as_one_played_here() -> None:
    """``--against`` plays each side in a fresh process of its tree: the same match."""
    import json

    from racedeck.core.runner import run_match
    from racedeck.plugins import load_registry

    seconds, end = match_cost.tree_match(match_cost.ROOT, "lacorsa", "heuristic", 2, 5)
    registry = load_registry(entry_points=False)
    game = registry.game("lacorsa")
    here = run_match(
        game, game.parse_options({"races": 1}), [registry.bot("heuristic", "lacorsa")] * 2, 5
    )
    assert seconds > 0
    assert json.loads(end) == [list(here.result.ranks), list(here.result.scores)]


def test_against_a_revision_prints_both_sides_and_whether_they_ended_alike(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert match_cost.against("HEAD", [("lacorsa", 2, "heuristic")], 1, 1) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "| lacorsa |" in line)
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert cells[:3] == ["lacorsa", "2", "`heuristic`"] and cells[-1] == "yes"
    assert float(cells[3]) >= 0 and float(cells[4]) >= 0


def test_against_a_revision_git_does_not_know_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert match_cost.main(["--against", "no-such-revision", "--game", "lacorsa"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-revision" in err


def test_a_revision_that_reads_as_an_option_is_refused_before_git_sees_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--output=FILE`` would have ``git archive`` write a file of the caller's choosing."""
    target = tmp_path / "written"
    assert match_cost.main([f"--against=--output={target}", "--game", "lacorsa"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a git revision" in err
    assert not target.exists()


def test_a_bot_the_older_tree_does_not_know_fails_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert match_cost.against("HEAD", [("lacorsa", 2, "no-such-bot")], 1, 1) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("a match failed in one of the trees")


@pytest.mark.parametrize("runs", ["0", "-3", "many"])
def test_runs_must_be_one_or_more(runs: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        match_cost.main(["--against", "HEAD", "--runs", runs])
    assert stopped.value.code == 2
    assert "one or more" in capsys.readouterr().err
