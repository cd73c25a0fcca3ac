"""Text pictures of a Detroit-Cleveland track and race: lanes as rows, cars as letters."""

from __future__ import annotations

import math

from racedeck.games.detroit_cleveland import data
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandState
from racedeck.games.detroit_cleveland.track import FINISH, LANE_LETTERS, OFF_TRACK, Track


def _lane_name(lane: int) -> str:
    return LANE_LETTERS[lane] if lane < len(LANE_LETTERS) else str(lane)


def render_track(track: Track, positions: tuple[int, ...] = ()) -> str:
    """Return the track section by section, one row per lane, start positions numbered.

    Cells sit at their distance along the track, so a curve's shorter inside lane shows
    fewer, wider-spaced cells. A car is drawn as its colour letter.
    """
    cars_at = {space: car for car, space in enumerate(positions) if space >= 0}
    start_at = {space: number for number, space in enumerate(track.start, 1)}
    sections: dict[str, list[int]] = {}
    for space, name in enumerate(track.sections):
        sections.setdefault(name or "track", []).append(space)
    width = max(len(name) for name in sections)
    lines = [f"{track.title}: {len(track.ids)} spaces, start -> finish"]
    for name, spaces in sections.items():
        base = math.floor(min(track.distances[s] for s in spaces))
        lanes: dict[int, list[int]] = {}
        for s in spaces:
            lanes.setdefault(track.lanes[s], []).append(s)
        for lane in sorted(lanes):
            cells: dict[int, str] = {}
            for s in lanes[lane]:
                column = math.floor(track.distances[s]) - base
                while column in cells:
                    column += 1
                if s in cars_at:
                    label = f"[{data.CAR_CODES[cars_at[s]]}]"
                elif s in start_at:
                    label = f"#{start_at[s]} "
                else:
                    label = " . "
                cells[column] = label
            row = "".join(cells.get(c, "   ") for c in range(max(cells) + 1))
            lines.append(f"  {name:<{width}} {_lane_name(lane)} {row}")
    lines.append(f"  {'':<{width}}   === finish line ===")
    return "\n".join(lines)


def describe_race(race: int, places: tuple[int, ...], owners: tuple[int, ...]) -> str:
    """Return one line: a race's cars in finishing order, with their owners."""
    cells = [
        f"{place}. {data.CAR_NAMES[car]} "
        + (f"(seat {owners[car]})" if owners[car] >= 0 else "(unowned)")
        for place, car in enumerate(places, 1)
    ]
    return f"race {race + 1}: " + (", ".join(cells) or "no car finished")


def render_state(state: DetroitClevelandState, track: Track, viewer: int | None = None) -> str:
    """Return the match as text; with a ``viewer`` seat, other seats' cards are hidden."""
    options = state.options
    race = min(state.race + 1, options.races)
    lines = [
        f"Detroit-Cleveland Grand Prix on {track.title}: race {race} of {options.races}, "
        f"phase {state.phase}, dealer seat {state.dealer}"
    ]
    lines.append("money: " + ", ".join(f"seat {s} ${m:,}" for s, m in enumerate(state.money)))
    if any(space != OFF_TRACK for space in state.positions):
        lines.append(render_track(track, state.positions))
        for car in range(6):
            owner = state.owner[car]
            who = f"seat {owner}" if owner >= 0 else "no owner"
            space = state.positions[car]
            if space == FINISH:
                where = f"finished {state.finished.index(car) + 1}."
            elif space >= 0:
                where = f"at {track.ids[space]}"
            else:
                where = "not placed"
            lines.append(f"  {data.CAR_CODES[car]} {data.CAR_NAMES[car]:<7} {who:<9} {where}")
    if state.phase == "auction" and state.offer >= 0:
        passed = [s for s, p in enumerate(state.passed) if p]
        high = (
            f"high bid ${state.high_bid:,} by seat {state.high_bidder}"
            if state.high_bidder >= 0
            else "no bid yet"
        )
        lines.append(
            f"auction: {data.CAR_NAMES[state.offer]} on offer, {high}, passed {passed}, "
            f"seat {state.bidder} to bid"
        )
    if state.phase == "race":
        seat = state.order[state.turn % state.players]
        lines.append(f"turn order {list(state.order)}: seat {seat} to play")
        if state.card >= 0:
            lines.append(f"  playing {data.card_label(state.card)}, car {state.slot + 1} next")
        for s in state.switches:
            lines.append(
                f"  switch {data.CAR_CODES[s.a]}/{data.CAR_CODES[s.b]} by seat {s.seat} "
                f"in force until turn {s.until} ends"
            )
        if state.played:
            lines.append("  played: " + ", ".join(data.card_label(c) for c in state.played[-6:]))
    for race, places in enumerate(state.results):
        lines.append(describe_race(race, places, state.owners[race]))
    for seat, hand in enumerate(state.hands):
        if viewer is None or seat == viewer or seat in state.revealed:
            cards = ", ".join(data.card_label(c) for c in hand)
        else:
            cards = "hidden"
        lines.append(f"  seat {seat}: {len(hand)} cards: {cards}")
    return "\n".join(lines)


def render(state: DetroitClevelandState, viewer: int | None = None) -> str:
    """Return the state on its own track (``render_state``): what ``presentation`` shows."""
    return render_state(state, track_of(state.options), viewer)
