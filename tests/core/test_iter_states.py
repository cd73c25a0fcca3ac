"""``iter_states``: the state after every event of a log, each event folded once.

The step viewer, the HTML page, charts and the API read a log through ``iter_states``.
It decides the match again as it reads (the check that every event follows from a
decision) and takes each decision's turn as the fold, so no event is folded twice; it
still yields the state after every event, those inside a decision's events included,
reads the log only about a decision ahead, and refuses an edited log with the error and
line ``replay`` gives.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import EXIT_BAD_INPUT, LogError, UsageError
from racedeck.core.fork import fork_log
from racedeck.core.game import AnyGame
from racedeck.core.log import LogReader, LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.replay import fold_log, iter_states, open_game, replay_log
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import Registry
from tests.inspect.helpers import rewrite

BUILT_IN = ["detroit-cleveland", "famous-500", "lacorsa", "wacky-races"]


class _Flaky(Bot):
    """Plays at random, and fails every fifth decision: a log with fault lines."""

    def __init__(self) -> None:
        self.asked = 0

    def act(self, observation: Observation, legal: Any, rng: Rng) -> Action:
        self.asked += 1
        if self.asked % 5 == 0:
            raise ZeroDivisionError("no answer")
        return legal[rng.randrange(len(legal))]


FLAKY = BotSpec(name="flaky", factory=_Flaky, description="test")


class _WithFlaky:
    """The built-in games and bots, and the flaky bot: a catalogue a fork can name it in."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def game(self, name: str) -> AnyGame:
        return self.registry.game(name)

    def bot(self, name: str, game: str) -> BotSpec:
        return FLAKY if name == FLAKY.name else self.registry.bot(name, game)


def _played(registry: Registry, name: str, path: Path, *, flaky: bool = False) -> Path:
    """Play a match of up to three seats to ``path``; with ``flaky``, one seat faults."""
    game = registry.game(name)
    players = max(game.min_players, min(3, game.max_players))
    first = FLAKY if flaky else registry.bot("random", name)
    seats = [first, registry.bot("heuristic", name), registry.bot("random", name)][:players]
    with open(path, "wb") as handle:
        outcome = run_match(
            game,
            game.parse_options({}),
            seats,
            3,
            writer=LogWriter(handle),
            fault_policy="substitute",
        )
    assert outcome.forfeit is None
    return path


def _walked(registry: Registry, path: Path) -> list[tuple[int, Any, int]]:
    """Return ``(seq, state, faults before it)`` for each event, folded straight from the log.

    The events of the intact prefix, for a log with a bad line.
    """
    with LogReader(path) as reader:
        game, options = open_game(registry, reader.header, str(path))
        initial = game.initial_state(options, reader.header.players)
        walked, faults = [], 0
        with contextlib.suppress(LogError):  # an edited log: its intact prefix
            for entry, _event, state in fold_log(game, initial, reader, reader.path):
                if entry.fault is not None:
                    faults += 1
                elif entry.event is not None:
                    walked.append((entry.seq, state, faults))
    return walked


def _counting(game: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    calls = {"evolve": 0}
    evolve = type(game).evolve

    def counted(self: Any, state: object, event: object) -> object:
        calls["evolve"] += 1
        return evolve(self, state, event)

    monkeypatch.setattr(type(game), "evolve", counted)
    return calls


@pytest.mark.parametrize("name", BUILT_IN)
def test_each_event_is_folded_once_and_every_state_is_yielded(
    registry: Registry, name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = _played(registry, name, tmp_path / "match.jsonl", flaky=True)
    for path in (log, _forked(registry, log, tmp_path / "fork.jsonl")):
        walked = _walked(registry, path)
        calls = _counting(registry.game(name), monkeypatch)
        seen = [
            (seq, state, len(replay.faults))
            for seq, _event, state, replay in iter_states(registry, path)
        ]
        assert calls["evolve"] == len(walked), "an event was folded more than once"
        monkeypatch.undo()
        # The same states as a straight fold, after every event (inside a decision too),
        # with the faults logged before each event and no others.
        assert seen == walked
        assert any(faults for _seq, _state, faults in seen), "the log has fault lines"


def _forked(registry: Registry, log: Path, target: Path) -> Path:
    """Fork ``log`` at the first event from a third into it where a decision ends."""
    events = len(_walked(registry, log))
    for at in range(events // 3, events):
        with contextlib.suppress(UsageError):  # inside a decision's events
            return fork_log(_WithFlaky(registry), log, at, target, seed=11).path
    raise AssertionError("no decision ends after a third of the log")


def test_the_log_is_read_about_a_decision_ahead(registry: Registry, tmp_path: Path) -> None:
    raw = _played(registry, "lacorsa", tmp_path / "match.jsonl").read_bytes()
    stream = io.BytesIO(raw)
    states = iter_states(registry, "match.jsonl", stream)
    next(states)
    assert stream.tell() < len(raw) // 10, "the whole log was read before the first state"
    for _ in states:
        pass
    assert stream.tell() == len(raw)


def _drop(at: int) -> Any:
    return lambda seq, event: None if seq == at else event


def _refusals(registry: Registry, path: Path) -> Iterator[str]:
    """Yield the error each reader of a log gives: iter_states, replay, step and html."""
    seen = []
    with pytest.raises(LogError) as caught:
        for seq, _event, state, _replay in iter_states(registry, path):
            seen.append((seq, state))
    # The events before the first one that does not follow, each with its state.
    walked = [(seq, state) for seq, state, _faults in _walked(registry, path)]
    assert seen == walked[: len(seen)]
    yield str(caught.value)
    replay = replay_log(registry, path)
    assert replay.error is not None
    yield str(replay.error)


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_edited_log_is_refused_with_the_line_replay_names(
    registry: Registry,
    name: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log = _played(registry, name, tmp_path / "match.jsonl")
    events = len(_walked(registry, log))
    edited = rewrite(log, tmp_path / "edited.jsonl", _drop(events // 2))
    errors = set(_refusals(registry, edited))
    assert len(errors) == 1, errors
    (error,) = errors
    # The first decision that no longer follows: its events, or its seat out of turn.
    assert "are not the ones it gives" in error or "is to act" in error
    assert error.startswith(f"{edited}:") and f"{edited}:1:" not in error
    for command in (["step", str(edited)], ["html", str(edited), "--out", str(tmp_path / "p")]):
        monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
        assert main(command) == EXIT_BAD_INPUT
        assert error in capsys.readouterr().err
    assert not (tmp_path / "p").exists()


def test_an_event_its_decision_does_not_give_is_refused_at_its_line(
    registry: Registry, tmp_path: Path
) -> None:
    log = _played(registry, "detroit-cleveland", tmp_path / "match.jsonl")
    events = len(_walked(registry, log))

    def far_seat(seq: int, event: dict[str, Any]) -> dict[str, Any]:
        if seq > events // 2 and isinstance(event.get("seat"), int):
            return {**event, "seat": 9}
        return event

    edited = rewrite(log, tmp_path / "edited.jsonl", far_seat)
    errors = set(_refusals(registry, edited))
    # Each decision's events are resolved from its recorded action, never folded as written.
    assert len(errors) == 1 and "are not the ones it gives: the log was edited" in errors.pop()


def test_a_log_cut_short_yields_its_intact_events_then_refuses(
    registry: Registry, tmp_path: Path
) -> None:
    lines = _played(registry, "wacky-races", tmp_path / "match.jsonl").read_bytes().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b"\n".join(lines[: len(lines) // 2]) + b"\n" + lines[len(lines) // 2][:20])
    errors = set(_refusals(registry, cut))
    assert len(errors) == 1 and f"{cut}:{len(lines) // 2 + 1}:" in errors.pop()
