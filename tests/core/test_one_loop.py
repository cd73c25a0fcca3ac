"""One play loop: only the driver asks who acts and resolves, in a loop.

Every loop in the package's source is read with ``ast``. A loop that calls a game's
``next_step`` and also resolves a decision or asks for legal actions (``resolve``,
``legal_actions``) is a play loop; there must be one, in ``core/driver.py``: the runner,
log reading, forks, the RL environment and ISMCTS's simulations all run it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import racedeck

SOURCE = Path(racedeck.__file__).parent

_ASKS = {"next_step"}
_PLAYS = {"resolve", "legal_actions"}


def _called(node: ast.AST) -> set[str]:
    """Return the names of the functions called anywhere under ``node``."""
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            func = inner.func
            if isinstance(func, ast.Name):
                names.add(func.id)
            elif isinstance(func, ast.Attribute):
                names.add(func.attr)
    return names


def _play_loops(tree: ast.Module, module: str) -> set[str]:
    """Return ``module:Class.function`` for each function holding a play loop."""
    found = set()

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.For | ast.While | ast.AsyncFor):
                called = _called(child)
                if called & _ASKS and called & _PLAYS:
                    found.add(f"{module}:{'.'.join(scope)}")
            visit(child, scope)

    visit(tree, [])
    return found


def _all_play_loops() -> set[str]:
    found = set()
    for path in sorted(SOURCE.rglob("*.py")):
        module = ".".join(("racedeck", *path.relative_to(SOURCE).with_suffix("").parts))
        module = module.removesuffix(".__init__")
        found |= _play_loops(ast.parse(path.read_text(encoding="utf-8")), module)
    return found


def test_the_driver_is_the_only_play_loop() -> None:
    loops = _all_play_loops()
    assert "racedeck.core.driver:Driver.steps" in loops
    assert loops == {"racedeck.core.driver:Driver.steps"}, f"play loops: {sorted(loops)}"


def test_the_walk_finds_a_copy_of_the_loop() -> None:
    copy = """
def play(game, state):
    while True:
        step = game.next_step(state)
        for seat in step.seats:
            legal = game.legal_actions(state, seat)
"""
    assert _play_loops(ast.parse(copy), "m") == {"m:play"}
    aliased = """
class Bot:
    def search(self, game, state):
        next_step, resolve = game.next_step, game.resolve
        while not next_step(state).over:
            resolve(turn, 0, None)
"""
    assert _play_loops(ast.parse(aliased), "m") == {"m:Bot.search"}
    assert _play_loops(ast.parse("def f(game, s):\n    return game.next_step(s)\n"), "m") == set()
