"""Scoring: championship points, the drivers' ranking and the teams' championship.

Rulebook, "Race Type": "Drivers' Championship (4-6 players): Each driver operates one
racecar. Drivers may form teams in pairs and combine their point totals for a Teams'
championship. One car each." And "Scoring": "The driver (or team of drivers) with the
most points after 7 races is World Champion. A tie is resolved based on the most
victories."

Seats rank by points, then most victories (race wins), then most second places and so on
(a proposal past the rulebook's victories); a tie on all of those is shared. With the
``pairs_as_teams`` option seats pair up in seat order (0+1, 2+3, 4+5): with five players
seat 4 is a team of one. Teams rank the same way, on their cars' combined points and
places. Rules version 1 only summed the teams' points into one summary line, labelled
``seats 4+5`` even at five players; its result is ``result_v1`` (logs written under it
replay under it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from msgspec.structs import replace

from racedeck.core.model import Result
from racedeck.core.step import Turn
from racedeck.games.lacorsa.data import POINTS
from racedeck.games.lacorsa.events import LacorsaEvent, RaceScored
from racedeck.games.lacorsa.state import LacorsaState


def score(turn: Turn[LacorsaState, LacorsaEvent]) -> None:
    """Score the race just over by position: 9-6-4-3-2-1 from the leader back."""
    state = turn.state
    places = tuple(reversed(state.order))
    points = [0] * len(state.owner)
    for place, car in enumerate(places):
        points[car] = POINTS[place]
    turn.emit(RaceScored(race=state.race, places=places, points=tuple(points)))


def scored(state: LacorsaState, event: RaceScored) -> LacorsaState:
    """Fold a race's points; the championship goes on to the next deal, or is over."""
    race = state.race + 1
    return replace(
        state,
        race=race,
        phase="over" if race >= state.options.races else "deal",
        results=(*state.results, event.places),
        points=tuple(p + q for p, q in zip(state.points, event.points, strict=True)),
    )


def teams(players: int) -> tuple[tuple[int, ...], ...]:
    """Return the teams of pairs: seats 0+1, 2+3, 4+5; an odd last seat is a team of one."""
    return tuple(tuple(range(first, min(first + 2, players))) for first in range(0, players, 2))


def team_label(team: Sequence[int]) -> str:
    """Return ``seats 0+1``, or ``seat 4`` for a team of one."""
    if len(team) == 1:
        return f"seat {team[0]}"
    return "seats " + "+".join(str(s) for s in team)


def seat_records(state: LacorsaState) -> tuple[list[int], list[list[int]]]:
    """Return each seat's championship points and how often it finished in each place."""
    players = state.players
    cars = len(state.owner)
    points = [0] * players
    places = [[0] * cars for _ in range(players)]
    for car, p in enumerate(state.points):
        points[state.owner[car]] += p
    for order in state.results:
        for place, car in enumerate(order):
            places[state.owner[car]][place] += 1
    return points, places


def ranks(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Return competition ranks (1 is best, equal keys share a place) for higher-is-better keys."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


class TeamStanding(NamedTuple):
    """One team's line of the teams' championship."""

    rank: int
    """The team's place, 1 the best; tied teams share it."""
    seats: tuple[int, ...]
    """The team's seats."""
    points: int
    """The team's combined championship points."""
    victories: int
    """Races the team's cars won."""


def team_standings(state: LacorsaState) -> tuple[TeamStanding, ...]:
    """Return the teams' championship, best first (team order among equals).

    Teams rank by combined points, then most victories, then most second places and so
    on, as seats do.
    """
    points, places = seat_records(state)
    pairs = teams(state.players)
    totals = [sum(points[s] for s in team) for team in pairs]
    keys = [
        (totals[t], *(sum(col) for col in zip(*(places[s] for s in team), strict=True)))
        for t, team in enumerate(pairs)
    ]
    team_ranks = ranks(keys)
    lines = [
        TeamStanding(team_ranks[t], team, totals[t], keys[t][1] if len(keys[t]) > 1 else 0)
        for t, team in enumerate(pairs)
    ]
    return tuple(sorted(lines, key=lambda line: (line.rank, line.seats)))


def describe_team(line: TeamStanding) -> str:
    """Return ``1. seats 0+1: 30 points, 2 victories``."""
    wins = "1 victory" if line.victories == 1 else f"{line.victories} victories"
    return f"{line.rank}. {team_label(line.seats)}: {line.points} points, {wins}"


def result(state: LacorsaState) -> Result:
    """Rank seats by championship points, then most wins, most seconds, and so on.

    The summary names each race's order and, in a teams' championship of pairs, the
    teams' ranking.
    """
    points, places = seat_records(state)
    keys = [(points[s], *places[s]) for s in range(state.players)]
    summary = [
        f"race {race + 1}: " + ", ".join(f"car {car}" for car in order)
        for race, order in enumerate(state.results)
    ]
    if state.options.pairs_as_teams:
        summary.append(
            "teams' championship: " + "; ".join(describe_team(t) for t in team_standings(state))
        )
    return Result(ranks=ranks(keys), scores=tuple(points), unit="points", summary=tuple(summary))


def result_v1(state: LacorsaState) -> Result:
    """Return the result as rules version 1 wrote it: team totals in one unranked line."""
    current = result(state)
    if not state.options.pairs_as_teams:
        return current
    points, _ = seat_records(state)
    totals: dict[int, int] = {}
    for s in range(state.players):
        totals[s // 2] = totals.get(s // 2, 0) + points[s]
    line = "teams: " + ", ".join(f"seats {2 * t}+{2 * t + 1}: {p}" for t, p in totals.items())
    return Result(
        ranks=current.ranks,
        scores=current.scores,
        unit=current.unit,
        summary=(*current.summary[:-1], line),
    )
