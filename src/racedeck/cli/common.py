"""Pieces every command shares: option parsing, the registry, output.

The command line imports only what a command uses, when it runs: ``racedeck --help``
loads none of the engine (``benchmarks/bench_startup.py`` times it). Heavy modules are
imported inside the functions that need them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from racedeck.cli import output
from racedeck.core.errors import UsageError

if TYPE_CHECKING:
    from racedeck.cli.contract import Output
    from racedeck.plugins import Registry

JsonFlag = Annotated[
    bool, typer.Option("--json", help="Print JSON for scripts (docs/schemas/; errors too).")
]
PluginsDir = Annotated[
    Path | None,
    typer.Option("--plugins-dir", help="Load single-file plugins (*.py) from this folder."),
]
OptionList = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as KEY=VALUE; repeat for more."),
]


def registry(plugins_dir: Path | None) -> Registry:
    """Load the registry with entry points and, if given, a plugins folder."""
    from racedeck.plugins import load_registry

    return load_registry(plugins_dir)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """Turn ``KEY=VALUE`` strings into a mapping; values are JSON where they parse as JSON."""
    from racedeck.core.log import MAX_DEPTH, json_depth_ok

    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"--option expects KEY=VALUE, got {pair!r}")
        if not json_depth_ok(value.encode()):
            raise UsageError(f"--option {key}: the value nests deeper than {MAX_DEPTH} levels")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
        except RecursionError:
            raise UsageError(f"--option {key}: the value nests too deep") from None
    return options


def emit_json(result: Output) -> None:
    """Print one output of the JSON contract as one line on standard output.

    It goes to the real standard output even while a bot's prints are sent to standard
    error (``racedeck.cli.output``).
    """
    from racedeck.cli.contract import STREAM_KINDS, encode_output

    kind = type(result).__struct_config__.tag
    output.write_result(encode_output(result).decode() + "\n", final=kind not in STREAM_KINDS)
