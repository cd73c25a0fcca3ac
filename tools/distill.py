r"""Train a game's learned policy on a search's choices (needs NumPy: the ``rl`` extra).

    python -m tools.distill lacorsa -o races=1 --players 2 --matches 500 \
        --players 6 --matches 150 --version 1 --write src/racedeck/games/lacorsa/data/policy.json

1. **Teach.** The teacher (by default the general ISMCTS of 200 simulations with heuristic
   playouts) plays every seat of seeded matches. At each decision with a choice, the
   game's policy describes every legal action by its features (the registered
   ``distilled`` bot's ``features``) and the share of the teacher's root visits each got is
   kept. The matches are played by ``--workers`` processes and gathered in seed order,
   so the decisions are the same whatever the number of workers.
2. **Fit.** A softmax over each decision's legal actions, the score of an action the sum
   of its features' weights, is fitted to the visit shares (cross-entropy, an L2 penalty,
   Adam for a fixed number of iterations from zero weights). One match in five is held
   out: the report gives how often the policy's choice is the teacher's most-visited
   action there, beside the game's heuristic's.
3. **Write** the weights file the game's policy loads (``racedeck.bots.linear``), with
   how it was made.

The same command on the same machine writes the same file. A new file changes the
policy's play: give it a new ``--version``, which its bot is registered at.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

import msgspec

from racedeck.bots.ismcts import Ismcts
from racedeck.bots.linear import LinearPolicy, Weights, check_weights, weigh
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import RacedeckError
from racedeck.core.game import AnyGame
from racedeck.core.model import Action, Observation, Options, Result
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.plugins import load_registry

TEACHER = "ismcts:simulations=200,rollout=heuristic,effort=none,horizon=none,bias=none"
"""The general search of 200 simulations with heuristic playouts (whatever the game's own)."""

ObservationT = TypeVar("ObservationT")
ActionT = TypeVar("ActionT")

HELD_OUT = 5
"""One match in this many is held out of the fit, to report on."""


class Taught(
    msgspec.Struct, Generic[ObservationT, ActionT], frozen=True, forbid_unknown_fields=True
):
    """One decision of the teacher, as kept: what the seat saw, its choices, their visits."""

    match: int
    observation: ObservationT
    legal: list[ActionT]
    visits: tuple[int, ...]
    heuristic: int
    """The index of the game's heuristic's choice there (-1: the game has none)."""


class Teaching(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How the decisions of a ``--keep`` file were taught: the first line of the file."""

    game: str
    options: dict[str, Any]
    teacher: str
    tables: list[tuple[int, int]]
    first_seed: int
    decisions: int
    """How many decision lines follow (a file cut short is refused)."""


@dataclass(frozen=True)
class Decision:
    """One decision as the fit sees it: each legal action's features, and its root visits."""

    match: int
    described: list[list[str]]
    visits: tuple[int, ...]
    heuristic: int
    """The index of the game's heuristic's choice there (-1: the game has none)."""


class _Recording(Bot):
    """The teacher, keeping each decision it searched with a choice, and its visits."""

    def __init__(self, teacher: Ismcts, heuristic: Bot | None, match: int) -> None:
        self.teacher = teacher
        self.heuristic = heuristic
        self.match = match
        self.kept: list[Taught[Any, Any]] = []

    def bind_game(self, game: AnyGame) -> None:
        self.teacher.bind_game(game)
        if self.heuristic is not None:
            self.heuristic.bind_game(game)

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        self.teacher.start_match(game, seat, players, options)
        if self.heuristic is not None:
            self.heuristic.start_match(game, seat, players, options)

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        chosen = self.teacher.act(observation, legal, rng)
        visits = self.teacher.last_visits
        if len(legal) > 1 and sum(visits) > 0:
            heuristic = -1
            if self.heuristic is not None:  # its own generator: the match's is not touched
                answer = self.heuristic.act(observation, legal, random.Random(self.match))
                heuristic = next(i for i, a in enumerate(legal) if a is answer or a == answer)
            self.kept.append(Taught(self.match, observation, list(legal), visits, heuristic))
        return chosen

    def end_match(self, result: Result) -> None:
        self.teacher.end_match(result)


@functools.cache
def _registry() -> Any:
    return load_registry(entry_points=False)


def started_policy(game: str, options: dict[str, Any]) -> LinearPolicy:
    """Return ``game``'s registered ``distilled`` policy, started under ``options``.

    A policy that judges with the match's options (Detroit-Cleveland's track and optional
    rules) describes the teacher's decisions as it would have in those matches.
    """
    registry = _registry()
    bot = registry.bot("distilled", game).factory()
    if not isinstance(bot, LinearPolicy):
        raise SystemExit(f"{game}'s distilled bot is not a linear policy")
    played = registry.game(game)
    bot.start_match(game, 0, played.min_players, played.parse_options(options))
    return bot


def describe(
    game: str, taught: Sequence[Taught[Any, Any]], options: dict[str, Any] | None = None
) -> list[Decision]:
    """Return the decisions as ``game``'s policy describes them (its features' names).

    ``options`` are those the teacher played under (the kept file's). A kept decision that
    decodes but is no situation of the game (a seat or a position out of range, an index
    of no legal action) is ``SystemExit`` naming it: a kept file may come from anywhere.
    """
    try:
        policy = started_policy(game, options or {})
    except RacedeckError as exc:
        raise SystemExit(f"distill: {exc}") from None
    described = []
    for number, t in enumerate(taught, start=1):
        visits = t.visits
        fits = len(visits) == len(t.legal) > 0 and min(visits) >= 0 < sum(visits)
        if not fits or not -1 <= t.heuristic < len(t.legal):
            raise SystemExit(f"distill: decision {number}: its visits or choice fit no action")
        try:
            names = policy.features(t.observation, t.legal)
        except (AssertionError, IndexError, KeyError, TypeError, ValueError) as exc:
            raise SystemExit(
                f"distill: decision {number}: not a {game} situation ({exc!r})"
            ) from None
        described.append(Decision(t.match, names, visits, t.heuristic))
    return described


def play(task: tuple[str, dict[str, Any], str, int, int, int]) -> list[Taught[Any, Any]]:
    """Play one match of the teacher in every seat; return the decisions it searched."""
    game_name, raw, teacher_name, players, seed, match = task
    registry = _registry()
    game = registry.game(game_name)
    options = game.parse_options(raw)
    teacher = registry.bot(teacher_name, game_name)
    heuristic = next((s for s in registry.bots_for(game_name) if s.name == "heuristic"), None)
    made: list[_Recording] = []

    def recording() -> Bot:
        bot = teacher.factory()
        assert isinstance(bot, Ismcts)  # ``teach`` checked it
        adviser = heuristic.factory() if heuristic is not None else None
        made.append(_Recording(bot, adviser, match))
        return made[-1]

    spec = BotSpec(name=teacher.name, factory=recording, description="teacher")
    run_match(game, options, [spec] * players, seed)
    return [decision for bot in made for decision in bot.kept]


def teach(
    game: str,
    raw: dict[str, Any],
    teacher: str,
    tables: Sequence[tuple[int, int]],
    first_seed: int,
    workers: int,
) -> list[Taught[Any, Any]]:
    """Play ``matches`` at each table of ``players`` (``tables``); return every decision.

    Refuses (``SystemExit``) a teacher that is not a search: only a search's visits say
    how much better one action is than another.
    """
    if not isinstance(_registry().bot(teacher, game).factory(), Ismcts):
        raise SystemExit(f"the teacher {teacher!r} is not a search (ismcts)")
    tasks: list[tuple[str, dict[str, Any], str, int, int, int]] = []
    for players, matches in tables:
        for _ in range(matches):
            tasks.append((game, raw, teacher, players, first_seed + len(tasks), len(tasks)))
    if workers <= 1:
        played = [play(task) for task in tasks]
    else:
        with ProcessPoolExecutor(workers) as pool:
            played = list(pool.map(play, tasks))
    return [decision for decisions in played for decision in decisions]


def fit(decisions: Sequence[Decision], iterations: int, l2: float, rate: float) -> dict[str, float]:
    """Fit a weight per feature name to the decisions' visit shares; return the weights."""
    import numpy as np

    names = sorted({name for d in decisions for row in d.described for name in row})
    column = {name: i for i, name in enumerate(names)}
    rows: list[int] = []
    columns: list[int] = []
    targets: list[float] = []
    groups: list[int] = []
    for g, decision in enumerate(decisions):
        total = sum(decision.visits)
        for row_names, visits in zip(decision.described, decision.visits, strict=True):
            for name in row_names:
                rows.append(len(targets))
                columns.append(column[name])
            targets.append(visits / total)
            groups.append(g)
    at_row, at_column = np.array(rows), np.array(columns)
    target, group = np.array(targets), np.array(groups)
    count = len(decisions)
    weights = np.zeros(len(names))
    moment = np.zeros(len(names))
    square = np.zeros(len(names))
    for step in range(1, iterations + 1):
        chance = _softmax(weights, at_row, at_column, group, len(targets), count)
        gradient = (
            np.bincount(at_column, weights=(chance - target)[at_row], minlength=len(names)) / count
            + l2 * weights
        )
        moment = 0.9 * moment + 0.1 * gradient
        square = 0.999 * square + 0.001 * gradient * gradient
        unbiased = moment / (1 - 0.9**step)
        weights -= rate * unbiased / (np.sqrt(square / (1 - 0.999**step)) + 1e-8)
    # Adding 0.0 turns a weight rounded to -0.0 into 0.0.
    return {name: round(float(w), 6) + 0.0 for name, w in zip(names, weights, strict=True)}


def _softmax(weights: Any, at_row: Any, at_column: Any, group: Any, rows: int, count: int) -> Any:
    """Return each legal action's chance under ``weights``, within its decision."""
    import numpy as np

    score = np.bincount(at_row, weights=weights[at_column], minlength=rows)
    top = np.full(count, -np.inf)
    np.maximum.at(top, group, score)
    exp = np.exp(score - top[group])
    return exp / np.bincount(group, weights=exp, minlength=count)[group]


def agreement(decisions: Sequence[Decision], weights: dict[str, float] | None) -> float:
    """Return the share of decisions where the choice is the teacher's most-visited action.

    The choice is the policy's under ``weights``, or (None) the heuristic's.
    """
    agreed = 0
    for decision in decisions:
        if weights is None:
            choice = decision.heuristic
        else:
            found = weigh(weights, decision.described)
            choice = max(range(len(found)), key=found.__getitem__)
        visits = decision.visits
        agreed += choice >= 0 and visits[choice] == max(visits)
    return agreed / len(decisions) if decisions else 0.0


def _tables(players: list[int] | None, matches: list[int] | None) -> list[tuple[int, int]]:
    players, matches = players or [], matches or []
    if len(players) != len(matches):
        raise SystemExit("give one --matches for each --players")
    return list(zip(players, matches, strict=True))


def keep(path: Path, teaching: Teaching, taught: Sequence[Taught[Any, Any]]) -> None:
    """Write the teaching and its decisions to ``path``, one JSON line each, whole or not at all."""
    encoder = msgspec.json.Encoder()
    lines = [encoder.encode(teaching), *(encoder.encode(t) for t in taught)]
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(b"\n".join(lines) + b"\n")
    os.replace(partial, path)


def load_taught(path: Path) -> tuple[Teaching, list[Taught[Any, Any]]]:
    """Read a ``--keep`` file back, decoding each decision as its game's own types.

    A file that is not one (a line that does not decode, another game's observations, fewer
    or more decisions than its first line counts) is ``SystemExit`` naming the line.
    """
    try:
        lines = path.read_bytes().splitlines()
    except OSError as exc:
        raise SystemExit(f"distill: {path}: {exc.strerror}") from None
    try:
        teaching = msgspec.json.decode(lines[0] if lines else b"", type=Teaching)
        game = _registry().game(teaching.game)
    except (msgspec.DecodeError, RacedeckError) as exc:
        raise SystemExit(f"distill: {path}:1: {exc}") from None
    kept: Any = Taught[game.observation_type, game.action_type]  # type: ignore[name-defined]
    decoder = msgspec.json.Decoder(kept)
    taught = []
    for number, line in enumerate(lines[1:], start=2):
        try:
            taught.append(decoder.decode(line))
        except msgspec.DecodeError as exc:
            raise SystemExit(f"distill: {path}:{number}: {exc}") from None
    if len(taught) != teaching.decisions:
        raise SystemExit(
            f"distill: {path}: {len(taught)} decisions, its first line counts {teaching.decisions}"
        )
    return teaching, taught


def load_parts(game: str, paths: Sequence[Path]) -> tuple[Teaching, list[Taught[Any, Any]]]:
    """Return the decisions of several ``--keep`` files as one teaching, in the files' order.

    Teaching is long (hours in Detroit-Cleveland), so it may be done in parts, each kept in
    a file of its own from its own first seed. Every file must hold ``game``'s decisions,
    taught by the same teacher under the same options. A file's matches are numbered on
    from the last file's, so the matches held out of the fit are one in ``HELD_OUT`` of
    them all, as if they had been taught in one go.
    """
    first: Teaching | None = None
    taught: list[Taught[Any, Any]] = []
    tables: list[tuple[int, int]] = []
    for path in paths:
        teaching, decisions = load_taught(path)
        if teaching.game != game:
            raise SystemExit(f"distill: {path} holds {teaching.game}'s decisions")
        if first is None:
            first = teaching
        elif (teaching.teacher, teaching.options) != (first.teacher, first.options):
            raise SystemExit(
                f"distill: {path} was taught by {teaching.teacher} with options "
                f"{teaching.options}, {paths[0]} by {first.teacher} with {first.options}"
            )
        offset = sum(matches for _, matches in tables)
        taught += [msgspec.structs.replace(t, match=t.match + offset) for t in decisions]
        tables += teaching.tables
    assert first is not None
    joined = Teaching(first.game, first.options, first.teacher, tables, first.first_seed, 0)
    return msgspec.structs.replace(joined, decisions=len(taught)), taught


def _arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--option", "-o", action="append", default=[], help="KEY=VALUE")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--matches", type=int, action="append")
    parser.add_argument("--first-seed", type=int, default=100_000)
    parser.add_argument("--teacher", default=TEACHER)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=600)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--rate", type=float, default=0.05)
    parser.add_argument("--version")
    parser.add_argument("--keep", metavar="PATH", help="write the teacher's decisions here")
    parser.add_argument(
        "--taught",
        metavar="PATH",
        action="append",
        help="fit the decisions a --keep wrote, without teaching (repeat: several files)",
    )
    parser.add_argument("--write", metavar="PATH")
    args = parser.parse_args(argv)
    for name in ("workers", "iterations"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more")
    if args.taught is None and not args.players:
        parser.error("give --players and --matches to teach, or --taught to fit kept decisions")
    if args.taught is not None and (args.players or args.matches or args.option or args.keep):
        parser.error("--taught fits kept decisions: --players, --matches, -o, --keep do not apply")
    if any(m < 1 for m in args.matches or ()):
        parser.error("--matches must be 1 or more")
    if not (args.l2 >= 0 and args.rate > 0):
        parser.error("--l2 must be 0 or more, --rate above 0")
    if (args.write is not None or args.keep is None) and not (args.version or "").strip():
        parser.error("--version must be given, not empty, to fit")
    return args


def _taught(args: argparse.Namespace) -> tuple[Teaching, list[Taught[Any, Any]]]:
    """Return the decisions to fit: taught now (and kept if asked) or read from ``--taught``."""
    if args.taught is not None:
        return load_parts(args.game, [Path(path) for path in args.taught])
    raw: dict[str, Any] = {}
    for pair in args.option:
        key, _, value = pair.partition("=")
        raw[key] = int(value) if value.lstrip("-").isdigit() else value
    tables = _tables(args.players, args.matches)
    try:
        game = _registry().game(args.game)
        game.parse_options(raw)
        for players, _ in tables:
            if not game.min_players <= players <= game.max_players:
                raise SystemExit(
                    f"distill: {args.game} is for {game.min_players} to "
                    f"{game.max_players} players, not {players}"
                )
        taught = teach(args.game, raw, args.teacher, tables, args.first_seed, args.workers)
    except RacedeckError as exc:
        raise SystemExit(f"distill: {exc}") from None
    teaching = Teaching(args.game, raw, args.teacher, tables, args.first_seed, len(taught))
    if args.keep:
        keep(Path(args.keep), teaching, taught)
    return teaching, taught


def main(argv: list[str] | None = None) -> int:
    """Teach, fit and write a game's learned policy; print what the fit agrees with.

    A game, option, table or teacher racedeck refuses is one line and exit 2. The file is
    written whole or not at all (a temporary file beside it, checked, then renamed).
    ``--keep`` also writes the teacher's decisions, and ``--taught`` fits such a file
    without teaching again (the features may have changed since: they are worked out at
    the fit).
    """
    args = _arguments(argv)
    teaching, taught = _taught(args)
    if not args.version:  # only keeping the decisions
        return 0
    decisions = describe(args.game, taught, teaching.options)
    fitted = [d for d in decisions if d.match % HELD_OUT]
    held = [d for d in decisions if not d.match % HELD_OUT]
    if not fitted:
        raise SystemExit("distill: the teacher made no decision with a choice to fit")
    weights = fit(fitted, args.iterations, args.l2, args.rate)
    report = (
        f"{len(decisions)} decisions of {sum(m for _, m in teaching.tables)} matches; on the "
        f"{len(held)} held out the policy chose the teacher's most visited action "
        f"{agreement(held, weights):.3f} of the time, the heuristic "
        f"{agreement(held, None):.3f}"
    )
    print(report)
    command = " ".join(["python -m tools.distill", *(argv if argv is not None else sys.argv[1:])])
    if args.taught is not None:
        command += f" (taught by {teaching.teacher}, tables {teaching.tables}, first seed "
        command += f"{teaching.first_seed}, options {teaching.options})"
        if len(args.taught) > 1:
            command += f" ({len(args.taught)} files, each from a first seed of its own)"
    stored = Weights(version=args.version, trained=f"{command}: {report}", weights=weights)
    if args.write:
        _write(Path(args.write), msgspec.json.format(msgspec.json.encode(stored), indent=1))
    return 0


def _write(path: Path, text: bytes) -> None:
    """Write ``text`` (and a newline) to ``path`` whole, through a checked temporary file."""
    check_weights(text, str(path))
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(text + b"\n")
    os.replace(partial, path)


if __name__ == "__main__":
    sys.exit(main())
