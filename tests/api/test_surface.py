"""The package's surface: plain functions with plain names, listed by ``dir(racedeck)``."""

from __future__ import annotations

import ast
import subprocess
import sys
import types
from pathlib import Path

import racedeck
import racedeck.api

SRC = Path(racedeck.__file__).parent


def test_dir_lists_every_name_of_the_api_before_it_is_loaded() -> None:
    script = (
        "import sys, racedeck\n"
        "names = dir(racedeck)\n"
        "assert 'racedeck.api' not in sys.modules, 'dir loaded the API'\n"
        "print(' '.join(names))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    listed = set(done.stdout.split())
    assert set(racedeck.api.__all__) <= listed
    assert set(racedeck.__all__) <= listed


def test_the_package_exports_exactly_the_api() -> None:
    assert set(racedeck.__all__) == set(racedeck.api.__all__) | {"__version__"}
    for name in racedeck.api.__all__:
        assert getattr(racedeck, name) is getattr(racedeck.api, name), name
        assert getattr(racedeck.api, name).__doc__, name


def test_type_checkers_see_every_name_of_the_api() -> None:
    """The ``TYPE_CHECKING`` import of ``racedeck/__init__.py`` names the whole API."""
    tree = ast.parse((SRC / "__init__.py").read_text(encoding="utf-8"))
    guarded = next(
        node
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
    )
    imported = {
        alias.name
        for node in guarded.body
        if isinstance(node, ast.ImportFrom) and node.module == "racedeck.api"
        for alias in node.names
    }
    assert imported == set(racedeck.api.__all__)


def test_the_api_functions_are_plain_functions() -> None:
    for name in ("list_games", "list_bots", "run_tournament", "play", "load_log"):
        assert isinstance(getattr(racedeck, name), types.FunctionType), name


def test_the_packages_of_games_bots_and_tournaments_are_plain_modules() -> None:
    import racedeck.bots
    import racedeck.games
    import racedeck.tournament

    for package in (racedeck.games, racedeck.bots, racedeck.tournament):
        assert type(package) is types.ModuleType, package.__name__
        assert not callable(package), package.__name__


def test_no_module_assigns_a_module_class() -> None:
    """Nothing in the package swaps a module's class (``sys.modules[...].__class__ = ...``)."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "__class__":
                    found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == []


def test_an_unknown_name_is_an_attribute_error() -> None:
    try:
        racedeck.games_list  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "games_list" in str(error)
    else:
        raise AssertionError("racedeck.games_list did not raise")


def test_the_tooling_lives_outside_the_runtime_package() -> None:
    """The fuzzer and the strength ladder are the repository's tools: racedeck never imports them."""
    assert not (SRC / "fuzz").exists()
    assert not (SRC / "bots" / "ladder.py").exists() and not (SRC / "bots" / "strength.py").exists()
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                modules = [node.module or ""]
            else:
                continue
            if any(m == "tools" or m.startswith("tools.") for m in modules):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}")
    assert found == []


def test_the_tools_run_as_modules_of_the_repository() -> None:
    from tools.fuzz.run import main as fuzz
    from tools.ladder import main as ladder

    assert callable(fuzz) and callable(ladder)
    make = (SRC.parents[1] / "Makefile").read_text(encoding="utf-8")
    assert "-m tools.fuzz" in make and "-m tools.ladder" in make
