"""Commands of the tournament group, and the gate; ``register`` adds them to the app.

``racedeck tournament GAME ...`` runs a tournament, ``tournament resume DB`` finishes one,
``tournament report DB`` prints its standings, ``gate GAME ...`` runs the sequential test.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Annotated, Any, TextIO

import msgspec
import typer
from typer.core import TyperGroup

from racedeck.cli.common import JsonFlag, OptionList, PluginsDir, emit_json, parse_options, registry
from racedeck.cli.contract import GateOutput, MatchOutput, StandingsOutput
from racedeck.cli.sandboxing import BotMemory, SandboxFlag, sandbox_memory, sandbox_of
from racedeck.core import interrupts
from racedeck.core.errors import RacedeckError, UsageError
from racedeck.tournament.executors import Executor
from racedeck.tournament.gate import (
    BETTER,
    NOT_BETTER,
    UNDECIDED,
    GateResult,
    Sprt,
    gate_from_records,
    judge_saved_gate,
    run_gate,
)
from racedeck.tournament.page import write_page
from racedeck.tournament.plan import (
    default_db_path,
    make_executor,
    plan_tournament,
    resume_spec,
    with_log_dir,
)
from racedeck.tournament.progress import (
    DEFAULT_REPORT_EVERY,
    Progress,
    ProgressBar,
    ProgressLines,
    ReportEvery,
    parse_report_every,
)
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.report import standings_json, standings_table
from racedeck.tournament.run import play
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import Standings, compute_standings
from racedeck.tournament.store import Store, database_exists
from racedeck.tournament.worker import (
    VersionMismatch,
    loaded_versions,
    version_problem,
)


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


class Interrupted(RacedeckError):
    """The user stopped a tournament with Ctrl-C; it can be resumed."""

    exit_code = 130


GATE_EXIT_CODES = {BETTER: 0, NOT_BETTER: 1, UNDECIDED: 5}
"""The gate's exit status: 0 the candidate is better, 1 it is not, 5 undecided at the limit.

Undecided has a status of its own, apart from 2 (a usage error), so that a script can tell
a gate that needs more matches from a command line that was wrong."""


tournament_app = typer.Typer(
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
RayAddress = Annotated[
    str | None, typer.Option("--ray-address", help="Join this Ray cluster (default: a local one).")
]


def _match_line(record: MatchRecord) -> MatchOutput:
    fields = msgspec.structs.asdict(record)
    fields["seed"] = str(record.seed)
    return msgspec.convert(fields, MatchOutput)


ReportEveryOption = Annotated[
    str | None,
    typer.Option(
        "--report-every",
        metavar="N|Ts",
        help="Off a terminal, a progress line on stderr every N matches or T seconds"
        " (30s); default 10s.",
    ),
]


def _progress(store: Store, report_every: str | None) -> Progress | None:
    """Return the bar on a terminal, plain lines elsewhere: stderr, beside --json's stdout."""
    every = parse_report_every(report_every) if report_every is not None else None
    done = store.count()
    if sys.stderr.isatty() and every is None:
        return ProgressBar(store.spec.matches, done, sys.stderr)
    return ProgressLines(store.spec.matches, done, sys.stderr, every or DEFAULT_REPORT_EVERY)


def _play_store(
    store: Store, executor: Executor, json: bool, report_every: str | None = None
) -> None:
    before = store.count()
    progress = _progress(store, report_every)

    def on_record(record: MatchRecord) -> None:
        if json:
            emit_json(_match_line(record))
        if progress is not None:
            progress.record(record)

    try:
        with interrupts.sigterm_interrupts():
            play(store, executor, on_record)
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
            progress = None
        saved = store.count()
        finished = saved - before
        raise Interrupted(
            f"interrupted; {finished} {'match' if finished == 1 else 'matches'} finished in"
            f" this run and {'is' if finished == 1 else 'are'} saved"
            f" ({saved} of {store.spec.matches} in all), resume with:"
            f" racedeck tournament resume {store.path}"
        ) from None
    finally:
        if progress is not None:
            progress.close()
    _print_standings(store, json)


def _print_standings(store: Store, json: bool) -> None:
    standings = compute_standings(store.spec, store.records())
    if json:
        emit_json(_standings_output(standings, store.path, None))
    else:
        typer.echo(standings_table(standings))
        typer.echo(f"\ndatabase: {store.path}")


def _standings_output(standings: Standings, db: Path, html: Path | None) -> StandingsOutput:
    fields = standings_json(standings)
    fields.update(db=str(db), html=str(html) if html else None)
    return msgspec.convert(fields, StandingsOutput)


@tournament_app.command(_RUN, hidden=True)
def run_command(
    game: Annotated[str, typer.Argument(help="The game, as `racedeck games` names it.")],
    bot: Annotated[list[str], typer.Option("--bot", "-b", help="A bot to enter; repeat for more.")],
    matches: Annotated[
        int | None,
        typer.Option(
            "--matches", "-n", help="Matches to play (default: whole cycles, at least 100)."
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option(help="The tournament seed; each match's derives from it.")
    ] = 0,
    format: Annotated[
        str, typer.Option("--format", "-f", help="round-robin, duplicate or gauntlet (first bot).")
    ] = "round-robin",
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Seats per match (default: one per bot).")
    ] = None,
    option: OptionList = None,
    workers: Workers = None,
    executor: ExecutorKind = "local",
    ray_address: RayAddress = None,
    db: Annotated[
        Path | None, typer.Option("--db", help="The tournament database (default: in logs/).")
    ] = None,
    keep_logs: Annotated[
        str, typer.Option("--keep-logs", help="Match logs to keep: none, all or failures.")
    ] = "none",
    log_compression: Annotated[
        str,
        typer.Option(
            "--log-compression",
            help="How kept logs are stored: gzip (match-N.jsonl.gz) or none (match-N.jsonl).",
        ),
    ] = "gzip",
    fault_policy: Annotated[
        str, typer.Option(help="What a bot's crash or illegal action costs: forfeit or substitute.")
    ] = "forfeit",
    time_limit: TimeLimit = None,
    report_every: ReportEveryOption = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
) -> None:
    """Run a tournament and print the standings; one JSON line a match with --json."""
    if report_every is not None:
        parse_report_every(report_every)
    confine = sandbox_of(sandbox, bot_memory)
    reg = registry(plugins_dir)
    spec = plan_tournament(
        reg,
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
        sandbox_memory=sandbox_memory(confine),
    )
    path = db or default_db_path(spec)
    spec = with_log_dir(spec, path)
    running = make_executor(executor, workers, ray_address, spec.plugins_dir)
    try:
        store = _open_or_create(path, spec, json)
    except BaseException:
        running.close()
        raise
    with store, running:
        _play_store(store, running, json, report_every)


def _open_or_create(path: Path, spec: TournamentSpec, json: bool) -> Store:
    """Create the database, or reopen it when it holds this very tournament."""
    if not database_exists(path):
        return Store.create(path, spec, lock=True)
    store = Store.open(path, lock=True)
    if store.spec != spec:
        store.close()
        raise UsageError(
            f"{path} holds another tournament; choose another --db, or continue it with"
            f" racedeck tournament resume {path}"
        )
    if not json:
        typer.echo(
            f"continuing {path}: {store.count()} of {spec.matches} matches recorded", err=True
        )
    return store


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
        make_executor(executor, workers, ray_address, spec.plugins_dir) as running,
    ):
        store.spec = spec
        _play_store(store, running, json, report_every)


@tournament_app.command("report")
def report_command(
    db: Annotated[Path, typer.Argument(help="The tournament database.")],
    html: Annotated[
        Path | None, typer.Option("--html", help="Also write a self-contained report page here.")
    ] = None,
    json: JsonFlag = False,
) -> None:
    """Print a tournament's standings; with --html, also write a page with plots."""
    with Store.open(db) as store:
        standings = compute_standings(store.spec, store.records())
    if html is not None:
        write_page(standings, html)
    if json:
        emit_json(_standings_output(standings, db, html))
        return
    typer.echo(standings_table(standings))
    if html is not None:
        typer.echo(f"\nreport page: {html}")


def gate_command(
    game: Annotated[
        str | None,
        typer.Argument(help="The game, as `racedeck games` names it (not with --db)."),
    ] = None,
    candidate: Annotated[
        str, typer.Option("--candidate", help="The bot that should be better.")
    ] = "",
    baseline: Annotated[str, typer.Option("--baseline", help="The bot to beat.")] = "",
    db: Annotated[
        Path | None,
        typer.Option(
            "--db", help="Judge this tournament's recorded matches instead of playing a gate."
        ),
    ] = None,
    field: Annotated[
        str | None,
        typer.Option("--field", help="The bot in every other seat (default: the baseline)."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Seats per match (default: the fewest).")
    ] = None,
    alpha: Annotated[
        float, typer.Option(help="Chance of calling it better when it is not.")
    ] = 0.05,
    beta: Annotated[float, typer.Option(help="Chance of missing a real margin.")] = 0.05,
    margin: Annotated[
        float,
        typer.Option(
            help="The margin to detect: the candidate wins 0.5 + MARGIN of decisive deals."
        ),
    ] = 0.1,
    max_matches: Annotated[
        int, typer.Option("--max-matches", help="Give up undecided after this many matches.")
    ] = 2000,
    seed: Annotated[int, typer.Option(help="The gate's seed; each deal's derives from it.")] = 0,
    option: OptionList = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    executor: ExecutorKind = "local",
    ray_address: RayAddress = None,
    report_every: ReportEveryOption = None,
    save: Annotated[
        Path | None,
        typer.Option(
            "--save",
            help="Keep every match in this database; the same gate run again with it goes on"
            " where it stopped (a higher --max-matches plays on) without playing a match twice.",
        ),
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
) -> None:
    """Is CANDIDATE better than BASELINE? Exit 0 if so, 1 if not, 5 if undecided at the limit."""
    confine = sandbox_of(sandbox, bot_memory)
    every = parse_report_every(report_every) if report_every is not None else DEFAULT_REPORT_EVERY
    if not candidate or not baseline:
        raise UsageError("gate needs --candidate BOT and --baseline BOT")
    if candidate == baseline:
        raise UsageError("--candidate and --baseline must be different bots")
    try:
        sprt = Sprt(alpha=alpha, beta=beta, p1=0.5 + margin)
    except ValueError as exc:
        raise UsageError(f"gate: {exc}") from None
    if db is not None:
        if save is not None:
            raise UsageError("--db judges a tournament that already ran; --save plays a gate")
        if game is not None:
            raise UsageError("with --db the game is the tournament's; drop GAME")
        with Store.open(db) as store:
            # A saved gate is judged as the gate judged it: by deals, in order.
            judge = judge_saved_gate if store.spec.format == "gate" else gate_from_records
            result = judge(store.spec, store.records(), candidate, baseline, sprt)
        _print_verdict(result, json)
        raise typer.Exit(GATE_EXIT_CODES[result.decision])
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
        sandbox_memory=sandbox_memory(confine),
    )
    if spec.matches < 2:
        raise UsageError("--max-matches must be at least 2 (one deal)")
    saved = _gate_store(save, spec, json) if save is not None else None
    try:
        result = _play_gate(spec, sprt, saved, executor, workers, ray_address, every, json)
    finally:
        if saved is not None:
            saved.close()
    _print_verdict(result, json)
    raise typer.Exit(GATE_EXIT_CODES[result.decision])


def _gate_store(path: Path, spec: TournamentSpec, json: bool) -> Store:
    """Create the gate's database, or reopen it when it holds this very gate.

    The match limit may differ (raising it is how a gate undecided at its limit goes on);
    anything else that shapes the matches must be the same, or they would not be its own.
    """
    if not database_exists(path):
        return Store.create(path, spec, lock=True)
    store = Store.open(path, lock=True)
    if msgspec.structs.replace(store.spec, matches=spec.matches) != spec:
        store.close()
        raise UsageError(
            f"{path} holds another gate or tournament (another game, bots, seed, options,"
            " table or time limit); choose another --save"
        )
    if store.spec.matches != spec.matches:
        store.set_match_limit(spec.matches)
    if not json:
        typer.echo(f"continuing {path}: {store.count()} matches recorded", err=True)
    return store


def _play_gate(
    spec: TournamentSpec,
    sprt: Sprt,
    store: Store | None,
    executor: str,
    workers: int | None,
    ray_address: str | None,
    every: ReportEvery,
    json: bool,
) -> GateResult:
    """Run the gate, recording each match in ``store`` (when saving) as soon as it is back."""
    recorded = list(store.records()) if store is not None else []
    on_played = store.add_many if store is not None else None
    with (
        interrupts.sigterm_interrupts(),
        make_executor(executor, workers, ray_address, spec.plugins_dir) as running,
    ):
        try:
            return run_gate(
                spec,
                running,
                sprt,
                (lambda r: emit_json(_match_line(r))) if json else None,
                GateProgress(sys.stderr, every, spec.matches),
                recorded=recorded,
                on_played=on_played,
            )
        except KeyboardInterrupt:
            if store is None:
                raise
            # What the workers had finished but not handed back is kept too.
            store.add_many([match.record for match in running.stop()])
            raise Interrupted(
                f"interrupted; {store.count()} matches are saved in {store.path}; run the"
                " same gate with the same --save to go on"
            ) from None


def _print_verdict(result: GateResult, json: bool) -> None:
    sprt = result.sprt
    if not json:
        typer.echo(result.verdict())
        return
    # The verdict line stays readable in a CI log; stdout keeps its JSON.
    typer.echo(result.verdict(), err=True)
    emit_json(
        msgspec.convert(
            {
                "decision": result.decision,
                "candidate": result.candidate,
                "baseline": result.baseline,
                "counted": result.unit,
                "matches": result.matches,
                "deals": result.deals,
                "wins": sprt.wins,
                "losses": sprt.losses,
                "draws": sprt.draws,
                "errors": result.errors,
                "llr": sprt.llr,
                "bounds": [sprt.lower, sprt.upper],
                **result.figures_json(),
                "verdict": result.verdict(),
            },
            GateOutput,
        )
    )


class GateProgress:
    """Tells the gate's running test on stderr every so many matches or seconds."""

    def __init__(self, stream: TextIO, every: ReportEvery, limit: int) -> None:
        self._stream = stream
        self._every = every
        self._limit = limit
        self._last_time = time.monotonic()
        self._last_matches = 0

    def __call__(self, matches: int, sprt: Sprt) -> None:
        """Hear one more deal; write a line when one is due."""
        now = time.monotonic()
        every = self._every
        if (every.matches is not None and matches - self._last_matches >= every.matches) or (
            every.seconds is not None and now - self._last_time >= every.seconds
        ):
            self._last_time, self._last_matches = now, matches
            self._stream.write(
                f"gate: {matches}/{self._limit} matches, deals won {sprt.wins} lost"
                f" {sprt.losses} split {sprt.draws}; LLR {sprt.llr:.2f} in"
                f" [{sprt.lower:.2f}, {sprt.upper:.2f}]\n"
            )
            self._stream.flush()


def register(app: typer.Typer) -> None:
    """Add the ``tournament`` group and the ``gate`` command to ``app``."""
    app.add_typer(tournament_app, name="tournament")
    app.command("gate")(gate_command)
