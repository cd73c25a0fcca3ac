"""A racedeck match as a PettingZoo AEC environment: one agent per seat.

The environment steps a match through ``racedeck.core.step`` exactly as the runner does:
the engine's turns are resolved with its stream for the event count, every seat of a
sealed step chooses from the same state before any choice is resolved, and the choices
are then resolved in seat order. Agents are ``seat_0``, ``seat_1``, ...

What an agent sees is built from the game's observation of its seat and nothing else:
``observe(agent)`` is ``{"observation": vector, "action_mask": mask}`` (see
``racedeck.rl.encoding``), new arrays at every call, and ``infos[agent]`` holds
``"observation"``, the game's own observation, ``"legal"``, the game's legal actions while
the seat decides, and ``"action_mask"`` (read-only, shared between equal masks). Like the
runner, the environment builds an observation only when it is read: a random agent that
reads the mask alone costs no ``observe``.

Rewards come once, when the match ends: by default ``rank``, 1 for first place down to -1
for last, linear in the place (1 for a lone seat that wins); ``score`` gives the seat's
score in the game's unit (points, dollars, speed points).

An episode is recorded as it goes and, once over, can be written as a racedeck log
(``write_log``) that ``racedeck replay --verify`` accepts: see ``episode_log``.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import gymnasium
import msgspec
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from racedeck.core.arguments import integer
from racedeck.core.bot import BotSpec
from racedeck.core.driver import Asking, Decided, Driver
from racedeck.core.errors import OptionError, UsageError
from racedeck.core.files import FileWriteError, write_atomically
from racedeck.core.game import AnyGame
from racedeck.core.log import DebugNote, LogWriter, ResultLine, encode
from racedeck.core.log_lines import EXTERNAL as LOGGED_EXTERNAL
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.runner import make_header, state_hash
from racedeck.rl.encoding import Choice, Encoder, Mask, Vector
from racedeck.rl.info import Info

REWARDS: tuple[str, ...] = ("rank", "score")

EXTERNAL = LOGGED_EXTERNAL
"""The name the log's debug lines give the author of an agent's decision."""

MASKS_KEPT = 4096
"""How many distinct action masks an environment keeps to hand out again."""

LOG_SEAT = "random"
"""The bot an episode's log names for an agent's seat (see ``episode_log``)."""


class RacedeckEnv(AECEnv):  # type: ignore[misc] # pettingzoo has no types
    """A racedeck game as a PettingZoo AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(
        self,
        game: AnyGame,
        options: Options,
        players: int,
        encoder: Encoder,
        *,
        seed: int = 0,
        reward: str = "rank",
        render_mode: str | None = None,
        log_seats: Sequence[BotSpec] | None = None,
        external: Sequence[int] | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise OptionError(f"unknown reward {reward!r}; use rank or score")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"unknown render mode {render_mode!r}; use ansi or None")
        game.check_players(options, players)
        self.game = game
        self.options = options
        self.players = players
        self.encoder = encoder
        self.reward = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"racedeck_{game.name.replace('-', '_')}_v0"}
        self.possible_agents = [f"seat_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        stage_features = encoder.stages + encoder.stages - 1 if encoder.stages > 1 else 0
        self._stage_features = stage_features
        size = encoder.size + stage_features
        self._observation_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(-1.0, 1.0, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (encoder.actions,), np.int8),
            }
        )
        self._action_space = gymnasium.spaces.Discrete(encoder.actions)
        self.observation_spaces = {a: self._observation_space for a in self.possible_agents}
        self.action_spaces = {a: self._action_space for a in self.possible_agents}
        self._log_seats = list(log_seats) if log_seats is not None else None
        self.external = frozenset(range(players) if external is None else external)
        """The seats whose choices come from outside racedeck (every seat, by default)."""
        self._next_seed = integer(seed, "seed")
        self.seed = self._next_seed
        self.state_: Any = None
        self.result: Result | None = None
        """The match's result once the episode is over."""
        self.events: list[Any] = []
        """The events of the episode so far, in order."""
        self._decisions: list[tuple[int, Action | None, int]] = []
        """Each decision so far: the actor, its action (None: the engine's), its event count."""
        self._choice: Choice | None = None
        self._driver = Driver(game, None, seed, None)
        """The play driver of the episode; it waits for each agent's choice."""
        self._steps: Iterator[Decided | Asking] = iter(())
        self._acting: tuple[int, ...] = ()
        """The seats of the step being decided, asked in this order from the same state."""
        self._observed: dict[int, Observation] = {}
        self._mask: Mask = np.zeros(encoder.actions, np.int8)
        self._idle_mask: Mask = np.frombuffer(bytes(encoder.actions), np.int8)
        self._masks: dict[tuple[int, ...], Mask] = {}
        self.agents: list[str] = []

    # PettingZoo's API ----------------------------------------------------------------
    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the observation space (the same object for every agent)."""
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """Return the action space, ``Discrete(encoder.actions)``."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new match: with ``seed``, or else the last seed plus one (the first: ``seed``).

        ``options`` is accepted for PettingZoo and ignored: a game's options are fixed
        when the environment is made.
        """
        if seed is not None:
            self._next_seed = integer(seed, "seed")
        self.seed = self._next_seed
        self._next_seed = self.seed + 1
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._info(seat) for seat, agent in enumerate(self.agents)}
        self.state_ = self.game.initial_state(self.options, self.players)
        self.result = None
        self.events = []
        self._decisions = []
        self._observed = {}
        self._driver = Driver(self.game, self.state_, self.seed, None)
        self._steps = self._driver.steps()
        self._skip_agent_selection = None
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        """Return the agent's vector and action mask, built from its seat's observation."""
        if self.state_ is None:
            raise UsageError("the environment must be reset before it is observed")
        seat = self._seats[agent]
        vector = self.encoder.encode(self._observation(seat))
        choice = self._choice
        deciding = choice is not None and choice.seat == seat and not self.terminations[agent]
        if self._stage_features:
            vector = np.concatenate((vector, self._stage_vector(choice if deciding else None)))
        mask = self._mask if deciding else self._idle_mask
        return {"observation": vector, "action_mask": mask.copy()}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Return the selected agent's observation, reward, ends and info, as PettingZoo does.

        The info is a copy of this moment's (``Info.fresh``): kept and read after a step,
        it still shows the observation the agent chose from.
        """
        observation, reward, terminated, truncated, info = super().last(observe)
        if isinstance(info, Info):
            info = info.fresh(arrays=False)
        return observation, reward, terminated, truncated, info

    def step(self, action: int | None) -> None:
        """Take the selected agent's choice of index (``None`` once its episode is over)."""
        if self.state_ is None:
            raise UsageError("the environment must be reset before it is stepped")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        choice = self._choice
        if choice is None:
            raise UsageError("the environment must be reset before it is stepped")
        if action is None:
            raise UsageError(f"{agent} must choose an index; None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        chosen = choice.take(integer(action, f"{agent}'s action"))
        if chosen is None:  # a further stage of the same action
            self._set_mask(choice)
            return
        self.decide(chosen)

    def render(self) -> str | None:
        """Return the whole state as the game's text (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self.state_ is None:
            return None
        return self.game.presentation.render(self.state_)

    def close(self) -> None:
        """Release nothing: the environment holds no resources."""

    # Driving the match ----------------------------------------------------------------
    @property
    def over(self) -> bool:
        """True once the match has ended."""
        return self.result is not None

    @property
    def deciding(self) -> int:
        """The seat to choose now, or -1 when nobody is (the match is over)."""
        return self._choice.seat if self._choice is not None else -1

    @property
    def legal(self) -> Sequence[Action]:
        """The legal actions of the seat deciding now (empty when nobody is)."""
        return self._choice.legal if self._choice is not None else ()

    def raw_observation(self, seat: int) -> Observation:
        """Return the game's observation of ``seat`` now (before any sealed choice is revealed)."""
        return self._observation(seat)

    def decide(self, action: Action) -> None:
        """Take ``action``, one of ``legal``, as the deciding seat's whole choice."""
        assert self._choice is not None, "nobody is deciding"
        self._driver.answer = action
        self._advance()

    def _advance(self) -> None:
        """Let the play driver go on until a seat must decide or the match ends.

        The driver asks the seats of a sealed step one after another from the same state
        and resolves their choices only once all have chosen; each decision it resolves
        is kept for the episode's log.
        """
        events = self.events
        decisions = self._decisions
        for item in self._steps:
            if isinstance(item, Asking):
                if item.state is not self.state_:
                    self.state_, self._observed = item.state, {}
                self._acting = item.seats
                self._offer(item.seat, item.legal)
                return
            actor, action, turn, first = item
            made = turn.events[first:] if first else list(turn.events)
            events.extend(made)
            decisions.append((actor, action, len(made)))
        self.state_ = self._driver.state
        self._observed = {}
        self._finish()

    def _offer(self, seat: int, legal: Sequence[Action]) -> None:
        """Make ``seat`` the one to decide among ``legal``, from the current state."""
        choice = Choice(seat, legal, self.encoder.menu(legal))
        self._choice = choice
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent] = self._info(seat, legal)
        self._set_mask(choice)

    def _set_mask(self, choice: Choice) -> None:
        """Make the mask of ``choice``'s indexes the current one (masks are read-only, shared)."""
        key = tuple(choice.node)
        mask = self._masks.get(key)
        if mask is None:
            buffer = bytearray(self.encoder.actions)
            for index in key:
                buffer[index] = 1
            if len(self._masks) > MASKS_KEPT:
                self._masks.clear()
            mask = self._masks[key] = np.frombuffer(bytes(buffer), np.int8)
        self._mask = mask
        info = self.infos[self.possible_agents[choice.seat]]
        dict.__setitem__(info, "action_mask", mask)

    def _info(self, seat: int, legal: Sequence[Action] = ()) -> Info:
        legal = legal if type(legal) is tuple else tuple(legal)
        return Info(self, seat, legal=legal, action_mask=self._idle_mask)

    def _observation(self, seat: int) -> Observation:
        observed = self._observed.get(seat)
        if observed is None:
            observed = self._observed[seat] = self.game.observe(self.state_, seat)
        return observed

    def _stage_vector(self, choice: Choice | None) -> Vector:
        """Return the stage being chosen (one-hot) and the indexes chosen so far, scaled."""
        stages = self.encoder.stages
        row = np.zeros(self._stage_features, np.float32)
        if choice is not None:
            row[choice.stage] = 1.0
            for k, index in enumerate(choice.prefix):
                row[stages + k] = index / self.encoder.actions
        return row

    def _finish(self) -> None:
        """End the episode: every agent terminated, with its reward."""
        self._choice = None
        self._acting = ()
        result = self.result = self.game.result(self.state_)
        players = self.players
        for seat, agent in enumerate(self.possible_agents):
            if self.reward == "score":
                reward = float(result.scores[seat])
            elif players == 1:
                reward = 1.0 if result.ranks[seat] == 1 else -1.0
            else:
                reward = 1.0 - 2.0 * (result.ranks[seat] - 1) / (players - 1)
            self.rewards[agent] = reward
            self._cumulative_rewards[agent] += reward
            self.terminations[agent] = True
            self.infos[agent] = self._info(seat)
        self.agent_selection = self.agents[0]

    # The episode as a log -------------------------------------------------------------
    def episode_log(self) -> bytes:
        """Return the finished episode as a racedeck log that ``replay --verify`` accepts.

        Each decision is a line of the log, as a match's are: the seat and its action, or
        the engine's turn, with the events it caused. So ``replay --verify`` checks the
        episode without playing anything again: every hash, every action legal where it
        was taken, every event the one its decision gives, the engine's draws made again
        from the seed, and the result line the final state's.

        The header names, per seat, a bot (``log_seats``): ``random`` (``LOG_SEAT``) for a
        seat played from outside, the bot itself for a seat a racedeck bot played (the
        single-agent view's opponents). Each decision of a seat played from outside is
        preceded by a debug line by ``external`` holding the action as JSON, so the log
        tells which seats were played from outside (``verify_episode`` plays those
        decisions again, and asks the header's bots for the others).
        """
        if self.result is None:
            raise UsageError("the episode has not ended: only a finished episode is a log")
        if not self.events:
            raise UsageError("the episode has no events to write")
        if self._log_seats is None:
            raise UsageError("this environment was made without the bots its log names")
        header = make_header(
            self.game, self.options, self.players, self.seed, self._log_seats, "forfeit"
        )
        buffer = io.BytesIO()
        writer = LogWriter(buffer)
        writer.header(header)
        self._write_body(writer)
        writer.result(
            ResultLine(
                kind="result",
                events=len(self.events),
                hash=writer.last_hash,
                state_hash=state_hash(self.state_),
                result=msgspec.to_builtins(self.result),
            )
        )
        return buffer.getvalue()

    def _write_body(self, writer: LogWriter) -> None:
        """Write the episode's decisions, an outside seat's preceded by a debug line."""
        external = self.external
        events = self.events
        at = 0
        for actor, action, count in self._decisions:
            made = [encode(event) for event in events[at : at + count]]
            at += count
            if action is None:
                writer.turn(actor, None, made)
                continue
            raw = encode(action)
            if actor in external:
                writer.debug(DebugNote(seat=actor, bot=EXTERNAL, text=raw.decode()))
            writer.turn(actor, raw, made)

    def write_log(self, path: str | Path) -> Path:
        """Write the finished episode's log (``episode_log``) to ``path``; return the path."""
        target = Path(path)
        data = self.episode_log()
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileWriteError(f"the log {target} (its folder)", exc) from None
        return write_atomically(target, data, f"the log {target}")
