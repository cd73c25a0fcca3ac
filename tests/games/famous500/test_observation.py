"""What each driver may see, and redealing what it cannot."""

from __future__ import annotations

import random
from collections import Counter

from msgspec.structs import replace

from racedeck.core.model import ENGINE
from racedeck.core.step import apply
from racedeck.games.famous500.actions import Design, LeavePit, PitStop, Race, ReturnCard
from racedeck.games.famous500.state import Famous500State

from .helpers import GAME, MONACO_PIT, act, fresh, racing, section, settle

ALL = Counter([40, 60, 80, 100, 120, 140, 160, 180, 200])


def _cards(state: Famous500State) -> Counter[int]:
    found = Counter([*state.hands[0], *state.hands[1], *state.pit_deck])
    found.update(c for c in state.laid if c)
    found.update(c for _s, c in state.discards)
    return found


def _walk(seed: int):  # type: ignore[no-untyped-def]
    """Yield every state of a random race."""
    state = fresh()
    rng = random.Random(seed)
    events = 0
    while not GAME.next_step(state).over:
        yield state
        step = GAME.next_step(state)
        if step.engine:
            turn = apply(GAME, state, ENGINE, None, random.Random(seed * 1000 + events))
        else:
            seat = step.seats[0]
            legal = GAME.legal_actions(state, seat)
            turn = apply(GAME, state, seat, legal[rng.randrange(len(legal))])
        state = turn.state
        events += len(turn.events)
    yield state


def test_observation_hides_the_opponents_hand_and_the_pit_deck_order() -> None:
    """Each section, you and your opponent will choose a card from your hand and play it
    facedown."""
    state = racing()
    seen = GAME.observe(state, 0)
    assert seen.hand == (40, 120, 160)
    assert seen.hand_sizes == (3, 3)
    assert seen.pit_deck_known == (0, 0, 0)
    assert seen.opponent_known == ()
    assert "? ? ?" in GAME.presentation.render(state, 0)
    assert "60 100 180" in GAME.presentation.render(state)


def test_cards_played_and_taken_are_public_record() -> None:
    """Once you're done scoring, each driver takes the card played by his opponent."""
    state = section(racing(section=MONACO_PIT), PitStop(card=40), Race(card=100))
    state = act(act(settle(state), 0, ReturnCard(card=160)), 0, LeavePit())
    for seat in (0, 1):
        record = GAME.observe(state, seat).history[-1]
        assert record.cards == (40, 100) and record.pits == (True, False)
    # Seat 1 took the pit card 40; seat 0 knows it, seat 1 knows seat 0 took 100.
    assert GAME.observe(state, 0).opponent_known == (40,)
    assert GAME.observe(state, 1).opponent_known == (100,)


def test_hidden_variants_redeal_only_what_the_viewer_cannot_see() -> None:
    rng = random.Random(3)
    changed = 0
    checked = 0
    maybe_seen = 0
    for seed in range(40):
        for state in _walk(seed):
            for viewer in (0, 1):
                variant = GAME.hidden_variants(state, viewer, rng)
                if variant is None:
                    assert not state.hands[0]
                    continue
                checked += 1
                other = 1 - viewer
                assert GAME.observe(variant, viewer) == GAME.observe(state, viewer)
                assert GAME.legal_actions(variant, viewer) == GAME.legal_actions(state, viewer)
                assert GAME.next_step(variant) == GAME.next_step(state)
                if state.hands[0]:
                    assert _cards(variant) == ALL
                # What the viewer knows the opponent holds stays with the opponent.
                held = {*variant.hands[other], variant.laid[other]}
                assert set(state.opponent_known[viewer]) <= held
                # Cards it half-knows stay with the opponent or where the opponent put cards.
                under = {
                    variant.pit_deck[i] for i, m in enumerate(state.deck_known) if m == 1 << other
                }
                face_up = set(state.laid) if state.phase.startswith("pit_") else set()
                for card in state.opponent_maybe[viewer]:
                    assert card in held | under | face_up, (card, state, variant)
                maybe_seen += bool(state.opponent_maybe[viewer])
                # Cards the viewer put under the pit deck stay where it put them.
                for i, mask in enumerate(state.deck_known):
                    if mask & (1 << viewer):
                        assert variant.pit_deck[i] == state.pit_deck[i]
                # The opponent's legal actions are consistent with its redealt hand.
                for action in GAME.legal_actions(variant, other):
                    apply(GAME, variant, other, action)
                changed += variant != state
    assert checked > 1000 and changed > checked // 2
    assert maybe_seen > 20


def test_a_sealed_design_and_pit_declaration_are_redrawn() -> None:
    state = apply(GAME, racing(section=MONACO_PIT), 1, PitStop(card=60)).state
    pits = {GAME.hidden_variants(state, 0, random.Random(s)).pits[1] for s in range(20)}  # type: ignore[union-attr]
    assert pits == {True, False}
    design = replace(racing(), phase="design", designed=(False, False), lap=0, section=0)
    design = act(design, 1, Design(tires=6, fuel=6, engine=6, speed=0))
    cars = {GAME.hidden_variants(design, 0, random.Random(s)).cars[1] for s in range(20)}  # type: ignore[union-attr]
    assert len(cars) > 10
    assert all(sum(car) == 18 for car in cars)
    assert GAME.observe(GAME.hidden_variants(design, 0, random.Random(1)), 0) == GAME.observe(
        design, 0
    )  # type: ignore[arg-type]


def test_where_cards_went_under_the_pit_deck_and_pit_points_are_public() -> None:
    """After drawing a card from the top of the pit deck, you return a card of your choice
    to the bottom of it: every driver sees where a card went under the deck (not which card),
    and the Speed points of a section being pitted once it is revealed. Both drivers see the
    same, redealing what one cannot see changes nothing, and a sampled state has them."""
    rng = random.Random(7)
    returns_seen = points_seen = 0
    for seed in range(40):
        for state in _walk(seed):
            by = tuple(-1 if m == 0 else (0 if m == 1 else 1) for m in state.deck_known)
            views = [GAME.observe(state, seat) for seat in (0, 1)]
            for seat, view in enumerate(views):
                assert view.pit_deck_returned == by and view.points == state.points
                variant = GAME.hidden_variants(state, seat, rng)
                if variant is not None:
                    again = GAME.observe(variant, seat)
                    assert (again.pit_deck_returned, again.points) == (by, state.points)
                sampled = next(GAME.sample_states(view, state.options, seat, rng))
                assert sampled is not None
                assert sampled.deck_known == state.deck_known
                assert sampled.points == state.points
                assert GAME.observe(sampled, seat) == view
            returns_seen += any(b >= 0 for b in by)
            points_seen += any(state.points)
    assert returns_seen > 20 and points_seen > 20


def test_every_observation_field_holds_what_its_name_says() -> None:
    """``observe`` builds the observation positionally (for speed): each field by name."""
    for seed in range(10):
        for state in _walk(seed):
            for seat in (0, 1):
                other = 1 - seat
                seen = GAME.observe(state, seat)
                assert (seen.seat, seen.phase, seen.setup) == (seat, state.phase, state.setup)
                assert (seen.deals, seen.lap, seen.section) == (
                    state.deals,
                    state.lap,
                    state.section,
                )
                assert seen.hand == state.hands[seat]
                assert seen.laid == state.laid[seat] and seen.pitting == state.pits[seat]
                assert seen.opponent_laid == (state.laid[other] != 0)
                face_up = state.phase in ("pit_draw", "pit_return", "pit_repair")
                if face_up:
                    assert seen.pits == state.pits
                    assert seen.revealed == tuple(
                        0 if p else c for c, p in zip(state.laid, state.pits, strict=True)
                    )
                else:
                    assert seen.revealed == (0, 0)
                    assert seen.pits[seat] == state.pits[seat] and not seen.pits[other]
                assert seen.cars[seat] == (state.cars[seat] if state.designed[seat] else None)
                assert seen.hand_sizes == (len(state.hands[0]), len(state.hands[1]))
                bit = 1 << seat
                assert seen.pit_deck_known == tuple(
                    c if m & bit else 0
                    for c, m in zip(state.pit_deck, state.deck_known, strict=True)
                )
                assert seen.pit_deck_returned == tuple(m.bit_length() - 1 for m in state.deck_known)
                assert seen.opponent_known == state.opponent_known[seat]
                assert seen.opponent_maybe == state.opponent_maybe[seat]
                assert (seen.discards, seen.history) == (state.discards, state.history)
                assert (seen.pit_order, seen.trailing) == (state.pit_order, state.trailing)
                assert (seen.winner, seen.points) == (state.winner, state.points)
