"""The package's layering: no import cycles, and the core imports nothing above it.

Every module of ``racedeck`` is read with ``ast`` (nothing is imported), and every import
statement counts, at module level or inside a function, except those under
``if TYPE_CHECKING:``, which never run. ``import a.b.c`` and ``from a.b import c`` (``c``
a module) are edges to ``a.b.c``; ``from a.b import name`` is an edge to ``a.b``. The
parent packages Python runs on the way are not edges: a package's ``__init__`` may
re-export its submodules.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import racedeck

ROOT = Path(racedeck.__file__).parent
CORE = "racedeck.core"
ALLOWED_IN_CORE = {"racedeck"}
"""Outside the core, the core may import only the root package (which holds the version)."""


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _statements(node: ast.AST) -> Iterator[ast.AST]:
    """Yield every node below ``node``, leaving out the bodies of ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield other
                yield from _statements(other)
            continue
        yield child
        yield from _statements(child)


def _target(name: str) -> str | None:
    """Return the racedeck module an imported name lives in, or None outside racedeck."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def imports_of(module: str) -> set[str]:
    """Return the racedeck modules that ``module`` imports."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in _statements(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base]) if base else ".".join(anchor)
            names = [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _target(name)
            if target is not None and target != module:
                found.add(target)
    return found


GRAPH = {module: imports_of(module) for module in MODULES}


def _cycle() -> list[str] | None:
    """Return one import cycle as a list of modules (first = last), or None."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(module: str) -> list[str] | None:
        path.append(module)
        on_path.add(module)
        for other in sorted(GRAPH[module]):
            if other in on_path:
                return [*path[path.index(other) :], other]
            if other not in done:
                found = visit(other)
                if found:
                    return found
        on_path.discard(module)
        path.pop()
        done.add(module)
        return None

    for module in sorted(GRAPH):
        if module not in done:
            found = visit(module)
            if found:
                return found
    return None


def test_the_walk_sees_the_package() -> None:
    assert {"racedeck.core.replay", "racedeck.core.fork", "racedeck.plugins"} <= set(GRAPH)
    assert "racedeck.core.log" in GRAPH["racedeck.core.replay"]
    # a function-level import counts
    assert "racedeck.plugins" in GRAPH["racedeck.cli.common"]


def test_there_is_no_import_cycle() -> None:
    cycle = _cycle()
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_core_imports_nothing_above_it() -> None:
    above = {
        module: sorted(
            other
            for other in GRAPH[module]
            if not (other == CORE or other.startswith(CORE + ".")) and other not in ALLOWED_IN_CORE
        )
        for module in GRAPH
        if module == CORE or module.startswith(CORE + ".")
    }
    assert {module: others for module, others in above.items() if others} == {}


def test_the_inspect_package_names_no_game() -> None:
    """A game's picture comes through the game's registration, not a table in inspect."""
    for module, imported in GRAPH.items():
        if module.startswith("racedeck.inspect"):
            assert not [m for m in imported if m.startswith("racedeck.games")], module


def test_a_games_picture_module_pulls_in_no_plugin_machinery() -> None:
    """Games import ``racedeck.inspect.pictures`` for the ``Picture`` base; it stays light."""
    light = ("racedeck.inspect", "racedeck.inspect.pictures", "racedeck.inspect.pictures.base")
    for module in light:
        heavy = [m for m in GRAPH[module] if m not in light and not m.startswith(CORE)]
        assert heavy == [], module


def _attribute_users(attribute: str) -> set[str]:
    return {
        module
        for module, path in MODULES.items()
        if not module.startswith("racedeck.games")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr == attribute
    }


def test_events_are_folded_in_one_place_and_read_from_logs_in_one_place() -> None:
    """Outside the games, only the step folds events and only ``core.entries`` decodes a log's."""
    assert _attribute_users("evolve") == {"racedeck.core.step"}
    assert _attribute_users("event_decoder") == {"racedeck.core.game", "racedeck.core.entries"}


def _all_imports(module: str) -> set[str]:
    """Return the racedeck modules ``module`` names in any import, ``TYPE_CHECKING`` ones too."""
    path = MODULES[module]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            names = [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            target = _target(name)
            if target is not None and target != module:
                found.add(target)
    return found


def _cycle_in(modules: set[str]) -> list[str] | None:
    """Return one cycle among ``modules`` (every import counted), or None."""
    graph = {module: _all_imports(module) & modules for module in modules}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                return [*path[path.index(other) :], other]
            if other not in state and (found := visit(other)):
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return None


GAME_PACKAGES = sorted(
    {".".join(m.split(".")[:3]) for m in MODULES if m.startswith("racedeck.games.")}
)


def test_the_walk_finds_every_game_package() -> None:
    assert {
        "racedeck.games.lacorsa",
        "racedeck.games.detroit_cleveland",
        "racedeck.games.famous500",
        "racedeck.games.wacky_races",
    } <= set(GAME_PACKAGES)


def test_a_cycle_of_type_only_imports_counts() -> None:
    """The game check sees what the package-wide one leaves out: imports for types only."""
    assert "racedeck.games.wacky_races.resolution" in _all_imports(
        "racedeck.games.wacky_races.traps"
    )
    assert "racedeck.games.wacky_races.resolution" not in GRAPH["racedeck.games.wacky_races.traps"]


def test_no_game_package_has_an_import_cycle() -> None:
    """A game's rule modules form layers: one that calls another never is called back by it,
    not even through an object that forwards the call (it would import the caller for
    its type). Every import counts here, those under ``if TYPE_CHECKING:`` too."""
    for package in GAME_PACKAGES:
        modules = {m for m in MODULES if m == package or m.startswith(package + ".")}
        cycle = _cycle_in(modules)
        assert cycle is None, "import cycle: " + " -> ".join(cycle or [])
