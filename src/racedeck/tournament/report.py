"""The standings as a text table, as JSON, and as a self-contained HTML page."""

from __future__ import annotations

import math
from typing import Any

from racedeck.tournament.standings import BotFigures, Score, Standings
from racedeck.tournament.stats import Tally, finite

ARROWS = {True: "↑", False: "↓"}
"""Beside a column's name: which way is better."""


def _ci(figures: BotFigures) -> str:
    half = figures.score.half_width
    spread = "" if math.isinf(half) else f" ± {half:.2f}"
    return f"{figures.score.mean:.2f}{spread}"


def headline(standings: Standings) -> str:
    """Return one line naming the tournament and how far it got."""
    spec = standings.spec
    state = "complete" if standings.complete else "incomplete"
    extra = ""
    if standings.forfeits or standings.errors:
        extra = f", {standings.forfeits} forfeited, {standings.errors} failed to play"
    if spec.format == "gate":
        # A gate ends at its verdict, mostly long before its limit: a count of a limit
        # would read as unfinished.
        counted = f"{standings.recorded} matches played (limit {spec.matches}{extra})"
    else:
        counted = f"{standings.recorded} of {spec.matches} matches ({state}{extra})"
    return f"{spec.game} {spec.format}, {spec.players} players, seed {spec.seed}: {counted}"


def _score_label(score: Score) -> str:
    return f"mean {score.name} {ARROWS[score.higher_is_better]}"


def bot_rows(standings: Standings) -> list[list[str]]:
    """Return the standings as rows of cells, the header first."""
    label = _score_label(standings.score)
    header = ["bot", "matches", "seats", "1st", "1st%", f"{label} (95% CI)", "mean rank ↓"]
    rows = [[*header, "mu", "sigma", "ordinal"]]
    for f in standings.bots:
        seats = f.seats_played
        rows.append(
            [
                f.name,
                str(f.matches),
                str(seats),
                str(f.wins),
                f"{100 * f.wins / seats:.1f}" if seats else "-",
                _ci(f) if seats else "-",
                f"{f.place.mean:.2f}" if seats else "-",
                f"{f.mu:.2f}",
                f"{f.sigma:.2f}",
                f"{f.ordinal:.2f}",
            ]
        )
    return rows


def seat_rows(standings: Standings) -> list[list[str]]:
    """Return the results by seat as rows of cells, the header first."""
    label = _score_label(standings.score)
    rows = [["seat", "matches", "win%", label, *(f.name for f in standings.bots)]]
    for seat in sorted(standings.seats):
        at = standings.seats[seat]
        per_bot = []
        for f in standings.bots:
            mine = f.seats.get(seat)
            per_bot.append(f"{mine.score.mean:.2f}" if mine else "-")
        rows.append(
            [
                str(seat),
                str(at.score.count),
                f"{100 * at.wins / at.score.count:.1f}",
                f"{at.score.mean:.2f}",
                *per_bot,
            ]
        )
    return rows


def _pair_cells(tally: Tally) -> list[str]:
    low, high = tally.score_interval()
    elo_low, elo_high = tally.elo_interval()
    return [
        str(tally.games),
        f"{tally.wins}-{tally.draws}-{tally.losses}",
        f"{100 * tally.score:.1f} [{100 * low:.1f}, {100 * high:.1f}]",
        _elo_cell(tally.elo(), elo_low, elo_high),
        f"{100 * tally.los():.1f}",
    ]


def _elo_cell(elo: float, low: float, high: float) -> str:
    """Return the Elo-style difference and its interval; one-sided results give a bound.

    When every game went one way the difference has no finite estimate: what the games
    show is that it is at least the interval's finite end (``>+327``).
    """
    if math.isinf(elo) and elo > 0:
        return f">{_elo(low)} [{_elo(low)}, -]"
    if math.isinf(elo):
        return f"<{_elo(high)} [-, {_elo(high)}]"
    return f"{_elo(elo)} [{_elo(low)}, {_elo(high)}]"


def _elo(value: float) -> str:
    if not math.isfinite(value):
        return "-"
    return f"{value:+.0f}"


PAIR_HEADER = ["games", "W-D-L", "score% (95% CI)", "Elo (95% CI)", "LOS%"]
"""The columns of a pairing: games, wins-draws-losses, score, Elo-style difference, LOS."""


def head_to_head_rows(standings: Standings, leave_out: str | None = None) -> list[list[str]]:
    """Return each pair of bots that met as rows of cells, the header first.

    ``leave_out`` drops the pairs of one bot (a gauntlet's candidate, shown on its own).
    """
    rows = [["bot", "vs", *PAIR_HEADER]]
    for (a, b), tally in sorted(standings.head_to_head.items()):
        if leave_out not in (a, b):
            rows.append([a, b, *_pair_cells(tally)])
    return rows


def crosstable(standings: Standings) -> dict[str, dict[str, float | None]]:
    """Return each bot's score against each other bot (None where they never met).

    A round robin's table in one view: the row bot's share of the games against the column
    bot, a draw counting half.
    """
    names = [f.name for f in standings.bots]
    return {
        bot: {
            other: _round(standings.pairing(bot, other).score, 4) if other != bot else None
            for other in names
        }
        for bot in names
    }


def crosstable_rows(standings: Standings) -> list[list[str]]:
    """Return the crosstable as rows of cells (score% of the row's bot), the header first."""
    table = crosstable(standings)
    names = list(table)
    rows = [["bot", *names]]
    for bot in names:
        cells = [f"{100 * s:.1f}" if s is not None else "-" for s in table[bot].values()]
        rows.append([bot, *cells])
    return rows


def opponent_rows(standings: Standings) -> list[list[str]]:
    """Return the gauntlet's candidate against each opponent, the header first."""
    candidate = standings.spec.bots[0]
    rows = [["opponent", *PAIR_HEADER]]
    for opponent in dict.fromkeys(standings.spec.bots[1:]):
        tally = standings.pairing(candidate, opponent)
        if tally.games:
            rows.append([opponent, *_pair_cells(tally)])
    return rows


def standings_table(standings: Standings) -> str:
    """Return the standings, the pairings and the results by seat as aligned text."""
    score = standings.score
    lines = [headline(standings), "", *_align(bot_rows(standings))]
    lines.append(
        "(matches: matches played; seats: seats taken, a match with two copies counting"
        " twice; 1st: seats that finished first, ties included; rank: the place among the"
        f" seats, 1 first; {score.name}: the game's score, {score.direction}; the order is"
        " by rating, from the finishing order)"
    )
    if standings.upsets:
        lines.append(
            f"({score.name} do not decide a match on their own: in {standings.upsets} of"
            f" {standings.recorded - standings.errors} matches the winner had not the best)"
        )
    if standings.spec.format == "gauntlet":
        candidate = standings.spec.bots[0]
        if not standings.ranked:
            lines.append(
                "gauntlet: the opponents met only the candidate, so they are listed, not ranked"
            )
        lines.append("")
        lines.append(f"{candidate} against each opponent (a game per pair of seats):")
        lines.extend(_align(opponent_rows(standings)))
    gauntlet = standings.spec.bots[0] if standings.spec.format == "gauntlet" else None
    pairs = head_to_head_rows(standings, leave_out=gauntlet)
    if len(pairs) > 1:
        lines.append("")
        lines.append("head to head (a game per pair of seats; score% is the first bot's):")
        lines.extend(_align(pairs, left=2))
    if gauntlet is None and len(standings.bots) > 2 and standings.head_to_head:
        lines.append("")
        lines.append("crosstable (score% of the row's bot against the column's):")
        lines.extend(_align(crosstable_rows(standings)))
    lines.append("")
    lines.append(f"by seat ({_score_label(score)} of each bot from each seat):")
    lines.extend(_align(seat_rows(standings)))
    if standings.failures:
        lines.append("")
        lines.append("failures (first ones):")
        lines.extend(f"  {line}" for line in standings.failures)
    return "\n".join(lines)


def _align(rows: list[list[str]], left: int = 1) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [c.ljust(w) for c, w in zip(row[:left], widths[:left], strict=True)] + [
            c.rjust(w) for c, w in zip(row[left:], widths[left:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return out


def standings_json(standings: Standings) -> dict[str, Any]:
    """Return the standings as JSON-ready data, each figure rounded to what it means.

    Means and ratings keep three decimals, shares four, Elo-style differences one.
    """
    return {
        "game": standings.spec.game,
        "format": standings.spec.format,
        "seed": str(standings.spec.seed),
        "scheduled": standings.spec.matches,
        "recorded": standings.recorded,
        "complete": standings.complete,
        "forfeits": standings.forfeits,
        "errors": standings.errors,
        "unit": standings.unit,
        "score": {
            "name": standings.score.name,
            "higher_is_better": standings.score.higher_is_better,
            "upsets": standings.upsets,
        },
        "decision": standings.decision,
        "bots": [_bot_json(f) for f in standings.bots],
        "seats": {
            str(seat): _seat_json(s.score.count, s.wins, s.score.mean)
            for seat, s in sorted(standings.seats.items())
        },
        "ranked": standings.ranked,
        "head_to_head": [
            {"bot": a, "opponent": b, **pairing_json(tally)}
            for (a, b), tally in sorted(standings.head_to_head.items())
        ],
        "crosstable": crosstable(standings) if standings.spec.format != "gauntlet" else None,
    }


def _bot_json(f: BotFigures) -> dict[str, Any]:
    return {
        "bot": f.name,
        "matches": f.matches,
        "seats": f.seats_played,
        "wins": f.wins,
        "forfeits": f.forfeits,
        "mean_score": _round(f.score.mean, 3),
        "ci95": None if math.isinf(f.score.half_width) else _round(f.score.half_width, 3),
        "mean_place": _round(f.place.mean, 3),
        "mu": _round(f.mu, 3),
        "sigma": _round(f.sigma, 3),
        "ordinal": _round(f.ordinal, 3),
        "by_seat": {
            str(seat): _seat_json(s.score.count, s.wins, s.score.mean)
            for seat, s in sorted(f.seats.items())
        },
    }


def _seat_json(matches: int, wins: int, mean: float) -> dict[str, Any]:
    return {"matches": matches, "wins": wins, "mean_score": _round(mean, 3)}


def pairing_json(tally: Tally) -> dict[str, Any]:
    """Return a pairing's figures as JSON-ready data (``None`` where a figure is infinite)."""
    low, high = tally.score_interval()
    elo_low, elo_high = tally.elo_interval()
    return {
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": _round(finite(tally.score), 4),
        "score_ci95": [_round(low, 4), _round(high, 4)],
        "elo": _round(finite(tally.elo()), 1),
        "elo_ci95": [_round(finite(elo_low), 1), _round(finite(elo_high), 1)],
        "los": _round(tally.los(), 4),
    }


def _round(value: float | None, digits: int) -> float | None:
    """Round a figure for JSON; None (no finite value) stays None."""
    return None if value is None or not math.isfinite(value) else round(value, digits)
