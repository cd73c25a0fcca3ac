"""ISMCTS with ``reuse``: the tree carried from one of a seat's decisions to the next.

The node the seat's new observation identifies becomes the root with its statistics; an
observation that names no node, or several, starts afresh. Play stays a function of the
seed (it replays and verifies), and what picks the node is the seat's own observation.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import pairwise
from pathlib import Path
from typing import Any

import msgspec

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.bots.plugin import ISMCTS_BUDGETS
from racedeck.bots.search_reuse import Sightings, carried_root
from racedeck.bots.search_tree import Node
from racedeck.cli.app import main
from racedeck.core.bot import BotSpec
from racedeck.core.driver import Asking, Driver
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng, bot_stream
from racedeck.core.runner import run_match
from tests.bots.helpers import HEURISTIC, LACORSA, ONE_RACE, REGISTRY

REUSE = Budget(simulations=40, rollout="heuristic", reuse=True)


class Watched(Ismcts):
    """An ``Ismcts`` that keeps, per searched decision, what its root brought and was."""

    def __init__(self, budget: Budget) -> None:
        super().__init__(budget)
        self.decisions: list[dict[str, Any]] = []

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        noted = self._sightings
        action = super().act(observation, legal, rng)
        if len(legal) > 1:
            root = self._last_root
            self.decisions.append(
                {
                    "observation": observation,
                    "carried": self.last_carried,
                    "simulations": self.last_simulations,
                    "root": root,
                    "noted_before": noted,
                    "start_visits": self._start_visits,
                    "visits": sum(row[0] for row in root.tables[self._seat].values()),
                }
            )
        return action

    def _root(self, observation: Observation) -> Node:
        self._last_root = super()._root(observation)
        self._start_visits = sum(
            row[0] for row in self._last_root.tables.get(self._seat, {}).values()
        )
        return self._last_root


def _watched(budget: Budget = REUSE) -> tuple[BotSpec, list[Watched]]:
    made: list[Watched] = []

    def make() -> Watched:
        made.append(Watched(budget))
        return made[-1]

    return BotSpec(name="watched", factory=make, description=""), made


def _events(budget: Budget, seed: int, options: Any = ONE_RACE) -> bytes:
    buffer = io.BytesIO()
    seats = [BotSpec(name="ismcts", factory=lambda: Ismcts(budget), description=""), HEURISTIC]
    run_match(LACORSA, options, seats, seed, writer=LogWriter(buffer))
    return buffer.getvalue()


def test_the_registered_searches_and_the_default_budget_do_not_reuse() -> None:
    assert Budget().reuse is False
    assert not any(budget.reuse for budget, _ in ISMCTS_BUDGETS.values())
    declared = {p.name: p for p in REGISTRY.bot("ismcts", "lacorsa").declared()}
    assert declared["reuse"].default is False and declared["reuse"].type is bool


def test_reuse_plays_the_same_match_for_the_same_seed() -> None:
    first, again = _events(REUSE, 5), _events(REUSE, 5)
    assert first == again
    assert first != _events(replace(REUSE, reuse=False), 5), "reuse changed nothing at all"


def test_a_carried_root_brings_the_visits_it_had_at_the_end_of_the_last_search() -> None:
    spec, made = _watched()
    run_match(LACORSA, ONE_RACE, [spec, HEURISTIC], 1)
    decisions = made[0].decisions
    assert decisions[0]["carried"] == 0, "the first decision has nothing to carry"
    assert sum(1 for d in decisions if d["carried"]) >= 5
    for before, after in pairwise(decisions):
        if after["carried"]:
            # The very node the last search noted under this observation: it starts with
            # the visits it held when that search ended, and the search adds its own.
            assert after["root"] is after["noted_before"].node_for(after["observation"])
            assert after["root"] is not before["root"]
            assert after["start_visits"] == after["carried"] > 0
            assert after["visits"] == after["carried"] + after["simulations"]
        else:
            assert after["start_visits"] == 0
            assert after["visits"] == after["simulations"]


def test_without_reuse_every_root_is_new() -> None:
    spec, made = _watched(replace(REUSE, reuse=False))
    run_match(LACORSA, ONE_RACE, [spec, HEURISTIC], 1)
    decisions = made[0].decisions
    assert decisions and all(d["carried"] == 0 for d in decisions)
    assert all(d["noted_before"] is None for d in decisions), "nothing is noted"


def test_a_new_race_starts_a_fresh_tree() -> None:
    spec, made = _watched()
    run_match(LACORSA, LACORSA.parse_options({"races": 2}), [spec, HEURISTIC], 2)
    decisions = made[0].decisions
    races = [d["observation"].race for d in decisions]
    first_of_second = races.index(1)
    assert decisions[first_of_second]["carried"] == 0
    assert any(d["carried"] for d in decisions[first_of_second:]), "reuse goes on after"


def test_an_observation_noted_at_two_nodes_or_at_none_names_no_root() -> None:
    game = LACORSA
    state = game.initial_state(ONE_RACE, 2)
    seen, other = game.observe(state, 0), game.observe(state, 1)
    one, two = Node(), Node()
    sightings = Sightings()
    sightings.note(seen, one)
    sightings.note(seen, one)
    assert carried_root(sightings, seen) is one
    sightings.note(seen, two)  # the seat cannot tell the two apart: no root
    assert carried_root(sightings, seen) is None
    assert carried_root(sightings, other) is None
    assert carried_root(None, seen) is None


def test_the_root_is_picked_by_the_seats_observation_alone() -> None:
    """What is noted are the searching seat's observations (nothing hidden from it): at
    every decision, the true state and one with the seat's unseen cards dealt otherwise
    name the same root."""
    game, seed = LACORSA, 1
    bot, other = Ismcts(REUSE), HEURISTIC.factory()
    for seat, player in enumerate((bot, other)):
        player.bind_game(game)
        player.start_match(game.name, seat, 2, ONE_RACE)
    rngs = [bot_stream(seed, seat) for seat in range(2)]
    driver = Driver(game, game.initial_state(ONE_RACE, 2), seed, None)
    named = 0
    for step in driver.steps():
        if not isinstance(step, Asking):
            continue
        observation = game.observe(step.state, step.seat)
        if step.seat == 0 and bot._sightings is not None:
            variant = game.hidden_variants(step.state, 0, random.Random(len(step.legal)))
            assert variant is not None
            node = bot._sightings.node_for(observation)
            assert bot._sightings.node_for(game.observe(variant, 0)) is node
            named += node is not None
        player = bot if step.seat == 0 else other
        driver.answer = player.act(observation, step.legal, rngs[step.seat])
    assert named >= 5
    sightings = bot._sightings
    assert sightings is not None and len(sightings) > 0
    decode = msgspec.msgpack.Decoder(game.observation_type).decode
    for key in sightings._nodes:
        seen = decode(key)
        assert seen.seat == 0
        assert all(hand is None for car, hand in enumerate(seen.hands) if seen.owner[car] != 0)


def test_a_match_with_reuse_replays_and_verifies(tmp_path: Path) -> None:
    log = tmp_path / "reuse.jsonl"
    seats = ["-s", "ismcts-fast:reuse=true", "-s", "heuristic"]
    assert main(["play", "lacorsa", *seats, "-o", "races=1", "--seed", "3", "--log", str(log)]) == 0
    assert main(["replay", str(log), "--verify", "--rerun"]) == 0
