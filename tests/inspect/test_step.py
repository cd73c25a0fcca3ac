"""`racedeck step`: the terminal viewer, driven through its input loop by scripted lines."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import replay_log
from racedeck.inspect.step import CHECKPOINT, Viewer, load_timeline, run_viewer
from racedeck.plugins import Registry
from tests.inspect.helpers import events_of, play


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("step") / "match.jsonl", options={"races": 5})


def _run(viewer: Viewer, lines: list[str]) -> list[str]:
    """Feed ``lines`` to the viewer; return what it wrote after each one."""
    script = iter(lines)
    screens: list[str] = []

    def write(text: str) -> None:
        if text == "step> ":
            screens.append("")
        elif screens:
            screens[-1] += text
        else:
            screens.append(text)

    run_viewer(viewer, lambda: next(script, None), write)
    return screens


def test_states_from_checkpoints_match_a_straight_replay(log: Path, registry: Registry) -> None:
    timeline = load_timeline(registry, log)
    assert len(timeline.events) > CHECKPOINT  # the rebuild crosses a checkpoint
    for frame in (0, 1, CHECKPOINT, CHECKPOINT + 1, len(timeline.events)):
        expected = (
            replay_log(registry, log, at=frame - 1).state if frame else timeline.checkpoints[0]
        )
        assert timeline.state(frame) == expected


def test_forward_back_and_jump(log: Path, registry: Registry) -> None:
    viewer = Viewer(load_timeline(registry, log))
    screens = _run(viewer, ["n", "", "b", "g 40", "+5", "-10", "g -1", "g 99999", "q"])
    assert screens[1].startswith("event 0 of")
    assert screens[2].startswith("event 1 of")  # Enter repeats the last command
    assert screens[3].startswith("event 0 of")
    assert screens[4].startswith("event 40 of")
    assert screens[5].startswith("event 45 of")
    assert screens[6].startswith("event 35 of")
    assert screens[7].startswith("before the first event")
    assert screens[8].startswith("no event 99999")


def test_next_and_previous_event_of_a_kind(log: Path, registry: Registry) -> None:
    kinds = [e["type"] for e in events_of(log)]
    scored = [i for i, k in enumerate(kinds) if k == "race_scored"]
    viewer = Viewer(load_timeline(registry, log))
    screens = _run(
        viewer, ["k race_scored", "k race_scored", "K race_scored", "K race_scored", "k nothing"]
    )
    assert screens[1].startswith(f"event {scored[0]} of")
    assert screens[2].startswith(f"event {scored[1]} of")
    assert screens[3].startswith(f"event {scored[0]} of")
    assert screens[4].startswith("no earlier event of kind 'race_scored'")
    assert screens[5].startswith("no later event of kind 'nothing'")


def test_switching_the_seat_shows_only_what_it_saw(log: Path, registry: Registry) -> None:
    viewer = Viewer(load_timeline(registry, log))
    screens = _run(viewer, ["g 0", "s 2", "s", "s 7"])
    everything, seat2, back, bad = screens[1:5]
    assert "race_dealt" in everything and "hands=(" in everything
    assert "view: seat 2 (heuristic)" in seat2 and '"hands"' not in seat2
    assert seat2.count("hidden") == 3  # the other three cars' hands
    assert back.startswith("event 0 of") and "view: everything" in back
    assert bad.startswith("no seat 7")


def test_step_command_reads_commands_from_standard_input(
    log: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("n\ns 1\nq\n"))
    assert main(["step", str(log), "--at", "9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("event 9 of") and "event 10 of" in out and "view: seat 1" in out
    assert main(["step", str(log), "--at", "100000"]) == 2
