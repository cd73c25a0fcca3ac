"""The standings as a text table, as JSON, and as a self-contained HTML page."""

from __future__ import annotations

import math
from typing import Any

from racedeck.tournament.standings import BotFigures, Standings


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
    return (
        f"{spec.game} {spec.format}, {spec.players} players, seed {spec.seed}: "
        f"{standings.recorded} of {spec.matches} matches ({state}{extra})"
    )


def bot_rows(standings: Standings) -> list[list[str]]:
    """Return the standings as rows of cells, the header first."""
    unit = standings.unit
    header = ["bot", "matches", "wins", "win%", f"mean {unit} (95% CI)", "place"]
    rows = [[*header, "mu", "sigma", "ordinal"]]
    for f in standings.bots:
        rows.append(
            [
                f.name,
                str(f.matches),
                str(f.wins),
                f"{100 * f.wins / f.matches:.1f}" if f.matches else "-",
                _ci(f) if f.matches else "-",
                f"{f.place.mean:.2f}" if f.matches else "-",
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


def standings_table(standings: Standings) -> str:
    """Return the standings and the results by seat as aligned text."""
    unit = standings.unit
    lines = [headline(standings), "", *_align(bot_rows(standings)), ""]
    lines.append(f"by seat (mean {unit} of each bot from each seat):")
    lines.extend(_align(seat_rows(standings)))
    if standings.failures:
        lines.append("")
        lines.append("failures (first ones):")
        lines.extend(f"  {line}" for line in standings.failures)
    return "\n".join(lines)


def _align(rows: list[list[str]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        out.append("  ".join(cells).rstrip())
    return out


def standings_json(standings: Standings) -> dict[str, Any]:
    """Return the standings as JSON-ready data."""
    return {
        "kind": "standings",
        "game": standings.spec.game,
        "format": standings.spec.format,
        "seed": standings.spec.seed,
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
    }
