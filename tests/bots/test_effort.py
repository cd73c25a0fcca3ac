"""Budgets of effort: forward-model steps in each game's own unit."""

from __future__ import annotations

import random

from racedeck.bots.effort import DEFAULT_GAME_STEPS, GAME_STEPS, effort_steps, step_limit
from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.model import ENGINE
from racedeck.core.step import resolve
from tests.bots.helpers import LACORSA, ONE_RACE


def test_an_effort_buys_the_games_own_unit_of_steps() -> None:
    assert effort_steps("lacorsa", 1.0) == GAME_STEPS["lacorsa"] == 1_000
    assert effort_steps("famous-500", 0.25) == 175
    assert effort_steps("a-game-of-a-plugin", 2.0) == 2 * DEFAULT_GAME_STEPS
    assert effort_steps("lacorsa", 1e-9) == 1  # never nothing


def test_the_fewer_of_steps_and_effort_limits_a_decision() -> None:
    assert step_limit(None, None, "lacorsa") is None
    assert step_limit(300, None, "lacorsa") == 300
    assert step_limit(None, 0.5, "lacorsa") == 500
    assert step_limit(300, 0.5, "lacorsa") == 300
    assert step_limit(900, 0.5, "lacorsa") == 500


def test_a_search_under_an_effort_stops_once_its_steps_are_spent() -> None:
    """It plays whole simulations: it stops at the first one that reaches the steps."""
    state = LACORSA.initial_state(ONE_RACE, 2)
    while True:
        step = LACORSA.next_step(state)
        if not step.engine and len(LACORSA.legal_actions(state, step.seats[0])) > 1:
            break
        state = resolve(LACORSA, state, ENGINE, None, random.Random(1)).state
    seat = step.seats[0]
    legal = LACORSA.legal_actions(state, seat)
    bot = Ismcts(Budget(simulations=None, effort=0.1, rollout="heuristic"))
    bot.bind_game(LACORSA)
    bot.start_match("lacorsa", seat, 2, ONE_RACE)
    bot.act(LACORSA.observe(state, seat), legal, random.Random(2))
    assert bot.last_steps >= 100
    # One simulation more than the budget would take at most a whole race's steps.
    assert bot.last_steps < 100 + 80 and bot.last_simulations >= 2
