"""Replay, verification and forks: built on the catalogue protocol and one fold of a log."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.entries import fold_log
from racedeck.core.errors import LogError, UnknownBotError, UnknownGameError
from racedeck.core.fork import fork_log, verify_fork
from racedeck.core.game import AnyGame
from racedeck.core.log import LogReader
from racedeck.core.replay import iter_states, open_game, replay_log
from racedeck.core.session import plan_match, play_to_log
from racedeck.core.verify import verify_log
from racedeck.inspect.diff import diff_logs
from racedeck.plugins import load_registry
from tests.inspect.helpers import rewrite

PLUGIN_GAMES = Path(__file__).parents[1] / "conformance" / "plugin_games"


class OneGame:
    """A catalogue that is not the plugin registry: one game and its bots, by hand."""

    def __init__(self, game: AnyGame, bots: list[BotSpec]) -> None:
        self._game = game
        self._bots = bots

    def game(self, name: str) -> AnyGame:
        if name != self._game.name:
            raise UnknownGameError(f"unknown game {name!r}")
        return self._game

    def bot(self, name: str, game: str) -> BotSpec:
        for spec in self._bots:
            if spec.name == name and spec.plays(game):
                return spec
        raise UnknownBotError(f"unknown bot {name!r}")


@pytest.fixture(scope="module")
def catalogue() -> Catalogue:
    registry = load_registry(PLUGIN_GAMES, entry_points=False)
    game = registry.game("high-card")
    return OneGame(game, registry.bots_for("high-card"))


@pytest.fixture(scope="module")
def log(catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> Path:
    plan = plan_match(catalogue, "high-card", ["heuristic", "random", "random"], 5, {})
    path = tmp_path_factory.mktemp("replay") / "high-card.jsonl"
    _outcome, written = play_to_log(plan, path)
    assert written == path
    return path


def test_any_catalogue_serves_replay_verification_and_forks(
    catalogue: Catalogue, log: Path, tmp_path: Path
) -> None:
    replay = verify_log(catalogue, log, rerun=True).replay
    assert replay.complete and replay.events > 4
    forked = fork_log(catalogue, log, 3, tmp_path / "fork.jsonl", seed=9)
    assert verify_fork(catalogue, forked.path, log).whole
    checked = verify_log(catalogue, forked.path, rerun=True)  # re-run from the fork point
    assert checked.replay.complete and checked.checked_from == 4 and not checked.whole


def test_the_fold_yields_every_entry_with_the_state_after_it(
    catalogue: Catalogue, log: Path
) -> None:
    states = [state for _seq, _event, state, _replay in iter_states(catalogue, log)]
    with LogReader(log) as reader:
        game, options = open_game(catalogue, reader.header, str(log))
        initial = game.initial_state(options, reader.header.players)
        walked = list(fold_log(game, initial, reader, reader.path))
    assert [state for _entry, _event, state in walked] == states
    assert [entry.seq for entry, _event, _state in walked] == list(range(len(states)))
    assert replay_log(catalogue, log).state == states[-1]


def _bad_seat(seq: int, event: dict) -> dict:
    return {**event, "seat": 7} if event["type"] == "laid" and seq > 5 else event


def test_an_event_its_decision_does_not_give_is_a_log_error_naming_its_line(
    catalogue: Catalogue, log: Path, tmp_path: Path
) -> None:
    edited = rewrite(log, tmp_path / "edited.jsonl", _bad_seat)
    lines = [json.loads(line) for line in edited.read_text().splitlines()]
    number, first = next(
        (number, line)
        for number, line in enumerate(lines, start=1)
        if line["kind"] == "turn" and any(e.get("seat") == 7 for e in line["events"])
    )
    seq = first["seq"] + [e.get("seat") for e in first["events"]].index(7)
    replay = replay_log(catalogue, edited)
    assert isinstance(replay.error, LogError) and replay.error.line == number
    assert "are not the ones it gives: the log was edited" in replay.error.why
    assert replay.events == first["seq"]  # the intact prefix: the decisions before it
    with pytest.raises(LogError, match="the log was edited"):
        verify_log(catalogue, edited)
    # diff folds each log's events as written: the edited one cannot be folded there.
    report = diff_logs(catalogue, log, edited)
    assert report.divergence is not None and report.divergence.seq == seq
    assert report.divergence.b.error.startswith("IndexError")


def test_replaying_a_complete_log_folds_each_event_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checking that every event follows from its decision folds the events: not a second fold.

    Each recorded decision is resolved once, and its turn's states are the replay's.
    """
    name = "lacorsa"
    registry = load_registry(entry_points=False)
    plan = plan_match(registry, name, ["heuristic", "random"], 3, {})
    path = tmp_path / "match.jsonl"
    play_to_log(plan, path)
    game = registry.game(name)
    folds = 0
    evolve = type(game).evolve

    def counting(self: AnyGame, state: object, event: object) -> object:
        nonlocal folds
        folds += 1
        return evolve(self, state, event)

    monkeypatch.setattr(type(game), "evolve", counting)
    replay = replay_log(registry, path)
    assert replay.complete and replay.error is None
    assert folds == replay.events


def test_replay_at_an_event_inside_a_decision_gives_the_state_after_it(tmp_path: Path) -> None:
    """A challenge's two sealed cards and its outcome are one decision's events."""
    registry = load_registry(entry_points=False)
    plan = plan_match(registry, "lacorsa", ["random", "random", "random"], 4, {"races": 1})
    path = tmp_path / "match.jsonl"
    play_to_log(plan, path)
    game = registry.game("lacorsa")
    initial = game.initial_state(game.parse_options({"races": 1}), 3)
    with LogReader(path) as reader:
        folded = fold_log(game, initial, reader, str(path))
        states = [state for entry, _event, state in folded if entry.event is not None]
    for at in range(len(states)):
        assert replay_log(registry, path, at=at).state == states[at]


def test_replay_reads_a_log_as_it_folds_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/debugging.md: replay's memory does not grow with the log ("the same peak at any
    length"), so it must not hold the log's entries: it reads about a decision ahead of the
    fold, and the first event is folded before a tenth of the log is read.
    """
    registry = load_registry(entry_points=False)
    plan = plan_match(registry, "lacorsa", ["random"] * 4, 1, {"races": 3})
    path = tmp_path / "match.jsonl"
    play_to_log(plan, path)
    raw = path.read_bytes()
    stream = io.BytesIO(raw)
    game = registry.game("lacorsa")
    evolve = type(game).evolve
    read_at_fold: list[int] = []

    def watching(self: AnyGame, state: object, event: object) -> object:
        read_at_fold.append(stream.tell())
        return evolve(self, state, event)

    monkeypatch.setattr(type(game), "evolve", watching)
    replay = replay_log(registry, "match.jsonl", stream=stream)
    assert replay.complete and replay.error is None
    assert len(read_at_fold) == replay.events
    assert read_at_fold[0] < len(raw) // 10, "the whole log was read before the first fold"
    assert read_at_fold[len(read_at_fold) // 2] < len(raw) * 6 // 10
