"""The standings as a text table, as JSON, and as a self-contained HTML page."""

from __future__ import annotations

import math
from typing import Any

from racedeck.tournament.standings import BotFigures, Standings
from racedeck.tournament.stats import Tally, finite


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


def bot_rows(standings: Standings) -> list[list[str]]:
    """Return the standings as rows of cells, the header first."""
    unit = standings.unit
    header = ["bot", "matches", "seats", "1st", "1st%", f"mean {unit} (95% CI)", "mean place"]
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
    unit = standings.unit
    rows = [["seat", "matches", "win%", f"mean {unit}", *(f.name for f in standings.bots)]]
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
        f"{_elo(tally.elo())} [{_elo(elo_low)}, {_elo(elo_high)}]",
        f"{100 * tally.los():.1f}",
    ]


def _elo(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


PAIR_HEADER = ["games", "W-D-L", "score% (95% CI)", "Elo (95% CI)", "LOS%"]
"""The columns of a pairing: games, wins-draws-losses, score, Elo-style difference, LOS."""


def head_to_head_rows(standings: Standings) -> list[list[str]]:
    """Return each pair of bots that met as rows of cells, the header first."""
    rows = [["bot", "vs", *PAIR_HEADER]]
    for (a, b), tally in sorted(standings.head_to_head.items()):
        rows.append([a, b, *_pair_cells(tally)])
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
    unit = standings.unit
    lines = [headline(standings), "", *_align(bot_rows(standings))]
    lines.append(
        "(matches: matches played; seats: seats taken, a match with two copies counting"
        " twice; 1st: seats that finished first, ties included)"
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
    if standings.head_to_head:
        lines.append("")
        lines.append("head to head (a game per pair of seats; score% is the first bot's):")
        lines.extend(_align(head_to_head_rows(standings), left=2))
    lines.append("")
    lines.append(f"by seat (mean {unit} of each bot from each seat):")
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
    """Return the standings as JSON-ready data."""
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
        "bots": [
            {
                "bot": f.name,
                "matches": f.matches,
                "seats": f.seats_played,
                "wins": f.wins,
                "forfeits": f.forfeits,
                "mean_score": f.score.mean,
                "ci95": None if math.isinf(f.score.half_width) else f.score.half_width,
                "mean_place": f.place.mean,
                "mu": f.mu,
                "sigma": f.sigma,
                "ordinal": f.ordinal,
                "by_seat": {
                    str(seat): {
                        "matches": s.score.count,
                        "wins": s.wins,
                        "mean_score": s.score.mean,
                    }
                    for seat, s in sorted(f.seats.items())
                },
            }
            for f in standings.bots
        ],
        "seats": {
            str(seat): {"matches": s.score.count, "wins": s.wins, "mean_score": s.score.mean}
            for seat, s in sorted(standings.seats.items())
        },
        "ranked": standings.ranked,
        "head_to_head": [
            {"bot": a, "opponent": b, **pairing_json(tally)}
            for (a, b), tally in sorted(standings.head_to_head.items())
        ],
    }


def pairing_json(tally: Tally) -> dict[str, Any]:
    """Return a pairing's figures as JSON-ready data (``None`` where a figure is infinite)."""
    low, high = tally.score_interval()
    elo_low, elo_high = tally.elo_interval()
    return {
        "games": tally.games,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "score": finite(tally.score),
        "score_ci95": [low, high],
        "elo": finite(tally.elo()),
        "elo_ci95": [finite(elo_low), finite(elo_high)],
        "los": tally.los(),
    }
