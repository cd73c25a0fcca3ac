"""The ``racedeck`` command: games, bots, play, replay, show.

Each command parses its arguments and makes one call into the library. Errors are turned
into one line and an exit code in ``main``, the one place that knows about both.
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from racedeck import __version__
from racedeck.cli import output
from racedeck.cli.common import JsonFlag, OptionList, PluginsDir, emit_json, parse_options, registry
from racedeck.cli.help import plain_help
from racedeck.cli.sandboxing import BotMemory, SandboxFlag, confined, sandbox_of
from racedeck.core.errors import (
    EXIT_BAD_INPUT,
    EXIT_FAILURE,
    EXIT_INTERNAL,
    EXIT_USAGE,
    EXIT_VERIFY_FAILED,
    LogError,
    RacedeckError,
    UsageError,
)
from racedeck.core.interrupts import sigterm_interrupts

if TYPE_CHECKING:
    from racedeck.core.verify import Verification

SUBCOMMAND_MODULES = (
    "racedeck.cli.tournament",
    "racedeck.cli.authoring",
    "racedeck.cli.debugging",
    "racedeck.cli.introspection",
)
"""Modules that each define ``register(app)`` to add their commands."""

app = typer.Typer(
    rich_markup_mode=None,
    context_settings={"max_content_width": 100},
    name="racedeck",
    help="Play, replay and verify racing card and board games between bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_debug = {"on": False}
_state = {"json": False}
"""Whether this run was asked for JSON: ``--version`` answers before options are read."""


def _version(value: bool) -> None:
    if value:
        if _state["json"]:
            import platform

            from racedeck.cli.contract import VersionOutput

            emit_json(VersionOutput(version=__version__, python=platform.python_version()))
        else:
            typer.echo(f"racedeck {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks and debug logs.")] = False,
    log_json: Annotated[
        bool,
        typer.Option(
            "--log-json", help="Write diagnostics on stderr as JSON lines (default: readable)."
        ),
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")
    ] = False,
    json: Annotated[
        bool, typer.Option("--json", help="With --version: print it as JSON.", hidden=True)
    ] = False,
) -> None:
    """Play, replay and verify racing card and board games between bots."""
    _debug["on"] = debug
    from racedeck.cli.logging import configure_logging

    configure_logging(debug, log_json)


@app.command()
def games(json: JsonFlag = False, plugins_dir: PluginsDir = None) -> None:
    """List the registered games."""
    from racedeck.cli.contract import GameRow, GamesOutput

    reg = registry(plugins_dir)
    rows = [
        GameRow(
            name=g.name,
            title=g.title,
            players=(g.min_players, g.max_players),
            rules_version=g.rules_version,
        )
        for g in sorted(reg.games.values(), key=lambda g: g.name)
    ]
    if json:
        emit_json(GamesOutput(games=rows))
        return
    for row in rows:
        low, high = row.players
        typer.echo(f"{row.name:<20} {row.title:<40} {low}-{high} players")


@app.command()
def bots(
    game: Annotated[
        str | None, typer.Option("--game", "-g", help="Only bots for this game.")
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """List the registered bots, or those that play one game."""
    import msgspec

    from racedeck.cli.contract import BotRow, BotsOutput

    reg = registry(plugins_dir)
    if game is not None:
        reg.game(game)
    specs = reg.bots_for(game)
    if json:
        emit_json(BotsOutput(bots=[msgspec.convert(spec.to_json(), BotRow) for spec in specs]))
        return
    for spec in specs:
        plays = ", ".join(spec.games) if spec.games is not None else "every game"
        if spec.excluded:
            plays += f" but {', '.join(spec.excluded)}"
        typer.echo(f"{spec.name:<16} v{spec.version:<5} {plays:<28} {spec.description}")
        declared = spec.declared()
        if declared:
            settings = ",".join(f"{p.name}={_spell(p.default)}" for p in declared)
            typer.echo(f"{'':<16} parameters: {spec.name}:{settings}")


BotDebug = Annotated[
    str,
    typer.Option(
        "--bot-debug",
        metavar="tail|all|none",
        help="Bots' debug notes to print: the last 20 (tail), all or none; the log keeps all.",
    ),
]


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="The game, as `racedeck games` names it.")],
    seat: Annotated[
        list[str], typer.Option("--seat", "-s", help="The bot for the next seat; one per seat.")
    ],
    seed: Annotated[int, typer.Option(help="The match seed: same seed, same match.")] = 0,
    option: OptionList = None,
    log: Annotated[
        Path | None,
        typer.Option(help="Where to write the log (default: logs/<game>-seed<N>-<id>.jsonl)."),
    ] = None,
    no_log: Annotated[bool, typer.Option("--no-log", help="Write no log.")] = False,
    fault_policy: Annotated[
        str,
        typer.Option(help="What a bot's crash or illegal action costs: forfeit or substitute."),
    ] = "forfeit",
    time_limit: Annotated[
        float | None,
        typer.Option(
            help="Seconds each decision may take; a bot over it faults. Reads the clock, so "
            "a match that hits the limit is not reproducible."
        ),
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
    bot_debug: BotDebug = "tail",
) -> None:
    """Play one match between bots and print the finishing order, the scores and the log."""
    from racedeck.cli.contract import PlayOutput
    from racedeck.cli.logging import get_logger
    from racedeck.cli.render import debug_lines, describe_result
    from racedeck.core.runner import FAULT_POLICIES
    from racedeck.core.session import plan_match, play_to_log
    from racedeck.core.shown import one_line

    if fault_policy not in FAULT_POLICIES:
        raise UsageError(
            f"--fault-policy must be one of {', '.join(FAULT_POLICIES)}, got {fault_policy!r}"
        )
    if log is not None and no_log:
        raise UsageError("--log and --no-log contradict each other")
    debug_lines([], bot_debug)  # a bad value is refused before the match is played
    confine = sandbox_of(sandbox, bot_memory)
    reg = confined(registry(plugins_dir), confine, plugins_dir)
    plan = plan_match(reg, game, seat, seed, parse_options(option), fault_policy, time_limit)
    target = None if no_log else (log or plan.default_log_path())
    logger = get_logger().bind(game=plan.game.name, seed=seed)
    logger.debug("match starting", seats=seat)
    outcome, written = play_to_log(plan, target)
    logger.info("match finished", events=outcome.events, log=str(written) if written else None)
    if json:
        emit_json(
            PlayOutput(
                game=plan.game.name,
                seed=str(seed),
                seats=[spec.name for spec in plan.seats],
                events=outcome.events,
                result=outcome.result,
                forfeit=outcome.forfeit,
                faults=outcome.faults,
                debug=outcome.debug,
                log=str(written) if written else None,
            )
        )
        return
    typer.echo(describe_result(plan.game.title, seat, outcome.result))
    for fault in outcome.faults:
        reason = one_line(fault.reason)  # a bot's words: kept to this line
        typer.echo(f"fault: seat {fault.seat} ({fault.bot}) {reason} -> {fault.policy}")
    for line in debug_lines(outcome.debug, bot_debug):
        typer.echo(line)
    if written is not None:
        typer.echo(f"log: {written}")


@app.command()
def replay(
    log: Annotated[Path, typer.Argument(help="The log to replay.")],
    verify: Annotated[
        bool,
        typer.Option(
            "--verify",
            help="Check every action, event and engine draw against the header (runs no bot).",
        ),
    ] = False,
    rerun: Annotated[
        bool,
        typer.Option("--rerun", help="With --verify: also re-run the logged bots and compare."),
    ] = False,
    parent: Annotated[
        Path | None,
        typer.Option(help="With --verify, for a fork: check its copied events against this log."),
    ] = None,
    at: Annotated[int | None, typer.Option(help="Stop after event N (counting from 0).")] = None,
    seat: Annotated[int | None, typer.Option(help="Show the state as this seat saw it.")] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Replay a log, checking every hash; with --verify, say what was verified."""
    from racedeck.cli.contract import ReplayOutput
    from racedeck.cli.render import describe_replay, version_notes
    from racedeck.core.log import LogReader
    from racedeck.core.replay import replay_log
    from racedeck.core.verify import verify_log

    reg = registry(plugins_dir)
    checked: Verification | None = None
    if (rerun or parent is not None) and not verify:
        raise UsageError("--rerun and --parent go with --verify")
    if verify:
        if at is not None:
            raise UsageError("--verify checks the whole log; it cannot be combined with --at")
        with LogReader(log) as reader:
            header = reader.header
        for note in version_notes(reg, header):
            typer.echo(f"racedeck: note: {note}", err=True)
        checked = verify_log(reg, log, rerun=rerun, parent=parent)
        result = checked.replay
    else:
        result = replay_log(reg, log, at=at)
    _check_seat(seat, result.header.players)
    if json:
        if result.error is not None:
            raise result.error  # the run's one document is the error
        final = result.result if at is None else None
        emit_json(
            ReplayOutput(
                log=str(log),
                game=result.header.game,
                events=result.events,
                complete=result.complete,
                verified=checked is not None and checked.whole,
                state_hash=final.state_hash if final else None,
                result=final.result if final else None,
                faults=result.faults,
                debug=result.debug,
                view=result.game.observe(result.state, seat) if seat is not None else None,
                error=None,  # an error is the run's document instead (kind ``error``)
            )
        )
    else:
        typer.echo(describe_replay(result, seat, at))
        if checked is not None:
            typer.echo(checked.summary())
    if result.error is not None:
        raise result.error


@app.command()
def show(
    log: Annotated[Path, typer.Argument(help="The log to show.")],
    at: Annotated[int | None, typer.Option(help="Show the state after event N.")] = None,
    seat: Annotated[int | None, typer.Option(help="Show it as this seat saw it.")] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Render the state of a logged match, at its end or after event N."""
    from racedeck.cli.contract import ShowOutput
    from racedeck.core.replay import replay_log

    reg = registry(plugins_dir)
    result = replay_log(reg, log, at=at)
    _check_seat(seat, result.header.players)
    if json:
        view = result.state if seat is None else result.game.observe(result.state, seat)
        if result.error is not None:
            raise result.error  # the run's one document is the error
        emit_json(ShowOutput(log=str(log), events=result.events, seat=seat, view=view))
    else:
        from racedeck.cli.render import show_heading

        heading = show_heading(reg, log, at, seat, result.debug)
        typer.echo(heading + result.game.presentation.render(result.state, seat))
    if result.error is not None:
        raise result.error


def _spell(value: object) -> str:
    if value is None:
        return "none"
    return str(value).lower() if isinstance(value, bool) else str(value)


def _check_seat(seat: int | None, players: int) -> None:
    if seat is not None and not 0 <= seat < players:
        raise UsageError(f"--seat {seat} does not exist: the match has seats 0 to {players - 1}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line and return its exit code; errors become one line on stderr.

    With ``--json`` an error is also one object of kind ``error`` on stdout (see
    ``racedeck.cli.contract``): this is the one place every command's errors pass.
    """
    args = sys.argv[1:] if argv is None else argv
    debug = "--debug" in args
    output.new_run()
    _state["json"] = "--json" in args
    try:
        # Without standalone mode a command's typer.Exit comes back as the return value.
        # SIGTERM (a CI's cancel) stops any command as Ctrl-C does: bots closed, no partial.
        with output.result_only("--json" in args), output.cleaned(), sigterm_interrupts():
            code = _command().main(args=args, prog_name="racedeck", standalone_mode=False)
    except RacedeckError as exc:
        if debug:
            _traceback()
        return _fail(args, exc.exit_code, "error", str(exc), _where(exc, args))
    except typer.Exit as exc:
        return exc.exit_code
    except typer.Abort:
        return _fail(args, EXIT_FAILURE, "aborted", "aborted", _where(None, args), plain=True)
    except KeyboardInterrupt:
        return _fail(args, EXIT_INTERRUPTED, "interrupted", "interrupted", None, plain=True)
    except Exception as exc:
        if hasattr(exc, "format_message"):
            # Typer's own usage errors: a bad or missing argument or option.
            message = exc.format_message()
            return _fail(
                args, EXIT_USAGE, "usage error", message + _help_hint(args), _where(None, args)
            )
        if debug:
            _traceback()
        return _fail(
            args,
            EXIT_INTERNAL,
            "internal error",
            f"{type(exc).__name__}: {exc} (run with --debug for details)",
            _where(None, args),
        )
    if code == EXIT_INTERRUPTED:
        # Typer turns Ctrl-C into a quiet exit status 130; say it, as for any error.
        return _fail(args, EXIT_INTERRUPTED, "interrupted", "interrupted", None, plain=True)
    return code if isinstance(code, int) else 0


EXIT_INTERRUPTED = 130
"""The exit status after Ctrl-C, as a shell gives a process ended by SIGINT."""

ERROR_KINDS = {
    EXIT_FAILURE: "failure",
    EXIT_USAGE: "usage",
    EXIT_BAD_INPUT: "bad-input",
    EXIT_VERIFY_FAILED: "verification",
    EXIT_INTERNAL: "internal",
    EXIT_INTERRUPTED: "interrupted",
}
"""The ``error`` field of a JSON error, per exit status."""


def _fail(
    args: list[str], code: int, label: str, message: str, where: str | None, plain: bool = False
) -> int:
    """Write the error's line on stderr and, with --json, its object on stdout."""
    if message:
        line = f"racedeck: {message}" if plain else f"racedeck: {label}: {message}"
        sys.stderr.write(output.clean(line) + "\n")
    # Exit 1 is a difference the command's own output reports (diff, bot check): no error.
    # A command that wrote its result told the error there: one document a run.
    if "--json" in args and code != EXIT_FAILURE and not output.answered():
        from racedeck.cli.contract import ErrorOutput, encode_output

        error = ErrorOutput(
            code=code, error=ERROR_KINDS.get(code, "error"), message=message, where=where
        )
        sys.stdout.write(encode_output(error).decode() + "\n")
        sys.stdout.flush()
    return code


def _traceback() -> None:
    """Print the exception being handled with its traceback, for --debug."""
    import traceback

    traceback.print_exc()


def _where(exc: BaseException | None, args: list[str]) -> str | None:
    """Return the file and line an error is about, or else the command it came from."""
    if isinstance(exc, LogError):
        return f"{exc.path}:{exc.line}"
    names = set(_command().commands)
    words = [a for a in args if not a.startswith("-")]
    command = next((a for a in words if a in names), None)
    if command in ("tournament", "bot") and len(words) > 1 and words[1] in SUBCOMMANDS:
        return f"{command} {words[1]}"
    return command


SUBCOMMANDS = ("resume", "report", "check")
"""Subcommands named in an error's ``where`` with their group."""


def _command() -> Any:
    """Return the click command of the app, with its help free of type noise."""
    return plain_help(typer.main.get_command(app))


def _help_hint(args: list[str]) -> str:
    names = set(_command().commands)
    command = next((a for a in args if a in names), None)
    return f" (see racedeck {command} --help)" if command else " (see racedeck --help)"


# Command groups that live in their own modules add themselves to the app here.
for _module in SUBCOMMAND_MODULES:
    importlib.import_module(_module).register(app)


def run() -> None:
    """Console-script entry point.

    A bot may leave a thread running that would keep the interpreter from exiting once
    the command is done; the command's work is over then, so the process ends anyway.
    """
    code = main()
    # Threads of the command's own (a process pool's manager after Ctrl-C) end within
    # moments; they get that long, so the interpreter exits normally and multiprocessing
    # releases its semaphores instead of its resource tracker reporting them leaked.
    deadline = time.monotonic() + EXIT_GRACE
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(max(0.0, deadline - time.monotonic()))
    if any(
        t.is_alive() and not t.daemon
        for t in threading.enumerate()
        if t is not threading.main_thread()
    ):
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    sys.exit(code)


EXIT_GRACE = 1.0
"""Seconds the command's leftover threads get to end before the process ends regardless."""
