"""Numbers that say what they mean: the score's name and direction, bounds instead of
infinities, one table per thing, a crosstable, and JSON figures rounded to what they mean."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from racedeck.cli.contract import StandingsOutput
from racedeck.core.errors import EXIT_USAGE
from racedeck.core.game import Score as GameScore
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.report import crosstable, standings_json, standings_table
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import Score, compute_standings, score_of
from tests.tournament.conftest import run_cli


def match(
    index: int, seats: tuple[str, ...], ranks: tuple[int, ...], scores: tuple[int, ...], unit: str
) -> MatchRecord:
    return MatchRecord(
        index=index,
        seed=index,
        deal=index,
        seats=seats,
        status="ok",
        ranks=ranks,
        scores=scores,
        unit=unit,
    )


def spec(bots: tuple[str, ...], matches: int, game: str = "g") -> TournamentSpec:
    return TournamentSpec(game=game, bots=bots, players=2, matches=matches, seed=0)


class Declared:
    """A game that declares its scores as games do: one per unit, with its direction."""

    scores = (
        GameScore(name="places", higher_is_better=False),
        GameScore(name="laps behind", higher_is_better=False),
    )


def test_a_declared_score_is_read_and_a_missing_one_falls_back_to_the_unit() -> None:
    assert score_of(Declared, "places") == Score("places", higher_is_better=False)
    # Only a declaration says that a unit with no conventional direction reads lower-is-better.
    assert score_of(Declared, "laps behind") == Score("laps behind", higher_is_better=False)
    assert score_of(object(), "laps behind") == Score("laps behind", higher_is_better=True)
    # A declaration of another unit (a championship's points) does not apply.
    assert score_of(Declared, "championship points") == Score("championship points", True)
    assert score_of(None, "dollars") == Score("dollars", True)
    assert score_of(object(), "places") == Score("places", False)


def test_places_read_lower_is_better_beside_the_rank() -> None:
    records = [match(i, ("a", "b"), (1, 2), (2, 5), "places") for i in range(4)]
    standings = compute_standings(spec(("a", "b"), 4), records, Declared)
    text = standings_table(standings)
    header = text.splitlines()[2]
    assert "mean places ↓ (95% CI)" in header and "mean rank ↓" in header
    assert "mean place " not in header
    assert "places: the game's score, lower is better" in text
    assert standings.upsets == 0 and "do not decide" not in text


def test_a_score_that_did_not_decide_is_said_so() -> None:
    # Famous 500: the winner is the car that did not fall below zero, whatever its points.
    records = [
        match(0, ("crasher", "finisher"), (2, 1), (30, 12), "speed points"),
        match(1, ("finisher", "crasher"), (1, 2), (14, 28), "speed points"),
    ]
    standings = compute_standings(spec(("crasher", "finisher"), 2), records)
    text = standings_table(standings)
    assert [f.name for f in standings.bots] == ["finisher", "crasher"]
    assert standings.upsets == 2
    assert "(speed points do not decide a match on their own: in 2 of 2 matches the winner" in text
    assert standings_json(standings)["score"] == {
        "name": "speed points",
        "higher_is_better": True,
        "upsets": 2,
    }


def test_one_way_results_give_an_elo_bound_not_infinity() -> None:
    records = [match(i, ("a", "b"), (1, 2), (9, 1), "points") for i in range(6)]
    standings = compute_standings(spec(("a", "b"), 6), records)
    text = standings_table(standings)
    assert "inf" not in text
    row = next(line for line in text.splitlines() if line.split()[:2] == ["a", "b"])
    [bound] = [cell for cell in row.split() if cell.startswith(">")]
    assert f"{bound} [{bound[1:]}, -]" in row and int(bound[2:]) > 0
    pair = standings_json(standings)["head_to_head"][0]
    assert pair["elo"] is None and pair["elo_ci95"][1] is None
    assert abs(pair["elo_ci95"][0] - int(bound[1:])) <= 0.5


def test_a_round_robin_has_a_crosstable() -> None:
    bots = ("a", "b", "c")
    records = [
        match(0, ("a", "b"), (1, 2), (9, 1), "points"),
        match(1, ("b", "c"), (1, 2), (9, 1), "points"),
        match(2, ("c", "a"), (1, 1), (5, 5), "points"),
        match(3, ("a", "b"), (2, 1), (1, 9), "points"),
    ]
    standings = compute_standings(spec(bots, 4), records)
    table = crosstable(standings)
    assert table["a"]["b"] == 0.5 and table["b"]["a"] == 0.5
    assert table["b"]["c"] == 1.0 and table["c"]["b"] == 0.0
    assert table["a"]["c"] == 0.5 and table["a"]["a"] is None
    text = standings_table(standings)
    assert "crosstable (score% of the row's bot against the column's):" in text
    lines = text.split("crosstable")[1].splitlines()
    assert lines[1].split() == ["bot", *[f.name for f in standings.bots]]


def test_json_figures_are_rounded_to_what_they_mean() -> None:
    records = [
        match(i, ("a", "b"), (1 + i % 3 // 2, 2 - i % 3 // 2), (i % 7, 3), "points")
        for i in range(7)
    ]
    standings = compute_standings(spec(("a", "b"), 7), records)
    data = standings_json(standings)

    def decimals(value: float) -> int:
        text = repr(value)
        return len(text.split(".")[1]) if "." in text else 0

    for bot in data["bots"]:
        for key in ("mean_score", "ci95", "mean_place", "mu", "sigma", "ordinal"):
            assert decimals(bot[key]) <= 3, (key, bot[key])
    for pair in data["head_to_head"]:
        assert decimals(pair["score"]) <= 4 and decimals(pair["los"]) <= 4
        assert all(decimals(v) <= 1 for v in pair["elo_ci95"] if v is not None)
    # And it is what the contract says a standings output is.
    msgspec.convert({**data, "db": "x.sqlite"}, StandingsOutput)


def test_unreproducible_bots_are_refused_unless_allowed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tournament = [
        "tournament",
        "lacorsa",
        "-o",
        "races=1",
        "--bot",
        "ismcts-timed",
        "--bot",
        "random",
        "--matches",
        "1",
        "--workers",
        "1",
        "--db",
        str(tmp_path / "t.sqlite"),
    ]
    gate = [
        "gate",
        "lacorsa",
        "-o",
        "races=1",
        "--candidate",
        "ismcts-timed:seconds=0.01",
        "--baseline",
        "random",
        "--max-matches",
        "2",
        "--workers",
        "1",
    ]
    for args in (tournament, gate):
        code, out, err = run_cli(args, capsys)
        assert code == EXIT_USAGE and out == ""
        [line] = err.splitlines()
        assert "not reproducible" in line and line.endswith("with --allow-unreproducible")
    code, _out, err = run_cli([*tournament, "--allow-unreproducible"], capsys)
    assert code == 0, err
    code, _out, err = run_cli([*gate, "--allow-unreproducible"], capsys)
    assert code == 5, err


def test_the_gates_json_figures_are_rounded_too() -> None:
    from racedeck.tournament.gate import Sprt, gate_from_records

    records = [
        match(i, ("a", "b") if i % 2 else ("b", "a"), (1, 2) if i % 3 else (2, 1), (5, 3), "points")
        for i in range(7)
    ]
    figures = gate_from_records(spec(("a", "b"), 7), records, "a", "b", Sprt()).figures_json()
    for key in ("win_rate", "los"):
        assert len(repr(figures[key]).split(".")[1]) <= 4, figures
    assert all(len(repr(v).split(".")[1]) <= 1 for v in figures["elo_ci95"] if v is not None)


def test_wacky_races_standings_read_places_lower_is_better(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [
        "tournament",
        "wacky-races",
        "--bot",
        "heuristic",
        "--bot",
        "random",
        "--matches",
        "2",
        "--workers",
        "1",
        "--db",
        str(tmp_path / "w.sqlite"),
    ]
    code, out, err = run_cli(args, capsys)
    assert code == 0, err
    header = out.splitlines()[2]
    assert "mean places ↓ (95% CI)" in header and "mean rank ↓" in header
    assert "places: the game's score, lower is better" in out
    code, out, err = run_cli(["tournament", "report", str(tmp_path / "w.sqlite"), "--json"], capsys)
    assert json.loads(out)["score"]["higher_is_better"] is False


def test_parameters_that_read_the_clock_make_a_bot_unreproducible() -> None:
    import dataclasses

    from racedeck.core.bot import BotSpec
    from racedeck.tournament.plan import reproducible

    @dataclasses.dataclass(frozen=True)
    class Budget:
        seconds: float | None = None

        @property
        def reproducible(self) -> bool:
            return self.seconds is None

    spec = BotSpec(name="b", factory=object, description="", parameters=Budget())
    assert reproducible(spec)
    assert not reproducible(dataclasses.replace(spec, parameters=Budget(seconds=0.5)))
    assert not reproducible(dataclasses.replace(spec, reproducible=False))


def test_a_search_given_a_clock_where_it_is_named_is_refused_unless_allowed() -> None:
    from racedeck.core.errors import UsageError
    from racedeck.plugins import load_registry
    from racedeck.tournament.plan import plan_tournament

    registry = load_registry()
    bots = ["ismcts:seconds=0.5", "random"]
    with pytest.raises(UsageError, match=r"^ismcts:seconds=0.5: not reproducible"):
        plan_tournament(registry, "lacorsa", bots, matches=2, seed=1)
    allowed = plan_tournament(
        registry, "lacorsa", bots, matches=2, seed=1, allow_unreproducible=True
    )
    assert allowed.bots == tuple(bots)
    # A budget counted in simulations or steps stays reproducible however it is named.
    plan_tournament(registry, "lacorsa", ["ismcts:simulations=20", "random"], matches=2, seed=1)


def test_every_registered_game_declares_the_score_of_its_results() -> None:
    from racedeck.plugins import load_registry

    registry = load_registry()
    for name, game in registry.games.items():
        assert game.scores, name
        for declared in game.scores:
            assert score_of(game, declared.name) == Score(declared.name, declared.higher_is_better)
