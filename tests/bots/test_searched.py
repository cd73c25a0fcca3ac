"""ISMCTS's ``searched``: one kind of decision searched, the others left to the heuristic."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.cli.app import main
from racedeck.core.bot import BotFault, BotParameterError, BotSpec
from racedeck.core.errors import EXIT_BAD_INPUT
from racedeck.core.model import Action, Observation, action_kind
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY
from tools.strength import Routed

DETROIT = REGISTRY.game("detroit-cleveland")
ONE_RACE = DETROIT.parse_options({"races": 1})


class _Watched(Routed):
    """``ismcts:simulations=3,searched=play``, with a heuristic of its own beside it.

    The heuristic is asked each decision the search leaves out, with a copy of the
    seat's generator, before the search answers it: the two must choose alike. (The
    two bots are started as ``tools.strength``'s split seat starts its pair.)
    """

    def __init__(self, record: dict[str, int]) -> None:
        search = REGISTRY.bot("ismcts:simulations=3,searched=play", DETROIT.name)
        super().__init__("play", search, REGISTRY.bot("heuristic", DETROIT.name))
        self.record = record

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        search = self.searched
        assert isinstance(search, Ismcts)
        if len(legal) == 1:
            return search.act(observation, legal, rng)
        if any(action_kind(action) == "play" for action in legal):
            chosen = search.act(observation, legal, rng)
            assert search.last_simulations > 0, "a card to play is searched"
            self.record["searched"] += 1
            return chosen
        copy = random.Random()
        copy.setstate(rng.getstate())
        expected = self.rest.act(observation, legal, copy)
        chosen = search.act(observation, legal, rng)
        assert chosen == expected, "a bid or a move is the heuristic's"
        assert search.last_simulations == 0 and search.last_visits == ()
        self.record["left"] += 1
        return chosen


def test_searching_only_the_cards_played_leaves_every_bid_and_move_to_the_heuristic() -> None:
    record = {"searched": 0, "left": 0}
    watched = BotSpec(name="watched", factory=lambda: _Watched(record), description="")
    heuristic = REGISTRY.bot("heuristic", DETROIT.name)
    run_match(DETROIT, ONE_RACE, [watched, heuristic], 2)
    assert record["searched"] > 5 and record["left"] > 5


def test_a_kind_of_decision_the_game_has_not_is_refused_before_a_match() -> None:
    with pytest.raises(BotParameterError, match=r"detroit-cleveland has no 'plays' decisions"):
        REGISTRY.bot("ismcts:searched=plays", DETROIT.name)
    # Each game's own kinds: LACORSA's cards are played too, Wacky Races' are not.
    assert REGISTRY.bot("ismcts:searched=play", "lacorsa").parameters.searched == "play"
    with pytest.raises(BotParameterError, match="its kinds of action: choose_racer, play_step"):
        REGISTRY.bot("ismcts:searched=play", "wacky-races")


def test_a_search_built_in_code_with_a_kind_the_game_has_not_faults_at_the_start() -> None:
    search = Ismcts(Budget(simulations=3, rollout="heuristic", searched="plays"))
    search.bind_game(DETROIT)
    with pytest.raises(BotFault, match="cannot search detroit-cleveland's 'plays' decisions"):
        search.start_match(DETROIT.name, 0, 2, ONE_RACE)


def test_the_command_line_refuses_it_in_one_line_and_plays_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    seats = ["--seat", "ismcts:searched=plays", "--seat", "heuristic"]
    assert main(["play", DETROIT.name, *seats, "-o", "races=1", "--seed", "1"]) == EXIT_BAD_INPUT
    error = capsys.readouterr().err.strip().splitlines()
    assert error == [
        "racedeck: error: parameter searched: detroit-cleveland has no 'plays' decisions"
        " (its kinds of action: bid, pass, play, move, decline)"
    ]
    assert not list(tmp_path.rglob("*.jsonl")), "no log was begun"


def test_a_kind_full_of_markup_and_control_characters_is_refused_escaped() -> None:
    hostile = "<b>play</b>\x1b[31m\n"
    with pytest.raises(BotParameterError) as refused:
        Budget(simulations=3, searched=hostile).check_game(DETROIT)
    message = str(refused.value)
    assert "\x1b" not in message and "\n" not in message
    assert "'<b>play</b>\\x1b[31m\\n'" in message
