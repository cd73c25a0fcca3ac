"""Time limits that hold: in-process bots in a killable process, programs under the match's limit."""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import pytest

from racedeck.bots.subprocess_bot import STDERR_KEEP, SubprocessBot, subprocess_spec
from racedeck.core.bot import BotSpec
from racedeck.core.replay import replay_log
from tests.bots.helpers import RANDOM, REGISTRY, play
from tests.bots.test_subprocess import _program, _running
from tools.fuzz.hostile import HOSTILE


def hostile(name: str) -> BotSpec:
    return BotSpec(name=name, factory=HOSTILE[name], description="")


@pytest.mark.parametrize(
    "name", ["hostile-sleeper", "hostile-alarm", "hostile-c-loop", "hostile-hard-exit"]
)
def test_an_in_process_bot_under_a_limit_is_stopped_whatever_it_does(name: str) -> None:
    start = time.monotonic()
    outcome, log = play([RANDOM, hostile(name)], time_limit=0.5)
    assert time.monotonic() - start < 4
    assert outcome.forfeit is not None and outcome.forfeit.seat == 1
    if name == "hostile-hard-exit":
        assert "exited (code 3)" in outcome.forfeit.reason
    else:
        assert outcome.forfeit.reason == "exceeded its time limit of 0.5 s"
    assert replay_log(REGISTRY, "m.jsonl", stream=io.BytesIO(log)).complete


def _orphans() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if b"racedeck-fuzz-orphan" in cmdline and _running(int(entry)):
                found.append(int(entry))
    return found


def test_what_an_isolated_bot_starts_dies_with_it_even_in_a_session_of_its_own() -> None:
    before = set(_orphans())
    outcome, _ = play([RANDOM, hostile("hostile-spawner")], time_limit=0.5)
    assert outcome.forfeit is not None
    time.sleep(0.2)
    assert set(_orphans()) - before == set()


def test_a_bot_that_leaves_a_thread_under_a_limit_leaves_nothing_behind() -> None:
    import threading

    threads = threading.active_count()
    outcome, _ = play([RANDOM, hostile("hostile-thread")], time_limit=5)
    assert outcome.forfeit is None and not outcome.faults
    assert threading.active_count() == threads


def test_an_isolated_bot_plays_the_same_match_as_in_process() -> None:
    heuristic = REGISTRY.bot("heuristic", "lacorsa")
    _, free = play([heuristic, RANDOM], seed=5)
    _, limited = play([heuristic, RANDOM], seed=5, time_limit=30)
    assert free == limited


def test_a_program_obeys_the_matchs_time_limit(tmp_path: Path) -> None:
    command = _program(tmp_path, "time.sleep(3)\nprint(json.dumps({'choice': 0}), flush=True)\n")
    program = subprocess_spec("slow-program", command)
    start = time.monotonic()
    outcome, _ = play([RANDOM, program], time_limit=0.5)
    assert time.monotonic() - start < 2.5
    assert outcome.forfeit is not None and "took more than 0.5 s" in outcome.forfeit.reason


def test_what_a_program_starts_in_its_own_session_dies_with_it(tmp_path: Path) -> None:
    command = _program(
        tmp_path,
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)"
        "  # racedeck-fuzz-orphan'], start_new_session=True)\n"
        "time.sleep(60)\n",
    )
    before = set(_orphans())
    outcome, _ = play([RANDOM, subprocess_spec("spawner", command)], time_limit=0.5)
    assert outcome.forfeit is not None
    time.sleep(0.2)
    assert set(_orphans()) - before == set()


def test_a_programs_standard_error_is_kept_only_in_part(tmp_path: Path) -> None:
    command = _program(
        tmp_path,
        "sys.stderr.write('e' * (8 << 20)); sys.stderr.flush()\n"
        "print(json.dumps({'choice': 0}), flush=True)\n",
    )
    bot = SubprocessBot(command)
    outcome, _ = play([RANDOM, BotSpec(name="noisy", factory=lambda: bot, description="")])
    assert outcome.forfeit is None
    assert 0 < len(bot.stderr_kept) <= STDERR_KEEP


def test_a_second_answer_line_is_a_violation_not_a_later_answer(tmp_path: Path) -> None:
    command = _program(
        tmp_path,
        "print(json.dumps({'choice': 0}) + '\\n' + json.dumps({'choice': 0}), flush=True)\n",
    )
    outcome, _ = play([RANDOM, subprocess_spec("chatty", command)])
    assert outcome.forfeit is not None
    assert "more than one line for one message" in outcome.forfeit.reason


def test_a_line_sent_before_it_was_asked_is_a_violation(tmp_path: Path) -> None:
    command = _program(
        tmp_path,
        "print(json.dumps({'choice': 0}), flush=True)\n"
        "time.sleep(0.05); print(json.dumps({'choice': 0}), flush=True)\n",
    )
    outcome, _ = play([RANDOM, subprocess_spec("eager", command)])
    assert outcome.forfeit is not None
    # Whether the extra line is there before the next question or comes with its answer
    # depends on timing; either way it is refused, never taken as the next answer.
    reason = outcome.forfeit.reason
    assert "sent before it was asked" in reason or "more than one line" in reason
