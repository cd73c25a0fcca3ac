"""``tools.strength --only``: a seat whose decisions of one kind are played by another bot."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.game import action_kinds
from racedeck.core.model import Action, Observation, Result
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY
from tools.strength import main, routed

DETROIT = REGISTRY.game("detroit-cleveland")


class _Recording(Bot):
    """Plays the first legal action and keeps the kinds each decision offered."""

    def __init__(self, seen: list[set[str]], ended: list[Result]) -> None:
        self.seen, self.ended = seen, ended

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.seen.append({str(type(action).__struct_config__.tag) for action in legal})
        return legal[0]

    def end_match(self, result: Result) -> None:
        self.ended.append(result)


def _recording(seen: list[set[str]], ended: list[Result]) -> BotSpec:
    return BotSpec(name="recording", factory=lambda: _Recording(seen, ended), description="")


def test_a_routed_seat_asks_one_bot_where_its_kind_is_offered_and_the_other_elsewhere() -> None:
    moves: list[set[str]] = []
    others: list[set[str]] = []
    ended: list[Result] = []
    seat = routed(DETROIT, "move", _recording(moves, ended), _recording(others, ended))
    heuristic = REGISTRY.bot("heuristic", DETROIT.name)
    options = DETROIT.parse_options({"races": 1})
    run_match(DETROIT, options, [seat, heuristic], 3)
    assert moves, "the seat moved cars"
    assert others, "the seat bid and played cards"
    assert all("move" in offered for offered in moves)
    assert not any("move" in offered for offered in others)
    assert len(ended) == 2, "both bots hear how the match ended"


def test_a_kind_the_game_has_not_is_refused_naming_the_kinds_it_has(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert action_kinds(DETROIT) == ("bid", "pass", "play", "move", "decline")
    heuristic = REGISTRY.bot("heuristic", DETROIT.name)
    with pytest.raises(ValueError, match="no 'moves' action"):
        routed(DETROIT, "moves", heuristic, heuristic)
    with pytest.raises(SystemExit) as stopped:
        main(["detroit-cleveland", "heuristic", "heuristic", "--only", "moves", "--deals", "1"])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert error.endswith(
        "--only: detroit-cleveland has no 'moves' action (its actions: bid, pass, play, move,"
        " decline)"
    )
