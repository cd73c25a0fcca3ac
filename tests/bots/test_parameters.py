"""Declared bot parameters: listed with their defaults, set from strings, refused clearly."""

from __future__ import annotations

import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.bots.named import resolve
from racedeck.bots.plugin import LEARNED_BIAS
from racedeck.core.bot import NO_PARAMETERS, BotParameterError
from tests.bots.helpers import REGISTRY, play

BUILT_IN = ("random", "heuristic", "ismcts-fast", "ismcts", "ismcts-strong")


@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_every_built_in_bot_declares_its_parameters(game: str) -> None:
    for name in BUILT_IN:
        spec = REGISTRY.bot(name, game)
        names = [p.name for p in spec.declared()]
        if name.startswith("ismcts"):
            assert {"simulations", "exploration", "rollout", "rank_weight", "epsilon"} <= set(names)
        else:
            assert spec.parameters == NO_PARAMETERS and names == []


def test_ismcts_parameters_carry_each_variants_defaults_types_and_choices() -> None:
    # The general variants (every built-in game registers its own), as a plugin's game gets them.
    general = {s.name: s for s in REGISTRY.bots if s.games is None}
    fast = {p.name: p for p in general["ismcts-fast"].declared()}
    assert fast["simulations"].default == 50 and fast["simulations"].type is int
    assert fast["simulations"].optional
    assert fast["effort"].default is None and fast["effort"].type is float
    assert fast["horizon"].default is None and fast["horizon"].type is int
    assert fast["rollout"].choices == ("random", "heuristic", "light", "distilled", "guided")
    assert fast["sealed"].choices == ("regret", "exp3", "ucb1")
    assert fast["exploration"].type is float and fast["exploration"].doc.startswith("UCB1")
    strong = {p.name: p.default for p in general["ismcts-strong"].declared()}
    assert strong["simulations"] == 1000


def test_parameters_given_as_strings_make_the_bot_that_plays() -> None:
    spec = REGISTRY.bot("ismcts", "lacorsa").with_parameters(
        simulations="7", rollout="random", exploration="1.5", sealed="exp3"
    )
    bot = spec.factory()
    assert isinstance(bot, Ismcts)
    assert bot.budget == Budget(
        simulations=7, rollout="random", exploration=1.5, sealed="exp3", bias=LEARNED_BIAS
    )
    outcome, _ = play([spec, REGISTRY.bot("random", "lacorsa")], seed=4)
    assert not outcome.faults and bot.budget.simulations == 7


def test_a_budget_of_effort_with_a_horizon_is_one_bot_name_away() -> None:
    """``ismcts:simulations=none,effort=1,horizon=20``: the opt-in budget of docs/bots.md."""
    spec = resolve(
        lambda name: REGISTRY.bot(name, "detroit-cleveland"),
        "ismcts:simulations=none,effort=1,horizon=20",
    )
    assert spec.name == "ismcts:simulations=none,effort=1.0,horizon=20"  # as logs name it
    # Parameters change only what they name: Detroit-Cleveland's own ``ismcts`` searches
    # the cards alone, and so does this budget, until ``searched=none`` says otherwise.
    cards = Budget(simulations=None, effort=1.0, horizon=20, rollout="heuristic", searched="play")
    assert spec.parameters == cards
    spec = resolve(
        lambda name: REGISTRY.bot(name, "detroit-cleveland"),
        "ismcts:simulations=none,effort=1,horizon=20,searched=none",
    )
    assert spec.parameters == Budget(simulations=None, effort=1.0, horizon=20, rollout="heuristic")


def test_typed_values_and_none_are_taken_too() -> None:
    spec = REGISTRY.bot("ismcts", "lacorsa").with_parameters(simulations=None, steps=300)
    assert spec.parameters.simulations is None and spec.parameters.steps == 300
    spec = REGISTRY.bot("ismcts", "lacorsa").with_parameters(simulations="none", steps="300")
    assert spec.parameters.steps == 300


@pytest.mark.parametrize(
    ("bot", "values", "message"),
    [
        ("ismcts", {"budget": "9"}, "bot ismcts has no parameter 'budget' (its parameters: "),
        (
            "heuristic",
            {"depth": "2"},
            "bot heuristic has no parameter 'depth' (its parameters: none)",
        ),
        ("ismcts", {"simulations": "lots"}, "parameter simulations takes an integer or none"),
        ("ismcts", {"rollout": "greedy"}, "parameter rollout takes one of random, heuristic"),
        ("ismcts", {"epsilon": "2"}, "epsilon must be between 0 and 1"),
        ("ismcts", {"simulations": "0"}, "simulations must be positive"),
        ("ismcts", {"simulations": "none"}, "needs simulations, steps, effort or seconds"),
        ("ismcts", {"effort": "0"}, "effort must be positive"),
        ("ismcts", {"exploration": True}, "parameter exploration takes a number"),
        # A limit every comparison fails (NaN), or none at all (inf), would never stop the
        # search; an infinite weight makes UCB1's sums NaN.
        (
            "ismcts",
            {"seconds": "nan", "simulations": "none"},
            "seconds must be positive and finite",
        ),
        (
            "ismcts",
            {"seconds": "inf", "simulations": "none"},
            "seconds must be positive and finite",
        ),
        ("ismcts", {"effort": "inf"}, "effort must be positive and finite"),
        ("ismcts", {"exploration": "inf"}, "exploration must be 0 or more and finite"),
        ("ismcts", {"exploration": "nan"}, "exploration must be 0 or more and finite"),
        ("ismcts", {"bias": "inf"}, "bias must be 0 or more and finite"),
        ("ismcts", {"bias_scale": "inf"}, "bias_scale must be 0 or more and finite"),
    ],
)
def test_a_bad_parameter_is_refused_with_one_line_naming_it(
    bot: str, values: dict[str, object], message: str
) -> None:
    with pytest.raises(BotParameterError) as raised:
        REGISTRY.bot(bot, "lacorsa").with_parameters(**values)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_a_bad_parameter_is_bad_input_on_the_command_line() -> None:
    from racedeck.core.errors import EXIT_BAD_INPUT

    assert BotParameterError("x").exit_code == EXIT_BAD_INPUT == 3


def test_the_bots_guide_lists_every_ismcts_parameter_with_its_default() -> None:
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "bots.md").read_text(encoding="utf-8")
    row = next(line for line in guide.splitlines() if line.startswith("| `ismcts-fast`, `ismcts`"))
    for parameter in REGISTRY.bot("ismcts", "lacorsa").declared():
        assert f"`{parameter.name}`" in row, parameter.name
    assert "(50, 200, 1000)" in row
