"""Comparing a seat's play with a bot's: what the bot would have chosen at each decision.

The match is read and checked as every reader does, then its decisions are walked by the
play driver as a fork's bots watch a copied prefix (``racedeck.core.resume.watch``): the
bot is bound to the game and told the match's start, and at each decision of the seat it
is asked for its action on the observation the seat had, drawing from its own stream
seeded as a match seeds it (``bot_stream(seed, seat)``); the recorded action stands. A
bot that raises or answers with an action that is not legal there is reported at that
decision, and asked again at the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from racedeck.core.asking import close_bot, describe_failure
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import RacedeckError, UsageError
from racedeck.core.log import LogReader
from racedeck.core.model import Action
from racedeck.core.replay import Replay, copy_prefix, open_game, replay_log
from racedeck.core.resume import Recorded, watch
from racedeck.core.rng import bot_stream
from racedeck.core.shown import shown
from racedeck.core.step import choose


@dataclass(frozen=True)
class Parting:
    """A decision where the bot would not have played what was played.

    ``seq`` is the number of the decision's first event; ``played`` and ``chosen`` are
    in the game's words; ``fault`` says why the bot gave no legal action (``chosen`` is
    then ``None``).
    """

    seq: int
    played: str
    chosen: str | None
    fault: str | None = None


@dataclass
class Comparison:
    """How a seat's recorded decisions compare with a bot's choices."""

    log: str
    seat: int
    bot: str
    played_by: str
    decisions: int = 0
    agreed: int = 0
    partings: list[Parting] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """The share of the seat's decisions where the bot chose what was played (1 if none)."""
        return self.agreed / self.decisions if self.decisions else 1.0


def compare_log(catalogue: Catalogue, path: str | Path, seat: int, bot: str) -> Comparison:
    """Return how ``bot`` would have played seat ``seat``'s decisions in the log at ``path``.

    Raises ``LogError`` for a log that does not read to its end and ``UsageError`` for a
    seat the match does not have or a bot that cannot be made for its game.
    """
    replay = replay_log(catalogue, path)
    if replay.error is not None:
        raise replay.error
    header = replay.header
    if not 0 <= seat < header.players:
        raise UsageError(
            f"--seat {seat} does not exist: the match has seats 0 to {header.players - 1}"
        )
    spec = catalogue.bot(bot, header.game)
    comparison = Comparison(str(path), seat, spec.name, header.seats[seat].bot)
    decisions = _decisions(catalogue, path, replay)
    describe = replay.game.presentation.describe

    def heard(
        seq: int,
        _seat: int,
        legal: tuple[Action, ...],
        recorded: Action,
        answer: Any,
        failure: BaseException | None,
    ) -> None:
        comparison.decisions += 1
        played = describe(recorded)
        if failure is not None:
            fault = describe_failure(failure)
            comparison.partings.append(Parting(seq, played, None, fault))
            return
        listed = choose(legal, answer)
        if listed is None:
            fault = f"returned an illegal action: {shown(answer)}"
            comparison.partings.append(Parting(seq, played, None, fault))
            return
        chosen = describe(listed)
        if listed == recorded or chosen == played:
            comparison.agreed += 1
        else:
            comparison.partings.append(Parting(seq, played, chosen))

    bots: list[Any] = [None] * header.players
    bots[seat] = spec.factory()
    rngs = [bot_stream(header.seed, s) for s in range(header.players)]
    try:
        watch(replay.game, replay.options, header.players, bots, rngs, decisions, heard)
    except Exception as exc:  # asked at decisions, the bot's failures are heard: this is its start
        raise RacedeckError(
            f"{spec.name} failed as the match started: {describe_failure(exc)}"
        ) from None
    finally:
        close_bot(bots[seat])
    return comparison


def _decisions(catalogue: Catalogue, path: str | Path, replay: Replay) -> list[Recorded]:
    """Return every decision of the (already checked) log, in order."""
    if replay.events == 0:
        return []
    with LogReader(path) as reader:
        game, options = open_game(catalogue, reader.header, str(path))
        _, _, decisions = copy_prefix(reader, game, options, replay.events - 1, None)
    return decisions
