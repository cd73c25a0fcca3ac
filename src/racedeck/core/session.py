"""Playing a named match to a log file: what the ``play`` command does, as a library call."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from racedeck.core.bot import BotSpec
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import RacedeckError
from racedeck.core.files import atomic_write
from racedeck.core.game import AnyGame
from racedeck.core.hashing import digest
from racedeck.core.log import LogWriter, encode
from racedeck.core.model import Options
from racedeck.core.runner import MatchOutcome, make_header, run_match

DEFAULT_LOG_DIR = Path("logs")


@dataclass
class MatchPlan:
    """A match ready to run: the game, its options, the seats' bots and the seed."""

    game: AnyGame
    options: Options
    seats: list[BotSpec]
    seed: int
    fault_policy: str = "forfeit"
    time_limit: float | None = None
    """Seconds each decision may take; ``None`` for no limit (and no clock read)."""

    def default_log_path(self, folder: Path = DEFAULT_LOG_DIR) -> Path:
        """Return the log path named after the match, the same for the same match."""
        header = make_header(
            self.game, self.options, len(self.seats), self.seed, self.seats, self.fault_policy
        )
        return folder / f"{self.game.name}-seed{self.seed}-{digest(encode(header))[:10]}.jsonl"


def plan_match(
    catalogue: Catalogue,
    game_name: str,
    bots: list[str],
    seed: int,
    options: dict[str, Any],
    fault_policy: str = "forfeit",
    time_limit: float | None = None,
) -> MatchPlan:
    """Resolve names into a match plan, raising clear errors for unknown names and options."""
    game = catalogue.game(game_name)
    parsed = game.parse_options(options)
    seats = [catalogue.bot(name, game.name) for name in bots]
    game.check_players(parsed, len(seats))
    return MatchPlan(game, parsed, seats, seed, fault_policy, time_limit)


def play_to_log(plan: MatchPlan, log_path: Path | None) -> tuple[MatchOutcome, Path | None]:
    """Play the match, writing its log to ``log_path`` (nothing written when it is None).

    The log is written to a temporary name beside the target and renamed only once the
    match has ended, so a file under the final name is always complete.
    """
    if log_path is None:
        return (
            run_match(
                plan.game,
                plan.options,
                plan.seats,
                plan.seed,
                fault_policy=plan.fault_policy,
                time_limit=plan.time_limit,
            ),
            None,
        )
    try:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RacedeckError(
            f"cannot create the log folder {log_path.parent}: {exc.strerror}"
        ) from None
    with atomic_write(log_path, f"the log {log_path}") as handle:
        outcome = run_match(
            plan.game,
            plan.options,
            plan.seats,
            plan.seed,
            writer=LogWriter(handle),
            fault_policy=plan.fault_policy,
            time_limit=plan.time_limit,
        )
    return outcome, log_path
