"""The strength ladder: each built-in bot against the rung below, on duplicate deals.

For every game, at two players and at the game's largest table, each rung (``random``,
``heuristic``, ``ismcts-fast``, ``ismcts``, ``ismcts-strong``) is measured against the
rung below it: every deal is one fixed seed played once per seat, the candidate in that
seat and the rung below in every other (``tools.strength``). A row gives the
candidate's mean score with its 95 % interval and the deals played. Every match of a
table also updates Plackett-Luce ratings (openskill, the tournament's), folded in a fixed
order, so the ratings are reproducible too.

``make strength`` runs the whole ladder and writes the table into ``docs/bots.md``
between the ladder markers; ``python -m tools.ladder GAME ... --write FILE`` plays the
named games' tables again and replaces only theirs there, with a line saying so;
``python -m tools.ladder GAME --players P --rung R`` plays one row, as each row's
command in the table says. Deals are spread over worker
processes match by match and gathered in seed and seat order: the figures do not depend
on the number of workers.
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racedeck.core.runner import run_match
from tools.strength import Z95, seat_score

RUNGS = ("random", "heuristic", "ismcts-fast", "ismcts", "ismcts-strong")
"""The ladder's rungs, weakest first."""

DEALS = {"heuristic": 24, "ismcts-fast": 12, "ismcts": 8, "ismcts-strong": 4}
"""Deals a row plays at two players by default, per candidate."""

LARGE_TABLE_DEALS = {"heuristic": 6, "ismcts-fast": 2, "ismcts": 1, "ismcts-strong": 1}
"""Deals a row plays at the largest table by default (each deal is one match per seat)."""

HOUR_PLAN: dict[tuple[str, int], dict[str, int]] = {}
"""Where the hour cannot hold the default deals, what ``make strength`` plays instead
(0: the row is left out, and the table says so). ``--full`` plays every row. Empty since
Detroit-Cleveland's searches play the cards alone: its two-player rows, which played 8,
2 and 1 deals when its ``ismcts-strong`` match took minutes, now fit at their defaults."""

CHEAPEST_FIRST = ("lacorsa", "famous-500", "wacky-races", "detroit-cleveland")
"""The order the built-in games are played in: the quickest searches first."""

FIRST_SEED = 1
"""The seed of every row's first deal; a row's deals are consecutive seeds from it."""

START = "<!-- ladder:start (written by make strength) -->"
END = "<!-- ladder:end -->"


@dataclass(frozen=True)
class Row:
    """One rung of one table: the candidate against the rung below."""

    game: str
    players: int
    candidate: str
    baseline: str
    deals: int
    first_seed: int
    scores: tuple[float, ...]
    """Per deal, the candidate's mean score over its seats."""
    matches: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...]
    """Every match played, in order: who sat where and the ranks."""
    seconds: float

    @property
    def mean(self) -> float:
        """The candidate's mean score over the deals."""
        return statistics.fmean(self.scores)

    @property
    def half_width(self) -> float:
        """Half the 95 % interval (normal approximation over deals; 0 for one deal)."""
        if len(self.scores) < 2:
            return 0.0
        return Z95 * statistics.stdev(self.scores) / math.sqrt(len(self.scores))

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the mean score, cut to 0 and 1: no score lies outside them.

        The normal approximation can reach past either end when a few deals disagree
        wildly (two deals scoring 0 and 0.5, say); it says nothing there.
        """
        return max(0.0, self.mean - self.half_width), min(1.0, self.mean + self.half_width)

    def command(self) -> str:
        """Return the command that plays this row again."""
        return (
            f"python -m tools.ladder {self.game} --players {self.players} "
            f"--rung {self.candidate} --deals {self.deals} --first-seed {self.first_seed}"
        )


def quick_options(game_name: str) -> dict[str, Any]:
    """Return the option set the ladder plays: the game's first quick set."""
    from racedeck.plugins import load_registry

    game = load_registry(entry_points=False).game(game_name)
    return dict(game.conformance_options[0])


def play_deal(
    game_name: str, candidate: str, baseline: str, players: int, seed: int
) -> tuple[float, list[tuple[tuple[str, ...], tuple[int, ...]]]]:
    """Play one deal: the candidate in each seat in turn, the baseline in the others.

    Returns the candidate's mean score and every match's seating and ranks. Built-in
    games and bots only, so the environment's plugins cannot change a figure.
    """
    played = [
        play_match(game_name, candidate, baseline, players, seed, seat) for seat in range(players)
    ]
    return _deal(played)


def play_match(
    game_name: str, candidate: str, baseline: str, players: int, seed: int, seat: int
) -> tuple[float, tuple[tuple[str, ...], tuple[int, ...]]]:
    """Play the match of a deal with the candidate in ``seat``: its score, seating and ranks."""
    from racedeck.plugins import load_registry

    registry = load_registry(entry_points=False)
    game = registry.game(game_name)
    options = game.parse_options(quick_options(game_name))
    ours, theirs = registry.bot(candidate, game_name), registry.bot(baseline, game_name)
    seats = [theirs] * players
    seats[seat] = ours
    outcome = run_match(game, options, seats, seed, fault_policy="substitute")
    ranks = tuple(outcome.result.ranks)
    return seat_score(ranks, seat), (tuple(s.name for s in seats), ranks)


def _deal(
    played: Sequence[tuple[float, tuple[tuple[str, ...], tuple[int, ...]]]],
) -> tuple[float, list[tuple[tuple[str, ...], tuple[int, ...]]]]:
    """Return a deal's mean score and its matches from its matches, seat by seat."""
    return sum(score for score, _ in played) / len(played), [match for _, match in played]


def play_row(
    game: str,
    players: int,
    candidate: str,
    deals: int,
    first_seed: int = FIRST_SEED,
    pool: ProcessPoolExecutor | None = None,
) -> Row:
    """Play ``deals`` deals of ``candidate`` against the rung below it."""
    baseline = RUNGS[RUNGS.index(candidate) - 1]
    started = time.perf_counter()
    seeds = range(first_seed, first_seed + deals)
    if pool is None:
        played = [play_deal(game, candidate, baseline, players, seed) for seed in seeds]
    else:
        # Match by match, so that a row of one six-seat deal keeps every worker busy; the
        # matches come back in order and are gathered into their deals, seat by seat.
        jobs = [
            (game, candidate, baseline, players, s, seat) for s in seeds for seat in range(players)
        ]
        matches = list(pool.map(play_match, *zip(*jobs, strict=True)))
        played = [_deal(matches[i : i + players]) for i in range(0, len(matches), players)]
    return Row(
        game=game,
        players=players,
        candidate=candidate,
        baseline=baseline,
        deals=deals,
        first_seed=first_seed,
        scores=tuple(score for score, _ in played),
        matches=tuple(match for _, matches in played for match in matches),
        seconds=time.perf_counter() - started,
    )


def ratings(rows: Sequence[Row]) -> dict[str, tuple[float, float]]:
    """Return each rung's Plackett-Luce (mu, sigma) from the rows' matches, in order."""
    from racedeck.tournament.ratings import Ratings

    rated = Ratings(RUNGS)
    for row in rows:
        for seats, ranks in row.matches:
            rated.update(seats, ranks)
    return {rung: (rated.mu(rung), rated.sigma(rung)) for rung in RUNGS}


def table(game: str, players: int, rows: Sequence[Row], left_out: Sequence[str] = ()) -> str:
    """Return one game's table at one table size, in Markdown; ``left_out`` rungs unplayed."""
    rating = ratings(rows)
    by_candidate = {row.candidate: row for row in rows}
    lines = [
        f"**{game}, {players} players**",
        "",
        "| rung | score against the rung below (95 % interval) | Plackett-Luce mu (sigma) "
        "| deals | time | reproduce |",
        "|---|---|---|---|---|---|",
    ]
    for rung in RUNGS:
        mu, sigma = rating[rung]
        row = by_candidate.get(rung)
        if rung in left_out:
            below = RUNGS[RUNGS.index(rung) - 1]
            lines.append(f"| `{rung}` vs `{below}` | not played within the hour | | 0 | | |")
            continue
        if row is None:
            lines.append(f"| `{rung}` | (bottom rung) | {mu:.1f} ({sigma:.1f}) | | | |")
            continue
        if row.deals < 2:
            score = f"{row.mean:.3f} (one deal: no interval)"
        else:
            low, high = row.interval
            score = f"{row.mean:.3f} ({low:.3f}-{high:.3f})"
            if low > 0.5:
                score = f"**{score}**"
        lines.append(
            f"| `{rung}` vs `{row.baseline}` | {score} | {mu:.1f} ({sigma:.1f}) "
            f"| {row.deals} | {row.seconds:.0f} s | `{row.command()}` |"
        )
    return "\n".join(lines)


def table_sizes(game_name: str) -> tuple[int, ...]:
    """Return the ladder's table sizes for a game: two players and its largest table."""
    from racedeck.plugins import load_registry

    game = load_registry(entry_points=False).game(game_name)
    low = max(2, game.min_players)
    return tuple(sorted({low, game.max_players}))


_HEADING = re.compile(r"\*\*(?P<game>[^,*]+), (?P<players>\d+) players\*\*")
"""A table's first paragraph: its game and table size in bold."""
_REFRESHED = re.compile(r"The tables of (?P<games>[^ ]+(?:, [^ ]+)*) were played again")
"""How a line about tables played again after the whole ladder begins."""


def merged(old: str, new: str, games: Sequence[str]) -> str:
    """Return the ladder ``old`` with the tables of ``games`` taken from ``new``.

    The other tables and what is said under them stay; a line about an earlier refresh
    of only these games goes, and ``new``'s own lines (its time, what is still to play)
    are added after the tables.
    """
    old_tables, old_notes = _split(old)
    new_tables, new_notes = _split(new)
    tables = {key: text for key, text in old_tables.items() if key[0] not in games}
    tables.update(new_tables)
    order = [key for key in old_tables if key in tables]
    order += [key for key in new_tables if key not in order]
    notes = [note for note in old_notes if not _superseded(note, games)]
    return "\n\n".join([*(tables[key] for key in order), *notes, *new_notes])


def _superseded(note: str, games: Sequence[str]) -> bool:
    """Return True when a ladder's line is outdated once ``games``' tables are played again."""
    if note.startswith("(Still to play"):
        return True
    found = _REFRESHED.match(note)
    return found is not None and set(found["games"].split(", ")) <= set(games)


def _split(block: str) -> tuple[dict[tuple[str, int], str], list[str]]:
    """Return a ladder's tables by (game, players), and its other paragraphs in order."""
    tables: dict[tuple[str, int], str] = {}
    notes: list[str] = []
    paragraphs = [p for p in block.strip().split("\n\n") if p.strip()]
    index = 0
    while index < len(paragraphs):
        heading = _HEADING.fullmatch(paragraphs[index].strip())
        if heading is not None and index + 1 < len(paragraphs):
            key = (heading["game"], int(heading["players"]))
            tables[key] = f"{paragraphs[index]}\n\n{paragraphs[index + 1]}"
            index += 2
        else:
            notes.append(paragraphs[index])
            index += 1
    return tables, notes


def write_into(path: Path, text: str, games: Sequence[str] | None = None) -> None:
    """Replace what lies between the ladder markers of ``path`` with ``text``.

    With ``games``, ``text`` holds only those games' tables: they replace theirs, and the
    other tables stay (``merged``). The file is written whole through a temporary file,
    so it is never left half-written.
    """
    document = path.read_text(encoding="utf-8")
    head, start, rest = document.partition(START)
    old, end, tail = rest.partition(END)
    if not start or not end:
        raise SystemExit(f"ladder: {path} has no ladder markers ({START} ... {END})")
    if games is not None:
        text = merged(old, text, games)
    temporary = path.with_suffix(path.suffix + ".tmp")
    temporary.write_text(f"{head}{START}\n{text}\n{END}{tail}", encoding="utf-8")
    temporary.replace(path)


def deals_for(game: str, players: int, rung: str, full: bool) -> int:
    """Return how many deals the ladder plays for one row (0: left out)."""
    plan = DEALS if players == 2 else LARGE_TABLE_DEALS
    if not full:
        plan = HOUR_PLAN.get((game, players), plan)
    return plan[rung]


def run_ladder(
    games: Sequence[str],
    workers: int,
    scale: float = 1.0,
    full: bool = False,
    log: Any = None,
    write: Path | None = None,
    only: bool = False,
) -> tuple[str, float]:
    """Play every row of every table; return the Markdown of all tables and the seconds.

    With ``write``, the tables played so far go into that file after each table, with a
    line naming the tables still to play, so an interrupted run never looks complete;
    with ``only`` too, the other games' tables there are kept (``write_into``).
    """
    started = time.perf_counter()
    parts: list[str] = []
    tables = [(game, players) for game in games for players in table_sizes(game)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for index, (game, players) in enumerate(tables):
            rows = []
            left_out = []
            for rung in RUNGS[1:]:
                planned = deals_for(game, players, rung, full)
                if planned == 0:
                    left_out.append(rung)
                    continue
                deals = max(1, round(planned * scale))
                row = play_row(game, players, rung, deals, pool=pool)
                rows.append(row)
                if log is not None:
                    print(
                        f"{game} {players}p {rung} vs {row.baseline}: {row.mean:.3f} "
                        f"+- {row.half_width:.3f} over {deals} deals, {row.seconds:.0f} s",
                        file=log,
                        flush=True,
                    )
            parts.append(table(game, players, rows, left_out))
            if write is not None and index + 1 < len(tables):
                waiting = ", ".join(f"{g} at {p} players" for g, p in tables[index + 1 :])
                write_into(
                    write,
                    "\n\n".join(parts) + f"\n\n(Still to play: {waiting}.)",
                    games if only else None,
                )
    return "\n\n".join(parts), time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    """Play the ladder (or one row of it) and print it; ``--write`` puts it in the docs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="*", help="games (default: every built-in game)")
    parser.add_argument("--players", type=int, help="one table size (with --rung: one row)")
    parser.add_argument("--rung", choices=RUNGS[1:], help="play this rung's row only")
    parser.add_argument("--deals", type=int, help="deals of the one row")
    parser.add_argument("--first-seed", type=int, default=FIRST_SEED)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply every row's default deals"
    )
    parser.add_argument("--write", type=Path, help="write the tables into this Markdown file")
    parser.add_argument(
        "--full", action="store_true", help="play every row with the default deals (hours)"
    )
    args = parser.parse_args(argv)
    from racedeck.plugins import load_registry

    known = sorted(load_registry(entry_points=False).games)
    order = {game: i for i, game in enumerate(CHEAPEST_FIRST)}
    games = args.game or sorted(known, key=lambda g: (order.get(g, len(order)), g))
    for game in games:
        if game not in known:
            print(f"ladder: unknown game {game!r} (built-in: {', '.join(known)})", file=sys.stderr)
            return 2
    if args.rung is not None:
        if len(games) != 1 or args.players is None:
            print("ladder: --rung needs one game and --players", file=sys.stderr)
            return 2
        deals = args.deals or deals_for(games[0], args.players, args.rung, full=True)
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            row = play_row(games[0], args.players, args.rung, deals, args.first_seed, pool)
        low, high = row.interval
        print(
            f"{row.game} {row.players}p {row.candidate} vs {row.baseline}: score "
            f"{row.mean:.3f} (95% CI {low:.3f}-{high:.3f}) over {row.deals} deals, "
            f"{row.seconds:.0f} s"
        )
        return 0
    only = bool(args.game) and set(games) != set(known)
    text, seconds = run_ladder(
        games, args.workers, args.scale, args.full, log=sys.stderr, write=args.write, only=only
    )
    flags = "".join(
        [
            f" {' '.join(args.game)}" if args.game else "",
            f" --scale {args.scale}" if args.scale != 1 else "",
            " --full" if args.full else "",
        ]
    )
    command = f"`python -m tools.ladder --workers {args.workers}{flags}`"
    workers = f"{args.workers} worker process{'' if args.workers == 1 else 'es'}"
    if only:
        text += (
            f"\n\nThe tables of {', '.join(games)} were played again after the rest, in "
            f"{seconds / 60:.1f} minutes with {workers} ({command})."
        )
    else:
        text += f"\n\nThis ladder took {seconds / 60:.1f} minutes with {workers} ({command})."
    print(text)
    if args.write is not None:
        write_into(args.write, text, games if only else None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
