"""The heuristic bot: how it values a car, and that it beats the random bot by a wide margin."""

from __future__ import annotations

import random
from collections.abc import Sequence

from racedeck.core.model import ENGINE, Action
from racedeck.core.rng import engine_stream
from racedeck.core.runner import run_match
from racedeck.core.step import apply
from racedeck.games.detroit_cleveland import data, movement_cards
from racedeck.games.detroit_cleveland.actions import Decline, Move, Play
from racedeck.games.detroit_cleveland.bots import (
    MOBILITY_LOOKAHEAD,
    MOBILITY_WEIGHT,
    PLACE_BONUS,
    RIVAL_WEIGHT,
    DetroitClevelandHeuristic,
    _cone_masks,
    _tables,
    colour_movement,
    hemmed,
    occupancy,
    plain_options,
    spaces_to_spread,
    white_options,
)
from racedeck.games.detroit_cleveland.movement import Positions, moved, reach
from racedeck.games.detroit_cleveland.movement_cards import CardPlay
from racedeck.games.detroit_cleveland.options import track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandObservation
from racedeck.games.detroit_cleveland.track import FINISH
from racedeck.plugins import load_registry
from tests.games.detroit_cleveland.support import GAME, B, G, Y, deal, options, random_states

OPTS = options()


def test_the_heuristic_bot_beats_random() -> None:
    registry = load_registry(entry_points=False)
    heuristic = registry.bot("heuristic", GAME.name)
    random_bot = registry.bot("random", GAME.name)
    opts = options(races=1)
    wins = 0
    matches = 0
    for players in (2, 4):
        for seed in range(12):
            seat = seed % players
            seats = [heuristic if s == seat else random_bot for s in range(players)]
            outcome = run_match(GAME, opts, seats, 1000 + seed)
            assert not outcome.faults
            wins += outcome.result.ranks[seat] == 1
            matches += 1
    # Random would win about a third of these; the heuristic wins nearly all.
    assert wins >= 0.8 * matches


def test_the_bot_values_a_colour_by_its_movement_counting_white() -> None:
    """A player will likely bid higher for a car for which he holds cards which have a
    greater total movement for that color (counting white, when it could be used for that
    color)."""
    hand = (5, 8)  # B6 Y4 R2 G1 and B6 G4 W2 R1
    totals = colour_movement(hand, ten_to_buyer=False)
    assert totals[B] == 12
    assert totals[Y] == 4 + 1  # white counts half for yellow, which is not on #8
    assert totals[G] == 5  # green is on #8, so its white cannot move green
    bot = DetroitClevelandHeuristic()
    bot.start_match(GAME.name, 0, 3, OPTS)
    full = (*hand, 1, 4, 9, 12, 18, 19, 25, 26, 33, 35, 36)  # 13 cards
    state = deal(OPTS, 3, hands=(full, (7,), (17,)))
    observation = GAME.observe(state, 0)
    totals = colour_movement(full, ten_to_buyer=True)
    strongest = max(range(6), key=totals.__getitem__)
    weakest = min(range(6), key=totals.__getitem__)
    assert bot.worth(observation, strongest) > bot.worth(observation, weakest)


class _Reference(DetroitClevelandHeuristic):
    """The bot as first written: every position scored in full, a search per car."""

    def score(self, observation: DetroitClevelandObservation, positions: Positions) -> float:
        track = self.track
        assert track is not None
        finished = list(observation.finished)
        total = 0.0
        for car in range(6):
            seat = observation.owner[car]
            if seat < 0:
                continue
            space = positions[car]
            if space == FINISH:
                if car not in finished:
                    finished.append(car)
                value = track.length + PLACE_BONUS * (6 - finished.index(car))
                mobility = float(MOBILITY_LOOKAHEAD)
            else:
                value = track.distances[space]
                mobility = float(reach(track.successors, positions, car, MOBILITY_LOOKAHEAD)[1])
            value += MOBILITY_WEIGHT * mobility
            total += value if seat == self.seat else -RIVAL_WEIGHT * value
        return total

    def _greedy_reference(self, observation: DetroitClevelandObservation, play: CardPlay) -> float:
        positions = observation.positions
        for slot in range(len(play.cars)):
            options = play.options(positions, slot)
            if not options:
                continue
            positions = max(
                (moved(positions, car, dest) for car, dest, _ in options),
                key=lambda p: self.score(observation, p),
            )
        return self.score(observation, positions)

    def _play(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        now = self.score(observation, observation.positions)
        best: Action = legal[0]
        best_gain = float("-inf")
        for action in legal:
            if isinstance(action, Decline):
                gain = 0.0
            elif isinstance(action, Play) and action.card in data.MOVES:
                play = self._card_play(observation, action.card)
                gain = self._greedy_reference(observation, play) - now
            else:
                gain = -0.5
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _move(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        track = self.track
        assert track is not None

        def after(action: Action) -> float:
            assert isinstance(action, Move)
            to = track.space_index(action.to)
            return self.score(observation, moved(observation.positions, action.car, to))

        return max(legal, key=after)


def test_the_bot_decides_as_scoring_every_position_in_full_would() -> None:
    """The bot scores positions from tables and memos; its choices are those of scoring
    every position in full, float for float (ties included)."""
    decisions = 0
    for raw, players in (({"races": 1}, 4), ({"races": 1, "white_own_car": True}, 3)):
        opts = options(**raw)
        bots = [DetroitClevelandHeuristic() for _ in range(players)]
        references = [_Reference() for _ in range(players)]
        for seat in range(players):
            bots[seat].start_match(GAME.name, seat, players, opts)
            references[seat].start_match(GAME.name, seat, players, opts)
        for state in random_states(raw, players, 21):
            if state.phase != "race":
                continue
            seat = GAME.next_step(state).seats[0]
            legal = GAME.legal_actions(state, seat)
            if len(legal) < 2:
                continue
            view = GAME.observe(state, seat)
            rng = random.Random(0)
            assert bots[seat].act(view, legal, rng) == references[seat].act(view, legal, rng)
            assert bots[seat].score(view, view.positions) == references[seat].score(
                view, view.positions
            )
            decisions += 1
    assert decisions > 100


def test_scoring_a_car_s_destinations_together_gives_the_scores_one_by_one() -> None:
    """``spread`` scores one car's destinations at once; the floats are ``score``'s."""
    checked = 0
    for raw, players in (({"races": 1}, 4), ({"races": 1, "white_own_car": True}, 6)):
        opts = options(**raw)
        for state in random_states(raw, players, 8):
            if state.phase != "race":
                continue
            seat = GAME.next_step(state).seats[0]
            bot = DetroitClevelandHeuristic()
            bot.start_match(GAME.name, seat, players, opts)
            view = GAME.observe(state, seat)
            score = bot._scoring_at(view)[0]
            track = bot.track
            assert track is not None
            positions = view.positions
            bits = _tables(track).bits
            taken = occupancy(bits, positions)
            for car in range(6):
                if positions[car] < 0:
                    continue
                dests = [d for d in reach(track.successors, positions, car, 4)[0] if d >= 0]
                if not dests:
                    continue
                one_by_one = [
                    score(moved(positions, car, d), occupancy(bits, moved(positions, car, d)))
                    for d in dests
                ]
                fresh = DetroitClevelandHeuristic()
                fresh.start_match(GAME.name, seat, players, opts)
                assert fresh._scoring_at(view)[1](positions, taken, car, dests) == one_by_one
                checked += 1
    assert checked > 200


def test_a_card_s_moves_reuse_its_card_choice_as_a_fresh_bot_would_choose() -> None:
    """A move reuses the destination the card choice picked for the same question; a bot
    that never chose the card (a fresh one) picks the same destination, every time."""
    reused = 0
    for raw, players in (({"races": 1}, 2), ({"races": 1, "white_own_car": True}, 4)):
        opts = options(**raw)
        seats = [DetroitClevelandHeuristic() for _ in range(players)]
        for seat, bot in enumerate(seats):
            bot.start_match(GAME.name, seat, players, opts)
        state = GAME.initial_state(opts, players)
        events = 0
        while not (step := GAME.next_step(state)).over:
            if step.engine:
                turn = apply(GAME, state, ENGINE, None, engine_stream(5, events))
            else:
                seat = step.seats[0]
                legal = GAME.legal_actions(state, seat)
                view = GAME.observe(state, seat)
                bot = seats[seat]
                if isinstance(legal[0], Move) and len(legal) > 1:
                    track = track_of(opts)
                    spaces = tuple(track.space_index(a.to) for a in legal if isinstance(a, Move))
                    key = (view.positions, legal[0].car, spaces)
                    context = (view.owner, view.finished)
                    reused += key in bot.picks and bot.picks_context == context
                    fresh = DetroitClevelandHeuristic()
                    fresh.start_match(GAME.name, seat, players, opts)
                    choice = bot.act(view, legal, random.Random(0))
                    assert choice == fresh.act(view, legal, random.Random(0))
                else:
                    choice = bot.act(view, legal, random.Random(0))
                turn = apply(GAME, state, seat, choice)
            events += len(turn.events)
            state = turn.state
    assert reused > 20


def test_a_car_s_own_colour_options_are_the_card_s() -> None:
    """``plain_options`` answers from a car's space and the cars in reach what the card
    would offer for a slot after the white one (or on a card without white)."""
    checked = 0
    for raw, players in (({"races": 1}, 4), ({"races": 1, "track": "cleveland"}, 6)):
        for state in random_states(raw, players, 13):
            if state.phase != "race":
                continue
            seat = GAME.next_step(state).seats[0]
            track = track_of(state.options)
            bits = _tables(track).bits
            taken = occupancy(bits, state.positions)
            for card in data.MOVES:
                play = movement_cards.card_play(state, card, seat)
                for slot in range(play.white_slot + 1, len(play.cars)):
                    car = play.cars[slot]
                    start = state.positions[car]
                    if start < 0:
                        continue
                    count = play.counts[slot]
                    near = taken & _cone_masks(track, count)[start]
                    options, spaces = plain_options(track, car, start, count, near)
                    assert options == tuple(play.options(state.positions, slot))
                    assert spaces == spaces_to_spread(options)
                    checked += 1
    assert checked > 1000


def test_only_one_car_s_choice_of_spaces_is_spread() -> None:
    """``spaces_to_spread`` gives the spaces of one car's choice; no choice, several cars
    or the line among them are scored one position at a time."""
    assert spaces_to_spread(((Y, 4, 3), (Y, 5, 3))) == (4, 5)
    assert spaces_to_spread(((Y, 4, 3),)) is None
    assert spaces_to_spread(((Y, FINISH, 2), (Y, 5, 3))) is None
    assert spaces_to_spread(((Y, 4, 3), (B, 5, 3))) is None


def test_a_hemmed_car_s_terms_are_its_distance_and_its_freedom() -> None:
    """A car's term is its distance along the track plus how far it could move in
    ``MOBILITY_LOOKAHEAD`` steps past the cars in its way; a rival's counts against."""
    track = track_of(OPTS)
    start = track.start[0]
    for near_cars in ((), (track.start[1],), tuple(track.successors[start][:1])):
        near = sum(1 << s for s in near_cars)
        positions = (start, *near_cars)
        steps = reach(track.successors, positions, 0, MOBILITY_LOOKAHEAD)[1]
        value = track.distances[start] + MOBILITY_WEIGHT * steps
        assert hemmed(track, start, near) == (-RIVAL_WEIGHT * value, value)


def test_the_white_car_s_choices_read_from_the_shared_table_are_the_card_s() -> None:
    """``white_options`` gives what the card offers for its white slot: each car not on
    the card that can move in full or cross the line (or is the player's own, under the
    optional rule), with its destinations."""
    checked = 0
    for raw, players in (({"races": 1}, 4), ({"races": 1, "white_own_car": True}, 3)):
        for state in random_states(raw, players, 17):
            if state.phase != "race":
                continue
            seat = GAME.next_step(state).seats[0]
            taken = occupancy(_tables(track_of(state.options)).bits, state.positions)
            for card in data.WHITE_CARDS:
                play = movement_cards.card_play(state, card, seat)
                every = tuple(play.options(state.positions, play.white_slot))
                assert white_options(play, state.positions, taken) == every
                checked += 1
    assert checked > 500
