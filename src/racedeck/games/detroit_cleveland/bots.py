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
from racedeck.games.detroit_cleveland.heuristic_scoring import Scoring
from racedeck.games.detroit_cleveland.heuristic_tables import (
    MOBILITY_LOOKAHEAD,
    MOBILITY_WEIGHT,
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

        See ``heuristic_scoring.Scoring``. Equal positions are scored once: the scores are
        kept per cars' owners and finishing order, from one decision to the next.
        """
        track = self.track
        assert track is not None
        context = (observation.owner, observation.finished)
        known = self.scores.get(context)
        if known is None or len(known) > SCORES_KEPT:
            if len(self.scores) > 64:
                self.scores.clear()
            known = self.scores[context] = {}
        owned = _owned(observation.owner, self.seat)
        scoring = Scoring(track, owned, observation.finished, known)
        return scoring.score, scoring.spread

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
        reach_cones = _slot_cones(play)
        for slot in range(len(play.cars)):
            options, dests = _slot_choices(play, positions, taken, slot, reach_cones)
            if not options:
                continue
            key = None
            if len(options) == 1:
                # No choice to make: the score is needed only once the card is played out.
                car, dest, _ = options[0]
                best_score = None
            elif dests is not None:
                # One car to place, on spaces only: its destinations are scored together.
                car = options[0][0]
                pick, best_score = _pick_space(spread, picks, positions, taken, car, dests)
                dest = dests[pick]
            else:
                key = (positions, options)
                known = chosen.get(key)
                if known is not None:
                    positions, taken, best_score = known
                    continue
                pick, best_score = _pick_car(score, spread, bits, positions, taken, options)
                car, dest, _ = options[pick]
            taken = taken & ~bits[positions[car]] | bits[dest]
            positions = (*positions[:car], dest, *positions[car + 1 :])
            if key is not None:
                assert best_score is not None
                chosen[key] = (positions, taken, best_score)
        return score(positions, taken) if best_score is None else best_score

    def _play(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        return legal[_first_best(self.card_gains(observation, legal))[0]]

    def card_gains(
        self, observation: DetroitClevelandObservation, legal: Sequence[Action]
    ) -> list[float]:
        """Return what each legal card gains, the bot's cars' score played out greedily.

        A movement card is played out car by car, each car going where the score is best
        (``_greedy``), and gains the final score less the score now; declining gains 0 and
        a switch card -0.5 (kept for when every movement card hurts). The bot plays the
        first card of the highest gain.
        """
        assert self.track is not None
        bits = _tables(self.track).bits
        score, spread = self._scoring_at(observation)
        positions = observation.positions
        taken = occupancy(bits, positions)
        now = score(positions, taken)
        chosen: dict[tuple[Positions, tuple[Option, ...]], Chosen] = {}
        picks = self.picks = {}
        self.picks_context = (observation.owner, observation.finished)
        gains = []
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
            gains.append(gain)
        return gains

    def _move(self, observation: DetroitClevelandObservation, legal: Sequence[Action]) -> Action:
        first = legal[0]
        assert isinstance(first, Move)
        dests = self._spaces(observation, legal)
        if dests is not None and self.picks_context == (observation.owner, observation.finished):
            # One car to place, on spaces only. The card's choice asked this very question
            # when it played the card out, unless a car has crossed the line since.
            known = self.picks.get((observation.positions, first.car, dests))
            if known is not None:
                return legal[known[0]]
        return legal[_first_best(self.move_scores(observation, legal, dests))[0]]

    def _spaces(
        self, observation: DetroitClevelandObservation, legal: Sequence[Action]
    ) -> tuple[int, ...] | None:
        """Return the spaces the moves go to when they are one car's, on spaces only."""
        assert self.track is not None
        index = self.track.index
        first = legal[0]
        assert isinstance(first, Move)
        dests: list[int] = []
        for action in legal:
            if not isinstance(action, Move) or action.car != first.car or action.to == FINISH_ID:
                return None
            dests.append(index[action.to])
        return tuple(dests)

    def move_scores(
        self,
        observation: DetroitClevelandObservation,
        legal: Sequence[Action],
        dests: tuple[int, ...] | None = None,
    ) -> list[float]:
        """Return the score of the position each legal move leads to; the bot plays the best.

        ``dests``: the moves' spaces when they are one car's on spaces only (``_spaces``),
        scored together (``spread``); found here when not given.
        """
        track = self.track
        assert track is not None
        positions = observation.positions
        if dests is None:
            dests = self._spaces(observation, legal)
        if dests is not None:
            first = legal[0]
            assert isinstance(first, Move)
            spread = self._scoring_at(observation)[1]
            taken = occupancy(_tables(track).bits, positions)
            return spread(positions, taken, first.car, dests)
        score = self._scoring(observation)
        values = []
        for action in legal:
            assert isinstance(action, Move)
            values.append(score(moved(positions, action.car, track.space_index(action.to))))
        return values


def _first_best(values: Sequence[float]) -> Pick:
    """Return the index of the best of ``values`` (the first on a tie) and its value."""
    pick = 0
    top = values[0]
    for i in range(1, len(values)):
        if values[i] > top:
            pick, top = i, values[i]
    return pick, top


def _slot_choices(
    play: CardPlay,
    positions: Positions,
    taken: int,
    slot: int,
    reach_cones: Sequence[Sequence[int]],
) -> tuple[tuple[Option, ...], tuple[int, ...] | None]:
    """Return the options of ``play``'s ``slot`` and, when they are one car's spaces, those.

    A car of its own colour with no white move ahead to leave room for: its options
    depend only on its space and the cars in reach (``plain_options``); ``reach_cones``
    are ``_slot_cones(play)``. No options for a car off the track or across the line.
    """
    white = play.white_slot
    if white < slot:
        car = play.cars[slot]
        start = positions[car]
        if start < 0:
            return (), None
        near = taken & reach_cones[slot][start]
        return plain_options(play.track, car, start, play.counts[slot], near)
    if slot == white:
        options = white_options(play, positions, taken)
    else:
        options = slot_options(play, positions, slot)
    return options, spaces_to_spread(options)


def _pick_space(
    spread: Spread,
    picks: dict[tuple[Positions, int, tuple[int, ...]], Pick],
    positions: Positions,
    taken: int,
    car: int,
    dests: tuple[int, ...],
) -> Pick:
    """Return ``car``'s best destination among the spaces ``dests``, kept in ``picks``."""
    asked = (positions, car, dests)
    picked = picks.get(asked)
    if picked is None:
        picked = picks[asked] = _first_best(spread(positions, taken, car, dests))
    return picked


def _pick_car(
    score: ScoreAt,
    spread: Spread,
    bits: Sequence[int],
    positions: Positions,
    taken: int,
    options: tuple[Option, ...],
) -> Pick:
    """Return the best of several cars' ``options`` (the white car's choice).

    Each car's run of destinations on spaces is scored together, the line alone, the
    values kept in the options' order so that the first best wins.
    """
    values: list[float] = []
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
    return _first_best(values)
