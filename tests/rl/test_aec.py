"""The PettingZoo AEC environment: the API, seeds, masks, sealed steps, leaks, rewards, logs."""

from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import msgspec
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import racedeck.rl as rl
from racedeck.core.errors import IllegalActionError, LogError, UsageError, VerificationError
from racedeck.core.log import LogReader, LogWriter, encode
from racedeck.core.verify import verify_log
from tests.rl.helpers import GAME_IDS, GAMES, REGISTRY, make, play_randomly


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_pettingzoo_api_test_passes(name: str, options: dict[str, Any], players: int) -> None:
    with warnings.catch_warnings():
        # Masked dict observations draw the same advice as PettingZoo's own classic games.
        warnings.simplefilter("ignore")
        api_test(make(name, options, players), num_cycles=2000)


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_pettingzoo_seed_test_passes(name: str, options: dict[str, Any], players: int) -> None:
    seed_test(lambda: make(name, options, players), num_cycles=2000)


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_the_same_seed_gives_the_same_episode(
    name: str, options: dict[str, Any], players: int
) -> None:
    runs = []
    for _ in range(2):
        env = make(name, options, players)
        agents = list(play_randomly(env, seed=4))
        runs.append((agents, env.events, env.result, env.episode_log()))
    assert runs[0] == runs[1]
    other = make(name, options, players)
    list(play_randomly(other, seed=5))
    assert other.events != runs[0][1]


def test_reset_without_a_seed_plays_the_next_seed() -> None:
    name, options, players = GAMES[0]
    env = make(name, options, players, seed=10)
    env.reset()
    assert env.seed == 10
    env.reset()
    assert env.seed == 11
    env.reset(seed=3)
    env.reset()
    assert env.seed == 4


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_every_legal_action_has_its_own_index_and_the_mask_shows_exactly_them(
    name: str, options: dict[str, Any], players: int
) -> None:
    """The mask is the legal actions' first indexes; each path leads to its own action."""
    env = make(name, options, players)
    game = env.game
    for seed in range(3):
        for agent in play_randomly(env, seed=seed, pick=seed):
            seat = env.deciding
            assert agent == f"seat_{seat}"
            legal = game.legal_actions(env.state_, seat)
            paths = env.encoder.paths(legal)
            assert len(set(paths)) == len(paths)
            assert all(0 <= i < env.encoder.actions for path in paths for i in path)
            assert all(len(path) <= env.encoder.stages for path in paths)
            stage = env._choice.stage
            prefix = env._choice.prefix
            expected = {p[stage] for p in paths if p[:stage] == prefix}
            mask = env.observe(agent)["action_mask"]
            assert set(np.flatnonzero(mask)) == expected
            assert env.infos[agent]["legal"] == tuple(legal)
            assert (env.infos[agent]["action_mask"] == mask).all()


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_observations_hide_what_a_seat_cannot_see(
    name: str, options: dict[str, Any], players: int
) -> None:
    """The project's leak test, through the encoder: redealing what a seat cannot see
    changes neither its vector nor its mask."""
    env = make(name, options, players)
    game, encoder = env.game, env.encoder
    rng = random.Random(3)
    changed = 0
    for _agent in play_randomly(env, seed=2):
        state = env.state_
        for viewer in range(players):
            variant = game.hidden_variants(state, viewer, rng)
            if variant is None:
                continue
            changed += variant != state
            seen = env.observe(f"seat_{viewer}")["observation"][: encoder.size]
            assert np.array_equal(encoder.encode(game.observe(variant, viewer)), seen)
            if viewer == env.deciding:
                menu = encoder.menu(game.legal_actions(variant, viewer))
                assert set(menu) == set(encoder.menu(env.legal))
    hidden = any(
        game.hidden_variants(env.state_, s, random.Random(1)) is not None for s in range(players)
    )
    assert changed > 0 or not hidden


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_observations_come_from_the_game_observation_alone(
    name: str, options: dict[str, Any], players: int
) -> None:
    """The vector is the encoder's image of ``infos[agent]["observation"]``."""
    env = make(name, options, players)
    for agent in play_randomly(env, seed=1):
        for other in env.agents:
            raw = env.infos[other]["observation"] if other == agent else None
            if raw is not None:
                vector = env.observe(other)["observation"]
                assert np.array_equal(vector[: env.encoder.size], env.encoder.encode(raw))
                assert env.observation_space(other).contains(env.observe(other))


def _sealed_steps(env: Any) -> int:
    """Play until a sealed step's second seat is to choose; return how many were checked."""
    checked = 0
    rng = random.Random(0)
    env.reset(seed=0)
    while not env.over:
        agent = env.agent_selection
        acting = list(env._acting)
        if len(acting) > 1 and env.deciding == acting[0] and env._choice.stage == 0:
            later = [f"seat_{seat}" for seat in acting[1:]]
            before = {a: (env.observe(a), dict(env.infos[a])) for a in later}
            seen_before = {a: env.raw_observation(int(a[5:])) for a in later}
            while env.deciding == acting[0]:
                legal = np.flatnonzero(env.observe(agent)["action_mask"])
                env.step(int(legal[rng.randrange(len(legal))]))
            size = env.encoder.size
            for a in later:
                now = env.observe(a)
                # The game's part of the vector; the stage part says it is now the seat's turn.
                assert np.array_equal(now["observation"][:size], before[a][0]["observation"][:size])
                assert env.raw_observation(int(a[5:])) == seen_before[a]
                assert env.infos[a]["observation"] == seen_before[a]
            checked += 1
            continue
        legal = np.flatnonzero(env.observe(agent)["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return checked


@pytest.mark.parametrize(
    ("name", "options", "players"),
    [g for g in GAMES if g[0] in ("lacorsa", "famous-500", "high-card")],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_a_sealed_choice_is_not_seen_before_the_reveal(
    name: str, options: dict[str, Any], players: int
) -> None:
    """In a sealed step, a later seat sees exactly what it saw before an earlier seat chose."""
    assert _sealed_steps(make(name, options, players)) > 0


@pytest.mark.parametrize("reward", ["rank", "score"])
def test_rewards_come_at_the_end_as_documented(reward: str) -> None:
    name, options, players = ("lacorsa", {"races": 1}, 3)
    env = rl.env(name, players=players, options=options, reward=reward, catalogue=REGISTRY)
    for agent in play_randomly(env, seed=6):
        assert env.rewards[agent] == 0.0
    result = env.result
    assert result is not None
    if reward == "score":
        expected = [float(score) for score in result.scores]
    else:
        expected = [1.0 - 2.0 * (rank - 1) / (players - 1) for rank in result.ranks]
    env2 = rl.env(name, players=players, options=options, reward=reward, catalogue=REGISTRY)
    got = {}
    rng = random.Random(1)
    env2.reset(seed=6)
    for agent in env2.agent_iter():
        _, cumulative, terminated, _, info = env2.last(observe=False)
        if terminated:
            got[agent] = cumulative
            env2.step(None)
            continue
        legal = info["action_mask"].nonzero()[0]
        env2.step(int(legal[rng.randrange(len(legal))]))
    assert [got[f"seat_{s}"] for s in range(players)] == expected


def test_a_lone_seat_gets_one_for_first_place() -> None:
    env = rl.env("wacky-races", players=1, catalogue=REGISTRY)
    got = []
    rng = random.Random(1)
    env.reset(seed=2)
    for _agent in env.agent_iter():
        _, cumulative, terminated, _, info = env.last(observe=False)
        if terminated:
            got.append(cumulative)
            env.step(None)
            continue
        legal = info["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
    assert env.result is not None
    assert got == [1.0 if env.result.ranks[0] == 1 else -1.0]


def test_an_illegal_index_is_refused_and_nothing_changes() -> None:
    env = make("lacorsa", {"races": 1}, 2)
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    events = list(env.events)
    with pytest.raises(IllegalActionError, match=f"index {illegal} is not legal"):
        env.step(illegal)
    assert env.events == events


def test_stepping_before_reset_is_a_usage_error() -> None:
    env = make("lacorsa", {"races": 1}, 2)
    env.agent_selection = "seat_0"
    env.terminations = {"seat_0": False}
    env.truncations = {"seat_0": False}
    with pytest.raises(UsageError, match="reset"):
        env.step(0)


def test_info_masks_are_read_only_and_observed_masks_are_new() -> None:
    env = make("lacorsa", {"races": 1}, 2)
    env.reset(seed=0)
    agent = env.agent_selection
    with pytest.raises(ValueError):
        env.infos[agent]["action_mask"][0] = 1
    first, second = env.observe(agent), env.observe(agent)
    first["action_mask"][0] = 1 - first["action_mask"][0]
    assert not np.array_equal(first["action_mask"], second["action_mask"])


def test_the_raw_observation_is_built_only_when_read() -> None:
    env = make("lacorsa", {"races": 1}, 2)
    calls = []
    real = env.game
    observe = real.observe

    class Counting:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def observe(self, state: Any, seat: int) -> Any:
            calls.append(seat)
            return observe(state, seat)

    env.game = Counting()  # type: ignore[assignment]
    list(play_randomly(env, seed=0))
    assert calls == []
    env.reset(seed=0)
    info = env.infos[env.agent_selection]
    assert "observation" in info and calls == []
    assert info["observation"] == observe(env.state_, env.deciding)
    assert calls == [env.deciding]
    assert set(info) == {"observation", "legal", "action_mask"}


def test_a_game_without_an_encoder_gets_the_generic_one() -> None:
    env = make("high-card", {}, 2)
    assert isinstance(env.encoder, rl.GenericEncoder)


def test_the_generic_encoder_pages_long_lists_of_actions() -> None:
    encoder = rl.GenericEncoder(REGISTRY.game("high-card"), None, 2, actions=4)  # type: ignore[arg-type]
    paths = encoder.paths(list(range(8)))  # type: ignore[arg-type]
    assert paths == [(0,), (1,), (2,), (3, 0), (3, 1), (3, 2), (3, 3, 0), (3, 3, 1)]


def test_a_registered_encoder_replaces_the_generic_one() -> None:
    class Mine(rl.GenericEncoder):
        pass

    rl.register_encoder("high-card", Mine)
    try:
        assert isinstance(make("high-card", {}, 2).encoder, Mine)
    finally:
        from racedeck.rl import encoders

        encoders._REGISTERED.pop("high-card")


# Logs ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "options", "players"), GAMES, ids=GAME_IDS)
def test_an_episode_is_a_log_that_verifies(
    name: str, options: dict[str, Any], players: int, tmp_path: Path
) -> None:
    env = make(name, options, players, seed=8)
    list(play_randomly(env, seed=8))
    path = env.write_log(tmp_path / "episode.jsonl")
    checked = verify_log(REGISTRY, path)
    assert checked.whole and checked.replay.events == len(env.events)
    rl.verify_episode(REGISTRY, path)
    with LogReader(path) as reader:
        header = reader.header
        notes = [entry.debug for entry in reader if entry.debug is not None]
    assert header.fork is None  # a log of decisions, checked to its first event
    assert [seat.bot for seat in header.seats] == ["random"] * players
    assert notes and {note.bot for note in notes} == {"external"}
    assert len(notes) == sum(1 for _seat, action, _count in env._decisions if action is not None)


def test_the_command_line_verifies_an_episode(tmp_path: Path) -> None:
    env = rl.env("lacorsa", players=2, options={"races": 1})
    list(play_randomly(env, seed=1))
    path = env.write_log(tmp_path / "episode.jsonl")
    done = subprocess.run(
        [sys.executable, "-m", "racedeck", "replay", str(path), "--verify"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "verified" in done.stdout


def test_an_altered_recorded_decision_fails_verification(tmp_path: Path) -> None:
    """``verify_episode`` plays the recorded decisions again: a changed one shows, even in
    a log whose hash chain was rebuilt to match."""
    env = make("lacorsa", {"races": 1}, 2)
    list(play_randomly(env, seed=1))
    path = env.write_log(tmp_path / "episode.jsonl")
    seat, first, _count = next(d for d in env._decisions if d[1] is not None)
    game = env.game
    other = next(a for a in game.legal_actions(env2_state(env), seat) if a != first)
    forged = tmp_path / "forged.jsonl"
    with LogReader(path) as reader, open(forged, "wb") as handle:
        writer = LogWriter(handle)
        writer.header(reader.header)
        changed = False
        for entry in reader:
            if entry.debug is not None:
                note = entry.debug
                if not changed:
                    note = msgspec.structs.replace(note, text=encode(other).decode())
                    changed = True
                writer.debug(note)
            elif entry.decision is not None:
                decision = entry.decision
                writer.turn(decision.actor, decision.action, list(decision.events))
        assert reader.result is not None
        writer.result(msgspec.structs.replace(reader.result, hash=writer.last_hash))
    verify_log(REGISTRY, forged)  # the decision lines stand: a debug note is free text
    with pytest.raises(VerificationError):
        rl.verify_episode(REGISTRY, forged)


def env2_state(env: Any) -> Any:
    """Return the state of ``env``'s episode at its first seat decision."""
    again = make(env.game.name, {"races": 1}, env.players)
    again.reset(seed=env.seed)
    return again.state_


def test_an_unfinished_episode_is_not_a_log() -> None:
    env = make("lacorsa", {"races": 1}, 2)
    env.reset(seed=0)
    with pytest.raises(UsageError, match="not ended"):
        env.episode_log()


def test_the_generic_encoder_defaults() -> None:
    encoder = make("high-card", {}, 2).encoder
    assert (encoder.actions, encoder.size) == (64, 512)


def test_an_altered_draw_fails_playing_the_episode_again(tmp_path: Path) -> None:
    """The engine's first draw (LACORSA's deal) changed, hashes rebuilt: reading the log
    draws it again from the seed, and so does playing the episode again."""
    env = make("lacorsa", {"races": 1}, 2)
    list(play_randomly(env, seed=1))
    path = env.write_log(tmp_path / "episode.jsonl")
    forged = tmp_path / "forged.jsonl"
    with LogReader(path) as reader, open(forged, "wb") as handle:
        writer = LogWriter(handle)
        writer.header(reader.header)
        for entry in reader:
            if entry.debug is not None:
                writer.debug(entry.debug)
            elif entry.decision is not None:
                made = list(entry.decision.events)
                if entry.seq == 0:
                    event = msgspec.json.decode(made[0])
                    hands = event["hands"]
                    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
                    made[0] = encode(event)
                writer.turn(entry.decision.actor, entry.decision.action, made)
        assert reader.result is not None
        writer.result(msgspec.structs.replace(reader.result, hash=writer.last_hash))
    with pytest.raises(LogError, match="engine's decision at event 0"):
        verify_log(REGISTRY, forged)
    with pytest.raises((VerificationError, LogError)):
        rl.verify_episode(REGISTRY, forged)
