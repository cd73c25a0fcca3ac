"""Commands of the tournament group, and the gate; ``register`` adds them to the app.

``racedeck tournament GAME ...`` runs a tournament, ``tournament resume DB`` finishes one,
``tournament report DB`` prints its standings, ``gate GAME ...`` runs the sequential test.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from typer.core import TyperGroup

from racedeck.cli.common import JsonFlag, OptionList, PluginsDir, emit_json, parse_options, registry
from racedeck.cli.sandboxing import BotMemory, SandboxFlag, sandbox_memory, sandbox_of
from racedeck.core.errors import UsageError

if TYPE_CHECKING:
    from racedeck.tournament.gate import Sprt


class _TournamentGroup(TyperGroup):
    """``tournament GAME ...`` runs a tournament; ``resume`` and ``report`` are subcommands."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and not args[0].startswith("-") and args[0] not in self.commands:
            args = [_RUN, *args]
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        if name == _RUN:
            # Usage lines then read "racedeck tournament GAME ...", as the command is typed.
            return "", command, rest
        return name, command, rest


_RUN = "run"


tournament_app = typer.Typer(
    rich_markup_mode=None,
    cls=_TournamentGroup,
    help=(
        "Run a tournament between bots: racedeck tournament GAME --bot A --bot B ..."
        " (see racedeck tournament GAME --help); resume or report one from its database."
    ),
    no_args_is_help=True,
    add_completion=False,
)

Workers = Annotated[
    int | None, typer.Option("--workers", "-w", help="Worker processes (default: the CPU count).")
]
ExecutorKind = Annotated[
    str, typer.Option("--executor", help="Where matches run: local processes, or ray.")
]
TimeLimit = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        help="Seconds a bot may take per decision; an overrun costs the match (default: none).",
    ),
]
AllowUnreproducible = Annotated[
    bool,
    typer.Option(
        "--allow-unreproducible",
        help="Enter bots whose play the seed does not fix (ismcts-timed, human): their"
        " matches cannot be replayed or resumed the same.",
    ),
]
RayAddress = Annotated[
    str | None, typer.Option("--ray-address", help="Join this Ray cluster (default: a local one).")
]

ReportEveryOption = Annotated[
    str | None,
    typer.Option(
        "--report-every",
        metavar="N|Ts",
        help="Off a terminal, a progress line on stderr every N matches or T seconds"
        " (30s); default 10s.",
    ),
]


# The options of ``tournament``.
Matches = Annotated[
    int | None,
    typer.Option("--matches", "-n", help="Matches to play (default: whole cycles, at least 100)."),
]
TournamentSeed = Annotated[
    int, typer.Option(help="The tournament seed; each match's derives from it.")
]
Format = Annotated[
    str, typer.Option("--format", "-f", help="round-robin, duplicate or gauntlet (first bot).")
]
TournamentPlayers = Annotated[
    int | None, typer.Option("--players", "-p", help="Seats per match (default: one per bot).")
]
TournamentDb = Annotated[
    Path | None, typer.Option("--db", help="The tournament database (default: in logs/).")
]
KeepLogs = Annotated[
    str, typer.Option("--keep-logs", help="Match logs to keep: none, all or failures.")
]
LogCompression = Annotated[
    str,
    typer.Option(
        "--log-compression",
        help="How kept logs are stored: gzip (match-N.jsonl.gz) or none (match-N.jsonl).",
    ),
]
FaultPolicyOption = Annotated[
    str, typer.Option(help="What a bot's crash or illegal action costs: forfeit or substitute.")
]

# The options of ``gate``.
Candidate = Annotated[str, typer.Option("--candidate", help="The bot that should be better.")]
Baseline = Annotated[str, typer.Option("--baseline", help="The bot to beat.")]
JudgedDb = Annotated[
    Path | None,
    typer.Option(
        "--db", help="Judge this tournament's recorded matches instead of playing a gate."
    ),
]
Field = Annotated[
    str | None,
    typer.Option("--field", help="The bot in every other seat (default: the baseline)."),
]
GatePlayers = Annotated[
    int | None, typer.Option("--players", "-p", help="Seats per match (default: the fewest).")
]
Alpha = Annotated[float, typer.Option(help="Chance of calling it better when it is not.")]
Beta = Annotated[float, typer.Option(help="Chance of missing a real margin.")]
Margin = Annotated[
    float,
    typer.Option(help="The margin to detect: the candidate wins 0.5 + MARGIN of decisive deals."),
]
MaxMatches = Annotated[
    int, typer.Option("--max-matches", help="Give up undecided after this many matches.")
]
GateSeed = Annotated[int, typer.Option(help="The gate's seed; each deal's derives from it.")]
SavedDb = Annotated[
    Path | None,
    typer.Option(
        "--save",
        help="Keep every match in this database; the same gate run again with it goes on"
        " where it stopped (a higher --max-matches plays on) without playing a match twice.",
    ),
]


@tournament_app.command(_RUN, hidden=True)
def run_command(
    game: Annotated[str, typer.Argument(help="The game, as `racedeck games` names it.")],
    bot: Annotated[list[str], typer.Option("--bot", "-b", help="A bot to enter; repeat for more.")],
    matches: Matches = None,
    seed: TournamentSeed = 0,
    format: Format = "round-robin",
    players: TournamentPlayers = None,
    option: OptionList = None,
    workers: Workers = None,
    executor: ExecutorKind = "local",
    ray_address: RayAddress = None,
    db: TournamentDb = None,
    keep_logs: KeepLogs = "none",
    log_compression: LogCompression = "gzip",
    fault_policy: FaultPolicyOption = "forfeit",
    time_limit: TimeLimit = None,
    report_every: ReportEveryOption = None,
    allow_unreproducible: AllowUnreproducible = False,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
) -> None:
    """Run a tournament and print the standings; one JSON line a match with --json."""
    from racedeck.cli.tournament_play import open_or_create, play_store
    from racedeck.tournament import plan as planned
    from racedeck.tournament.progress import parse_report_every

    if report_every is not None:
        parse_report_every(report_every)
    confine = sandbox_of(sandbox, bot_memory)
    spec = planned.plan_tournament(
        registry(plugins_dir),
        game,
        bot,
        matches=matches,
        seed=seed,
        format=format,
        players=players,
        options=parse_options(option),
        fault_policy=fault_policy,
        time_limit=time_limit,
        keep_logs=keep_logs,
        log_compression=log_compression,
        plugins_dir=plugins_dir,
        allow_unreproducible=allow_unreproducible,
        sandbox_memory=sandbox_memory(confine),
    )
    path = db or planned.default_db_path(spec)
    spec = planned.with_log_dir(spec, path)
    running = planned.make_executor(
        executor, workers, ray_address, spec.plugins_dir, most=spec.matches
    )
    try:
        store = open_or_create(path, spec, json)
    except BaseException:
        running.close()
        raise
    with store, running:
        play_store(store, running, json, report_every)


@tournament_app.command("resume")
def resume_command(
    db: Annotated[Path, typer.Argument(help="The tournament database to finish.")],
    workers: Workers = None,
    executor: ExecutorKind = "local",
    ray_address: RayAddress = None,
    report_every: ReportEveryOption = None,
    json: JsonFlag = False,
    plugins_dir: Annotated[
        Path | None,
        typer.Option(
            "--plugins-dir",
            help="The plugins folder the tournament was run with: its code runs only if named.",
        ),
    ] = None,
    program: Annotated[
        list[str] | None,
        typer.Option(
            "--program",
            help="A program the tournament plays (cmd:...): it is started only if named.",
        ),
    ] = None,
) -> None:
    """Play the matches a stopped tournament is missing, then print the standings."""
    from racedeck.cli.tournament_play import play_store
    from racedeck.tournament.plan import make_executor, resume_spec
    from racedeck.tournament.progress import parse_report_every
    from racedeck.tournament.store import Store
    from racedeck.tournament.worker import VersionMismatch, loaded_versions, version_problem

    if report_every is not None:
        parse_report_every(report_every)
    with Store.open(db) as store:
        # Nothing of the database's plugins folder runs before the user named that folder.
        spec = resume_spec(store.spec, db, plugins_dir, program or ())
        # Said here, in one line, before any worker starts and finds the same.
        problem = version_problem(spec, loaded_versions(spec))
        if problem is not None:
            raise VersionMismatch(f"cannot resume {db}: {problem}")
    with (
        Store.open(db, lock=True) as store,
        make_executor(
            executor, workers, ray_address, spec.plugins_dir, most=spec.matches
        ) as running,
    ):
        store.spec = spec
        play_store(store, running, json, report_every)


@tournament_app.command("report")
def report_command(
    db: Annotated[Path, typer.Argument(help="The tournament database.")],
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained report page here.")
    ] = None,
    json: JsonFlag = False,
) -> None:
    """Print a tournament's standings; with --html, also write a page with plots."""
    from racedeck.cli.tournament_play import game_of, kept_logs, show_standings, standings_output
    from racedeck.tournament.page import write_page
    from racedeck.tournament.standings import compute_standings
    from racedeck.tournament.store import Store

    with Store.open(db) as store:
        standings = compute_standings(store.spec, store.records(), game_of(store.spec))
        logs = kept_logs(store)
    if html is not None:
        write_page(standings, html)
    if json:
        emit_json(standings_output(standings, db, html, logs[0] if logs else None))
        return
    show_standings(standings)
    if html is not None:
        typer.echo(f"\nreport page: {html}")


def gate_command(
    game: Annotated[
        str | None,
        typer.Argument(help="The game, as `racedeck games` names it (not with --db)."),
    ] = None,
    candidate: Candidate = "",
    baseline: Baseline = "",
    db: JudgedDb = None,
    field: Field = None,
    players: GatePlayers = None,
    alpha: Alpha = 0.05,
    beta: Beta = 0.05,
    margin: Margin = 0.1,
    max_matches: MaxMatches = 2000,
    seed: GateSeed = 0,
    option: OptionList = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    executor: ExecutorKind = "local",
    ray_address: RayAddress = None,
    report_every: ReportEveryOption = None,
    save: SavedDb = None,
    allow_unreproducible: AllowUnreproducible = False,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
) -> None:
    """Is CANDIDATE better than BASELINE? Exit 0 if so, 1 if not, 5 if undecided at the limit."""
    import msgspec

    from racedeck.cli import tournament_play as run
    from racedeck.tournament.plan import plan_tournament
    from racedeck.tournament.progress import DEFAULT_REPORT_EVERY, parse_report_every

    confine = sandbox_of(sandbox, bot_memory)
    every = parse_report_every(report_every) if report_every is not None else DEFAULT_REPORT_EVERY
    sprt = _gate_test(candidate, baseline, alpha, beta, margin)
    if db is not None:
        if save is not None:
            raise UsageError("--db judges a tournament that already ran; --save plays a gate")
        if game is not None:
            raise UsageError("with --db the game is the tournament's; drop GAME")
        result = run.judge_database(db, candidate, baseline, sprt)
        run.print_verdict(result, json)
        raise typer.Exit(run.GATE_EXIT_CODES[result.decision])
    if game is None:
        raise UsageError("gate needs GAME, or --db DB to judge a tournament that already ran")
    reg = registry(plugins_dir)
    game_type = reg.game(game)
    spec = plan_tournament(
        reg,
        game,
        [candidate, baseline, field or baseline],
        matches=max_matches,
        seed=seed,
        format="gate",
        players=players if players is not None else max(2, game_type.min_players),
        options=parse_options(option),
        time_limit=time_limit,
        plugins_dir=plugins_dir,
        allow_unreproducible=allow_unreproducible,
        sandbox_memory=sandbox_memory(confine),
    )
    spec = msgspec.structs.replace(spec, sprt=(sprt.alpha, sprt.beta, sprt.p1))
    if spec.matches < 2:
        raise UsageError("--max-matches must be at least 2 (one deal)")
    saved = run.gate_store(save, spec, json) if save is not None else None
    try:
        result = run.play_gate(spec, sprt, saved, executor, workers, ray_address, every, json)
    finally:
        if saved is not None:
            saved.close()
    run.print_verdict(result, json)
    raise typer.Exit(run.GATE_EXIT_CODES[result.decision])


def _gate_test(candidate: str, baseline: str, alpha: float, beta: float, margin: float) -> Sprt:
    """Return the gate's sequential test, refusing a gate without two different bots."""
    from racedeck.tournament.gate import Sprt

    if not candidate or not baseline:
        raise UsageError("gate needs --candidate BOT and --baseline BOT")
    if candidate == baseline:
        raise UsageError("--candidate and --baseline must be different bots")
    try:
        return Sprt(alpha=alpha, beta=beta, p1=0.5 + margin)
    except ValueError as exc:
        raise UsageError(f"gate: {exc}") from None


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` group and the ``gate`` command to ``app``."""
    from racedeck.cli.tournament_matches import log_command, matches_command

    tournament_app.command("matches")(matches_command)
    tournament_app.command("log")(log_command)
    app.add_typer(tournament_app, name="tournament")
    app.command("gate")(gate_command)
