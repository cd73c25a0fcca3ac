"""Commands that describe racedeck itself: ``plugins`` (who registers what) and ``schema``."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from racedeck import __version__
from racedeck.cli.common import JsonFlag, PluginsDir, emit_json

if TYPE_CHECKING:
    from racedeck.cli.contract import PluginRow
    from racedeck.core.bot import BotSpec


def plugin_rows(plugins_dir: Path | None) -> list[PluginRow]:
    """Return every loaded plugin with the package and version behind it and what it adds."""
    import importlib.metadata

    from racedeck.cli.contract import PluginRow
    from racedeck.plugins import ENTRY_POINT_GROUP, plugin_manager

    manager = plugin_manager(plugins_dir)
    points = {ep.name: ep for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)}
    rows = []
    for name, plugin in manager.list_name_plugin():
        if not isinstance(plugin, ModuleType) or name is None:
            continue
        source, _, short = name.partition(":") if ":" in name else ("builtin", "", name)
        package: str | None = "racedeck"
        version: str | None = __version__
        path: str | None = None
        if source == "entry-point":
            dist = points[short].dist if short in points else None
            package = dist.name if dist is not None else None
            version = dist.version if dist is not None else None
        elif source == "file":
            package = version = None
            path = getattr(plugin, "__file__", None)
        games, bots, pictures = _registered(plugin)
        rows.append(
            PluginRow(
                plugin=short,
                source=source,
                package=package,
                version=version,
                path=path,
                games=games,
                bots=bots,
                pictures=pictures,
            )
        )
    return rows


def _registered(plugin: ModuleType) -> tuple[list[str], list[str], list[str]]:
    """Call one plugin's hooks alone and return the names of what it registers."""
    games: list[Any] = []
    bots: list[BotSpec] = []
    pictures: list[str] = []
    if hasattr(plugin, "racedeck_register_games"):
        plugin.racedeck_register_games(register=games.append)
    if hasattr(plugin, "racedeck_register_bots"):
        plugin.racedeck_register_bots(register=bots.append)
    if hasattr(plugin, "racedeck_register_pictures"):
        plugin.racedeck_register_pictures(register=lambda game, _factory: pictures.append(game))
    return (
        [game.name for game in games],
        sorted({bot.name for bot in bots}),
        pictures,
    )


def plugins(
    requirements: Annotated[
        bool,
        typer.Option(
            "--requirements", help="Print the packages as name==version lines, to pin a set."
        ),
    ] = False,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """List every plugin, the package and version that provide it, and what it registers."""
    from racedeck.cli.contract import PluginsOutput

    rows = plugin_rows(plugins_dir)
    if requirements:
        pins = sorted({f"{r.package}=={r.version}" for r in rows if r.package and r.version})
        for pin in pins:
            typer.echo(pin)
        return
    if json:
        emit_json(PluginsOutput(plugins=rows))
        return
    table = [["plugin", "source", "from", "registers"]]
    for row in rows:
        origin = row.path if row.source == "file" else f"{row.package} {row.version}"
        adds = "; ".join(
            f"{label}: {', '.join(names)}"
            for label, names in (("games", row.games), ("bots", row.bots))
            if names
        )
        table.append([row.plugin, row.source, origin or "-", adds or "-"])
    # Each column as wide as its widest cell: names and paths have no length limit.
    widths = [max(len(line[i]) for line in table) for i in range(3)]
    for line in table:
        cells = [cell.ljust(width) for cell, width in zip(line, widths, strict=False)]
        typer.echo("  ".join([*cells, line[3]]))


def schema(
    name: Annotated[
        str | None, typer.Argument(help="The schema to print (without it: list them).")
    ] = None,
    write: Annotated[
        Path | None,
        typer.Option("--write", help="Write every schema into this folder (docs/schemas)."),
    ] = None,
    json: JsonFlag = False,
    plugins_dir: PluginsDir = None,
) -> None:
    """Print the JSON Schema of a --json output, log line, observation or protocol message."""
    import msgspec

    from racedeck.cli.contract import SchemaOutput
    from racedeck.cli.schemas import schema_json, schema_types, write_schemas
    from racedeck.core.files import write_atomically
    from racedeck.plugins import load_registry

    if write is not None:
        # The documented set: the built-in games only, whatever else is installed.
        write.mkdir(parents=True, exist_ok=True)
        documented = load_registry(entry_points=False)
        count = write_schemas(documented, write, write_atomically)
        if json:
            names = sorted(schema_types(documented))
            emit_json(SchemaOutput(names=names, folder=str(write)))
        else:
            typer.echo(f"wrote {count} schemas into {write}")
        return
    registry = load_registry(plugins_dir)
    if name is None:
        names = sorted(schema_types(registry))
        if json:
            emit_json(SchemaOutput(names=names))
            return
        for known in names:
            typer.echo(known)
        return
    document = schema_json(registry, name)
    if json:
        emit_json(SchemaOutput(names=[name], document=msgspec.json.decode(document)))
        return
    typer.echo(document.decode(), nl=False)


def register(app: typer.Typer) -> None:
    """Add ``plugins`` and ``schema`` to ``app``."""
    app.command()(plugins)
    app.command()(schema)
