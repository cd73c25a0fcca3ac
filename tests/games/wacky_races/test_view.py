"""What a seat sees: observations, hidden variants and the rendered circuit."""

from __future__ import annotations

import random

from msgspec.structs import replace

from racedeck.core.step import apply
from racedeck.games.wacky_races.actions import EndTurn
from racedeck.games.wacky_races.state import WackyObservation
from tests.games.wacky_races.helpers import (
    ANTS,
    ARMY,
    LUKE,
    PETER,
    RED_MAX,
    RUFUS,
    TRAP,
    D,
    F,
    G,
    M,
    P,
    make,
)


def test_observation_hides_other_hands_trap_identities_and_the_draw_order() -> None:
    state = make(players=2, hands=((D, F), (M, M, P)), traps={7: TRAP["giant_hammer"]})
    seen = G.observe(state, 0)
    assert seen.hand == (D, F) and seen.hand_sizes == (2, 3)
    assert seen.traps[7] is True and seen.traps[6] is False
    assert seen.draw_size == len(state.draw)
    text = repr(seen)
    assert "giant" not in text.lower()
    assert not hasattr(seen, "draw") and not hasattr(seen, "trap_deck")


def test_hidden_variants_redeal_only_what_the_seat_cannot_see() -> None:
    state = make(players=3, hands=((D, F), (M, M, P), (P,)), traps={7: 0, 9: 1, 13: 2})
    rng = random.Random(4)
    changed = 0
    for _ in range(20):
        variant = G.hidden_variants(state, 0, rng)
        assert variant is not None
        assert G.observe(variant, 0) == G.observe(state, 0)
        assert G.legal_actions(variant, 0) == G.legal_actions(state, 0)
        assert variant.hands[0] == state.hands[0]
        assert [len(h) for h in variant.hands] == [len(h) for h in state.hands]
        assert sorted(variant.draw + variant.hands[1] + variant.hands[2]) == sorted(
            state.draw + state.hands[1] + state.hands[2]
        )
        assert [p for p, t in enumerate(variant.traps) if t >= 0] == [7, 9, 13]
        assert sorted(t for t in variant.traps if t >= 0) + sorted(variant.trap_deck) != []
        changed += variant != state
    assert changed == 20


def test_render_shows_racers_dastardly_traps_and_hands() -> None:
    state = make(players=2, hands=((D, F), (M, M, P)), traps={7: TRAP["giant_hammer"]}, dastardly=5)
    full = G.presentation.render(state)
    assert "Giant Hammer" in full and "Farm, Farm, Prairie" in full
    assert "Dick Dastardly" in full and "Professor Pat Pending (seat 0)" in full
    seat0 = G.presentation.render(state, 0)
    assert "Giant Hammer" not in seat0 and "face down" in seat0
    assert "Desert, Forest" in seat0 and "3 cards" in seat0
    assert "draw pile 48 cards" in seat0


def test_render_before_the_race_and_after() -> None:
    state = G.initial_state(G.parse_options({}), 2)
    assert "race 1 of 1" in G.presentation.render(state)
    done = make(players=2, round=0)
    done = apply(G, done, 0, EndTurn(), random.Random(0)).state
    assert "round" in G.presentation.render(done, 1)


def test_sample_state_looks_the_same_to_the_seat_and_deals_the_rest() -> None:
    from racedeck.core.model import ENGINE
    from racedeck.core.rng import engine_stream

    options = G.parse_options({"races": 2})
    rng = random.Random(3)
    state = G.initial_state(options, 3)
    events = checked = 0
    while not G.next_step(state).over and checked < 150:
        step = G.next_step(state)
        if step.engine:
            new = apply(G, state, ENGINE, None, engine_stream(3, events)).events
        else:
            seat = step.seats[0]
            seen = G.observe(state, seat)
            sample = next(G.sample_states(seen, options, seat, random.Random(checked)))
            assert G.observe(sample, seat) == seen
            assert G.legal_actions(sample, seat) == G.legal_actions(state, seat)
            if state.hands:
                assert len(sample.draw) == len(state.draw)
                assert len(sample.trap_deck) == len(state.trap_deck)
            checked += 1
            legal = G.legal_actions(state, seat)
            new = apply(G, state, seat, legal[rng.randrange(len(legal))], None).events
        for event in new:
            state = G.evolve(state, event)
            events += 1
    assert checked > 100


def test_render_observation_shows_only_what_the_seat_sees() -> None:
    state = make(players=2, hands=((D, F), (M, M, P)), traps={7: TRAP["giant_hammer"]})
    text = G.presentation.render_observation(G.observe(state, 1))
    assert text.startswith("seat 1's view")
    assert "face down" in text and "Giant Hammer" not in text
    assert "Farm, Farm, Prairie" in text and "2 cards" in text
    assert G.presentation.render(state, 1).splitlines() == text.splitlines()[1:]


def test_past_races_fields_are_public_and_sampled_exactly() -> None:
    """A championship's finished races are public: each race's order and its field (the
    racer of every car) are in every seat's observation, alike for all, unchanged by
    redealing what a seat cannot see, and copied into a sampled state."""
    from racedeck.core.model import ENGINE
    from racedeck.core.rng import engine_stream

    options = G.parse_options({"races": 3})
    rng = random.Random(5)
    state = G.initial_state(options, 2)
    events = finished_races_seen = 0
    while not G.next_step(state).over:
        step = G.next_step(state)
        if step.engine:
            new = apply(G, state, ENGINE, None, engine_stream(5, events)).events
        else:
            seat = step.seats[0]
            legal = G.legal_actions(state, seat)
            new = apply(G, state, seat, legal[rng.randrange(len(legal))], None).events
        for event in new:
            state = G.evolve(state, event)
            events += 1
        assert len(state.fields) == len(state.results)
        for seat in range(2):
            seen = G.observe(state, seat)
            assert seen.fields == state.fields
            variant = G.hidden_variants(state, seat, rng)
            if variant is not None:
                assert G.observe(variant, seat).fields == state.fields
            assert next(G.sample_states(seen, options, seat, rng)).fields == state.fields
        finished_races_seen += bool(state.fields)
    assert len(state.fields) == 3 and finished_races_seen

    # A past field unlike this race's is copied as it is, not taken as this race's.
    past = (RUFUS, LUKE, PETER, ANTS, ARMY, RED_MAX)
    state = make(players=2, hands=((D, F), (M, M, P)), results=((3, 0, 1, 2, 4, 5),))
    state = replace(state, fields=(past,))
    views = [G.observe(state, seat) for seat in range(2)]
    assert [view.fields for view in views] == [(past,), (past,)]
    for seat, view in enumerate(views):
        sample = next(G.sample_states(view, state.options, seat, random.Random(seat)))
        assert sample.fields == (past,) != (state.field,)


def test_observe_copies_every_public_field_by_name() -> None:
    """The observation is built in its own field order from the state's fields read in one
    go: it equals one built field by field, by name."""
    state = make(players=3, hands=((D, F), (M, M, P), (P,)), traps={7: TRAP["giant_hammer"]})
    state = replace(state, results=((3, 0, 1, 2, 4, 5),), fields=(state.field,), points=(6, 4, 3))
    for seat in range(3):
        expected = WackyObservation(
            seat=seat,
            players=state.players,
            phase=state.phase,
            racer_of_seat=state.racer_of_seat,
            race=state.race,
            races=state.options.races,
            tiles=state.tiles,
            field=state.field,
            pos=state.pos,
            stamp=state.stamp,
            dastardly=state.dastardly,
            traps=tuple(t >= 0 for t in state.traps),
            hand=state.hands[seat],
            hand_sizes=tuple(len(h) for h in state.hands),
            draw_size=len(state.draw),
            discard=state.discard,
            top=state.top,
            trap_deck_size=len(state.trap_deck),
            trap_discard=state.trap_discard,
            exhausted=state.exhausted,
            glued=state.glued,
            active=state.active,
            round=state.round,
            steps=state.steps,
            wild=state.wild,
            gas_done=state.gas_done,
            finished=state.finished,
            results=state.results,
            points=state.points,
            fields=state.fields,
        )
        assert G.observe(state, seat) == expected
