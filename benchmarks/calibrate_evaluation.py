"""How well a game's evaluation foresees a playout's result: the calibration of a horizon.

A search that cuts its playouts at a horizon scores the cut position with the game's
evaluation (``racedeck.bots.evaluation``) instead of playing on. This measures what that
costs in judgement: positions are sampled from seeded heuristic matches (seat decisions,
spread over each match), and from each one a playout is played as the search plays it
(every seat the game's heuristic, a uniformly random action with chance ``epsilon``). The
evaluation judges the playout at the horizon (the first seat decision after ``horizon``
steps where it can judge); the same playout then goes on to the end, and the two are
compared:

- *pairs*: over every two seats the playout's result does not tie, the share the
  evaluation orders the same way (a tie in the evaluation counts half); chance is 0.50.
- *leaders*: the share of positions where every seat the evaluation ranks first is a
  winner of the playout; chance is about one in ``players``.

Playouts that end before the evaluation could judge are left out and counted. With
``--horizon 0`` the evaluation judges the sampled position itself.

    PYTHONPATH=src:. python -m benchmarks.calibrate_evaluation lacorsa --players 2 \\
        --positions 100 --horizon 20 -o races=1

The figures are deterministic: the matches and the playouts draw from seeded streams.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from racedeck.bots.evaluation import Evaluation, evaluation_of
from racedeck.core.bot import Bot
from racedeck.core.game import AnyGame
from racedeck.core.model import ENGINE, Result
from racedeck.core.step import NO_CHANCE, choose, resolve
from racedeck.plugins import load_registry

EPSILON = 0.1
"""The playouts' share of uniformly random actions, as the search's default."""


@dataclass
class Agreement:
    """What the evaluation at the cut and the playout's end agreed on."""

    pairs: float = 0.0
    pair_count: int = 0
    leaders: int = 0
    judged: int = 0
    ended_first: int = 0
    steps_after_cut: int = 0

    def add(self, verdict: Result, final: Result) -> None:
        """Count one judged playout: ``verdict`` at the cut, ``final`` at its end."""
        ranks, truth = verdict.ranks, final.ranks
        for a in range(len(truth)):
            for b in range(a + 1, len(truth)):
                if truth[a] == truth[b]:
                    continue
                self.pair_count += 1
                if ranks[a] == ranks[b]:
                    self.pairs += 0.5
                elif (ranks[a] < ranks[b]) == (truth[a] < truth[b]):
                    self.pairs += 1
        leaders = {seat for seat, rank in enumerate(ranks) if rank == 1}
        winners = {seat for seat, rank in enumerate(truth) if rank == 1}
        self.leaders += leaders <= winners
        self.judged += 1


def _started(game: AnyGame, name: str, players: int, options: Any) -> list[Bot]:
    spec = load_registry(entry_points=False).bot(name, game.name)
    bots = []
    for seat in range(players):
        bot = spec.factory()
        bot.bind_game(game)
        bot.start_match(game.name, seat, players, options)
        bots.append(bot)
    return bots


def _decide(game: AnyGame, bots: list[Bot], state: Any, seat: int, rng: random.Random) -> Any:
    """Return ``seat``'s action as a playout plays it: the heuristic's, or random at epsilon."""
    legal = game.legal_actions(state, seat)
    if len(legal) > 1 and rng.random() >= EPSILON:
        try:
            answer = choose(legal, bots[seat].act(game.observe(state, seat), legal, rng))
        except Exception:  # a heuristic that trips plays randomly, as in the search
            answer = None
        if answer is not None:
            return answer
    return legal[rng.randrange(len(legal))]


def _advance(game: AnyGame, bots: list[Bot], state: Any, rng: random.Random) -> tuple[Any, int]:
    """Return the state after one step (the engine's or the seats'), and the steps taken."""
    step = game.next_step(state)
    if step.engine:
        return resolve(game, state, ENGINE, None, rng).state, 1
    joint = [_decide(game, bots, state, seat, rng) for seat in step.seats]
    turn = resolve(game, state, step.seats[0], joint[0], NO_CHANCE)
    for seat, action in zip(step.seats[1:], joint[1:], strict=True):
        game.resolve(turn, seat, action)
    return turn.state, len(step.seats)


def positions(game: AnyGame, options: Any, players: int, count: int, seed: int) -> list[Any]:
    """Return ``count`` states at seat decisions of seeded heuristic matches.

    Each match gives at most four, drawn at random among its seat decisions.
    """
    rng = random.Random(seed)
    found: list[Any] = []
    match = 0
    while len(found) < count:
        bots = _started(game, "heuristic", players, options)
        state = game.initial_state(options, players)
        decisions = []
        while not (step := game.next_step(state)).over:
            if not step.engine:
                decisions.append(state)
            state = _advance(game, bots, state, rng)[0]
        found += rng.sample(decisions, min(4, len(decisions), count - len(found)))
        match += 1
    return found


def calibrate(
    game: AnyGame,
    evaluate: Evaluation,
    options: Any,
    players: int,
    states: Sequence[Any],
    horizon: int,
    seed: int,
) -> Agreement:
    """Return the agreement of ``evaluate`` at the horizon with the playouts' ends."""
    agreement = Agreement()
    rng = random.Random(seed + 1)
    for state in states:
        bots = _started(game, "heuristic", players, options)
        steps = 0
        verdict: Result | None = None
        after = 0
        while not (step := game.next_step(state)).over:
            if verdict is None and steps >= horizon and not step.engine:
                verdict = evaluate(state)
            state, taken = _advance(game, bots, state, rng)
            steps += taken
            if verdict is not None:
                after += taken
        if verdict is None:
            agreement.ended_first += 1
            continue
        agreement.steps_after_cut += after
        agreement.add(verdict, game.result(state))
    return agreement


def main(argv: Sequence[str] | None = None) -> int:
    """Print the agreement of one game's evaluation at some horizons."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--horizon", type=int, action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    registry = load_registry(entry_points=False)
    game = registry.game(args.game)
    evaluate = evaluation_of(game)
    if evaluate is None:
        print(f"calibrate: {args.game} gives no evaluation", file=sys.stderr)
        return 2
    options = game.parse_options(dict(item.split("=", 1) for item in args.option))
    states = positions(game, options, args.players, args.positions, args.seed)
    print(f"{args.game}, {args.players} players, {len(states)} positions, seed {args.seed}")
    print("| horizon | pairs ordered alike | leaders won | judged | ended first | steps saved |")
    print("|---|---|---|---|---|---|")
    for horizon in args.horizon or [0, 10, 20, 40]:
        a = calibrate(game, evaluate, options, args.players, states, horizon, args.seed)
        pairs = a.pairs / a.pair_count if a.pair_count else float("nan")
        leaders = a.leaders / a.judged if a.judged else float("nan")
        saved = a.steps_after_cut / a.judged if a.judged else 0.0
        print(
            f"| {horizon} | {pairs:.2f} | {leaders:.2f} | {a.judged} | {a.ended_first} "
            f"| {saved:.0f} a playout |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
