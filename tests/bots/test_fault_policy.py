"""The fault policy: timeouts, crashes, illegal actions and dead bots, in-process."""

from __future__ import annotations

import io
import time

import pytest

from racedeck.core import interrupts
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import OptionError
from racedeck.core.replay import replay_log
from racedeck.core.runner import run_match
from tests.bots.helpers import LACORSA, ONE_RACE, RANDOM, REGISTRY, Scripted, play, spec


@pytest.mark.parametrize("what", ["sleep", "spin"])
def test_an_in_process_bot_that_overruns_its_time_limit_is_stopped_and_substituted(
    what: str,
) -> None:
    start = time.perf_counter()
    outcome, log = play([spec(what), RANDOM], time_limit=0.2, fault_policy="substitute")
    assert time.perf_counter() - start < 3
    assert [f.reason for f in outcome.faults] == ["exceeded its time limit of 0.2 s"]
    assert outcome.forfeit is None and outcome.result.summary[0].startswith("race 1")
    assert b'"reason":"exceeded its time limit of 0.2 s","policy":"substitute"' in log


def test_a_timeout_under_forfeit_ends_the_match_with_the_seat_last() -> None:
    outcome, _ = play([RANDOM, spec("sleep"), RANDOM], time_limit=0.2)
    assert outcome.forfeit is not None and outcome.forfeit.seat == 1
    assert outcome.result.ranks == (1, 3, 1)


def test_a_bots_own_time_limit_overrides_the_matchs() -> None:
    outcome, _ = play([spec("sleep", time_limit=0.1), RANDOM], fault_policy="substitute")
    assert [f.reason for f in outcome.faults] == ["exceeded its time limit of 0.1 s"]


def test_without_a_time_limit_the_clock_is_never_consulted(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_clock() -> float:
        raise AssertionError("the clock was read")

    monkeypatch.setattr(time, "perf_counter", no_clock)
    monkeypatch.setattr(time, "monotonic", no_clock)
    outcome, _ = play([RANDOM, RANDOM])
    assert not outcome.faults


def test_a_crash_and_an_illegal_action_are_recorded_and_substituted() -> None:
    outcome, log = play([spec("raise"), spec("illegal", at=3)], fault_policy="substitute")
    reasons = [f.reason for f in outcome.faults]
    assert reasons == ["raised ValueError: boom", "returned an illegal action 'not an action'"]
    replay = replay_log(REGISTRY, "match.jsonl", stream=io.BytesIO(log))
    assert replay.complete and [f.reason for f in replay.faults] == reasons


def test_a_bot_that_is_gone_is_replaced_for_the_rest_of_the_match_recorded_once() -> None:
    Scripted.closed.clear()
    outcome, _ = play([spec("gone", at=1), RANDOM], fault_policy="substitute")
    assert [f.reason for f in outcome.faults] == ["the program died"]
    assert outcome.forfeit is None
    assert Scripted.closed == ["gone"], "the gone bot is closed once, when it is replaced"


def test_every_bot_is_closed_even_when_the_match_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(Bot):
        def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
            interrupts._on_sigint(2, None)  # the engine's own Ctrl-C handler: a real interrupt

    monkeypatch.setattr(interrupts._State, "raised", [])
    Scripted.closed.clear()
    broken = BotSpec(name="broken", factory=Broken, description="")
    with pytest.raises(KeyboardInterrupt):
        run_match(LACORSA, ONE_RACE, [spec("none"), broken], 1)
    assert Scripted.closed == ["none"]


@pytest.mark.parametrize("raised", [SystemExit, KeyboardInterrupt, GeneratorExit])
def test_a_bot_raising_what_ends_a_program_is_its_seats_fault(raised: type) -> None:
    class Quitter(Bot):
        def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
            raise raised

    quitter = BotSpec(name="quitter", factory=Quitter, description="")
    outcome, log = play([RANDOM, quitter])
    assert outcome.forfeit is not None and outcome.forfeit.seat == 1
    assert f"raised {raised.__name__}" in outcome.forfeit.reason
    replay = replay_log(REGISTRY, "match.jsonl", stream=io.BytesIO(log))
    assert replay.complete and replay.faults[0].seat == 1


@pytest.mark.parametrize("raised", [SystemExit, KeyboardInterrupt])
def test_a_bot_cannot_pass_its_exception_off_as_an_interrupt(
    raised: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even after a real interrupt was handled in this process, a bot's own is its fault."""
    monkeypatch.setattr(interrupts._State, "raised", [])
    with pytest.raises(KeyboardInterrupt):
        interrupts._on_sigint(2, None)  # a Ctrl-C the engine handled earlier

    class Pretender(Bot):
        def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
            raise raised

    pretender = BotSpec(name="pretender", factory=Pretender, description="")
    outcome, _ = play([RANDOM, pretender])
    assert outcome.forfeit is not None and outcome.forfeit.seat == 1
    assert f"raised {raised.__name__}" in outcome.forfeit.reason


def test_a_failing_start_is_a_fault_too() -> None:
    class NoStart(Bot):
        def start_match(self, game, seat, players, options):  # type: ignore[no-untyped-def]
            raise RuntimeError("no engine")

        def act(self, observation, legal, rng):  # type: ignore[no-untyped-def]
            raise AssertionError("never asked")

    seats = [BotSpec(name="nostart", factory=NoStart, description=""), RANDOM]
    outcome, _ = play(seats, fault_policy="substitute")
    assert [f.reason for f in outcome.faults] == ["start_match raised RuntimeError: no engine"]
    assert outcome.forfeit is None
    forfeited, log = play(seats)
    assert forfeited.forfeit is not None and forfeited.events == 0
    assert b'"kind":"result"' in log


def test_a_nonpositive_time_limit_is_refused() -> None:
    with pytest.raises(OptionError, match="time limit"):
        run_match(LACORSA, ONE_RACE, [RANDOM, RANDOM], 1, time_limit=0)


def test_time_limited_matches_of_fast_bots_write_the_same_log() -> None:
    _, plain = play([RANDOM, RANDOM], seed=4)
    _, timed = play([RANDOM, RANDOM], seed=4, time_limit=5.0)
    assert plain == timed


def test_a_time_limited_match_gives_the_alarm_back() -> None:
    import signal

    def mine(signum, frame):  # type: ignore[no-untyped-def]
        pass

    previous = signal.signal(signal.SIGALRM, mine)
    try:
        play([RANDOM, RANDOM], time_limit=1.0)
        assert signal.getsignal(signal.SIGALRM) is mine
        assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    finally:
        signal.signal(signal.SIGALRM, previous)
