"""Famous 500's learned policy: what it sees of each choice, and how its scores add up."""

from __future__ import annotations

from racedeck.games.famous500.actions import Design, PitStop, Race
from racedeck.games.famous500.bots import Famous500Heuristic, car_design
from racedeck.games.famous500.policy import Famous500Policy
from racedeck.games.famous500.state import Famous500Observation
from tests.bots.helpers import policy_decisions_checked
from tests.games.famous500.helpers import GAME, OPTIONS, designing, racing


def _seen(state: object, seat: int = 0) -> Famous500Observation:
    observation = GAME.observe(state, seat)  # type: ignore[arg-type]
    assert isinstance(observation, Famous500Observation)
    return observation


def test_a_card_is_described_by_what_the_heuristic_makes_of_it() -> None:
    """The card the heuristic races is the best of the values ``race_values`` gives, and
    the policy names it so; every other card falls below it by a band."""
    state = racing()
    observation = _seen(state)
    legal = GAME.legal_actions(state, 0)
    policy = Famous500Policy()
    described = dict(zip(legal, policy.features(observation, legal), strict=True))
    chosen = Famous500Heuristic().choice(observation, legal)
    races = [a for a in legal if isinstance(a, Race)]
    values = Famous500Heuristic().race_values(observation, races)
    assert isinstance(chosen, Race) and len(races) == 3
    for race, value in zip(races, values, strict=True):
        names = described[race]
        assert ("race heuristic True" in names) == (race == chosen)
        below = "race below 0" if value == max(values) else "race below "
        assert any(n.startswith(below) for n in names)
        assert "race left 6" in names and "race hand 3" in names


def test_a_pit_stop_is_described_by_whether_the_heuristic_would_pit() -> None:
    """On a pit section with every column at zero the heuristic pits: the pit stop says so."""
    state = racing(cars=((0, 0, 0, 6), (6, 5, 4, 3)), section=0)
    observation = _seen(state)
    legal = GAME.legal_actions(state, 0)
    pits = [a for a in legal if isinstance(a, PitStop)]
    assert pits, "section 0 of Monaco is its pit section"
    described = dict(zip(legal, Famous500Policy().features(observation, legal), strict=True))
    assert all("pit heuristic pits True" in described[p] for p in pits)


def test_of_every_design_only_the_heuristics_is_named_its_choice() -> None:
    state = designing()
    legal = GAME.legal_actions(state, 0)
    described = Famous500Policy().features(_seen(state), legal)
    chosen = [
        a for a, names in zip(legal, described, strict=True) if "design heuristic True" in names
    ]
    assert chosen == [car_design(state.setup)] and isinstance(chosen[0], Design)


def test_the_bots_scores_are_the_weights_of_the_features_names() -> None:
    """The bot looks its weights up by role and key; the sums are those of the names the
    trainer fits, at every decision of matches (two players: Famous 500's only table)."""
    assert policy_decisions_checked(Famous500Policy, GAME, OPTIONS, tables=(2,)) > 100
