"""Schedules: a tournament's matches, each computed from the spec and its index alone.

Every format builds a short list of *tables* (which bots sit down together) and plays each
table in all of its seat rotations, so that over one cycle every bot plays every seat
equally often. Formats differ in how seeds are shared:

- ``round-robin``: every match has its own seed, ``derive_seed(seed, "match/<index>")``;
- ``duplicate``: the rotations of one table form a *deal* and share the seed
  ``derive_seed(seed, "deal/<deal>")``, so each bot is dealt each seat's cards once and
  the luck of the deal cancels out;
- ``gauntlet``: the first bot (the candidate) sits at every table with the others as its
  field, duplicate-dealt;
- ``gate``: pairs of matches on one deal, the candidate and the baseline swapping seats.

Nothing is held per match: the schedule of a million-match tournament is a few tables.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

import msgspec

from racedeck.core.rng import derive_seed
from racedeck.tournament.spec import TournamentSpec


class ScheduledMatch(msgspec.Struct, frozen=True):
    """One match of a schedule: its index, seed, deal group and the bot in each seat."""

    index: int
    seed: int
    deal: int
    seats: tuple[str, ...]


def _cycled(bots: Sequence[str], length: int) -> list[tuple[str, ...]]:
    """Return the ``len(bots)`` lineups of ``length`` seats that cycle through ``bots``."""
    count = len(bots)
    return [tuple(bots[(offset + i) % count] for i in range(length)) for offset in range(count)]


def _tables(bots: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """Every group of bots that sits down together, each bot equally often."""
    if players <= len(bots):
        return list(combinations(bots, players))
    return _cycled(bots, players)


def rotate(table: Sequence[str], by: int) -> tuple[str, ...]:
    """Return ``table`` with every bot moved ``by`` seats towards seat 0."""
    by %= len(table)
    return tuple(table[by:]) + tuple(table[:by])


class Schedule:
    """The matches of one tournament; ``match(index)`` computes any of them directly."""

    def __init__(self, spec: TournamentSpec) -> None:
        self.spec = spec
        players = spec.players
        if spec.format == "gauntlet":
            candidate, field = spec.bots[0], spec.bots[1:]
            self.tables = [(candidate, *rest) for rest in _tables(field, players - 1)]
        elif spec.format == "gate":
            candidate, baseline = spec.bots[0], spec.bots[1]
            filler = spec.bots[2] if len(spec.bots) > 2 else baseline
            self.tables = [(candidate, baseline) + (filler,) * (players - 2)]
        else:
            self.tables = _tables(spec.bots, players)
        self.cycle = 2 * players if spec.format == "gate" else len(self.tables) * players
        """Matches after which the schedule repeats itself with new seeds."""

    def match(self, index: int) -> ScheduledMatch:
        """Return the match with this index."""
        spec = self.spec
        players = spec.players
        if spec.format == "gate":
            deal = index // 2
            candidate_seat, baseline_seat = self.gate_seats(index)
            filled = [self.tables[0][-1]] * players
            filled[candidate_seat] = self.tables[0][0]
            filled[baseline_seat] = self.tables[0][1]
            seed = derive_seed(spec.seed, f"deal/{deal}")
            return ScheduledMatch(index, seed, deal, tuple(filled))
        position = index % self.cycle
        seats = rotate(self.tables[position // players], position % players)
        deal = index // players
        if spec.format == "round-robin":
            return ScheduledMatch(index, derive_seed(spec.seed, f"match/{index}"), index, seats)
        return ScheduledMatch(index, derive_seed(spec.seed, f"deal/{deal}"), deal, seats)

    def gate_seats(self, index: int) -> tuple[int, int]:
        """Return the seats of the candidate and the baseline in match ``index`` of a gate.

        Deal ``k`` puts them side by side, moved round the table by ``k`` so that every
        seat is played; its second match swaps the two seats on the same deal.
        """
        players = self.spec.players
        shift = (index // 2) % players
        first, second = (-shift) % players, (1 - shift) % players
        return (second, first) if index % 2 else (first, second)

    def matches(self, start: int = 0, stop: int | None = None) -> Iterator[ScheduledMatch]:
        """Yield the matches from ``start`` up to ``stop`` (the spec's count by default)."""
        end = self.spec.matches if stop is None else stop
        for index in range(start, end):
            yield self.match(index)
