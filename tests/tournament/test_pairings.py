"""Head-to-head and per-opponent figures: scores with intervals, Elo-style, LOS; gate --db."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from racedeck.tournament.gate import Sprt, gate_from_records
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import compute_standings
from racedeck.tournament.stats import (
    Tally,
    elo_difference,
    likelihood_of_superiority,
    wilson_interval,
)
from tests.tournament.conftest import run_cli


def _match(index: int, seats: tuple[str, ...], ranks: tuple[int, ...]) -> MatchRecord:
    return MatchRecord(
        index=index,
        seed=index,
        deal=index,
        seats=seats,
        status="ok",
        ranks=ranks,
        scores=tuple(10 - r for r in ranks),
        unit="points",
    )


def test_elo_difference_and_los_are_the_textbook_formulas() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(0.75) == pytest.approx(190.85, abs=0.01)  # -400 log10(1/0.75 - 1)
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    assert likelihood_of_superiority(10, 10) == 0.5
    # Phi((W - L) / sqrt(W + L)) with W=30, L=20: Phi(1.414) = 0.9214
    assert likelihood_of_superiority(30, 20) == pytest.approx(0.9214, abs=1e-4)
    low, high = wilson_interval(8, 10)
    assert (low, high) == (pytest.approx(0.4902, abs=1e-4), pytest.approx(0.9433, abs=1e-4))


def test_a_tally_scores_a_draw_as_half_and_its_interval_holds_the_score() -> None:
    tally = Tally(wins=6, draws=2, losses=2)
    assert tally.games == 10 and tally.score == 0.7
    low, high = tally.score_interval()
    # trinomial variance: (6*0.3^2 + 2*0.2^2 + 2*0.7^2) / 10 = 0.16; in Wilson's form,
    # half width 1.96 * sqrt(0.16/10 + 1.96^2/400) / (1 + 1.96^2/10)
    z = 1.959964
    assert high - low == pytest.approx(
        2 * z * math.sqrt(0.016 + z * z / 400) / (1 + z * z / 10), abs=1e-5
    )
    assert low < tally.score < high
    assert tally.elo_interval()[0] < tally.elo() < tally.elo_interval()[1]
    assert tally.flipped().score == pytest.approx(0.3)


def test_a_one_sided_tally_has_an_interval_wider_than_a_point() -> None:
    # Four wins in four games: the interval is Wilson's for 4 of 4, not [1, 1].
    low, high = Tally(wins=4).score_interval()
    assert (low, high) == (pytest.approx(wilson_interval(4, 4)[0], abs=1e-9), 1.0)
    assert 0.45 < low < 0.55
    assert Tally(wins=6, losses=4).score_interval() == pytest.approx(wilson_interval(6, 10))


def test_the_head_to_head_counts_each_pair_of_seats_from_both_sides() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b", "c"), players=3, matches=3, seed=0)
    records = [
        _match(0, ("a", "b", "c"), (1, 2, 3)),
        _match(1, ("c", "a", "b"), (1, 3, 2)),
        _match(2, ("b", "c", "a"), (1, 1, 3)),
    ]
    standings = compute_standings(spec, records)
    ab = standings.pairing("a", "b")
    assert (ab.wins, ab.draws, ab.losses) == (1, 0, 2)
    ba = standings.pairing("b", "a")
    assert (ba.wins, ba.draws, ba.losses) == (2, 0, 1)
    bc = standings.pairing("b", "c")
    assert (bc.wins, bc.draws, bc.losses) == (1, 1, 1)


def test_matches_count_matches_and_seats_count_seats() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b"), players=3, matches=2, seed=0)
    records = [_match(0, ("a", "a", "b"), (1, 2, 3)), _match(1, ("b", "b", "a"), (1, 2, 3))]
    figures = {f.name: f for f in compute_standings(spec, records).bots}
    assert figures["a"].matches == 2 and figures["a"].seats_played == 3


def test_a_gauntlet_lists_opponents_that_never_met_without_ranking_them() -> None:
    spec = TournamentSpec(
        game="g", bots=("cand", "zed", "amy"), players=2, matches=4, seed=0, format="gauntlet"
    )
    records = [
        _match(0, ("cand", "zed"), (2, 1)),
        _match(1, ("zed", "cand"), (1, 2)),
        _match(2, ("cand", "amy"), (1, 2)),
        _match(3, ("amy", "cand"), (2, 1)),
    ]
    standings = compute_standings(spec, records)
    assert not standings.ranked
    # The candidate first, then the opponents as named: zed beat the candidate and amy lost
    # to it, yet that does not make one above the other.
    assert [f.name for f in standings.bots] == ["cand", "zed", "amy"]


def test_the_tournament_prints_head_to_head_and_per_opponent_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    args = ["tournament", "lacorsa", "-o", "races=1", "--players", "2", "--matches", "8"]
    bots = ["--bot", "heuristic", "--bot", "random", "--bot", "ismcts-fast", "-f", "gauntlet"]
    code, out, err = run_cli([*args, *bots, "--db", str(db), "--workers", "1"], capsys)
    assert code == 0, err
    header = out.splitlines()[2].split()
    assert header[:8] == ["bot", "matches", "seats", "1st", "1st%", "mean", "points", "↑"]
    assert "gauntlet: the opponents met only the candidate, so they are listed, not ranked" in out
    # One table of the candidate's games: its pairs are not repeated as a head to head, and
    # the opponents, who never met, have none of their own.
    assert out.count("heuristic against each opponent") == 1 and "head to head" not in out
    table = out.split("heuristic against each opponent")[1].splitlines()
    assert table[1].split()[:4] == ["opponent", "games", "W-D-L", "score%"]
    assert [line.split()[0] for line in table[2:4]] == ["random", "ismcts-fast"]
    code, out, err = run_cli(["tournament", "report", str(db), "--json"], capsys)
    data = json.loads(out)
    pairs = {(p["bot"], p["opponent"]): p for p in data["head_to_head"]}
    pair = pairs[("heuristic", "random")]
    assert pair["games"] == 4 and pair["wins"] + pair["draws"] + pair["losses"] == 4
    assert set(pair) >= {"score", "score_ci95", "elo", "elo_ci95", "los"}
    assert data["ranked"] is False
    page = tmp_path / "r.html"
    code, _out, err = run_cli(["tournament", "report", str(db), "--html", str(page)], capsys)
    assert code == 0, err
    text = page.read_text()
    assert "<h2>Head to head</h2>" not in text
    assert text.count("<h2>heuristic against each opponent</h2>") == 1
    assert "<th>Elo (95% CI)</th>" in text and "<th>LOS%</th>" in text


def test_gate_judges_a_tournament_that_already_ran(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", "lacorsa", "-o", "races=1", "--players", "2", "--matches", "40"]
    code, _out, err = run_cli(
        [*args, "--bot", "heuristic", "--bot", "random", "--db", str(db), "--workers", "2"],
        capsys,
    )
    assert code == 0, err
    code, out, err = run_cli(
        ["gate", "--db", str(db), "--candidate", "heuristic", "--baseline", "random", "--json"],
        capsys,
    )
    assert code == 0, err
    verdict = json.loads(out)
    assert verdict["decision"] == "better" and verdict["counted"] == "matches"
    assert verdict["matches"] == 40 and verdict["wins"] + verdict["losses"] + verdict["draws"] == 40
    low, high = verdict["win_rate_ci95"]
    assert low < verdict["win_rate"] <= high and verdict["los"] > 0.99
    assert err.startswith("gate: heuristic is better than random: after 40 recorded matches")
    assert "win rate" in err and "Elo" in err and "LOS" in err
    code, _out, err = run_cli(
        ["gate", "--db", str(db), "--candidate", "ismcts", "--baseline", "random"], capsys
    )
    assert code == 2 and "--candidate ismcts: not in this tournament" in err


def test_gate_from_records_counts_one_game_per_match_in_which_both_sat() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b", "c"), players=2, matches=3, seed=0)
    records = [
        _match(0, ("a", "b"), (1, 2)),
        _match(1, ("b", "a"), (1, 2)),
        _match(2, ("a", "c"), (1, 2)),
    ]
    result = gate_from_records(spec, records, "a", "b", Sprt())
    assert (result.sprt.wins, result.sprt.losses, result.matches) == (1, 1, 2)


def test_the_gate_tells_its_running_test_and_its_figures_on_stderr(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_cli(
        [
            "gate",
            "lacorsa",
            "-o",
            "races=1",
            "--seed",
            "3",
            "--candidate",
            "heuristic",
            "--baseline",
            "random",
            "--workers",
            "1",
            "--report-every",
            "2",
            "--json",
        ],
        capsys,
    )
    assert code == 0, err
    lines = [line for line in err.splitlines() if not line.startswith("estimate: ")]
    assert lines[0].startswith("gate: 2/2000 matches, ") and "LLR" in lines[0]
    assert "elapsed " in lines[0] and "; deals won " in lines[0]
    assert lines[-1].startswith("gate: heuristic is better than random")
    assert "win rate" in lines[-1] and "Elo" in lines[-1] and "LOS" in lines[-1]
    verdict = json.loads(out.splitlines()[-1])
    assert {"win_rate", "win_rate_ci95", "elo", "elo_ci95", "los"} <= set(verdict)
