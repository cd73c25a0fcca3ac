"""Standings: per bot and per seat figures and ratings, folded from records in index order."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from racedeck.core.shown import one_line
from racedeck.tournament.gate import UNDECIDED, Sprt, judge_saved_gate
from racedeck.tournament.ratings import Ratings
from racedeck.tournament.record import ERROR, FORFEIT, MatchRecord
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.stats import Running, Tally

HISTORY_POINTS = 100
"""How many samples of the rating history the report keeps, whatever the length."""


@dataclass(frozen=True)
class Score:
    """What a game's score is called and which way is better."""

    name: str
    higher_is_better: bool = True

    @property
    def direction(self) -> str:
        """``higher is better`` or ``lower is better``."""
        return "higher is better" if self.higher_is_better else "lower is better"


LOWER_IS_BETTER = frozenset({"places", "place"})
"""Units whose smaller numbers are the better ones, for games that declare no score."""


def score_of(game: Any, unit: str) -> Score:
    """Return how the score of ``game``'s results (in ``unit``) reads: its name and direction.

    Every game declares its scores (``Game.scores``, one per result unit it writes, with
    which way is better); a game object that declares none (a bare test double) falls back
    to the unit as the name, places being the one unit where lower is better.
    """
    for declared in getattr(game, "scores", ()):
        if declared.name == unit:
            return Score(declared.name, declared.higher_is_better)
    return Score(unit, unit not in LOWER_IS_BETTER)


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
    score: Score = field(default_factory=lambda: Score("points"))
    """What the score is called and which way is better (``score_of``)."""
    recorded: int = 0
    errors: int = 0
    forfeits: int = 0
    bots: list[BotFigures] = field(default_factory=list)
    seats: dict[int, SeatFigures] = field(default_factory=dict)
    history: list[tuple[int, dict[str, float]]] = field(default_factory=list)
    """Samples of ``(matches so far, {bot: mu})`` for the rating plot."""
    failures: list[str] = field(default_factory=list)
    """A few readable lines about failed matches (the first ones, in index order)."""
    upsets: int = 0
    """Counted matches whose winner did not have the best score: the score is the game's
    own measure, the finishing order decides (a Famous 500 car that falls below zero loses
    whatever its speed points)."""
    decision: str | None = None
    """A gate's verdict on its recorded matches (``better``, ``not better``, ``undecided``);
    none for a tournament."""
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
        """True when every scheduled match is recorded, or a gate reached its verdict."""
        decided = self.decision is not None and self.decision != UNDECIDED
        return decided or self.recorded >= self.spec.matches


MAX_FAILURE_LINES = 10


def compute_standings(
    spec: TournamentSpec, records: Iterable[MatchRecord], game: Any = None
) -> Standings:
    """Fold ``records`` (in index order) into standings; only a few numbers per bot are held.

    ``game`` (the game's class or object, when it is at hand) says how its score reads.
    """
    names = sorted(set(spec.bots))
    figures = {name: BotFigures(name) for name in names}
    ratings = Ratings(names)
    standings = Standings(spec)
    if spec.format == "gate":
        records = list(records)
        standings.decision = gate_decision(spec, records)
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
        if record.status != FORFEIT:
            better = score_of(game, record.unit).higher_is_better
            standings.upsets += _upset(record.ranks, record.scores, better)
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
    standings.score = score_of(game, standings.unit)
    standings.bots = list(figures.values())
    if standings.ranked:
        standings.bots = sorted(figures.values(), key=lambda f: (-f.ordinal, f.name))
    else:
        # The candidate, then its opponents as they were named: they are not comparable.
        standings.bots = [figures[name] for name in dict.fromkeys(spec.bots)]
    return standings


def gate_decision(spec: TournamentSpec, records: list[MatchRecord]) -> str:
    """Return the verdict a gate reached on ``records``, judged as the gate judged them.

    A database written before gates recorded their test is judged by the default one.
    """
    alpha, beta, p1 = spec.sprt if spec.sprt is not None else (0.05, 0.05, 0.6)
    sprt = Sprt(alpha=alpha, beta=beta, p1=p1)
    return judge_saved_gate(spec, records, spec.bots[0], spec.bots[1], sprt).decision


def _upset(ranks: tuple[int, ...], scores: tuple[int, ...], higher_is_better: bool) -> bool:
    """Return whether a seat that finished first had a worse score than another seat."""
    best = max(scores) if higher_is_better else min(scores)
    return any(rank == 1 and score != best for rank, score in zip(ranks, scores, strict=True))


def _count_pairs(table: dict[tuple[str, str], Tally], record: MatchRecord) -> None:
    seats = sorted(zip(record.seats, record.ranks, strict=True))
    for i, (first, first_rank) in enumerate(seats):
        for second, second_rank in seats[i + 1 :]:
            if first == second:
                continue
            points = 1.0 if first_rank < second_rank else 0.5 if first_rank == second_rank else 0
            table.setdefault((first, second), Tally()).add(points)


def _failure_line(record: MatchRecord) -> str:
    """Return one line on a failed match; a bot's words in it keep to that line."""
    where = f"match {record.index} ({', '.join(record.seats)})"
    if record.status == ERROR:
        text = f"{where}: could not be played: {record.reason}"
    elif record.status == FORFEIT:
        bot = record.seats[record.fault_seat]
        text = f"{where}: seat {record.fault_seat} ({bot}) forfeited: {record.reason}"
    else:
        text = f"{where}: {'; '.join(record.faults)}"
    return one_line(text)
