"""Commands of the debugging group: diff, fork, compare, step, html and chart.

Each parses its arguments and makes one call into ``racedeck.inspect``; errors are raised
as ``racedeck.core.errors`` errors and turned into one line and an exit code in ``main``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from racedeck.cli.common import JsonFlag, PluginsDir, emit_json, registry
from racedeck.cli.sandboxing import BotMemory, SandboxFlag, confined, sandbox_of
from racedeck.core.errors import UsageError

if TYPE_CHECKING:
    # For types only: --help loads none of the engine (tests/cli/test_startup.py).
    from racedeck.core.catalogue import Catalogue

LogArg = Annotated[Path, typer.Argument(help="A match log (JSON Lines).")]
SeatView = Annotated[int | None, typer.Option("--seat", help="Show states as this seat saw them.")]


def diff(
    a: LogArg,
    b: LogArg,
    seat: SeatView = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Find the first event where two logs diverge; exit 0 when identical, 1 when not."""
    from racedeck.cli.contract import DiffOutput
    from racedeck.core.log import LogReader
    from racedeck.inspect.diff import diff_logs
    from racedeck.inspect.errors import LogsDiffer
    from racedeck.inspect.text import describe_diff, diff_json

    if seat is not None:
        # Checked before comparing: a seat the logs do not have is a usage error even
        # when they are identical.
        with LogReader(a) as first, LogReader(b) as second:
            _check_seat(seat, min(first.header.players, second.header.players))
    report = diff_logs(registry(plugins_dir), a, b)
    if json:
        emit_json(DiffOutput(**diff_json(report, seat)))
    else:
        typer.echo(describe_diff(report, seat, _text_width()))
    if report.divergence is not None:
        # An error, not typer.Exit: main() passes its exit code on; the line goes to stderr.
        raise LogsDiffer(f"the logs differ from event {report.divergence.seq} on")


def fork(
    log: LogArg,
    at: Annotated[
        int | None, typer.Option(help="Continue after event N (counting from 0).")
    ] = None,
    seat: Annotated[
        list[str] | None,
        typer.Option(
            "--seat", "-s", help="The bot for the next seat; one per seat (default: the parent's)."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="The seed from the fork on (default: the parent's).")
    ] = None,
    log_out: Annotated[
        Path | None,
        typer.Option("--log", help="Where to write the fork's log (default: beside LOG)."),
    ] = None,
    play: Annotated[
        list[str] | None,
        typer.Option(
            "--play",
            help="SEAT=ACTION: force that seat's action at the fork point, in the game's "
            "words or as JSON (repeat for more seats).",
        ),
    ] = None,
    verify: Annotated[
        bool,
        typer.Option("--verify", help="Instead of forking, re-run the fork LOG and compare."),
    ] = False,
    parent: Annotated[
        Path | None, typer.Option(help="With --verify: also check LOG branched off this log.")
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
    sandbox: SandboxFlag = False,
    bot_memory: BotMemory = None,
) -> None:
    """Continue a match from event N with other bots or another seed, into a new log."""
    from racedeck.cli.contract import ForkOutput
    from racedeck.core.fork import fork_log

    reg = registry(plugins_dir)
    confine = sandbox_of(sandbox, bot_memory)
    if verify:
        if at is not None or seat or seed is not None or log_out is not None or play:
            raise UsageError(
                "--verify checks an existing fork; drop --at, --seat, --seed, --play and --log"
            )
        _verify_fork(reg, log, parent, json)
        return
    if parent is not None:
        raise UsageError("--parent goes with --verify")
    if at is None:
        raise UsageError("fork needs --at N, the last event kept from LOG")
    target = log_out or log.with_name(f"{log.stem}.fork{at}{log.suffix or '.jsonl'}")
    forked = fork_log(
        confined(reg, confine, plugins_dir), log, at, target, bots=seat, seed=seed, plays=play or ()
    )
    result = forked.outcome.result
    if json:
        emit_json(
            ForkOutput(
                log=str(forked.path),
                parent=str(log),
                fork=forked.header.fork,
                seed=str(forked.header.seed),
                seats=[s.bot for s in forked.header.seats],
                events=forked.outcome.events,
                result=result,
            )
        )
        return
    typer.echo(
        f"forked {log} at event {at}: {forked.outcome.events} events, "
        f"ranks {list(result.ranks)}, scores {list(result.scores)} {result.unit}"
    )
    typer.echo(f"log: {forked.path}")


def _verify_fork(reg: Catalogue, log: Path, parent: Path | None, json: bool) -> None:
    """Re-run the fork ``log`` and print what was verified (``fork --verify``)."""
    from racedeck.cli.contract import ForkVerifyOutput
    from racedeck.core.fork import verify_fork

    checked = verify_fork(reg, log, parent)
    replay = checked.replay
    assert replay.header.fork is not None
    if json:
        emit_json(
            ForkVerifyOutput(
                log=str(log),
                verified=checked.whole,
                events=replay.events,
                fork=replay.header.fork,
            )
        )
    else:
        typer.echo(f"{log} forked at event {replay.header.fork.at}; {checked.summary()}")


def compare(
    log: LogArg,
    seat: Annotated[int, typer.Option("--seat", help="The seat whose decisions are compared.")],
    bot: Annotated[
        str, typer.Option("--bot", help="The bot to ask at each decision (with parameters).")
    ],
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Ask a bot what it would have played at each of a seat's decisions; list where they part."""
    from racedeck.cli.contract import CompareOutput, PartingRow
    from racedeck.core.shown import one_line
    from racedeck.inspect.compare import compare_log

    found = compare_log(registry(plugins_dir), log, seat, bot)
    if json:
        rows = [
            PartingRow(event=p.seq, played=p.played, chosen=p.chosen, fault=p.fault)
            for p in found.partings
        ]
        emit_json(
            CompareOutput(
                log=found.log,
                seat=seat,
                played_by=found.played_by,
                bot=found.bot,
                decisions=found.decisions,
                agreed=found.agreed,
                rate=found.rate,
                partings=rows,
            )
        )
        return
    typer.echo(
        f"seat {seat} ({found.played_by}) against {found.bot}: {found.decisions} decisions, "
        f"{found.agreed} the same ({found.rate:.1%})"
    )
    for part in found.partings:
        # A fault is the bot's own words: kept to this line.
        other = f"faulted: {one_line(part.fault or '')}" if part.chosen is None else part.chosen
        typer.echo(f"  event {part.seq}: played {part.played}; {found.bot}: {other}")


def step(
    log: LogArg,
    at: Annotated[int, typer.Option(help="Start after event N (-1: before the first).")] = -1,
    seat: SeatView = None,
    json: Annotated[
        bool,
        typer.Option("--json", help="Print the frame after --at as JSON, without stepping."),
    ] = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Step through a log in the terminal: forward, back, jump, switch the seat's view."""
    import sys

    from racedeck.cli.lines import line_reader
    from racedeck.inspect.step import PROMPT, Viewer, load_timeline, run_viewer

    timeline = load_timeline(registry(plugins_dir), log)
    if seat is not None:
        _check_seat(seat, timeline.header.players)
    if not -1 <= at < len(timeline.events):
        raise UsageError(f"--at {at}: the log has events 0 to {len(timeline.events) - 1}")
    if json:
        emit_json(_frame(log, timeline, at, seat))
        return
    viewer = Viewer(timeline)
    viewer.frame, viewer.seat = at + 1, seat

    read_line, prompts = line_reader(PROMPT)

    def write(text: str) -> None:
        sys.stdout.write(text if text.endswith(("\n", "> ")) or not text else text + "\n")
        sys.stdout.flush()

    run_viewer(viewer, read_line, write, prompt=not prompts)


def html(
    log: LogArg,
    out: Annotated[Path, typer.Option("--out", help="The HTML file to write.")],
    seat: Annotated[
        list[int] | None,
        typer.Option(
            "--seat", help="Only this seat's view (repeat for more): no state, no event contents."
        ),
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Write one self-contained HTML page that replays the match, step by step."""
    from racedeck.cli.contract import HtmlOutput
    from racedeck.core.files import write_atomically
    from racedeck.inspect.html import replay_page

    page = replay_page(registry(plugins_dir), log, seat or None).encode()
    write_atomically(out, page)
    if json:
        emit_json(HtmlOutput(log=str(log), html=str(out), bytes=len(page), seats=seat))
    else:
        typer.echo(f"html: {out}")


def chart(
    log: LogArg,
    out: Annotated[Path, typer.Option("--out", help="The chart to write: PATH.svg, or PATH.png.")],
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Draw a lap chart: every car's position after each lap or turn (PNG or SVG)."""
    from racedeck.cli.contract import ChartOutput
    from racedeck.core.files import write_atomically
    from racedeck.inspect.chart import lap_chart
    from racedeck.inspect.svg import chart_svg

    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise UsageError(f"--out must end in .svg or .png, got {out.name!r}")
    data = lap_chart(registry(plugins_dir), log)
    if suffix == ".png":
        from racedeck.inspect.png import chart_png

        payload = chart_png(data)
    else:
        payload = chart_svg(data).encode()
    write_atomically(out, payload)
    if json:
        emit_json(
            ChartOutput(
                log=str(log),
                chart=str(out),
                ticks=list(data.ticks),
                cars=list(data.cars),
                positions=list(data.positions),
                series=data.series,
            )
        )
    else:
        typer.echo(f"chart: {out} ({len(data.ticks)} {data.axis} points, {len(data.cars)} cars)")


def _frame(log: Path, timeline: Any, at: int, seat: int | None) -> Any:
    """Return the frame after event ``at`` as ``step --json`` prints it."""
    from racedeck.cli.contract import StepOutput

    state = timeline.state(at + 1)
    return StepOutput(
        log=str(log),
        at=at,
        events=len(timeline.events),
        event_kind=timeline.kind(at) if at >= 0 else None,
        event=timeline.events[at] if at >= 0 and seat is None else None,
        seat=seat,
        view=state if seat is None else timeline.game.observe(state, seat),
    )


def _text_width() -> int:
    """Return the terminal's width, or ``PIPE_WIDTH`` when standard output is not one."""
    import shutil
    import sys

    from racedeck.inspect.text import PIPE_WIDTH

    if not sys.stdout.isatty():
        return PIPE_WIDTH
    return shutil.get_terminal_size((PIPE_WIDTH, 24)).columns


def _check_seat(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise UsageError(f"--seat {seat} does not exist: the match has seats 0 to {players - 1}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command()(diff)
    app.command()(fork)
    app.command()(compare)
    app.command()(step)
    app.command()(html)
    app.command()(chart)
