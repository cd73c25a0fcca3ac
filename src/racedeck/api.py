"""The Python API: play matches, read their logs, list games and bots, in a script or notebook.

Everything here is importable from ``racedeck`` itself::

    import racedeck
    match = racedeck.play("lacorsa", ["heuristic", "random"], seed=7, options={"races": 1})
    replay = racedeck.load_log(path)

``play`` runs a match through the same runner as ``racedeck play`` and keeps its log (in
memory, or in a file); ``load_log`` reads a log through the same reader and fold as
``racedeck replay``. In a notebook a match and a replay show as the HTML replay page.
``racedeck.list_games()`` and ``racedeck.list_bots(game)`` list what the installed
plugins registered; ``racedeck.run_tournament(game, bots)`` plays a tournament.
"""

from __future__ import annotations

import functools
import html
import io
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.arguments import integer
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import UsageError
from racedeck.core.game import AnyGame
from racedeck.core.log import Header, LogReader, LogWriter, ResultLine
from racedeck.core.model import Observation, Result
from racedeck.core.replay import iter_states, replay_log
from racedeck.core.runner import MatchOutcome, run_match
from racedeck.core.session import MatchPlan, play_to_log
from racedeck.core.verify import Verification, verify_log
from racedeck.plugins import Registry, load_registry
from racedeck.tournament.script import TournamentResult, run_tournament

__all__ = [
    "BotInfo",
    "GameInfo",
    "Match",
    "Replay",
    "TournamentResult",
    "list_bots",
    "list_games",
    "load_log",
    "play",
    "run_tournament",
]


# The installed games and bots ---------------------------------------------------------------


@functools.cache
def _registry(plugins_dir: str | None) -> Registry:
    return load_registry(Path(plugins_dir) if plugins_dir is not None else None)


def registry(plugins_dir: str | Path | None = None) -> Registry:
    """Return the registry of the installed plugins (loaded once per ``plugins_dir``)."""
    return _registry(None if plugins_dir is None else str(Path(plugins_dir).resolve()))


@dataclass(frozen=True)
class GameInfo:
    """A registered game: its name, title, seats and options with their defaults."""

    name: str
    title: str
    min_players: int
    max_players: int
    options: dict[str, Any]


@dataclass(frozen=True)
class BotInfo:
    """A registered bot: its name, version, what it is and the games it plays.

    ``games`` None is every game but those in ``excluded``, which register a bot of the
    same name of their own.
    """

    name: str
    version: str
    description: str
    games: tuple[str, ...] | None
    reproducible: bool
    excluded: tuple[str, ...] = ()


def list_games(*, plugins_dir: str | Path | None = None) -> list[GameInfo]:
    """Return the registered games, by name."""
    found = registry(plugins_dir)
    return [
        GameInfo(
            name=game.name,
            title=game.title,
            min_players=game.min_players,
            max_players=game.max_players,
            options=msgspec.to_builtins(game.parse_options({})),
        )
        for game in sorted(found.games.values(), key=lambda g: g.name)
    ]


def list_bots(game: str | None = None, *, plugins_dir: str | Path | None = None) -> list[BotInfo]:
    """Return the registered bots that play ``game`` (every bot without one), by name."""
    found = registry(plugins_dir)
    if game is not None:
        found.game(game)  # an unknown game is an error, not an empty list
    return [
        BotInfo(
            name=spec.name,
            version=spec.version,
            description=spec.description,
            games=spec.games,
            reproducible=spec.reproducible,
            excluded=spec.excluded,
        )
        for spec in found.bots_for(game)
    ]


# Matches ------------------------------------------------------------------------------------

Seat = str | BotSpec | type[Bot]
"""A seat of ``play``: a registered bot's name, a ``BotSpec``, or a ``Bot`` class."""


def _spec(seat: Seat, game: str, found: Registry) -> BotSpec:
    if isinstance(seat, BotSpec):
        return seat
    if isinstance(seat, str):
        return found.bot(seat, game)
    if isinstance(seat, type) and issubclass(seat, Bot):
        doc = (seat.__doc__ or seat.__name__).strip().splitlines()[0]
        return BotSpec(name=seat.__name__.lower(), factory=seat, description=doc)
    raise UsageError(f"a seat is a bot's name, a BotSpec or a Bot class, not {seat!r}")


def play(
    game: str,
    seats: Sequence[Seat],
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    log: str | Path | None = None,
    fault_policy: str = "forfeit",
    time_limit: float | None = None,
    plugins_dir: str | Path | None = None,
) -> Match:
    """Play one match of ``game`` and return it, with its result, its log and its states.

    ``seats`` has one bot per seat. Without ``log`` the log is kept in memory
    (``match.log`` is its bytes); with a path it is written there, whole or not at all,
    exactly as ``racedeck play --log`` writes it (``match.log`` is the path).
    """
    seed = integer(seed, "seed")
    if isinstance(seats, str):
        seats = [seats]  # one name alone is one seat, not a seat a letter
    found = registry(plugins_dir)
    the_game = found.game(game)
    parsed = the_game.parse_options(dict(options or {}))
    specs = [_spec(seat, the_game.name, found) for seat in seats]
    the_game.check_players(parsed, len(specs))
    plan = MatchPlan(the_game, parsed, specs, seed, fault_policy, time_limit)
    if log is not None:
        outcome, path = play_to_log(plan, Path(log))
        assert path is not None
        return Match(found, the_game, outcome, path)
    buffer = io.BytesIO()
    outcome = run_match(
        the_game,
        parsed,
        specs,
        seed,
        writer=LogWriter(buffer),
        fault_policy=fault_policy,
        time_limit=time_limit,
    )
    return Match(found, the_game, outcome, buffer.getvalue())


class Match:
    """A finished match: its result, its log and, read back from the log, its states."""

    def __init__(
        self, found: Registry, game: AnyGame, outcome: MatchOutcome, log: bytes | Path
    ) -> None:
        self.game = game
        self.outcome = outcome
        """What the runner returned: final state, result, faults, forfeit."""
        self.log: bytes | Path = log
        """The log: its bytes, or the path it was written to."""
        self._replay = Replay(found, log)

    @property
    def result(self) -> Result:
        """The match's result: places, scores, the unit of the scores, a summary."""
        return self.outcome.result

    @property
    def state(self) -> Any:
        """The final state."""
        return self.outcome.state

    @property
    def states(self) -> list[Any]:
        """The state after each event, in order (read back from the log)."""
        return self._replay.states

    @property
    def header(self) -> Header:
        """The log's header: game, options, seed, seats."""
        return self._replay.header

    def replay(self) -> Replay:
        """Return the match's log as a ``Replay``."""
        return self._replay

    def log_bytes(self) -> bytes:
        """Return the log's bytes, wherever it is kept."""
        return self._replay.log_bytes()

    def _repr_html_(self) -> str:
        return self._replay._repr_html_()

    def __repr__(self) -> str:
        return f"<racedeck.Match {self.game.name} seed {self.header.seed}: {self.result}>"


# Logs ---------------------------------------------------------------------------------------


INLINE_LOG_BYTES = 24_000
"""The largest log a notebook shows as its whole HTML replay (a page of about 450 kB)."""


def load_log(path: str | Path, *, plugins_dir: str | Path | None = None) -> Replay:
    """Return the log at ``path`` as a ``Replay``; a bad log raises ``LogError`` at once."""
    replay = Replay(registry(plugins_dir), Path(path))
    replay.header  # noqa: B018 - reading the header checks the log's first line
    return replay


class Replay:
    """A log read back: its events with the state after each, any seat's observations.

    Iterating yields ``(event, state after it)``. States are folded once, on first use,
    through the same reader and fold as ``racedeck replay``.
    """

    def __init__(self, found: Registry, log: bytes | Path) -> None:
        self._registry = found
        self._log = log
        self._states: list[Any] | None = None
        self._events: list[Any] = []
        self._initial: Any = None
        self._header: Header | None = None
        self._game: AnyGame | None = None
        self._result: ResultLine | None = None

    # Reading --------------------------------------------------------------------------------
    def log_bytes(self) -> bytes:
        """Return the log's bytes."""
        return self._log if isinstance(self._log, bytes) else self._log.read_bytes()

    @property
    def path(self) -> Path | None:
        """The log's path, or None for a log held in memory."""
        return self._log if isinstance(self._log, Path) else None

    def _name(self) -> str:
        return str(self._log) if isinstance(self._log, Path) else "match.jsonl"

    def _stream(self) -> io.BytesIO | None:
        return io.BytesIO(self._log) if isinstance(self._log, bytes) else None

    @property
    def header(self) -> Header:
        """The log's header: game, rules version, options, seed, seats."""
        if self._header is None:
            with LogReader(self._name(), self._stream()) as reader:
                self._header = reader.header
        return self._header

    def _fold(self) -> list[Any]:
        if self._states is None:
            states: list[Any] = []
            events: list[Any] = []
            replay: Any = None
            for _seq, event, state, replay in iter_states(  # noqa: B007 - the last one is kept
                self._registry, self._name(), self._stream()
            ):
                events.append(event)
                states.append(state)
            if replay is None:  # a log without events: the state is the initial one
                done = replay_log(self._registry, self._name(), stream=self._stream())
                self._game, self._initial, self._result = done.game, done.state, done.result
            else:
                self._game, self._result = replay.game, replay.result
                self._initial = replay.game.initial_state(replay.options, replay.header.players)
            self._events, self._states = events, states
        return self._states

    @property
    def game(self) -> AnyGame:
        """The game the log is of."""
        self._fold()
        assert self._game is not None
        return self._game

    @property
    def events(self) -> list[Any]:
        """The log's events, in order."""
        self._fold()
        return self._events

    @property
    def states(self) -> list[Any]:
        """The state after each event, in order."""
        return self._fold()

    @property
    def initial_state(self) -> Any:
        """The state before the first event."""
        self._fold()
        return self._initial

    @property
    def result(self) -> Result | None:
        """The result the log's last line records (None for a log that did not finish)."""
        self._fold()
        if self._result is None:
            return None
        return msgspec.convert(self._result.result, Result)

    def __len__(self) -> int:
        """Return the number of events."""
        return len(self._fold())

    def __iter__(self) -> Iterator[tuple[Any, Any]]:
        """Yield ``(event, state after it)`` for every event, in order."""
        states = self._fold()
        return iter(zip(self._events, states, strict=True))

    def state(self, at: int | None = None) -> Any:
        """Return the state after event ``at`` (counting from 0); the final state without one."""
        states = self._fold()
        if at is None:
            return states[-1] if states else self._initial
        if not 0 <= at < len(states):
            raise UsageError(f"event {at} does not exist: the log has {len(states)} events")
        return states[at]

    def observation(self, at: int | None, seat: int) -> Observation:
        """Return what ``seat`` saw after event ``at`` (the final state without one)."""
        players = self.header.players
        if not 0 <= seat < players:
            raise UsageError(f"seat {seat} does not exist: the log has seats 0 to {players - 1}")
        return self.game.observe(self.state(at), seat)  # type: ignore[no-any-return]

    def render(self, at: int | None = None, seat: int | None = None) -> str:
        """Return the state after event ``at`` as text, as ``seat`` saw it with one."""
        if seat is None:
            return self.game.presentation.render(self.state(at))
        return self.game.presentation.render_observation(self.observation(at, seat))

    # Checking -------------------------------------------------------------------------------
    def verify(self, *, rerun: bool = False, parent: str | Path | None = None) -> Verification:
        """Check the log as ``replay --verify`` does and return what was checked.

        Without ``rerun`` no bot is run: every action is checked legal, every event
        derived again, every engine draw made again from the seed. With ``rerun`` the
        logged bots play the match again too. A fork's copied prefix is verified only
        against its ``parent`` log (``Verification.whole``). A difference raises
        ``VerificationError``, a bad log ``LogError``.
        """
        with self._on_disk() as path:
            return verify_log(self._registry, path, rerun=rerun, parent=parent)

    @contextmanager
    def _on_disk(self) -> Iterator[Path]:
        if isinstance(self._log, Path):
            yield self._log
            return
        with tempfile.TemporaryDirectory(prefix="racedeck-") as folder:
            path = Path(folder) / "match.jsonl"
            path.write_bytes(self._log)
            yield path

    # Showing --------------------------------------------------------------------------------
    def html(self, seats: Sequence[int] | None = None) -> str:
        """Return the self-contained HTML replay page (``racedeck html``)."""
        from racedeck.inspect.html import replay_page

        with self._on_disk() as path:
            return replay_page(self._registry, path, seats)

    def _repr_html_(self) -> str:
        """Return the HTML replay in a frame of its own, as a notebook shows it.

        A long match (a log over ``INLINE_LOG_BYTES``; its page is some twenty times
        larger) shows as a light summary instead: the result, the final state as text and
        how to open its step-by-step page, which a notebook would otherwise carry whole.
        """
        size = len(self._log) if isinstance(self._log, bytes) else self._log.stat().st_size
        if size > INLINE_LOG_BYTES:
            from racedeck.inspect.light import light_view

            return light_view(self)
        page = html.escape(self.html(), quote=True)
        return (
            f'<iframe srcdoc="{page}" style="width:100%;height:640px;border:0" '
            'sandbox="allow-scripts"></iframe>'
        )

    def __repr__(self) -> str:
        return f"<racedeck.Replay {self.header.game} seed {self.header.seed}: {self._name()}>"
