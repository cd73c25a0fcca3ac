"""Turning names from the command line into a checked spec, its database and its executor."""

from __future__ import annotations

import math
import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from racedeck.bots.named import is_program, program_spec
from racedeck.core.bot import BotSpec
from racedeck.core.errors import UsageError
from racedeck.core.hashing import digest
from racedeck.core.runner import FAULT_POLICIES
from racedeck.plugins import Registry
from racedeck.tournament.executors import Executor, LocalExecutor, default_workers
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec, encode_spec
from racedeck.tournament.worker import with_program_versions

EXECUTORS: tuple[str, ...] = ("local", "ray")

DEFAULT_DB_DIR = Path("logs")
DEFAULT_MATCHES = 100
"""Without ``--matches``: whole schedule cycles, at least this many matches."""


def plan_tournament(
    registry: Registry,
    game_name: str,
    bots: list[str],
    *,
    matches: int | None,
    seed: int,
    format: str = "round-robin",
    players: int | None = None,
    options: dict[str, Any] | None = None,
    fault_policy: str = "forfeit",
    time_limit: float | None = None,
    keep_logs: str = "none",
    log_compression: str = "gzip",
    plugins_dir: Path | None = None,
    entry_points: bool = True,
    allow_unreproducible: bool = False,
    sandbox_memory: int = 0,
) -> TournamentSpec:
    """Check every name and number and return the tournament's spec (without a log folder).

    The spec records the versions of the game and the bots as this registry has them (a
    program's as it names itself), so that every worker (every node of a cluster) can
    check it plays the same. A bot whose play its seed does not fix (one that reads the
    clock, a person) is refused unless ``allow_unreproducible``: its matches could not be
    replayed or resumed the same. ``sandbox_memory`` plays every bot in a sandbox
    (``--sandbox``).
    """
    game = registry.game(game_name)
    parsed = game.parse_options(options or {})
    # A program is only named here; it is asked who it is below, in its sandbox if any.
    specs = {
        name: program_spec(name) if is_program(name) else registry.bot(name, game.name)
        for name in bots
    }
    versions = {name: spec.version for name, spec in specs.items()}
    unreproducible = [name for name, spec in specs.items() if not reproducible(spec)]
    if unreproducible and not allow_unreproducible:
        names = ", ".join(dict.fromkeys(unreproducible))
        raise UsageError(
            f"{names}: not reproducible (its play depends on the clock or a person, not"
            " only on the seed), so the same seed would not play the same matches; enter"
            " it anyway with --allow-unreproducible"
        )
    if fault_policy not in FAULT_POLICIES:
        raise UsageError(
            f"--fault-policy must be one of {', '.join(FAULT_POLICIES)}, got {fault_policy!r}"
        )
    if format != "gate" and len(set(bots)) != len(bots):
        raise UsageError("name each --bot once; seats are filled by the schedule")
    if players is None:
        players = min(max(len(bots), game.min_players), game.max_players)
    game.check_players(parsed, players)
    spec = TournamentSpec(
        game=game.name,
        bots=tuple(bots),
        players=players,
        matches=matches if matches is not None else 1,
        seed=seed,
        format=format,
        options=dict(options or {}),
        fault_policy=fault_policy,
        time_limit=time_limit,
        keep_logs=keep_logs,
        plugins_dir=str(plugins_dir.resolve()) if plugins_dir is not None else None,
        entry_points=entry_points,
        # How logs are stored only matters when some are kept.
        log_compression=log_compression if keep_logs != "none" else "none",
        rules_version=game.rules_version,
        bot_versions=versions,
        sandbox_memory=sandbox_memory,
    )
    spec.check()
    # A program's own name and version, asked in its sandbox when it is to play in one.
    spec = with_program_versions(spec, registry)
    if matches is None:
        cycle = Schedule(spec).cycle
        spec = _replace(spec, matches=cycle * math.ceil(DEFAULT_MATCHES / cycle))
    return spec


def reproducible(spec: BotSpec) -> bool:
    """Return whether a bot's play is fixed by its seed.

    The registration says so, and its parameters do not say otherwise: a parameters
    object may carry a ``reproducible`` attribute, False for a wall-clock budget set where
    the bot is named (``ismcts:seconds=0.5``).
    """
    return spec.reproducible and getattr(spec.parameters, "reproducible", True) is not False


def default_db_path(spec: TournamentSpec, folder: Path = DEFAULT_DB_DIR) -> Path:
    """Return the database path named after the tournament, the same for the same spec."""
    tag = digest(encode_spec(_replace(spec, log_dir="")))[:10]
    return folder / f"tournament-{spec.game}-{spec.format}-seed{spec.seed}-{tag}.sqlite"


def with_log_dir(spec: TournamentSpec, db_path: Path) -> TournamentSpec:
    """Return ``spec`` keeping its logs in a folder beside its database, when it keeps any."""
    if spec.keep_logs == "none":
        return spec
    folder = db_path.resolve().with_name(db_path.stem + "-logs")
    return _replace(spec, log_dir=str(folder))


def resume_spec(
    spec: TournamentSpec,
    db_path: Path,
    plugins_dir: Path | None,
    programs: Sequence[str] = (),
) -> TournamentSpec:
    """Return the spec to resume a stored tournament with, loading only code it was allowed.

    A database may come from someone else: resuming must not import the ``.py`` files of
    a folder it names, start a program it names (``cmd:...``) unless ``programs`` (the
    user's ``--program``) names it too, nor write logs where it says. The plugins folder
    is loaded only when ``plugins_dir`` (the user's ``--plugins-dir``) names that same
    folder, and kept
    logs go beside the database, as when it was created. A gate's database is refused:
    only the gate goes on with it.
    """
    if spec.format == "gate":
        # A gate stops at its verdict; a tournament's resume would play to the limit.
        raise UsageError(
            f"{db_path} holds a gate of {spec.bots[0]} against {spec.bots[1]}, which stops"
            f" at its verdict: run that gate again with --save {db_path} to go on"
        )
    only_named_code(
        spec, db_path, plugins_dir, programs, "resuming", f"racedeck tournament resume {db_path} "
    )
    return with_log_dir(_replace(spec, log_dir=""), db_path)


def only_named_code(
    spec: TournamentSpec,
    db_path: Path,
    plugins_dir: Path | None,
    programs: Iterable[str],
    doing: str,
    command: str = "",
) -> None:
    """Refuse to run code a stored spec names unless the user named it too.

    A database may come from someone else: a program it names (``cmd:...``) runs only when
    ``programs`` (the user's ``--program``) names it, and its plugins folder is loaded
    only when ``plugins_dir`` (the user's ``--plugins-dir``) is that very folder. ``doing``
    says what would run them (``resuming``), ``command`` what to run instead.
    """
    named = set(programs)
    for name in spec.bots:
        if is_program(name) and name not in named:
            raise UsageError(
                f"{db_path} plays the program {name!r}; {doing} starts it, so say so: "
                f"{command}--program {shlex.quote(name)}"
            )
    stored = spec.plugins_dir
    if stored and plugins_dir is None:
        raise UsageError(
            f"{db_path} loads plugins from {stored}; {doing} runs that folder's code, so "
            f"say so: {command}--plugins-dir {stored}"
        )
    if plugins_dir is not None and (not stored or Path(stored).resolve() != plugins_dir.resolve()):
        raise UsageError(
            f"--plugins-dir {plugins_dir} is not the folder {db_path} was run with "
            f"({stored or 'none'})"
        )


def _replace(spec: TournamentSpec, **changes: Any) -> TournamentSpec:
    return msgspec.structs.replace(spec, **changes)


def make_executor(
    kind: str,
    workers: int | None,
    address: str | None = None,
    plugins_dir: str | None = None,
    most: int | None = None,
) -> Executor:
    """Return the executor ``kind`` names with ``workers`` workers (CPU count by default).

    ``plugins_dir`` is the tournament's ``--plugins-dir``: Ray ships it to its nodes.
    ``most`` is the most matches the run can play: a worker more than that would only be
    started to idle (a local pool starts all of its workers at once, so ``--workers
    100000`` for a few matches would start a hundred thousand processes).
    """
    if kind not in EXECUTORS:
        raise UsageError(f"--executor must be one of {', '.join(EXECUTORS)}, got {kind!r}")
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, got {workers}")
    if address is not None and kind != "ray":
        raise UsageError("--ray-address needs --executor ray")
    if workers is not None and most is not None:
        workers = min(workers, max(1, most))
    if kind == "ray":
        from racedeck.tournament.ray_executor import RayExecutor  # only with the extra

        return RayExecutor(workers, address, plugins_dir)
    return LocalExecutor(workers or default_workers())
