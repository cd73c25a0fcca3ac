"""Racedeck bots at an environment's seats, asked exactly as the runner asks them."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

from racedeck.core.bot import Bot, BotFault, BotSpec
from racedeck.core.model import NOT_OBSERVED, Action
from racedeck.core.rng import Rng, bot_stream
from racedeck.core.step import choose
from racedeck.rl.aec import RacedeckEnv


class BotSeats:
    """The bots of one match: each with its private stream for the match seed."""

    def __init__(self, env: RacedeckEnv, specs: Sequence[BotSpec | None]) -> None:
        self.env = env
        players = env.players
        self.rngs: list[Rng] = [bot_stream(env.seed, seat) for seat in range(players)]
        self.bots: list[Bot | None] = []
        for seat, spec in enumerate(specs):
            if spec is None:
                self.bots.append(None)
                continue
            bot = spec.factory()
            bot.bind_game(env.game)
            bot.start_match(env.game.name, seat, players, env.options)
            self.bots.append(bot)

    def plays(self, seat: int) -> bool:
        """Return True when a bot plays ``seat``."""
        return seat >= 0 and self.bots[seat] is not None

    def ask(self, seat: int) -> Action:
        """Return the legal action ``seat``'s bot chooses now (the engine's copy of it)."""
        env = self.env
        bot = self.bots[seat]
        assert bot is not None, f"no bot plays seat {seat}"
        legal = env.legal if type(env.legal) is tuple else tuple(env.legal)
        seen = env.raw_observation(seat) if bot.reads_observation else NOT_OBSERVED
        answer = bot.act(seen, legal, self.rngs[seat])
        action = choose(legal, answer)
        if action is None:
            raise BotFault(f"seat {seat}'s bot returned an illegal action {answer!r}")
        return action

    def play(self, until: int = -1) -> None:
        """Let the bots decide until seat ``until`` (or a seat no bot plays) must, or the end."""
        env = self.env
        while not env.over and env.deciding != until and self.plays(env.deciding):
            env.decide(self.ask(env.deciding))
        if env.over:
            result = env.result
            assert result is not None
            for bot in self.bots:
                if bot is not None:
                    bot.end_match(result)

    def close(self) -> None:
        """Close every bot."""
        for bot in self.bots:
            if bot is not None:
                with contextlib.suppress(Exception):  # cleanup must reach every bot
                    bot.close()
        self.bots = []
