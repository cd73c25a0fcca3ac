"""A playout horizon: searches that judge a position by the game's estimate, not its end."""

from __future__ import annotations

import random
from itertools import islice

import msgspec
import pytest
from msgspec.structs import replace

from racedeck.bots.evaluation import evaluation_of
from racedeck.bots.ismcts import Budget, Ismcts
from racedeck.core.bot import BotParameterError
from racedeck.games.detroit_cleveland.options import track_of
from tests.bots.helpers import REGISTRY
from tests.playing import final_state, random_turns

DC = REGISTRY.game("detroit-cleveland")
ONE_RACE = DC.parse_options({"races": 1})


def _decisions(game_name: str, players: int, seed: int):  # type: ignore[no-untyped-def]
    """Yield (state, seat, legal) at every seat decision of a random match."""
    game = REGISTRY.game(game_name)
    options = game.parse_options(dict(game.conformance_options[0]))
    for state, _ in random_turns(game, options, players, seed):
        step = game.next_step(state)
        if not step.engine:
            seat = step.seats[0]
            yield state, seat, game.legal_actions(state, seat)


def _search(game_name: str, budget: Budget, state, seat, legal, players):  # type: ignore[no-untyped-def]
    game = REGISTRY.game(game_name)
    bot = Ismcts(budget)
    bot.bind_game(game)
    bot.start_match(game_name, seat, players, state.options)
    choice = bot.act(game.observe(state, seat), legal, random.Random(seat))
    return bot, choice


def test_a_horizon_must_be_positive() -> None:
    with pytest.raises(ValueError, match="horizon must be positive"):
        Budget(horizon=0)
    spec = REGISTRY.bot("ismcts", "detroit-cleveland")
    assert spec.with_parameters(horizon="20").factory().budget.horizon == 20  # type: ignore[attr-defined]
    for bad in ("-3", "abc", "<b>9</b>"):
        with pytest.raises(BotParameterError, match="horizon"):
            spec.with_parameters(horizon=bad)


def test_playouts_stop_at_the_horizon_where_the_game_estimates() -> None:
    """Detroit-Cleveland gives an estimate: a playout is cut a few steps past the horizon."""
    state, seat, legal = next(
        (s, seat, legal)
        for s, seat, legal in _decisions("detroit-cleveland", 3, 4)
        if s.phase == "race" and len(legal) > 1
    )
    full, _ = _search(
        "detroit-cleveland", Budget(simulations=10, rollout="random"), state, seat, legal, 3
    )
    cut, _ = _search(
        "detroit-cleveland",
        Budget(simulations=10, rollout="random", horizon=5),
        state,
        seat,
        legal,
        3,
    )
    # Past the tree (a few steps), a cut playout runs to its horizon and a seat's step more.
    assert cut.last_steps <= 10 * (5 + 12) < full.last_steps


class _Unjudged(type(REGISTRY.game("lacorsa"))):  # type: ignore[misc]
    """LACORSA as a game that declares no evaluation (the search asks the declaration)."""

    capabilities = msgspec.structs.replace(
        type(REGISTRY.game("lacorsa")).capabilities, evaluation=False
    )


def test_a_game_without_an_evaluation_plays_every_playout_to_the_end() -> None:
    """With no evaluation the horizon changes nothing, step for step and choice for choice."""
    game = _Unjudged()
    assert evaluation_of(game) is None
    for state, seat, legal in islice(
        ((s, seat, legal) for s, seat, legal in _decisions("lacorsa", 2, 1) if len(legal) > 1), 3
    ):
        runs = []
        for budget in (Budget(simulations=12), Budget(simulations=12, horizon=3)):
            bot = Ismcts(budget)
            bot.bind_game(game)
            bot.start_match("lacorsa", seat, 2, state.options)
            choice = bot.act(game.observe(state, seat), legal, random.Random(seat))
            runs.append((choice, bot.last_steps))
        assert runs[0] == runs[1]


def test_lacorsas_playouts_stop_at_the_horizon_now_that_it_has_an_evaluation() -> None:
    """LACORSA judges a race in progress: a playout cut after a step takes fewer steps."""
    state, seat, legal = next(
        (s, seat, legal)
        for s, seat, legal in _decisions("lacorsa", 2, 1)
        if s.phase in ("move", "challenge") and len(legal) > 1
    )
    full, _ = _search("lacorsa", Budget(simulations=12), state, seat, legal, 2)
    cut, _ = _search("lacorsa", Budget(simulations=12, horizon=1), state, seat, legal, 2)
    assert cut.last_steps < full.last_steps


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_estimate_ranks_every_seat_and_ends_as_the_result(players: int) -> None:
    """At every step the estimate ranks all seats; once the match is over it is the result."""
    for state, _ in random_turns(DC, ONE_RACE, players, players):
        estimate = DC.estimate(state)
        assert estimate is not None
        assert len(estimate.ranks) == len(estimate.scores) == players
        assert min(estimate.ranks) == 1
        # Prizes are only ever added: no seat is judged poorer than its money.
        assert all(e >= m for e, m in zip(estimate.scores, state.money, strict=True))
    over = final_state(DC, ONE_RACE, players, players)
    result, estimate = DC.result(over), DC.estimate(over)
    assert estimate is not None
    assert (estimate.ranks, estimate.scores) == (result.ranks, result.scores)


def test_the_estimate_pays_the_car_in_front_the_winners_prize() -> None:
    """ "Prize money by finishing position": the car furthest round takes the Winner's Circle."""
    state = next(s for s, _, _ in _decisions("detroit-cleveland", 2, 3) if s.phase == "race")
    track = track_of(state.options)
    furthest = max(range(len(track.distances)), key=lambda space: track.distances[space])
    car = next(c for c, seat in enumerate(state.owner) if seat >= 0)
    positions = list(state.positions)
    positions[car] = furthest
    # With no movement left in any hand, distance alone decides.
    ahead = replace(state, positions=tuple(positions), hands=tuple(() for _ in state.hands))
    estimate = DC.estimate(ahead)
    assert estimate is not None
    seat = state.owner[car]
    assert estimate.scores[seat] - state.money[seat] >= 200_000


# How far ahead the estimate sees (``racedeck.bots.estimates``) -------------------------------


def test_detroit_cleveland_estimate_sees_the_end_near_it_and_little_far_from_it() -> None:
    """Near the end the leaders the estimate names win; a race away, hardly more than chance."""
    from racedeck.bots.estimates import BUCKET, foresight

    rows = foresight(REGISTRY, "detroit-cleveland", ONE_RACE, 2, range(1, 13))
    assert rows[0].ahead == 0 and all(row.ahead % BUCKET == 0 for row in rows)
    assert sum(row.decisions for row in rows) > 12 * 100  # every seat decision is judged
    assert rows[0].share >= 0.85
    far = [row for row in rows if 100 <= row.ahead < 160]
    assert far and all(row.share <= 0.75 for row in far)
    assert rows[0].share > max(row.share for row in far)


def test_the_estimate_check_refuses_a_game_with_no_estimate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A game that gives no estimate, bad options and tables out of range: one line, exit 2."""
    from racedeck.bots.estimates import main

    assert main(["lacorsa", "--matches", "1", "-o", "races=1"]) == 2
    assert (
        capsys.readouterr().err == "estimates: lacorsa gives no estimate of an unfinished match\n"
    )
    assert main(["detroit-cleveland", "--players", "9"]) == 2
    assert "takes 2 to 6 players" in capsys.readouterr().err
    assert main(["detroit-cleveland", "-o", "races"]) == 2
    assert capsys.readouterr().err == "estimates: an option is KEY=VALUE\n"
    assert main(["detroit-cleveland", "-o", "races=<b>x</b>"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("estimates: ") and err.count("\n") == 1
    assert main(["no-such-game"]) == 2
