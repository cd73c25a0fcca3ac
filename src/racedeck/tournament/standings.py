"""Standings: per bot and per seat figures and ratings, folded from records in index order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from racedeck.tournament.ratings import Ratings
from racedeck.tournament.record import ERROR, FORFEIT, MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.stats import Running, Tally

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
    matches: int = 0
    """Counted matches this bot played in, each once however many seats it had."""

    @property
    def seats_played(self) -> int:
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
    head_to_head: dict[tuple[str, str], Tally] = field(default_factory=dict)
    """Per pair of bots ``(a, b)`` with ``a < b``: how ``a`` did against ``b``, one game for
    each pair of their seats in a match (ahead a win, level a draw, behind a loss)."""

    def pairing(self, bot: str, opponent: str) -> Tally:
        """How ``bot`` did against ``opponent`` (no games when they never met)."""
        if bot < opponent:
            return self.head_to_head.get((bot, opponent), Tally())
        return self.head_to_head.get((opponent, bot), Tally()).flipped()

    @property
    def ranked(self) -> bool:
        """False for a gauntlet whose opponents met only the candidate, never each other."""
        if self.spec.format != "gauntlet":
            return True
        field = set(self.spec.bots[1:])
        return any(a in field and b in field for a, b in self.head_to_head)

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
        for bot in set(record.seats):
            figures[bot].matches += 1
        _count_pairs(standings.head_to_head, record)
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
    standings.bots = list(figures.values())
    if standings.ranked:
        standings.bots = sorted(figures.values(), key=lambda f: (-f.ordinal, f.name))
    else:
        # The candidate, then its opponents as they were named: they are not comparable.
        standings.bots = [figures[name] for name in dict.fromkeys(spec.bots)]
    return standings


def _count_pairs(table: dict[tuple[str, str], Tally], record: MatchRecord) -> None:
    seats = sorted(zip(record.seats, record.ranks, strict=True))
    for i, (first, first_rank) in enumerate(seats):
        for second, second_rank in seats[i + 1 :]:
            if first == second:
                continue
            points = 1.0 if first_rank < second_rank else 0.5 if first_rank == second_rank else 0
            table.setdefault((first, second), Tally()).add(points)


def _failure_line(record: MatchRecord) -> str:
    where = f"match {record.index} ({', '.join(record.seats)})"
    if record.status == ERROR:
        return f"{where}: could not be played: {record.reason}"
    if record.status == FORFEIT:
        bot = record.seats[record.fault_seat]
        return f"{where}: seat {record.fault_seat} ({bot}) forfeited: {record.reason}"
    return f"{where}: {'; '.join(record.faults)}"
