"""The human seat: the observation rendered, actions numbered, bad input asked again."""

from __future__ import annotations

import io
from pathlib import Path

from typer.testing import CliRunner

from racedeck.bots.human import HumanBot, describe_action
from racedeck.cli.app import app
from racedeck.core.replay import replay_log
from racedeck.games.lacorsa.actions import Play
from tests.bots.helpers import LACORSA, ONE_RACE, REGISTRY

runner = CliRunner()


def test_a_human_match_plays_from_typed_numbers_and_its_log_replays(tmp_path: Path) -> None:
    log = tmp_path / "human.jsonl"
    typed = "\n".join(["x", "99", *["1"] * 200]) + "\n"
    result = runner.invoke(
        app,
        [
            "play",
            "lacorsa",
            "--seat",
            "human",
            "--seat",
            "heuristic",
            "-o",
            "races=1",
            "--log",
            str(log),
        ],
        input=typed,
    )
    assert result.exit_code == 0, result.output
    assert "final standings" in result.stdout
    prompts = result.stderr
    assert "you play seat 0 of 2" in prompts
    assert "'x' is not a choice" in prompts and "'99' is not a choice" in prompts
    # Actions are worded by the game, cards by their faces (7, R), never their ids.
    first = LACORSA.legal_actions(_first_state(), 0)[0]
    assert f"   1. {LACORSA.presentation.describe(first)}" in prompts
    assert "   1. car 0 plays " in prompts and "cards=" not in prompts
    assert LACORSA.presentation.render_observation(LACORSA.observe(_first_state(), 0)) in prompts
    replay = replay_log(REGISTRY, log)
    assert replay.complete and not replay.faults


def _first_state():  # type: ignore[no-untyped-def]
    """The state of a 2-player race just after the deal of seed 0."""
    from racedeck.core.model import ENGINE
    from racedeck.core.rng import engine_stream
    from racedeck.core.step import resolve

    state = LACORSA.initial_state(ONE_RACE, 2)
    return resolve(LACORSA, state, ENGINE, None, engine_stream(0, 0)).state


def test_closed_input_gives_up_the_seat() -> None:
    from racedeck.core.bot import BotSpec
    from racedeck.core.runner import run_match

    out = io.StringIO()
    human = BotSpec(name="human", factory=lambda: HumanBot(io.StringIO(""), out), description="")
    outcome = run_match(LACORSA, ONE_RACE, [human, REGISTRY.bot("random", "lacorsa")], 1)
    assert outcome.forfeit is not None and "input closed" in outcome.forfeit.reason


def test_an_action_is_described_by_its_kind_and_fields() -> None:
    assert describe_action(Play(car=1, cards=(3, 96))) == "play car=1 cards=(3, 96)"


def test_bots_a_seed_cannot_replay_say_so() -> None:
    reproducible = {spec.name: spec.reproducible for spec in REGISTRY.bots_for("lacorsa")}
    assert reproducible["human"] is False and reproducible["ismcts-timed"] is False
    assert reproducible["ismcts"] and reproducible["random"] and reproducible["heuristic"]
