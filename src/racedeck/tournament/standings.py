"""Standings: per bot and per seat figures and ratings, folded from records in index order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from racedeck.tournament.ratings import Ratings
from racedeck.tournament.record import ERROR, FORFEIT, MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.stats import Running

HISTORY_POINTS = 100
"""How many samples of the rating history the report keeps, whatever the length."""


@dataclass
class SeatFigures:
    """How one bot (or every bot) did from one seat."""

    score: Running = field(default_factory=Running)
    wins: int = 0


@dataclass
class BotFigures:
    """How one bot did over the whole tournament."""

    name: str
    score: Running = field(default_factory=Running)
    place: Running = field(default_factory=Running)
    wins: int = 0
    forfeits: int = 0
    seats: dict[int, SeatFigures] = field(default_factory=dict)
    mu: float = 0.0
    sigma: float = 0.0
    ordinal: float = 0.0

    @property
    def matches(self) -> int:
        """Seats this bot played in counted matches (a match with two copies counts twice)."""
        return self.score.count


@dataclass
class Standings:
    """The standings of a tournament so far."""

    spec: TournamentSpec
    unit: str = "points"
    recorded: int = 0
    errors: int = 0
    forfeits: int = 0
    bots: list[BotFigures] = field(default_factory=list)
    seats: dict[int, SeatFigures] = field(default_factory=dict)
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    """Samples of ``(matches so far, {bot: mu})`` for the rating plot."""
    failures: list[str] = field(default_factory=list)
    """A few readable lines about failed matches (the first ones, in index order)."""

    @property
    def complete(self) -> bool:
        """True when every scheduled match is recorded."""
        return self.recorded >= self.spec.matches


MAX_FAILURE_LINES = 10


def compute_standings(spec: TournamentSpec, records: Iterable[MatchRecord]) -> Standings:
    """Fold ``records`` (in index order) into standings; only a few numbers per bot are held."""
    names = sorted(set(spec.bots))
    figures = {name: BotFigures(name) for name in names}
    ratings = Ratings(names)
    standings = Standings(spec)
    every = max(1, spec.matches // HISTORY_POINTS)
    standings.history.append((0, {name: ratings.mu(name) for name in names}))
    for record in records:
        standings.recorded += 1
        if record.failed and len(standings.failures) < MAX_FAILURE_LINES:
            standings.failures.append(_failure_line(record))
        if record.status == ERROR:
            standings.errors += 1
            continue
        standings.unit = record.unit or standings.unit
        if record.status == FORFEIT:
            standings.forfeits += 1
            figures[record.seats[record.fault_seat]].forfeits += 1
        ratings.update(record.seats, record.ranks)
        for seat, (bot, rank, score) in enumerate(
            zip(record.seats, record.ranks, record.scores, strict=True)
        ):
            won = rank == 1
            mine = figures[bot]
            mine.score.add(score)
            mine.place.add(rank)
            mine.wins += won
            for table in (mine.seats, standings.seats):
                at = table.setdefault(seat, SeatFigures())
                at.score.add(score)
                at.wins += won
        if standings.recorded % every == 0:
            standings.history.append(
                (standings.recorded, {name: ratings.mu(name) for name in names})
            )
    for mine in figures.values():
        mine.mu, mine.sigma, mine.ordinal = (
            ratings.mu(mine.name),
            ratings.sigma(mine.name),
            ratings.ordinal(mine.name),
        )
    standings.bots = sorted(figures.values(), key=lambda f: (-f.ordinal, f.name))
    return standings


def _failure_line(record: MatchRecord) -> str:
    where = f"match {record.index} ({', '.join(record.seats)})"
    if record.status == ERROR:
        return f"{where}: could not be played: {record.reason}"
    if record.status == FORFEIT:
        bot = record.seats[record.fault_seat]
        return f"{where}: seat {record.fault_seat} ({bot}) forfeited: {record.reason}"
    return f"{where}: {'; '.join(record.faults)}"
