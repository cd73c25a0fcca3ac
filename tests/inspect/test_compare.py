"""`racedeck compare`: a seat's recorded decisions against what a bot would have chosen."""

from __future__ import annotations

import json
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec
import pytest

from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.inspect.compare import compare_log
from racedeck.plugins import Registry, load_registry
from tests.inspect.helpers import play

GAMES = ["lacorsa", "detroit-cleveland", "famous-500", "wacky-races"]


def _heuristic_match(registry: Registry, folder: Path, game: str) -> Path:
    g = registry.game(game)
    players = max(g.min_players, min(g.max_players, 3))
    return play(
        registry,
        folder / f"{game}.jsonl",
        game=game,
        bots=("heuristic",) * players,
        seed=5,
        options=g.conformance_options[0],
    )


@pytest.fixture(scope="module")
def matches(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("compare")
    return {game: _heuristic_match(registry, folder, game) for game in GAMES}


def _recorded_words(registry: Registry, path: Path, game: str) -> dict[int, str]:
    """Return each seat decision's action in the game's words, by its first event."""
    g = registry.game(game)
    words = {}
    with open(path, "rb") as handle:
        for raw in handle:
            line = json.loads(raw)
            if line.get("kind") == "turn" and "by" in line:
                action = g.action_decoder.decode(msgspec.json.encode(line["act"]))
                words[line["seq"]] = g.presentation.describe(action)
    return words


@pytest.mark.parametrize("game", GAMES)
def test_a_heuristic_seat_agrees_with_the_heuristic_bot_everywhere(
    matches: dict[str, Path], registry: Registry, game: str
) -> None:
    found = compare_log(registry, matches[game], 0, "heuristic")
    assert found.decisions > 0
    assert found.agreed == found.decisions and found.rate == 1.0
    assert found.partings == []


@pytest.mark.parametrize("game", GAMES)
def test_the_random_bot_parts_from_a_heuristic_seat_each_parting_in_words(
    matches: dict[str, Path],
    registry: Registry,
    game: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = matches[game]
    assert main(["compare", str(path), "--seat", "0", "--bot", "random"]) == 0
    out = capsys.readouterr().out.splitlines()
    found = compare_log(registry, path, 0, "random")
    assert found.partings and found.agreed < found.decisions
    assert out[0] == (
        f"seat 0 (heuristic) against random: {found.decisions} decisions, "
        f"{found.agreed} the same ({found.rate:.1%})"
    )
    recorded = _recorded_words(registry, path, game)
    assert len(out) == 1 + len(found.partings)
    for line, part in zip(out[1:], found.partings, strict=True):
        assert part.played == recorded[part.seq]
        assert line == f"  event {part.seq}: played {part.played}; random: {part.chosen}"
        assert part.chosen is not None and part.chosen != part.played


def test_json_is_one_document_and_the_same_every_time(
    matches: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["compare", str(matches["lacorsa"]), "--seat", "1", "--bot", "random", "--json"]
    assert main(args) == 0
    first = capsys.readouterr().out
    assert main(args) == 0
    assert capsys.readouterr().out == first
    document = json.loads(first)
    assert document["kind"] == "compare" and document["schema"] == 1
    assert document["bot"] == "random" and document["played_by"] == "heuristic"
    assert document["decisions"] == document["agreed"] + len(document["partings"])
    assert {"event", "played", "chosen", "fault"} <= set(document["partings"][0])


def test_a_search_bot_with_parameters_is_asked(
    matches: dict[str, Path], registry: Registry
) -> None:
    found = compare_log(registry, matches["lacorsa"], 2, "ismcts:simulations=10")
    assert found.bot == "ismcts:simulations=10" and found.decisions > 0


def test_a_bad_seat_is_a_usage_error_and_a_bad_log_a_log_error(
    matches: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = str(matches["lacorsa"])
    assert main(["compare", log, "--seat", "7", "--bot", "random"]) == 2
    assert "--seat 7 does not exist" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_bytes(matches["lacorsa"].read_bytes().replace(b'"seq":3,', b'"seq":4,', 1))
    assert main(["compare", str(broken), "--seat", "0", "--bot", "random"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


class _Failing(Bot):
    """Raises at every other decision; answers with no legal action at the rest."""

    def __init__(self) -> None:
        self.asked = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.asked += 1
        if self.asked % 2:
            raise RuntimeError("\x1b[2Jwiped")
        answer: Any = "nothing"
        return answer  # type: ignore[no-any-return]


def test_a_bot_that_fails_is_reported_at_each_decision_not_a_crash(
    matches: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    registry = load_registry(entry_points=False)
    registry.add_bot(BotSpec(name="failing", factory=_Failing, description="fails"))
    found = compare_log(registry, matches["lacorsa"], 0, "failing")
    assert found.agreed == 0 and len(found.partings) == found.decisions
    faults = [part.fault or "" for part in found.partings]
    assert "raised RuntimeError" in faults[0]
    assert "illegal action" in faults[1]
    assert all(part.chosen is None for part in found.partings)


def test_the_fork_and_compare_commands_in_debugging_md_run_as_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (Path(__file__).parents[2] / "docs" / "debugging.md").read_text()
    block = text.split("<!-- tested: tests/inspect/test_compare.py -->\n```\n")[1]
    monkeypatch.chdir(tmp_path)
    outs = []
    for line in block.split("```")[0].strip().splitlines():
        args = shlex.split(line.split("  #")[0])
        assert args[0] == "racedeck"
        expected = 1 if args[1] == "diff" else 0
        assert main(args[1:]) == expected, (line, capsys.readouterr().err)
        outs.append(capsys.readouterr().out)
    assert (tmp_path / "what-if.jsonl").read_bytes() == (tmp_path / "same.jsonl").read_bytes()
    assert "verified: " in outs[3] and "those of the parent m.jsonl" in outs[3]
    assert "the logs diverge at event 25" in outs[4]
    assert "A: cards committed car=0 cards=8" in outs[4]
    assert "B: cards committed car=0 cards=R 1" in outs[4]
    shown = outs[5].splitlines()
    assert "\n    ".join(shown[:3]) in text  # the lines the guide shows are the ones printed
    document = json.loads(outs[6])
    assert document["kind"] == "compare" and document["bot"] == "ismcts:simulations=50"


def test_a_plugin_bot_that_raises_its_own_interrupt_is_a_fault_line_without_controls(
    matches: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "raiser.py").write_text(
        "from racedeck.hookspecs import hookimpl\n"
        "from racedeck.core.bot import Bot, BotSpec\n"
        "class Raiser(Bot):\n"
        "    def act(self, observation, legal, rng):\n"
        "        raise KeyboardInterrupt('\\x1b[2J')\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        "    register(BotSpec(name='raiser', factory=Raiser, description='raises'))\n"
    )
    args = ["compare", str(matches["lacorsa"]), "--seat", "0", "--bot", "raiser"]
    assert main([*args, "--plugins-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].endswith("0 the same (0.0%)")
    assert "; raiser: faulted: raised KeyboardInterrupt" in lines[1]
    assert "\x1b" not in out


class _Interrupted(Bot):
    """Stands for a person pressing Ctrl-C while the bot thinks: a real SIGINT arrives."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        import os
        import signal
        import time

        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
        return legal[0]


def test_ctrl_c_while_a_compared_bot_thinks_stops_compare(matches: dict[str, Path]) -> None:
    """A real Ctrl-C was taken for the bot's own interrupt: reported as its fault at that
    decision, one decision after another, so stopping took one Ctrl-C a decision."""
    import signal

    # Ctrl-C as a terminal delivers it (a suite run in the background starts ignoring it).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    registry = load_registry(entry_points=False)
    registry.add_bot(BotSpec(name="interrupted", factory=_Interrupted, description="^C"))
    try:
        with pytest.raises(KeyboardInterrupt):
            compare_log(registry, matches["lacorsa"], 0, "interrupted")
    finally:
        signal.signal(signal.SIGINT, previous)
