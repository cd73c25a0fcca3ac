"""The authoring kit: writes a ready-to-install plugin package for a new bot.

``racedeck new-bot NAME --game G`` calls ``write_package``. The package has a pyproject
declaring the ``racedeck`` entry point, the bot class, a plugin module registering it,
tests (which use the ``racedeck`` pytest plugin) and a README.
"""

from __future__ import annotations

import re
from pathlib import Path

from racedeck.core.errors import UsageError
from racedeck.core.files import UnsafeTargetError, check_target, write_atomically

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
"""A bot name: lowercase words of letters and digits joined by hyphens."""

_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "racedeck-{name}"
version = "0.1.0"
description = "The {name} bot for racedeck's {game}"
readme = "README.md"
requires-python = ">=3.11"
# racedeck comes from a checkout or a wheel, installed in the venv first (README.md).
dependencies = ["racedeck>=0.1"]

[project.optional-dependencies]
test = ["pytest>=8"]

[project.entry-points.racedeck]
{name} = "{module}.plugin"

[tool.setuptools.packages.find]
where = ["src"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

_INIT = '''\
"""The {name} bot for racedeck's {game}."""
'''

_BOT = '''\
"""The {name} bot: its strategy for {game}."""

from __future__ import annotations

from collections.abc import Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng


class {cls}(Bot):
    """Plays {game}. Start here: ``act`` sees the observation and the legal actions."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return one of ``legal``; draw randomness only from ``rng`` to stay reproducible."""
        # Replace this with your strategy: inspect ``observation`` (see docs/plugins.md for
        # what {game} shows a seat) and return the best of ``legal``.
        return legal[rng.randrange(len(legal))]
'''

_PLUGIN = '''\
"""Registers the {name} bot with racedeck through the ``racedeck`` entry point."""

from __future__ import annotations

from collections.abc import Callable

from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl

from {module}.bot import {cls}


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the bot for {game}."""
    register(
        BotSpec(
            name="{name}",
            factory={cls},
            description="{name}: a bot for {game}",
            version="1",
            games=("{game}",),
        )
    )
'''

_TESTS = '''\
"""The {name} bot installs, shows in ``racedeck bots``, plays matches, plays only legally.

The fixtures come from racedeck's pytest plugin, which pytest loads by itself.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys

from racedeck.pytest_plugin import assert_plays_legally


def test_it_is_installed_with_a_racedeck_entry_point():
    names = {{ep.name for ep in importlib.metadata.entry_points(group="racedeck")}}
    assert "{name}" in names


def test_it_appears_in_racedeck_bots():
    listing = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--game", "{game}", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "{name}" in {{bot["name"] for bot in json.loads(listing.stdout)["bots"]}}


def test_it_plays_a_match(racedeck_play):
    outcome = racedeck_play("{game}", ["{name}", "random"], seed=1)
    assert not outcome.faults, outcome.faults
    assert outcome.forfeit is None


def test_it_plays_only_legal_actions(racedeck_registry):
    spec = racedeck_registry.bot("{name}", "{game}")
    assert_plays_legally(spec, "{game}", registry=racedeck_registry, seeds=range(3))
'''

_README = """\
# racedeck-{name}

A strategy plugin for [racedeck](https://example.invalid/racedeck): the `{name}` bot for
{game}.

## Install and play

racedeck is installed from a checkout or a wheel, not from a package index, so it goes
into the virtual environment first; this bot's `racedeck>=0.1` is then already met:

```
python -m venv .venv && . .venv/bin/activate
{install}
pip install -e '.[test]'
racedeck bots --game {game}          # lists {name}
racedeck play {game} --seat {name} --seat heuristic
```

(`racedeck new-bot` wrote the first line for the racedeck that made this package; a
checkout installs with `pip install -e PATH`, a wheel with `pip install PATH.whl`.)

## Write the strategy

Edit `src/{module}/bot.py`: `act(observation, legal, rng)` gets what this seat can see
and the legal actions, and returns one of them. Use only `rng` for randomness, so that a
seed replays the same match. racedeck's `docs/plugins.md` describes the observation of
each game.

## Test

```
pip install -e '.[test]'
pytest
```

The tests use racedeck's pytest plugin: the `racedeck_play` fixture plays a match and
`assert_plays_legally` plays many seeded matches at every player count, failing on any
illegal action, crash or timeout.
"""


def install_line() -> str:
    """Return the command that installs this racedeck into another venv.

    From its checkout (``pip install -e PATH``) or its wheel, as its installation records
    (``direct_url.json``); by name when neither is known.
    """
    import importlib.metadata
    import json
    from urllib.parse import unquote, urlparse

    try:
        raw = importlib.metadata.distribution("racedeck").read_text("direct_url.json")
        source = json.loads(raw) if raw else {}
    except (importlib.metadata.PackageNotFoundError, ValueError):
        source = {}
    url = str(source.get("url", ""))
    if not url.startswith("file://"):
        return "pip install racedeck    # or: pip install -e /path/to/racedeck-checkout"
    path = unquote(urlparse(url).path)
    editable = bool(source.get("dir_info", {}).get("editable"))
    return f"pip install -e {path}" if editable else f"pip install {path}"


def module_name(name: str) -> str:
    """Return the Python package name of a bot's plugin: ``racedeck_`` and the name."""
    return "racedeck_" + name.replace("-", "_")


def class_name(name: str) -> str:
    """Return the bot's class name: the name in CamelCase, then ``Bot``."""
    return "".join(part.capitalize() for part in name.split("-")) + "Bot"


def write_package(name: str, game: str, folder: Path, *, force: bool = False) -> list[Path]:
    """Write the plugin package of bot ``name`` for ``game`` into ``folder``; return its files."""
    if not NAME_PATTERN.match(name):
        raise UsageError(
            f"bot name {name!r} must be lowercase letters and digits, words joined by '-'"
        )
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is not a folder")
    if folder.exists() and any(folder.iterdir()) and not force:
        raise UsageError(f"{folder} already exists and is not empty; use --force to overwrite")
    module = module_name(name)
    values = {
        "name": name,
        "game": game,
        "module": module,
        "cls": class_name(name),
        "install": install_line(),
    }
    files = {
        "pyproject.toml": _PYPROJECT,
        "README.md": _README,
        f"src/{module}/__init__.py": _INIT,
        f"src/{module}/bot.py": _BOT,
        f"src/{module}/plugin.py": _PLUGIN,
        f"tests/test_{module}.py": _TESTS,
    }
    # Into a folder given --force, as anywhere racedeck writes: never through a link (a
    # planted README.md or tests/ would send a file elsewhere), and every target checked
    # before the first file is written.
    for relative in files:
        for inside in Path(relative).parents:
            if (folder / inside).is_symlink():
                raise UnsafeTargetError(
                    f"cannot write {folder / relative}: {folder / inside} is a symbolic link"
                )
        check_target(folder / relative)
    written = []
    for relative, template in files.items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(path, template.format(**values).encode())
        written.append(path)
    return written
