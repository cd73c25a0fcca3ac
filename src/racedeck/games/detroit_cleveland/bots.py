"""Detroit-Cleveland's heuristic bot.

Bidding: a car is worth the prize money its owner can expect, and that grows with the
movement the bot holds for its colour (cards showing it, white cards that could move it,
the 10 count card it would take). The bot raises by the minimum while the price stays
below that worth, with a margin.

Racing: every card is tried with greedy choices, car by car, and scored by how far the
bot's cars get, how little its rivals' cars get, and how hemmed in the rivals are; the
best card is played. Destinations are chosen by the same score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from racedeck.core.bot import Bot
from racedeck.core.model import Action, Observation, Options
from racedeck.core.rng import Rng
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass, Play
from racedeck.games.detroit_cleveland.data import MOVES, colour_movement
from racedeck.games.detroit_cleveland.heuristic_bids import (
    BID_MARGIN,
    COLOUR_MOVEMENT,
    STRENGTH_DOLLARS,
    worths,
    worths_of,
)
from racedeck.games.detroit_cleveland.heuristic_tables import (
    MOBILITY_LOOKAHEAD,
    MOBILITY_WEIGHT,
    MOVING,
    PLACE_BONUS,
    RIVAL_WEIGHT,
    Chosen,
    Pick,
    ScoreAt,
    Spread,
    _cone_masks,
    _owned,
    _slot_cones,
    _tables,
    hemmed,
    occupancy,
    plain_options,
    spaces_to_spread,
    white_options,
)
from racedeck.games.detroit_cleveland.movement import Positions, moved
from racedeck.games.detroit_cleveland.movement_cards import (
    NO_ONE,
    CardPlay,
    Option,
    card_play_for,
    own_cars,
    slot_options,
)
from racedeck.games.detroit_cleveland.options import DetroitClevelandOptions, track_of
from racedeck.games.detroit_cleveland.state import DetroitClevelandObservation
from racedeck.games.detroit_cleveland.switch_cards import IDENTITY, colours_in_force
from racedeck.games.detroit_cleveland.track import FINISH, FINISH_ID, Track

__all__ = [
    "BID_MARGIN",
    "COLOUR_MOVEMENT",
    "MOBILITY_LOOKAHEAD",
    "MOBILITY_WEIGHT",
    "PLACE_BONUS",
    "RIVAL_WEIGHT",
    "STRENGTH_DOLLARS",
    "DetroitClevelandHeuristic",
    "_cone_masks",
    "_tables",
    "colour_movement",
    "hemmed",
    "occupancy",
    "plain_options",
    "spaces_to_spread",
    "white_options",
    "worths",
    "worths_of",
]
"""The heuristic, and what its scoring and bidding read (kept importable from here)."""

SCORES_KEPT = 20_000
"""How many scores of positions the bot keeps per owners and finishing order."""


class DetroitClevelandHeuristic(Bot):
    """Bids what its hand makes a car worth; plays the card that helps its cars most."""

    def __init__(self) -> None:
        self.seat = 0
        self.players = 2
        self.options = DetroitClevelandOptions()
        self.track: Track | None = None
        self.scores: dict[tuple[tuple[int, ...], tuple[int, ...]], dict[Positions, float]] = {}
        """Scores already worked out, per cars' owners and finishing order: the bot scores
        the same positions again from one decision to the next (a card's cars, then their
        moves one by one)."""
        self.picks: dict[tuple[Positions, int, tuple[int, ...]], Pick] = {}
        """The destinations the last card choice picked, per positions, car and choices
        of spaces: the card's moves ask the same questions next."""
        self.picks_context: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
        """The cars' owners and finishing order the ``picks`` were made with."""

    def start_match(self, game: str, seat: int, players: int, options: Options) -> None:
        """Remember the seat and compile the track once."""
        assert isinstance(options, DetroitClevelandOptions)
        self.seat = seat
        self.players = players
        self.options = options
        self.track = track_of(options)
        self.scores = {}
        self.picks = {}

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Choose a legal action for the situation in ``observation``."""
        assert isinstance(observation, DetroitClevelandObservation)
        if self.track is None:
            self.track = track_of(self.options)
        if observation.phase == "auction":
            return self._bid(observation, legal)
        if isinstance(legal[0], Move):
            return self._move(observation, legal)
        return self._play(observation, legal)

    # Auction -----------------------------------------------------------------------------
    def worth(self, observation: DetroitClevelandObservation, car: int) -> int:
        """Return the most the bot would pay for ``car`` given its hand."""
        ten = not self.options.ten_counts_in_deck
        return worths(observation.hand, observation.players, ten)[car]

    def _bid(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        bids = [a for a in legal if isinstance(a, Bid)]
        if not bids:
            return legal[0]
        cheapest = min(bids, key=lambda b: b.amount)
        if cheapest.amount <= self.worth(observation, observation.offer):
            return cheapest
        return next(a for a in legal if isinstance(a, Pass))

    # Race --------------------------------------------------------------------------------
    def score(self, observation: DetroitClevelandObservation, positions: Positions) -> float:
        """Score a position for this seat: own progress minus rivals', and their freedom."""
        return self._scoring(observation)(positions)

    def _scoring(self, observation: DetroitClevelandObservation) -> Callable[[Positions], float]:
        """Return ``score`` for ``observation``'s cars, ready for many positions."""
        score_at = self._scoring_at(observation)[0]
        assert self.track is not None
        bits = _tables(self.track).bits

        def score(positions: Positions) -> float:
            return score_at(positions, occupancy(bits, positions))

        return score

    def _scoring_at(self, observation: DetroitClevelandObservation) -> tuple[ScoreAt, Spread]:
        """Return ``score`` and ``spread`` for ``observation``'s cars, handed taken spaces.

        A car's freedom is how far it could move in ``MOBILITY_LOOKAHEAD`` steps; with no
        car within that reach (its cone's mask and the taken spaces share no bit) it is
        the full lookahead, and the car's whole term is read from a table; otherwise the
        term is ``hemmed``'s, worked out once per space and cars in its cone. The sum runs
        car by car in the same order every time, so equal positions score equal, float for
        float; equal positions are scored once.
        """
        track = self.track
        assert track is not None
        length = track.length
        bits, cones, free = _tables(track)
        already = observation.finished
        owned = _owned(observation.owner, self.seat)
        context = (observation.owner, already)
        known = self.scores.get(context)
        if known is None or len(known) > SCORES_KEPT:
            if len(self.scores) > 64:
                self.scores.clear()
            known = self.scores[context] = {}

        def across(finished: list[int], car: int) -> float:
            """Return the value of ``car`` across the line, placed after ``finished``.

            Cars that cross the line in a position take the next places, in car order;
            ``car`` joins ``finished`` if it is not there yet.
            """
            if car not in finished:
                finished.append(car)
            value = length + PLACE_BONUS * (6 - finished.index(car))
            return value + MOBILITY_WEIGHT * float(MOBILITY_LOOKAHEAD)

        def score(positions: Positions, taken: int) -> float:
            total = known.get(positions)
            if total is not None:
                return total
            finished: list[int] | None = None
            total = 0.0
            for car, mine in owned:
                space = positions[car]
                if space == FINISH:
                    if finished is None:
                        finished = list(already)
                    value = across(finished, car)
                    total += value if mine else -RIVAL_WEIGHT * value
                    continue
                near = taken & cones[space]
                total += (hemmed(track, space, near) if near else free[space])[mine]
            known[positions] = total
            return total

        def spread(positions: Positions, taken: int, car: int, dests: Sequence[int]) -> list[float]:
            """Return the score of ``positions`` with ``car`` moved to each of ``dests``.

            The same floats as ``score`` of each, found with less work: with ``car`` off
            its space, every other car's term is worked out once; for a destination, only
            the terms of ``car`` and of the cars whose cone holds it change. The sum still
            runs car by car in order: the terms before ``car`` are added up once, and a
            destination in none of their cones starts from that sum (the same float, as
            the same additions in the same order). No destination may cross the line, and
            ``car`` must stand on a space.
            """
            base = taken & ~bits[positions[car]]
            parts: list[tuple[int, int, int, float]] = []
            finished: list[int] | None = None
            # The sum of the terms before ``car`` and the union of their cones; ``car``'s
            # own ``mine`` (-1: an unowned car, whose term does not count); the terms
            # after ``car`` and the union of their cones.
            head = 0.0
            lead = 0
            moving = -1
            trail: list[float] = []
            trail_cones = 0
            for other, mine in owned:
                space = positions[other]
                if other == car:
                    # Its term is the destination's: a cone of every bit recomputes it.
                    parts.append((MOVING, mine, -1, 0.0))
                    moving = mine
                    continue
                if space == FINISH:
                    if finished is None:
                        finished = list(already)
                    value = across(finished, other)
                    cone = 0
                    term = value if mine else -RIVAL_WEIGHT * value
                else:
                    cone = cones[space]
                    near = base & cone
                    term = (hemmed(track, space, near) if near else free[space])[mine]
                parts.append((space, mine, cone, term))
                if moving < 0:
                    head += term
                    lead |= cone
                else:
                    trail.append(term)
                    trail_cones |= cone
            totals: list[float] = []
            for dest in dests:
                bit = bits[dest]
                after = base | bit
                if not bit & lead:
                    # The terms before ``car`` stand: their sum is ``head``.
                    total = head
                    if moving >= 0:
                        near = after & cones[dest]
                        total += (hemmed(track, dest, near) if near else free[dest])[moving]
                        if bit & trail_cones:
                            for space, mine, cone, term in parts[len(parts) - len(trail) :]:
                                if cone & bit:
                                    near = after & cones[space]
                                    terms = hemmed(track, space, near) if near else free[space]
                                    term = terms[mine]
                                total += term
                        else:
                            for term in trail:
                                total += term
                    totals.append(total)
                    continue
                total = 0.0
                for space, mine, cone, term in parts:
                    if cone & bit:
                        if space == MOVING:
                            space = dest
                        near = after & cones[space]
                        term = (hemmed(track, space, near) if near else free[space])[mine]
                    total += term
                totals.append(total)
            return totals

        return score, spread

    def _card_play(self, observation: DetroitClevelandObservation, card: int) -> CardPlay:
        assert self.track is not None
        switches = observation.switches
        mapping = colours_in_force(switches) if switches else IDENTITY
        if not self.options.white_own_car:
            # Whose cars are whose matters only to the optional rule on white.
            return card_play_for(self.track, card, mapping, NO_ONE, False)
        own = own_cars(observation.owner, self.seat)
        return card_play_for(self.track, card, mapping, own, True)

    @staticmethod
    def _greedy(
        score: ScoreAt,
        spread: Spread,
        bits: Sequence[int],
        positions: Positions,
        taken: int,
        now: float,
        play: CardPlay,
        chosen: dict[tuple[Positions, tuple[Option, ...]], Chosen],
        picks: dict[tuple[Positions, int, tuple[int, ...]], Pick],
    ) -> float:
        """Play a card out greedily, car by car, and return the final score.

        ``now`` is the score of ``positions``, ``taken`` the mask of their spaces. Each car
        goes where the score is best (the first such destination on a tie). ``picks``
        keeps the choices of one car among spaces per positions, car and spaces (what the
        choice depends on), which cards sharing a car and count repeat and the card's
        moves ask again; ``chosen`` the choices among several cars, per positions and
        options. The taken spaces follow the positions: a car moving clears its bit and
        sets its destination's (``bits`` has none for the line or off the track).
        """
        best_score: float | None = now
        track = play.track
        cars, counts, white = play.cars, play.counts, play.white_slot
        reach_cones = _slot_cones(play)
        for slot in range(len(cars)):
            options: tuple[Option, ...]
            if white < slot:
                # A car of its own colour, with no white move ahead to leave room for: its
                # options depend only on its space and the cars in reach (``plain_options``).
                car = cars[slot]
                start = positions[car]
                if start < 0:
                    continue
                count = counts[slot]
                near = taken & reach_cones[slot][start]
                options, dests = plain_options(track, car, start, count, near)
            else:
                if slot == white:
                    options = white_options(play, positions, taken)
                else:
                    options = slot_options(play, positions, slot)
                dests = spaces_to_spread(options)
            if not options:
                continue
            if len(options) == 1:
                # No choice to make: the score is needed only once the card is played out.
                car, dest, _ = options[0]
                taken = taken & ~bits[positions[car]] | bits[dest]
                positions = (*positions[:car], dest, *positions[car + 1 :])
                best_score = None
                continue
            if dests is not None:
                # One car to place, on spaces only: its destinations are scored together.
                car = options[0][0]
                asked = (positions, car, dests)
                picked = picks.get(asked)
                if picked is None:
                    values = spread(positions, taken, car, dests)
                    pick = 0
                    top = values[0]
                    for i in range(1, len(values)):
                        if values[i] > top:
                            pick, top = i, values[i]
                    picks[asked] = (pick, top)
                else:
                    pick, top = picked
                dest = dests[pick]
                taken = taken & ~bits[positions[car]] | bits[dest]
                positions = (*positions[:car], dest, *positions[car + 1 :])
                best_score = top
                continue
            key = (positions, options)
            known = chosen.get(key)
            if known is not None:
                positions, taken, best_score = known
                continue
            # Several cars (the white car's choice): each car's run of destinations on
            # spaces is scored together, the line alone, the values kept in the options'
            # order so that the first best wins as before.
            values = []
            run: list[int] = []
            run_car = -1
            for car, dest, _ in options:
                if car != run_car or dest == FINISH:
                    if run:
                        values += spread(positions, taken, run_car, run)
                        run = []
                    run_car = car
                if dest == FINISH:
                    after = taken & ~bits[positions[car]]
                    values.append(score((*positions[:car], dest, *positions[car + 1 :]), after))
                else:
                    run.append(dest)
            if run:
                values += spread(positions, taken, run_car, run)
            pick = 0
            top = values[0]
            for i in range(1, len(values)):
                if values[i] > top:
                    pick, top = i, values[i]
            car, dest, _ = options[pick]
            taken = taken & ~bits[positions[car]] | bits[dest]
            positions = (*positions[:car], dest, *positions[car + 1 :])
            best_score = top
            chosen[key] = (positions, taken, top)
        return score(positions, taken) if best_score is None else best_score

    def _play(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        assert self.track is not None
        bits = _tables(self.track).bits
        score, spread = self._scoring_at(observation)
        positions = observation.positions
        taken = occupancy(bits, positions)
        now = score(positions, taken)
        best: Action = legal[0]
        best_gain = float("-inf")
        chosen: dict[tuple[Positions, tuple[Option, ...]], Chosen] = {}
        picks = self.picks = {}
        self.picks_context = (observation.owner, observation.finished)
        for action in legal:
            if isinstance(action, Decline):
                gain = 0.0
            elif isinstance(action, Play) and action.card in MOVES:
                play = self._card_play(observation, action.card)
                final = self._greedy(
                    score, spread, bits, positions, taken, now, play, chosen, picks
                )
                gain = final - now
            else:
                gain = -0.5  # a switch card: kept for when every movement card hurts
            if gain > best_gain:
                best, best_gain = action, gain
        return best

    def _move(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        track = self.track
        assert track is not None
        positions = observation.positions
        index = track.index
        first = legal[0]
        assert isinstance(first, Move)
        car = first.car
        dests: list[int] = []
        for action in legal:
            if not isinstance(action, Move) or action.car != car or action.to == FINISH_ID:
                break
            dests.append(index[action.to])
        else:
            # One car to place, on spaces only. The card's choice asked this very question
            # when it played the card out, unless a car has crossed the line since.
            if self.picks_context == (observation.owner, observation.finished):
                known = self.picks.get((positions, car, tuple(dests)))
                if known is not None:
                    return legal[known[0]]
            # Its destinations are scored together.
            spread = self._scoring_at(observation)[1]
            taken = occupancy(_tables(track).bits, positions)
            values = spread(positions, taken, car, dests)
            pick = 0
            top = values[0]
            for i in range(1, len(values)):
                if values[i] > top:
                    pick, top = i, values[i]
            return legal[pick]
        score = self._scoring(observation)
        best: Action = legal[0]
        best_score = float("-inf")
        for i, action in enumerate(legal):
            assert isinstance(action, Move)
            value = score(moved(positions, action.car, track.space_index(action.to)))
            if i == 0 or value > best_score:
                best, best_score = action, value
        return best
