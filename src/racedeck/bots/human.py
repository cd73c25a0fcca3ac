"""A human seat: a person plays from the terminal.

Each decision shows the seat's observation as the game renders it, numbers the legal
actions and reads a number from standard input, asking again until it gets a valid one.
Prompts go to standard error, so standard output keeps only the command's own output.
What the person chose goes into the log as events, like any bot's choice, so the log of a
human match replays like any other.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import IO

import msgspec

from racedeck.core.bot import Bot, BotGone
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng


def describe_action(action: Action) -> str:
    """Return an action as short text: its kind, then its fields."""
    fields = msgspec.to_builtins(action)
    kind = fields.pop("type", type(action).__name__)
    rest = " ".join(f"{key}={value}" for key, value in fields.items())
    return f"{kind} {rest}".strip()


class HumanBot(Bot):
    """Asks a person for every decision of its seat."""

    def __init__(self, stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:
        self._stdin = stdin
        self._stdout = stdout
        self._game: AnyGame | None = None
        self._seat = 0

    @property
    def _in(self) -> IO[str]:
        return self._stdin if self._stdin is not None else sys.stdin

    @property
    def _out(self) -> IO[str]:
        return self._stdout if self._stdout is not None else sys.stderr

    def _say(self, text: str) -> None:
        self._out.write(text + "\n")
        self._out.flush()

    def bind_game(self, game: AnyGame) -> None:
        """Keep the game to render observations with."""
        self._game = game

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Greet the person and say which seat is theirs."""
        self._seat = seat
        self._say(f"{game}: you play seat {seat} of {players}.")

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Show the observation and the numbered actions; return the one the person picks."""
        assert self._game is not None
        self._say("")
        self._say(self._game.presentation.render_observation(observation))
        self._say(f"seat {self._seat}, choose an action:")
        # The game words its actions (cards by their faces); without the game, the fields.
        label = self._game.presentation.describe if self._game is not None else describe_action
        for number, action in enumerate(legal, start=1):
            self._say(f"  {number:>2}. {label(action)}")
        while True:
            self._out.write(f"your choice (1-{len(legal)}): ")
            self._out.flush()
            line = self._in.readline()
            if not line:
                raise BotGone("the human seat's input closed")
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]
            self._say(f"{text!r} is not a choice: type a number from 1 to {len(legal)}")

    def end_match(self, result: Result) -> None:
        """Tell the person where they finished."""
        self._say(
            f"you finished in place {result.ranks[self._seat]} with "
            f"{result.scores[self._seat]} {result.unit}"
        )
