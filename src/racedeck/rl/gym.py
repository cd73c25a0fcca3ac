"""One seat of a racedeck match as a Gymnasium environment; racedeck bots play the others.

The learning seat sees what an agent of the AEC environment sees (``racedeck.rl.aec``):
``{"observation": vector, "action_mask": mask}``, the game's own observation and legal
actions in ``info``. The other seats are racedeck bots, each asked exactly as the runner
asks it: its own observation (none for a bot that does not read one), the legal actions,
and its private stream for the match seed. A step takes one index; the bots then play
until the learning seat must choose again or the match ends. The reward comes at the end
(see the AEC environment's ``reward``). An index the mask forbids ends the episode at
once with reward -1 (``illegal="lose"``, the default, as PettingZoo's classic games do:
an agent sampling the whole action space, as Gymnasium's ``check_env`` does, learns the
mask's meaning), or raises ``IllegalActionError`` with ``illegal="raise"``.

Render modes: ``ansi`` (the state as the game's text). There is no ``rgb_array``: a
racedeck state is hands of cards and a track, drawn as text here and as SVG in the HTML
replay; an image of either would carry nothing a vector does not, and rasterising SVG
takes a browser. ``write_log`` and ``racedeck html`` give the replay page of an episode.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import gymnasium

from racedeck.core.bot import BotSpec
from racedeck.core.errors import IllegalActionError, OptionError, UsageError
from racedeck.rl.aec import RacedeckEnv
from racedeck.rl.seats import BotSeats


class SingleSeatEnv(gymnasium.Env[dict[str, Any], int]):
    """One seat learns; racedeck bots play the others (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        env: RacedeckEnv,
        seat: int,
        opponents: Sequence[BotSpec | None],
        illegal: str = "lose",
    ) -> None:
        if illegal not in ("raise", "lose"):
            raise OptionError(f"unknown illegal-action rule {illegal!r}; use raise or lose")
        self.illegal = illegal
        """``lose`` (the default): an index the mask forbids ends the episode at once with
        reward -1 and no log (the match was abandoned); ``raise``: it raises
        ``IllegalActionError``."""
        self.lost = False
        self.env = env
        self.seat = seat
        self.agent = env.possible_agents[seat]
        self.opponents = list(opponents)
        """Per seat, the bot that plays it (``None`` for the learning seat)."""
        self.observation_space = env.observation_space(self.agent)
        self.action_space = env.action_space(self.agent)
        self.render_mode = env.render_mode
        self._seats: BotSeats | None = None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a match (seeded like the AEC environment) and play to the seat's first turn."""
        super().reset(seed=seed)
        self.close()
        self.lost = False
        env = self.env
        env.reset(seed=seed)
        self._seats = BotSeats(env, self.opponents)
        self._seats.play(until=self.seat)
        return env.observe(self.agent), env.infos[self.agent].fresh()

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Take the seat's index, let the bots play, and return what the seat sees next."""
        env = self.env
        if self.lost:
            raise UsageError("the episode ended with an illegal index; reset to play again")
        if env.state_ is None:
            raise UsageError("the environment must be reset before it is stepped")
        if env.over:
            raise UsageError("the episode is over; reset to play again")
        try:
            env.step(action)
        except IllegalActionError:
            if self.illegal == "raise":
                raise
            self.lost = True
            return env.observe(self.agent), -1.0, True, False, env.infos[self.agent].fresh()
        if self._seats is not None:
            self._seats.play(until=self.seat)
        agent = self.agent
        reward = env.rewards[agent] if env.over else 0.0
        return env.observe(agent), reward, env.over, False, env.infos[agent].fresh()

    def render(self) -> str | None:
        """Return the whole state as text (``render_mode="ansi"``)."""
        return self.env.render()

    def write_log(self, path: str | Path) -> Path:
        """Write the finished episode as a verifiable racedeck log (see ``RacedeckEnv``)."""
        return self.env.write_log(path)

    def close(self) -> None:
        """Close the bots of the current match."""
        if self._seats is not None:
            self._seats.close()
            self._seats = None
