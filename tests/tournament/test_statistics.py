"""The running statistics, the ratings, the standings and the SPRT."""

from __future__ import annotations

import gc
import random
import statistics
import tracemalloc
from collections.abc import Iterator

import pytest

from racedeck.tournament.gate import BETTER, NOT_BETTER, UNDECIDED, Sprt
from racedeck.tournament.ratings import Ratings
from racedeck.tournament.record import ERROR, FORFEIT, OK, MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import compute_standings
from racedeck.tournament.stats import Z95, Running


def test_running_mean_and_interval_match_the_textbook() -> None:
    values = [3.0, 7.0, 7.0, 19.0, 4.5, 11.0]
    running = Running()
    for v in values:
        running.add(v)
    assert running.mean == pytest.approx(statistics.mean(values))
    assert running.stdev == pytest.approx(statistics.stdev(values))
    assert running.half_width == pytest.approx(Z95 * statistics.stdev(values) / len(values) ** 0.5)


def test_a_bot_that_always_finishes_first_rates_above_one_that_never_does() -> None:
    ratings = Ratings(["a", "b", "c"])
    for _ in range(30):
        ratings.update(["c", "a", "b"], [3, 1, 2])
    assert ratings.ordinal("a") > ratings.ordinal("b") > ratings.ordinal("c")
    assert ratings.sigma("a") < 25 / 3


def _records(count: int) -> Iterator[MatchRecord]:
    for i in range(count):
        seats = ("a", "b") if i % 2 == 0 else ("b", "a")
        a_wins = i % 4 != 3
        ranks = (1, 2) if (seats[0] == "a") == a_wins else (2, 1)
        scores = tuple(10 if r == 1 else 4 for r in ranks)
        yield MatchRecord(
            index=i,
            seed=i,
            deal=i,
            seats=seats,
            status=OK,
            ranks=ranks,
            scores=scores,
            unit="points",
        )


def test_standings_count_wins_places_scores_and_seats() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b"), players=2, matches=8, seed=0)
    standings = compute_standings(spec, _records(8))
    a, b = standings.bots
    assert (a.name, a.matches, a.wins, b.wins) == ("a", 8, 6, 2)
    assert a.score.mean == pytest.approx((6 * 10 + 2 * 4) / 8)
    assert a.place.mean == pytest.approx((6 * 1 + 2 * 2) / 8)
    assert a.ordinal > b.ordinal
    assert sorted(a.seats) == [0, 1] and a.seats[0].score.count == 4
    assert standings.seats[0].score.count == 8 and standings.complete


def test_forfeits_and_unplayable_matches_are_counted_apart() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b"), players=2, matches=3, seed=0)
    records = [
        MatchRecord(
            index=0,
            seed=0,
            deal=0,
            seats=("a", "b"),
            status=FORFEIT,
            ranks=(2, 1),
            scores=(0, 0),
            unit="points",
            fault_seat=0,
            reason="raised RuntimeError: boom",
        ),
        MatchRecord(
            index=1,
            seed=1,
            deal=1,
            seats=("b", "a"),
            status=ERROR,
            reason="RuntimeError: cannot start",
        ),
    ]
    standings = compute_standings(spec, records)
    assert (standings.forfeits, standings.errors, standings.recorded, standings.complete) == (
        1,
        1,
        2,
        False,
    )
    assert {f.name: f.forfeits for f in standings.bots} == {"a": 1, "b": 0}
    assert {f.name: f.matches for f in standings.bots} == {"a": 1, "b": 1}
    assert any("boom" in line for line in standings.failures)
    assert any("cannot start" in line for line in standings.failures)


def test_standings_hold_a_few_numbers_however_many_matches() -> None:
    spec = TournamentSpec(game="g", bots=("a", "b"), players=2, matches=200_000, seed=0)
    compute_standings(spec, _records(100))  # imports and caches, once
    peaks = []
    tracemalloc.start()
    for count in (2_000, 8_000):
        # The rating library leaves reference cycles behind; collect them first, so that
        # the peak measures what the standings hold, not when the collector last ran.
        gc.collect()
        tracemalloc.reset_peak()
        before = tracemalloc.get_traced_memory()[0]
        compute_standings(spec, _records(count))
        peaks.append(tracemalloc.get_traced_memory()[1] - before)
    tracemalloc.stop()
    small, large = peaks
    assert large < small * 1.5 + 50_000, peaks


def _sprt_run(p: float, rng: random.Random, limit: int = 5000) -> str:
    sprt = Sprt(alpha=0.05, beta=0.05, p1=0.6)
    for _ in range(limit):
        roll = rng.random()
        sprt.add(2.0 if roll < p else 0.0)
        if sprt.decision != UNDECIDED:
            return sprt.decision
    return UNDECIDED


def test_sprt_accepts_a_clearly_better_candidate_and_rejects_a_worse_one() -> None:
    rng = random.Random(1)
    assert [_sprt_run(0.75, rng) for _ in range(20)] == [BETTER] * 20
    assert [_sprt_run(0.3, rng) for _ in range(20)] == [NOT_BETTER] * 20


def test_sprt_error_rates_stay_near_alpha_and_beta() -> None:
    rng = random.Random(2)
    false_accepts = sum(_sprt_run(0.5, rng) == BETTER for _ in range(400))
    misses = sum(_sprt_run(0.6, rng) == NOT_BETTER for _ in range(400))
    assert false_accepts <= 0.05 * 400 * 1.6
    assert misses <= 0.05 * 400 * 1.6


def test_split_deals_do_not_move_the_sprt() -> None:
    sprt = Sprt()
    for _ in range(100):
        sprt.add(1.0)
    assert (sprt.draws, sprt.llr, sprt.decision) == (100, 0.0, UNDECIDED)


def test_sprt_refuses_nonsense_error_rates() -> None:
    with pytest.raises(ValueError, match="alpha"):
        Sprt(alpha=0.7)
    with pytest.raises(ValueError, match="margin"):
        Sprt(p1=0.4)
