"""Commands for bot authors: ``racedeck bot check`` and ``racedeck new-bot``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from racedeck.cli.common import JsonFlag, PluginsDir, emit_json, registry
from racedeck.core.errors import EXIT_FAILURE, RacedeckError

CHECK_TIME_LIMIT = 5.0
"""Seconds a checked program may take per decision unless told: a program bot's own limit
(``racedeck.bots.subprocess_bot.DEFAULT_TIME_LIMIT``), written out so that the command line
starts without loading the subprocess machinery."""


class ProtocolViolations(RacedeckError):
    """A checked program broke the protocol; the command exits with status 1."""

    exit_code = EXIT_FAILURE


bot_app = typer.Typer(
    rich_markup_mode=None,
    name="bot",
    help="Work with bots written as programs in any language.",
    no_args_is_help=True,
)

GameOption = Annotated[
    str, typer.Option("--game", "-g", help="The game, as `racedeck games` names it.")
]


@bot_app.command("check")
def check(
    command: Annotated[
        str,
        typer.Argument(
            help='The program, quoted as one argument: "node bot.js", "cmd:node bot.js"'
            " (as --seat names it) or a path to an executable; or a registered bot's name."
        ),
    ],
    game: GameOption,
    matches: Annotated[int, typer.Option(min=1, help="How many matches to play.")] = 3,
    seed: Annotated[int, typer.Option(help="The first match's seed; the others follow.")] = 0,
    time_limit: Annotated[
        float, typer.Option(min=0.01, help="Seconds the program may take per decision.")
    ] = CHECK_TIME_LIMIT,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Play a few matches with a program or a registered bot and report every violation."""
    from racedeck.bots.check import check_named
    from racedeck.cli.contract import BotCheckOutput, ViolationRow

    report = check_named(
        registry(plugins_dir), command, game, matches=matches, seed=seed, time_limit=time_limit
    )
    argv = report.command
    if json:
        emit_json(
            BotCheckOutput(
                game=report.game,
                command=report.command,
                matches=report.matches,
                decisions=report.decisions,
                ok=report.ok,
                violations=[
                    ViolationRow(
                        match=f.match,
                        seed=str(f.seed),
                        players=f.players,
                        seat=f.seat,
                        decision=f.violation.decision,
                        kind=f.violation.kind,
                        detail=f.violation.detail,
                        message=f.violation.message,
                    )
                    for f in report.findings
                ],
            )
        )
    else:
        typer.echo(
            f"{report.game}: {report.matches} matches, {report.decisions} decisions "
            f"asked of {command}" + (f" ({report.program})" if report.program else "")
        )
        for finding in report.findings:
            typer.echo(finding.describe())
        count = len(report.findings)
        typer.echo("no protocol violations" if report.ok else f"{count} protocol violation(s)")
    if not report.ok:
        raise ProtocolViolations(
            f"{' '.join(argv)} broke the protocol {len(report.findings)} time(s)"
        )


def new_bot(
    name: Annotated[str, typer.Argument(help="The bot's name, e.g. my-bot.")],
    game: GameOption,
    into: Annotated[
        Path | None,
        typer.Option("--into", help="The folder to write (default: ./racedeck-NAME)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Write into a non-empty folder.")] = False,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Write a ready plugin package for a new bot: pyproject, bot class, tests, README."""
    from racedeck.bots.scaffold import module_name, write_package
    from racedeck.cli.contract import NewBotOutput

    rules = registry(plugins_dir).game(game)
    folder = into if into is not None else Path(f"racedeck-{name}")
    files = write_package(name, rules.name, folder, force=force)
    if json:
        emit_json(
            NewBotOutput(
                bot=name, game=rules.name, folder=str(folder), files=[str(p) for p in files]
            )
        )
        return
    typer.echo(f"wrote the plugin package {folder} ({len(files)} files):")
    for path in files:
        typer.echo(f"  {path}")
    typer.echo(
        f"next: pip install -e {folder}, then edit src/{module_name(name)}/bot.py and run pytest"
    )


def register(app: typer.Typer) -> None:
    """Add the ``bot`` group and the ``new-bot`` command to ``app``."""
    app.add_typer(bot_app)
    app.command("new-bot")(new_bot)
