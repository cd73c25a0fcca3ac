"""Schedules: seat balance, duplicate deals, gauntlets, gate pairs and seed derivation."""

from __future__ import annotations

from collections import Counter

import pytest

from racedeck.core.rng import derive_seed
from racedeck.tournament.executors import DEFAULT_MAX_BATCH
from racedeck.tournament.run import batches
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec


def spec(
    bots: tuple[str, ...], players: int, fmt: str = "round-robin", matches: int = 0
) -> TournamentSpec:
    return TournamentSpec(
        game="g", bots=bots, players=players, matches=matches or 1, seed=7, format=fmt
    )


@pytest.mark.parametrize(
    ("bots", "players"),
    [
        (("a", "b"), 2),
        (("a", "b", "c"), 2),
        (("a", "b", "c"), 3),
        (("a", "b"), 4),
        (("a", "b", "c"), 4),
        (("a", "b", "c", "d", "e"), 3),
    ],
)
@pytest.mark.parametrize("fmt", ["round-robin", "duplicate"])
def test_every_bot_plays_every_seat_equally_often_over_a_cycle(
    bots: tuple[str, ...], players: int, fmt: str
) -> None:
    schedule = Schedule(spec(bots, players, fmt))
    counts = Counter(
        (bot, seat) for m in schedule.matches(0, schedule.cycle) for seat, bot in enumerate(m.seats)
    )
    assert len({counts[(bot, seat)] for bot in bots for seat in range(players)}) == 1
    assert all(counts[(bot, seat)] > 0 for bot in bots for seat in range(players))


def test_round_robin_meets_every_pair_of_bots() -> None:
    schedule = Schedule(spec(("a", "b", "c", "d"), 2))
    met = {frozenset(m.seats) for m in schedule.matches(0, schedule.cycle)}
    assert met == {
        frozenset(p)
        for p in [("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d")]
    }


def test_round_robin_seeds_derive_from_the_tournament_seed_and_the_index() -> None:
    schedule = Schedule(spec(("a", "b", "c"), 3))
    seeds = [m.seed for m in schedule.matches(0, 50)]
    assert seeds == [derive_seed(7, f"match/{i}") for i in range(50)]
    assert len(set(seeds)) == 50


def test_duplicate_deals_replay_one_seed_with_the_seats_permuted() -> None:
    schedule = Schedule(spec(("a", "b", "c"), 3, "duplicate"))
    matches = list(schedule.matches(0, 3 * schedule.cycle))
    deals: dict[int, list[tuple[str, ...]]] = {}
    for m in matches:
        assert m.seed == derive_seed(7, f"deal/{m.deal}")
        deals.setdefault(m.deal, []).append(m.seats)
    assert len(deals) == len(matches) // 3
    for seatings in deals.values():
        assert len(set(seatings)) == 3, "each match of a deal seats the bots differently"
        for seat in range(3):
            assert {s[seat] for s in seatings} == {"a", "b", "c"}, (
                "every bot gets every seat's deal"
            )
    assert len({m.seed for m in matches}) == len(deals)


def test_gauntlet_puts_the_candidate_at_every_table_in_every_seat() -> None:
    schedule = Schedule(spec(("cand", "x", "y", "z"), 3, "gauntlet"))
    matches = list(schedule.matches(0, schedule.cycle))
    assert all("cand" in m.seats for m in matches)
    assert Counter(m.seats.index("cand") for m in matches) == {0: 3, 1: 3, 2: 3}
    field = Counter(bot for m in matches for bot in m.seats if bot != "cand")
    assert field == {"x": 6, "y": 6, "z": 6}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_gate_pairs_swap_candidate_and_baseline_on_one_deal(players: int) -> None:
    schedule = Schedule(spec(("A", "B", "F"), players, "gate"))
    seen_seats = set()
    for deal in range(2 * players):
        first, second = schedule.match(2 * deal), schedule.match(2 * deal + 1)
        assert first.seed == second.seed == derive_seed(7, f"deal/{deal}")
        a, b = schedule.gate_seats(2 * deal)
        assert (first.seats[a], first.seats[b]) == ("A", "B")
        assert (second.seats[a], second.seats[b]) == ("B", "A")
        assert schedule.gate_seats(2 * deal + 1) == (b, a)
        others = [s for s in range(players) if s not in (a, b)]
        assert all(first.seats[s] == second.seats[s] == "F" for s in others)
        seen_seats.add(a)
    assert seen_seats == set(range(players))


def test_a_match_is_computed_from_its_index_alone() -> None:
    big = spec(("a", "b", "c"), 3, "duplicate", matches=10**12)
    schedule = Schedule(big)
    streamed = list(schedule.matches(10**12 - 5))
    assert streamed == [Schedule(big).match(i) for i in range(10**12 - 5, 10**12)]


def test_batches_cover_every_missing_index_once_and_shrink_towards_the_end() -> None:
    ranges = [(3, 5), (10, 1000), (1200, 1201)]
    cut = list(batches(ranges, workers=2))
    flat = [i for batch in cut for i in batch]
    assert flat == [*range(3, 5), *range(10, 1000), 1200]
    sizes = [len(batch) for batch in cut]
    assert max(sizes) <= DEFAULT_MAX_BATCH and sizes[1] > sizes[-2] >= 1
