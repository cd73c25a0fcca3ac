"""What a game offers beyond the contract is declared (``Game.capabilities``, ``Game.scores``)
and every game keeps to its declaration: tools read the declaration, never which methods a
subclass overrides."""

from __future__ import annotations

import ast
import random
from itertools import islice
from pathlib import Path
from typing import Any

import pytest

import racedeck
from racedeck.core.errors import OptionError
from racedeck.core.game import Capabilities, Game, Score
from racedeck.core.runner import run_match

from .cases import GAMES, REGISTRY

SRC = Path(racedeck.__file__).parent


def _walk(game: Any, options: Any, players: int, seed: int) -> list[Any]:
    """Return the states of a random match, engine turns included."""
    from racedeck.core.model import ENGINE
    from racedeck.core.rng import engine_stream
    from racedeck.core.step import NO_CHANCE, resolve

    rng = random.Random(seed)
    state, states, events = game.initial_state(options, players), [], 0
    while not (step := game.next_step(state)).over:
        states.append(state)
        if step.engine:
            turn = resolve(game, state, ENGINE, None, engine_stream(seed, events))
        else:
            seat = step.seats[0]
            legal = game.legal_actions(state, seat)
            turn = resolve(game, state, seat, legal[rng.randrange(len(legal))], NO_CHANCE)
        state = turn.state
        events += len(turn.events)
    states.append(state)
    return states


def _declares(game: Any, method: str) -> bool:
    """Whether ``game``'s class gives ``method`` a body of its own (for this check only)."""
    return any(method in vars(kind) for kind in type(game).__mro__ if kind is not Game)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_declares_its_capabilities_and_its_scores(name: str) -> None:
    game = REGISTRY.game(name)
    assert isinstance(game.capabilities, Capabilities)
    assert game.scores and all(isinstance(score, Score) for score in game.scores)
    assert len({score.name for score in game.scores}) == len(game.scores)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_offers_exactly_what_it_declares(name: str) -> None:
    """A declared capability has its method; an undeclared one keeps the base's default."""
    game = REGISTRY.game(name)
    declared = game.capabilities
    assert _declares(game, "sample_states") == declared.sampling
    assert _declares(game, "estimate") == declared.evaluation
    assert _declares(game, "hidden_variants") == declared.hidden_information


@pytest.mark.parametrize("name", GAMES)
def test_declared_capabilities_work_over_a_match(name: str) -> None:
    game = REGISTRY.game(name)
    options = game.parse_options(dict(game.conformance_options[0]))
    players = game.min_players
    states = _walk(game, options, players, 3)
    judged = 0
    for state in states[:-1][:: max(1, len(states) // 12)]:  # a finished match is not searched
        estimate = game.estimate(state)
        if game.capabilities.evaluation:
            # None where it cannot judge yet (before a grid stands, say): the playout goes on.
            if estimate is not None:
                assert len(estimate.ranks) == players
                judged += 1
        else:
            assert estimate is None
        if game.next_step(state).engine:
            continue  # a search samples at a seat's decision
        seen = game.observe(state, 0)
        worlds = list(islice(game.sample_states(seen, options, 0, random.Random(1)), 2))
        if game.capabilities.sampling:
            assert all(world is not None and game.observe(world, 0) == seen for world in worlds)
        else:
            assert worlds == [None, None]
    # A declared evaluation judges most of a match, not just its odd corner.
    assert not game.capabilities.evaluation or judged > 6, judged
    result = game.result(states[-1])
    assert game.score_of(result).name == result.unit


@pytest.mark.parametrize("name", GAMES)
def test_a_game_plays_the_rules_versions_it_declares_and_refuses_others(name: str) -> None:
    game = REGISTRY.game(name)
    for version in (*game.capabilities.rules_versions, game.rules_version):
        assert game.under_rules(version).rules_version == version
    with pytest.raises(OptionError, match="rules version"):
        game.under_rules("999")


def test_every_score_a_wacky_races_result_holds_is_declared() -> None:
    """One race scores places (lower is better); a championship its points."""
    game = REGISTRY.game("wacky-races")
    for races in (1, 2):
        options = game.parse_options({"races": races})
        outcome = run_match(game, options, [REGISTRY.bot("random", game.name)] * 2, 1)
        score = game.score_of(outcome.result)
        assert score.higher_is_better == (races > 1), score


def _method_comparisons(source: str) -> list[str]:
    """Return the comparisons of a class's method with ``Game``'s found in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.Is | ast.IsNot) for op in node.ops
        ):
            text = ast.unparse(node)
            if "Game." in text and "type(" in text:
                found.append(text)
    return found


def test_no_tool_detects_a_capability_by_comparing_methods() -> None:
    """``type(game).estimate is not Game.estimate`` and the like: the declaration says it."""
    found = [
        f"{path.relative_to(SRC)}: {text}"
        for path in sorted(SRC.rglob("*.py"))
        for text in _method_comparisons(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_the_check_for_method_comparisons_would_see_one() -> None:
    seen = _method_comparisons("if type(self).sample_state is not Game.sample_state:\n    pass\n")
    assert seen == ["type(self).sample_state is not Game.sample_state"]
    assert _method_comparisons("if self.capabilities.sampling:\n    pass\n") == []
