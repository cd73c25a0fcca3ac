"""Learned linear policies: their stored weights are checked, and they play the best score."""

from __future__ import annotations

import random
from collections.abc import Sequence
from types import MappingProxyType

import pytest

from racedeck.bots.linear import MAX_WEIGHTS, LinearPolicy, check_weights, weigh
from racedeck.core.errors import DataError
from racedeck.core.model import Action, Observation
from racedeck.games.lacorsa.actions import PLAY_ONE


def _named(observation: Observation, legal: Sequence[Action]) -> list[list[str]]:
    return [[f"card {a.cards[0]}", "any"] for a in legal]  # type: ignore[attr-defined]


class _Policy(LinearPolicy):
    features = staticmethod(_named)
    weights = MappingProxyType({"card 3": 2.0, "card 5": 2.0, "card 9": -1.0, "any": 0.5})


def test_the_policy_plays_the_action_of_the_highest_score_and_the_first_on_a_tie() -> None:
    legal = [PLAY_ONE[0][9], PLAY_ONE[0][3], PLAY_ONE[0][7], PLAY_ONE[0][5]]
    bot = _Policy()
    assert weigh(_Policy.weights, _named(None, legal)) == [-0.5, 2.5, 0.5, 2.5]  # type: ignore[arg-type]
    assert bot.act(None, legal, random.Random(0)) is legal[1]  # type: ignore[arg-type]
    assert bot.act(None, [PLAY_ONE[0][9]], random.Random(0)) is PLAY_ONE[0][9]  # type: ignore[arg-type]


def test_a_feature_the_weights_do_not_name_weighs_nothing() -> None:
    assert weigh({"a": 1.0}, [["a", "unknown"], ["unknown"]]) == [1.0, 0.0]


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (b'{"version": "1", "trained": "t", "weights": {"a": 1e999}}', "out of range"),
        (b'{"version": "1", "trained": "t", "weights": {"a": "x"}}', "Expected `float`"),
        (b'{"version": "", "trained": "t", "weights": {}}', "no version"),
        (b'{"version": "1", "trained": "t", "weights": {}, "extra": 1}', "unknown field"),
        (b'{"version": "1", "weights": {}}', "missing required field `trained`"),
        (b"[]", "Expected `object`"),
    ],
)
def test_a_stored_policy_that_is_not_one_is_refused_naming_the_file(raw: bytes, said: str) -> None:
    with pytest.raises(DataError, match=said) as caught:
        check_weights(raw, "policy.json")
    assert str(caught.value).startswith("policy.json: ")


def test_a_policy_of_too_many_weights_is_refused() -> None:
    many = ", ".join(f'"f{i}": 0' for i in range(MAX_WEIGHTS + 1))
    raw = ('{"version": "1", "trained": "t", "weights": {' + many + "}}").encode()
    with pytest.raises(DataError, match="more than"):
        check_weights(raw, "policy.json")
