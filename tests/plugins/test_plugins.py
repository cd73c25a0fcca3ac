"""Plugins: built-ins through the hooks, single files, installed packages, clear failures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.bench_match_cost import general as general_budget
from racedeck.bots.plugin import ISMCTS_BUDGETS
from racedeck.core.bot import BotSpec
from racedeck.core.errors import PluginError
from racedeck.core.runner import run_match
from racedeck.plugins import builtin_plugin_modules, load_registry, plugin_manager
from tests.packaging import install_into

ROOT = Path(__file__).parents[2]
EXAMPLE_PACKAGE = ROOT / "plugins" / "racedeck-example-bot"
SINGLE_FILE = ROOT / "plugins" / "single-file"


def test_builtin_games_and_bots_register_through_the_hooks() -> None:
    pm = plugin_manager(entry_points=False)
    names = {pm.get_name(p) for p in pm.get_plugins()}
    assert set(builtin_plugin_modules()) <= names
    assert "racedeck.games.lacorsa.plugin" in names
    registry = load_registry(entry_points=False)
    assert "lacorsa" in registry.games
    assert registry.bot("random", "lacorsa").games is None


def test_single_file_plugins_load_from_a_folder() -> None:
    registry = load_registry(SINGLE_FILE, entry_points=False)
    spec = registry.bot("greedy", "lacorsa")
    outcome = run_match(
        registry.game("lacorsa"),
        registry.game("lacorsa").parse_options({"races": 1}),
        [spec, registry.bot("random", "lacorsa")],
        1,
    )
    assert not outcome.faults
    again = load_registry(SINGLE_FILE, entry_points=False)
    assert again.bot("greedy", "lacorsa").factory is spec.factory, "loading is idempotent"


def test_a_broken_plugin_file_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text("raise ValueError('no luck')\n")
    with pytest.raises(PluginError, match=r"broken\.py: failed to load: ValueError: no luck"):
        load_registry(tmp_path, entry_points=False)


def test_a_plugin_file_that_is_a_pipe_or_a_looping_link_is_one_clear_error(
    tmp_path: Path,
) -> None:
    """A pipe named x.py hung every command (Python waited for its writer); a link that
    loops was an internal error."""
    import os

    pipe = tmp_path / "pipe"
    pipe.mkdir()
    os.mkfifo(pipe / "x.py")
    loop = tmp_path / "loop"
    loop.mkdir()
    (loop / "a.py").symlink_to(loop / "b.py")
    (loop / "b.py").symlink_to(loop / "a.py")
    for folder in (pipe, loop):
        with pytest.raises(PluginError, match="not a regular file, so not a plugin"):
            load_registry(folder, entry_points=False)


def test_a_plugin_with_an_unknown_hook_is_refused(tmp_path: Path) -> None:
    (tmp_path / "typo.py").write_text(
        "from racedeck.hookspecs import hookimpl\n\n@hookimpl\ndef racedeck_register_bot(register):\n    pass\n"
    )
    with pytest.raises(PluginError, match="unknown hook"):
        load_registry(tmp_path, entry_points=False)


def test_two_bots_of_one_name_for_one_game_are_refused(tmp_path: Path) -> None:
    (tmp_path / "dup.py").write_text(
        "from racedeck.hookspecs import hookimpl\n"
        "from racedeck.core.bot import BotSpec\n"
        "from racedeck.bots.random_bot import RandomBot\n\n"
        "@hookimpl\ndef racedeck_register_bots(register):\n"
        "    register(BotSpec(name='random', factory=RandomBot, description='again'))\n"
    )
    with pytest.raises(PluginError, match="two plugins register a bot 'random'"):
        load_registry(tmp_path, entry_points=False)


def test_registering_something_that_is_not_a_bot_is_refused() -> None:
    from racedeck.plugins import Registry

    with pytest.raises(PluginError, match="not a BotSpec"):
        Registry().add_bot("random")  # type: ignore[arg-type]
    registry = Registry()
    registry.add_bot(BotSpec(name="x", factory=lambda: None, description="", games=("a",)))  # type: ignore[arg-type, return-value]
    registry.add_bot(BotSpec(name="x", factory=lambda: None, description="", games=("b",)))  # type: ignore[arg-type, return-value]


def test_a_bot_for_every_game_but_some_leaves_those_to_a_registration_of_their_own() -> None:
    from racedeck.plugins import Registry

    def spec(**where: object) -> BotSpec:
        return BotSpec(name="x", factory=lambda: None, description="", **where)  # type: ignore[arg-type, return-value]

    registry = Registry()
    registry.add_bot(spec(excluded=("b",)))
    registry.add_bot(spec(games=("b",)))
    assert registry.bots[0].plays("a") and not registry.bots[0].plays("b")
    assert [s.games for s in registry.bots if s.plays("b")] == [("b",)]
    # What the first still plays is not free for another plugin, nor is "every game".
    for taken in (spec(games=("a",)), spec(games=("b", "c")), spec(excluded=("a", "b"))):
        with pytest.raises(PluginError, match="two plugins register a bot 'x'"):
            registry.add_bot(taken)
    with pytest.raises(PluginError, match="excluded is only for a bot of every game"):
        registry.add_bot(spec(games=("c",), excluded=("d",)))


BUILT_IN_GAMES = ("detroit-cleveland", "famous-500", "lacorsa", "wacky-races")


def test_famous_500_plays_its_own_search_budgets_and_other_games_the_general_ones() -> None:
    """(LACORSA and Wacky Races play budgets of their own too: their ``test_policy.py``;
    Detroit-Cleveland its own, which search the cards alone.)"""
    registry = load_registry(entry_points=False)
    for name in ("ismcts-fast", "ismcts", "ismcts-strong"):
        own = registry.bot(name, "famous-500")
        assert own.games == ("famous-500",) and own.parameters.horizon == 20
        general = next(s for s in registry.bots if s.name == name and s.games is None)
        assert set(general.excluded) == set(BUILT_IN_GAMES)
        assert registry.bot(name, "detroit-cleveland").parameters.searched == "play"
        assert general.parameters.horizon is None and general.version != own.version
        # The general budget is a parameter away there, as docs/bots.md spells it.
        spelled = registry.bot(general_budget(name, "famous-500"), "famous-500")
        assert spelled.parameters == ISMCTS_BUDGETS[name][0] and spelled.version == own.version
    # A third-party plugin still cannot take the name for a game the built-ins cover.
    with pytest.raises(PluginError, match="two plugins register a bot 'ismcts'"):
        registry.add_bot(
            BotSpec(name="ismcts", factory=lambda: None, description="", games=("famous-500",))  # type: ignore[arg-type, return-value]
        )


@pytest.mark.slow
def test_the_example_package_installs_registers_and_plays(tmp_path: Path) -> None:
    env = install_into(EXAMPLE_PACKAGE, tmp_path / "site")
    bots = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--game", "lacorsa", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert bots.returncode == 0, bots.stderr
    assert "frontrunner" in {b["name"] for b in json.loads(bots.stdout)["bots"]}
    play = subprocess.run(
        [
            sys.executable,
            "-m",
            "racedeck",
            "play",
            "lacorsa",
            "-s",
            "frontrunner",
            "-s",
            "heuristic",
            "-o",
            "races=1",
            "--no-log",
            "--json",
        ],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert play.returncode == 0, play.stderr
    assert json.loads(play.stdout)["seats"] == ["frontrunner", "heuristic"]
    # The allow-list variable keeps entry points out unless they are named.
    hidden = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "RACEDECK_LOAD_PLUGINS": ""},
    )
    assert "frontrunner" not in {b["name"] for b in json.loads(hidden.stdout)["bots"]}
    named = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "RACEDECK_LOAD_PLUGINS": "racedeck-example-bot"},
    )
    assert "frontrunner" in {b["name"] for b in json.loads(named.stdout)["bots"]}
    # Only distribution names count: any package may name its entry point "example".
    by_entry_point = subprocess.run(
        [sys.executable, "-m", "racedeck", "bots", "--json"],
        capture_output=True,
        text=True,
        check=False,
        env={**env, "RACEDECK_LOAD_PLUGINS": "example"},
    )
    assert "frontrunner" not in {b["name"] for b in json.loads(by_entry_point.stdout)["bots"]}
