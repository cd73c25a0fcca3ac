"""A tournament from Python: ``racedeck.run_tournament`` plays one and returns its results.

It goes through the machinery of ``racedeck tournament``: the same plan, schedule, store,
executors and standings, so the same arguments give the same matches and the same figures
as the command. The results are records (lists of dicts, one per bot, pair or match),
ready for ``pandas.DataFrame(result.standings)`` or a plain loop::

    import racedeck
    result = racedeck.run_tournament("lacorsa", ["heuristic", "random"], matches=20,
                                     options={"races": 1})
    result.standings[0]["bot"]          # the leader
    print(result)                       # the table racedeck tournament prints

With one worker (the default) the matches are played in this process; with more, in
worker processes started with ``spawn``, which import the main module again: a script
then needs the usual ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racedeck.core.arguments import integer
from racedeck.core.arguments import names as bot_names
from racedeck.tournament.executors import Executor, InlineExecutor, LocalExecutor
from racedeck.tournament.plan import plan_tournament, with_log_dir
from racedeck.tournament.report import standings_json, standings_table
from racedeck.tournament.run import play
from racedeck.tournament.standings import Standings, compute_standings
from racedeck.tournament.store import Store


@dataclass(frozen=True)
class TournamentResult:
    """What a tournament played from Python gives back: its figures as records."""

    game: str
    format: str
    seed: int
    complete: bool
    score: dict[str, Any]
    """The game's score: its ``name``, ``higher_is_better`` and ``upsets`` (matches whose
    winner had not the best score)."""
    standings: list[dict[str, Any]]
    """One record per bot, best first: matches, seats, wins, mean score, ratings..."""
    head_to_head: list[dict[str, Any]]
    """One record per pair of bots that met: games, wins, draws, losses, score, Elo, LOS."""
    crosstable: dict[str, dict[str, float | None]] | None
    """Each bot's score against each other (a round robin's table); none in a gauntlet."""
    matches: list[dict[str, Any]]
    """One record per match in index order: seed, seats, status, ranks, scores..."""
    db: Path | None
    """The tournament's database, when one was asked for (else it was temporary)."""
    table: str
    """The standings as ``racedeck tournament`` prints them."""

    def __str__(self) -> str:
        """Return the standings table."""
        return self.table


def run_tournament(
    game: str,
    bots: Sequence[str],
    *,
    matches: int | None = None,
    seed: int = 0,
    format: str = "round-robin",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int = 1,
    db: str | Path | None = None,
    fault_policy: str = "forfeit",
    time_limit: float | None = None,
    allow_unreproducible: bool = False,
    plugins_dir: str | Path | None = None,
) -> TournamentResult:
    """Play a tournament of ``bots`` at ``game`` and return its standings, pairs and matches.

    The arguments are those of ``racedeck tournament`` (``docs/tournaments.md``). ``db``
    keeps the database (a run with the same arguments and ``db`` goes on where it
    stopped); without it the database is temporary. Bad input raises the command's
    errors (``racedeck.core.errors``), each with its one-line message.
    """
    from racedeck.plugins import load_registry

    # Checked before anything is written: a bad argument must not leave a database
    # behind that no later run can read.
    names = bot_names(bots, "bots")
    seed = integer(seed, "seed")
    matches = None if matches is None else integer(matches, "matches")
    players = None if players is None else integer(players, "players")
    workers = integer(workers, "workers")
    folder = Path(plugins_dir) if plugins_dir is not None else None
    registry = load_registry(folder)
    spec = plan_tournament(
        registry,
        game,
        names,
        matches=matches,
        seed=seed,
        format=format,
        players=players,
        options=dict(options or {}),
        fault_policy=fault_policy,
        time_limit=time_limit,
        plugins_dir=folder,
        allow_unreproducible=allow_unreproducible,
    )
    executor: Executor = InlineExecutor() if workers <= 1 else LocalExecutor(workers)
    if db is not None:
        path = Path(db)
        standings, records = _played(spec, path, executor, registry.games.get(spec.game))
        return _result(standings, records, path)
    with tempfile.TemporaryDirectory(prefix="racedeck-tournament-") as scratch:
        path = Path(scratch) / "tournament.sqlite"
        standings, records = _played(spec, path, executor, registry.games.get(spec.game))
    return _result(standings, records, None)


def _played(
    spec: Any, path: Path, executor: Executor, game: Any
) -> tuple[Standings, list[dict[str, Any]]]:
    """Play what the database at ``path`` is missing; return the standings and the matches."""
    import msgspec

    from racedeck.core.errors import UsageError

    spec = with_log_dir(spec, path)
    if path.exists():
        store = Store.open(path, write=True)
        if store.spec != spec:
            store.close()
            raise UsageError(f"{path} holds another tournament; choose another db")
    else:
        store = Store.create(path, spec)
    with store, executor:
        play(store, executor)
        records = list(store.records())
    standings = compute_standings(spec, records, game)
    return standings, [msgspec.structs.asdict(record) for record in records]


def _result(
    standings: Standings, matches: list[dict[str, Any]], db: Path | None
) -> TournamentResult:
    data = standings_json(standings)
    return TournamentResult(
        game=standings.spec.game,
        format=standings.spec.format,
        seed=standings.spec.seed,
        complete=standings.complete,
        score=data["score"],
        standings=data["bots"],
        head_to_head=data["head_to_head"],
        crosstable=data["crosstable"],
        matches=matches,
        db=db,
        table=standings_table(standings),
    )
