"""Plugin loading and the registry of games, bots and pictures.

Built-in games, bots and pictures register through the same hooks as third-party
plugins. Plugins come from three places: the built-in modules, packages declaring the
``racedeck`` entry-point group, and single ``.py`` files in a ``--plugins-dir``. Setting
``RACEDECK_LOAD_PLUGINS`` to a comma-separated list of distribution names loads only
those entry points (an empty value loads none).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import pluggy

from racedeck import hookspecs
from racedeck.core.bot import BotSpec
from racedeck.core.errors import PluginError, UnknownBotError, UnknownGameError
from racedeck.core.game import AnyGame
from racedeck.core.shown import shown
from racedeck.hookspecs import PictureFactory

ENTRY_POINT_GROUP = "racedeck"
LOAD_PLUGINS_ENV = "RACEDECK_LOAD_PLUGINS"


def builtin_plugin_modules() -> list[str]:
    """Return the modules of the built-in games and bots, in a fixed order."""
    import racedeck.games as games_package

    names = ["racedeck.bots.plugin"]
    for info in sorted(pkgutil.iter_modules(games_package.__path__), key=lambda i: i.name):
        module = f"racedeck.games.{info.name}.plugin"
        if info.ispkg and importlib.util.find_spec(module) is not None:
            names.append(module)
    return names


@dataclass
class Registry:
    """Every game, bot and picture the loaded plugins registered.

    It is the catalogue the core looks games and bots up in (``racedeck.core.catalogue``).
    """

    games: dict[str, AnyGame] = field(default_factory=dict)
    bots: list[BotSpec] = field(default_factory=list)
    pictures: dict[str, PictureFactory] = field(default_factory=dict)
    """Per game name, what makes its picture (see ``racedeck.inspect.pictures``)."""

    def add_game(self, game: AnyGame) -> None:
        """Register one game; a second game of the same name is an error."""
        if not isinstance(getattr(game, "name", None), str):
            raise PluginError(f"register_games was given {game!r}, which is not a game")
        if game.name in self.games:
            raise PluginError(f"two plugins register a game named {game.name!r}")
        self.games[game.name] = game

    def add_bot(self, spec: BotSpec) -> None:
        """Register one bot; two bots of one name may not claim the same game."""
        if not isinstance(spec, BotSpec):
            raise PluginError(f"register_bots was given {spec!r}, which is not a BotSpec")
        if ":" in spec.name or "/" in spec.name or not spec.name:
            raise PluginError(
                f"a plugin registers a bot named {spec.name!r}; a name is not empty and has"
                " no ':' or '/' (they introduce parameters and programs)"
            )
        if spec.excluded and spec.games is not None:
            raise PluginError(
                f"a plugin registers a bot {spec.name!r} for named games that also excludes "
                "some: excluded is only for a bot of every game"
            )
        for other in self.bots:
            if other.name == spec.name and _overlap(other, spec):
                raise PluginError(f"two plugins register a bot {spec.name!r} for the same game")
        self.bots.append(spec)

    def add_picture(self, game: str, factory: PictureFactory) -> None:
        """Register what makes the picture of the game called ``game``; one per game."""
        if not isinstance(game, str) or not callable(factory):
            raise PluginError(
                f"register_pictures was given {game!r} and {factory!r}, "
                "not a game name and a function that makes its picture"
            )
        if game in self.pictures:
            raise PluginError(f"two plugins register a picture for the game {game!r}")
        self.pictures[game] = factory

    def game(self, name: str) -> AnyGame:
        """Return the game called ``name``."""
        try:
            return self.games[name]
        except KeyError:
            known = ", ".join(sorted(self.games))
            raise UnknownGameError(f"unknown game {name!r}; known games: {known}") from None

    def bot(self, name: str, game: str) -> BotSpec:
        """Return the bot ``name`` names that plays ``game``.

        ``name`` may carry parameters (``ismcts:simulations=500``) or name a program
        (``cmd:python3 bot.py``, or a path to an executable): see ``racedeck.bots.named``.
        """
        from racedeck.bots.named import resolve  # the bots package registers through us

        return resolve(lambda base: self._registered(base, game), name, self.games.get(game))

    def _registered(self, name: str, game: str) -> BotSpec:
        for spec in self.bots:
            if spec.name == name and spec.plays(game):
                return spec
        known = ", ".join(sorted({s.name for s in self.bots if s.plays(game)}))
        if any(spec.name == name for spec in self.bots):
            raise UnknownBotError(f"bot {name!r} does not play {game}; bots for {game}: {known}")
        raise UnknownBotError(f"unknown bot {name!r}; bots for {game}: {known}")

    def bots_for(self, game: str | None) -> list[BotSpec]:
        """Return the bots that play ``game`` (every bot when ``game`` is None), by name."""
        chosen = [s for s in self.bots if game is None or s.plays(game)]
        return sorted(chosen, key=lambda s: (s.name, s.games or ()))


def _overlap(a: BotSpec, b: BotSpec) -> bool:
    """Return True when some game is played by both ``a`` and ``b``."""
    if a.games is None and b.games is None:
        return True  # two "every game but ..." lists always share a game not yet written
    if a.games is None:
        a, b = b, a
    assert a.games is not None
    return any(b.plays(game) for game in a.games)


def _allowed_entry_points(env: dict[str, str]) -> set[str] | None:
    raw = env.get(LOAD_PLUGINS_ENV)
    if raw is None:
        return None
    return {_normal(name) for name in raw.split(",") if name.strip()}


def _normal(name: str) -> str:
    """Return a distribution name in its normal form (PEP 503): ``Foo_Bar`` is ``foo-bar``."""
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _entry_point_modules(allowed: set[str] | None) -> Iterable[tuple[str, ModuleType]]:
    for ep in sorted(
        importlib.metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name
    ):
        dist = ep.dist.name if ep.dist is not None else ""
        # Only the distribution's name counts: any package may call its entry point
        # after a distribution the user allowed.
        if allowed is not None and (not dist or _normal(dist) not in allowed):
            continue
        try:
            loaded = ep.load()
        except (Exception, SystemExit) as exc:  # a plugin's exit at import is its failure
            raise PluginError(
                f"plugin {ep.name!r} ({dist or '?'}) failed to load: {_failure(exc)}"
            ) from None
        yield ep.name, loaded


def _dir_modules(plugins_dir: Path) -> Iterable[tuple[str, ModuleType]]:
    if not plugins_dir.is_dir():
        raise PluginError(f"--plugins-dir {plugins_dir}: not a directory")
    for path in sorted(plugins_dir.glob("*.py")):
        if path.name.startswith("_"):
            continue
        # Only a regular file is read: a pipe named x.py would wait for a writer for ever,
        # and a link that loops resolves to nothing.
        try:
            resolved = path.resolve(strict=True)
            regular = resolved.is_file()
        except (OSError, RuntimeError):
            regular = False
        if not regular:
            raise PluginError(f"{shown(str(path))}: not a regular file, so not a plugin")
        # The same file always maps to the same module, so loading twice is idempotent.
        key = hashlib.blake2b(str(resolved).encode(), digest_size=6).hexdigest()
        module_name = f"racedeck_plugin_{path.stem}_{key}"
        if module_name in sys.modules:
            yield path.name, sys.modules[module_name]
            continue
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise PluginError(f"{path}: cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as exc:  # a plugin's exit at import is its failure
            del sys.modules[module_name]
            raise PluginError(f"{path}: failed to load: {_failure(exc)}") from None
        yield path.name, module


def _failure(exc: BaseException) -> str:
    """Say what a plugin raised while it was imported."""
    if isinstance(exc, SystemExit):
        return f"it called sys.exit({exc.code!r}) while being imported"
    return f"{type(exc).__name__}: {exc}"


def plugin_manager(
    plugins_dir: Path | None = None,
    *,
    entry_points: bool = True,
    env: dict[str, str] | None = None,
) -> pluggy.PluginManager:
    """Return a plugin manager with the built-in, entry-point and directory plugins loaded."""
    pm = pluggy.PluginManager("racedeck")
    pm.add_hookspecs(hookspecs)
    for name in builtin_plugin_modules():
        pm.register(importlib.import_module(name), name=name)
    if entry_points:
        allowed = _allowed_entry_points(dict(os.environ) if env is None else env)
        for name, module in _entry_point_modules(allowed):
            if not pm.is_registered(module):
                pm.register(module, name=f"entry-point:{name}")
    if plugins_dir is not None:
        for name, module in _dir_modules(plugins_dir):
            if not pm.is_registered(module):
                pm.register(module, name=f"file:{name}")
    try:
        pm.check_pending()
    except pluggy.PluginValidationError as exc:
        raise PluginError(f"a plugin implements an unknown hook: {exc}") from None
    return pm


def load_registry(
    plugins_dir: Path | None = None,
    *,
    entry_points: bool = True,
    env: dict[str, str] | None = None,
) -> Registry:
    """Load every plugin and return the registry of their games, bots and pictures."""
    pm = plugin_manager(plugins_dir, entry_points=entry_points, env=env)
    registry = Registry()
    try:
        pm.hook.racedeck_register_games(register=registry.add_game)
        pm.hook.racedeck_register_bots(register=registry.add_bot)
        pm.hook.racedeck_register_pictures(register=registry.add_picture)
    except PluginError:
        raise
    except Exception as exc:
        raise PluginError(
            f"a plugin failed while registering: {type(exc).__name__}: {exc}"
        ) from None
    for name in registry.pictures:
        if name not in registry.games:
            raise PluginError(f"a plugin registers a picture for {name!r}, which is not a game")
    return registry
