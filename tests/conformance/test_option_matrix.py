"""Every documented option value plays to the end, with no seat ever left without a move.

Each game describes its options' documented ranges and enumerated values in
``Game.option_ranges``: the matrix plays each value (the others at their defaults) at the
smallest and the largest table that value allows, with the random and the heuristic bots,
and asserts at every decision that the seat asked has a legal action, and that the match
ends within a bound. The quick part plays the random bots on one seed; the rest of the
matrix, marked ``slow``, plays the heuristic bots on two seeds (``make test`` and CI run
it too: nothing deselects it; ``pytest -m "not slow"`` leaves it out while working).
"""

from __future__ import annotations

import io
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from racedeck.core.errors import OptionError
from racedeck.core.game import AnyGame
from racedeck.core.log import LogWriter
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match

from .cases import REGISTRY

TIERS = (("random", (1,)), ("heuristic", (1, 2)))
"""The quick tier (random bots, one seed) and the slow one (heuristic bots, two seeds)."""
MAX_DECISIONS = 400_000
"""No match of any option set takes this many decisions: past it, the match stalled."""


class _Checked:
    """A game that asserts, whenever the runner asks a seat, that it has a legal action."""

    def __init__(self, game: AnyGame) -> None:
        self._game = game
        self.decisions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        legal = self._game.legal_actions(state, seat)
        assert seat in self._game.next_step(state).seats, f"seat {seat} asked out of turn"
        assert legal, f"seat {seat} is asked to act with no legal action"
        self.decisions += 1
        assert self.decisions < MAX_DECISIONS, "the match stalled"
        return legal


def _tables(game: AnyGame, options: Any) -> list[int]:
    fits = []
    for players in range(game.min_players, game.max_players + 1):
        try:
            game.check_players(options, players)
        except OptionError:
            continue
        fits.append(players)
    return sorted({fits[0], fits[-1]}) if fits else []


def _matrix() -> Iterator[Any]:
    for name in sorted(REGISTRY.games):
        game = REGISTRY.games[name]
        for described in game.option_ranges:
            for value in described.values:
                options = game.parse_options({described.name: value})
                for players in _tables(game, options):
                    for bot, seeds in TIERS:
                        marks = () if bot == "random" else (pytest.mark.slow,)
                        yield pytest.param(
                            name,
                            {described.name: value},
                            players,
                            bot,
                            seeds,
                            marks=marks,
                            id=f"{name}-{described.name}={value}-{players}p-{bot}",
                        )


MATRIX = list(_matrix())


@pytest.mark.parametrize(("name", "raw", "players", "bot", "seeds"), MATRIX)
def test_every_documented_option_value_plays_to_the_end(
    name: str, raw: dict[str, Any], players: int, bot: str, seeds: tuple[int, ...]
) -> None:
    game = REGISTRY.game(name)
    spec = REGISTRY.bot(bot, name)
    options = game.parse_options(raw)
    for seed in seeds:
        checked = _Checked(game)
        outcome = run_match(checked, options, [spec] * players, seed)  # type: ignore[arg-type]
        assert outcome.forfeit is None, (seed, outcome.forfeit)
        assert not outcome.faults, (seed, outcome.faults)
        assert game.next_step(outcome.state).over
        assert checked.decisions > 0


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_every_option_is_described_and_its_range_is_enforced(name: str) -> None:
    game = REGISTRY.game(name)
    described = {d.name for d in game.option_ranges}
    assert described == set(game.options_type.__struct_fields__), (
        f"{name}: describe every option's documented values in option_ranges"
    )
    for d in game.option_ranges:
        assert d.values, f"{name}: option {d.name} lists no value"
        if d.low is not None and d.high is not None:
            for outside in (d.low - 1, d.high + 1):
                with pytest.raises(OptionError, match=d.name):
                    game.parse_options({d.name: outside})


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_options_built_by_hand_are_checked_where_the_game_is_set_up(name: str) -> None:
    """Options need not come through ``parse_options``: ``initial_state`` refuses, with the
    option's name, a value past either end of its range, the wrong options type and a
    player count the game does not take."""
    game = REGISTRY.game(name)
    ranged = [d for d in game.option_ranges if d.low is not None and d.high is not None]
    for d in ranged:
        assert d.low is not None and d.high is not None
        for outside in (d.low - 1, d.high + 1):
            options = game.options_type(**{d.name: outside})
            with pytest.raises(OptionError, match=d.name):
                game.initial_state(options, game.min_players)
    default = game.parse_options({})
    game.initial_state(default, game.min_players)
    with pytest.raises(OptionError, match="players"):
        game.initial_state(default, game.max_players + 1)
    with pytest.raises(OptionError, match="options must be"):
        game.initial_state(object(), game.min_players)


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_options_built_by_hand_with_a_value_of_the_wrong_type_are_refused(name: str) -> None:
    """A struct built by hand is not checked against its fields' types; ``initial_state``
    reads it back as its own type and refuses, naming the option, an ``int`` given a
    float or a bool, a ``bool`` given a string, a choice given a value it does not list."""
    game = REGISTRY.game(name)
    default = game.parse_options({})
    for field in msgspec.structs.fields(game.options_type):
        value = getattr(default, field.name)
        wrong: list[object] = []
        if type(value) is int:
            wrong = [1.5, True, str(value)]
        elif type(value) is bool:
            wrong = ["x", 1, None]
        elif (
            type(value) is str
            and len({d.name: d for d in game.option_ranges}[field.name].values) > 1
        ):
            wrong = ["no such choice", 3]
        for bad in wrong:
            options = msgspec.structs.replace(default, **{field.name: bad})
            with pytest.raises(OptionError, match=field.name):
                game.initial_state(options, game.min_players)


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_default_options_built_by_hand_play_a_match_that_replays(name: str) -> None:
    """The options struct made with no arguments (as a Python user makes it) plays a match
    whose log replays to the same state, though it skipped ``parse_options``."""
    game = REGISTRY.game(name)
    seats = [REGISTRY.bot("random", name)] * max(2, game.min_players)
    buffer = io.BytesIO()
    outcome = run_match(game, game.options_type(), seats, 1, writer=LogWriter(buffer))
    replay = replay_log(REGISTRY, "hand.jsonl", stream=io.BytesIO(buffer.getvalue()))
    assert replay.complete, replay.error
    assert replay.state == outcome.state


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_an_unknown_option_name_is_refused_with_the_valid_ones(name: str) -> None:
    game = REGISTRY.game(name)
    fields = game.options_type.__struct_fields__
    with pytest.raises(OptionError) as refused:
        game.parse_options({"no_such_option": 1})
    message = str(refused.value)
    assert "unknown option 'no_such_option'" in message
    assert all(field in message for field in fields), message


def test_every_game_plays_its_extremes_at_both_table_sizes() -> None:
    games = {param.values[0] for param in MATRIX}
    assert games == set(REGISTRY.games)
    for name in games:
        game = REGISTRY.game(name)
        counts = {param.values[2] for param in MATRIX if param.values[0] == name}
        assert {game.min_players, game.max_players} <= counts


def test_the_test_command_runs_the_slow_tests_too() -> None:
    """``make test`` runs plain ``pytest``: no option of the configuration deselects ``slow``."""
    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert not any("slow" in option or option.startswith("-m") for option in config["addopts"])
    assert "$(BIN)/python -m pytest\n" in (root / "Makefile").read_text()
