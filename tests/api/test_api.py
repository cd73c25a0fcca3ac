"""The public Python API: racedeck.play, load_log, list_games(), list_bots(), Match, Replay."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

import racedeck
from racedeck.core.bot import Bot
from racedeck.core.errors import LogError, UnknownBotError, UnknownGameError, UsageError
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng

OPTIONS = {"races": 1}


def test_everything_is_importable_from_racedeck() -> None:
    from racedeck import (
        BotInfo,
        GameInfo,
        Match,
        Replay,
        TournamentResult,
        list_bots,
        list_games,
        load_log,
        play,
        run_tournament,
    )

    names = (BotInfo, GameInfo, Match, Replay, TournamentResult, list_bots, list_games)
    assert all((*names, load_log, play, run_tournament))
    assert racedeck.__version__


def test_importing_racedeck_loads_no_engine() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, racedeck; print('racedeck.core.runner' in sys.modules)",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "False"


def test_games_and_bots_list_the_registry() -> None:
    assert [g.name for g in racedeck.list_games()] == sorted(g.name for g in racedeck.list_games())
    famous = next(g for g in racedeck.list_games() if g.name == "famous-500")
    assert (famous.min_players, famous.max_players) == (2, 2)
    names = [b.name for b in racedeck.list_bots("wacky-races")]
    assert "heuristic" in names and "random" in names
    human = next(b for b in racedeck.list_bots("lacorsa") if b.name == "human")
    assert not human.reproducible
    with pytest.raises(UnknownGameError):
        racedeck.list_bots("chess")
    # One of each search a game: each built-in game's own; the general one plays any other.
    games = ("detroit-cleveland", "famous-500", "lacorsa", "wacky-races")
    for name in ("ismcts-fast", "ismcts", "ismcts-strong"):
        for game in games:
            own = [b for b in racedeck.list_bots(game) if b.name == name]
            assert [(b.games, b.excluded) for b in own] == [((game,), ())], (name, game)
        general = [b for b in racedeck.list_bots() if b.name == name and b.games is None]
        assert [set(b.excluded) for b in general] == [set(games)]


def test_games_and_bots_stay_plain_packages_beside_the_listings() -> None:
    import racedeck.bots.random_bot
    import racedeck.games.lacorsa.rules

    assert racedeck.games.lacorsa.rules.__name__ == "racedeck.games.lacorsa.rules"
    assert racedeck.bots.random_bot.RandomBot
    assert not callable(racedeck.games) and not callable(racedeck.bots)
    assert racedeck.list_games()[0].name == "detroit-cleveland"


def test_play_keeps_the_log_in_memory_and_its_states() -> None:
    match = racedeck.play("lacorsa", ["heuristic", "random"], seed=3, options=OPTIONS)
    assert isinstance(match.log, bytes)
    assert match.result.unit == "points"
    assert match.states[-1] == match.state
    assert len(match.states) == match.outcome.events == len(match.replay())
    assert match.header.seats[0].bot == "heuristic"
    assert match.log_bytes() == match.log


def test_play_writes_the_same_log_as_the_command_line(tmp_path: Path) -> None:
    match = racedeck.play(
        "lacorsa", ["heuristic", "random"], seed=3, options=OPTIONS, log=tmp_path / "api.jsonl"
    )
    assert match.log == tmp_path / "api.jsonl"
    cli = tmp_path / "cli.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "racedeck",
            "play",
            "lacorsa",
            "--seat",
            "heuristic",
            "--seat",
            "random",
            "--seed",
            "3",
            "--option",
            "races=1",
            "--log",
            str(cli),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert cli.read_bytes() == (tmp_path / "api.jsonl").read_bytes()


def test_play_refuses_unknown_names_and_wrong_seat_counts() -> None:
    with pytest.raises(UnknownGameError):
        racedeck.play("chess", ["random", "random"])
    with pytest.raises(UnknownBotError):
        racedeck.play("lacorsa", ["nobody", "random"])
    with pytest.raises(racedeck.core.errors.OptionError):  # type: ignore[attr-defined]
        racedeck.play("famous-500", ["random"] * 3)
    with pytest.raises(UsageError):
        racedeck.play("lacorsa", [42, "random"])  # type: ignore[list-item]


class FirstLegal(Bot):
    """Plays the first legal action."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        return legal[0]


def test_a_seat_may_be_a_bot_class() -> None:
    match = racedeck.play("wacky-races", [FirstLegal, "random"], seed=1)
    assert match.header.seats[0].bot == "firstlegal"
    assert not match.outcome.faults


def test_load_log_iterates_states_and_observations(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    match = racedeck.play("famous-500", ["heuristic", "random"], seed=2, log=path)
    replay = racedeck.load_log(path)
    pairs = list(replay)
    assert [state for _, state in pairs] == match.states
    assert replay.events == [event for event, _ in pairs]
    assert replay.state() == match.state
    assert replay.state(0) == match.states[0]
    assert replay.observation(5, 1) == replay.game.observe(replay.state(5), 1)
    assert replay.initial_state == replay.game.initial_state(replay.game.parse_options({}), 2)
    assert replay.result == match.result
    assert replay.render(5, seat=0)
    checked = replay.verify()  # no bot run: every decision checked against the rules
    assert checked.whole and not checked.rerun and checked.replay.events == len(replay)
    assert replay.verify(rerun=True).rerun
    with pytest.raises(UsageError, match="does not exist"):
        replay.state(len(replay))
    with pytest.raises(UsageError, match="seat 2 does not exist"):
        replay.observation(0, 2)


def test_a_log_in_memory_verifies_too() -> None:
    match = racedeck.play("lacorsa", ["random", "random"], seed=5, options=OPTIONS)
    assert match.replay().verify(rerun=True).whole


def test_a_bad_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("not a log\n")
    with pytest.raises(LogError):
        racedeck.load_log(path)
    cut = tmp_path / "cut.jsonl"
    racedeck.play("lacorsa", ["random", "random"], seed=5, options=OPTIONS, log=cut)
    lines = cut.read_bytes().splitlines(keepends=True)
    cut.write_bytes(b"".join(lines[:-3]))
    with pytest.raises(LogError, match="truncated"):
        racedeck.load_log(cut).states  # noqa: B018


def test_a_match_and_a_replay_show_as_the_html_replay() -> None:
    match = racedeck.play("lacorsa", ["random", "random"], seed=5, options=OPTIONS)
    frame = match._repr_html_()
    assert frame.startswith("<iframe srcdoc=")
    assert "&lt;!DOCTYPE html&gt;" in frame or "&lt;!doctype html&gt;" in frame.lower()
    page = match.replay().html()
    assert "Content-Security-Policy" in page
    assert "seat 0" in match.replay().html(seats=[0])


class Raises(Bot):
    """Fails at every decision."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        raise RuntimeError("no")


def test_play_passes_the_fault_policy_on() -> None:
    forfeited = racedeck.play("lacorsa", [Raises, "random"], seed=1, options=OPTIONS)
    assert forfeited.outcome.forfeit is not None and forfeited.result.ranks == (2, 1)
    substituted = racedeck.play(
        "lacorsa", [Raises, "random"], seed=1, options=OPTIONS, fault_policy="substitute"
    )
    assert substituted.outcome.forfeit is None and substituted.outcome.faults
