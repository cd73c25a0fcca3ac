"""A built-in bot's version names its play: the search's play is pinned to its version.

A log header records each seat's bot and version, ``replay --verify`` refuses to re-run a
log under another version, and a tournament refuses to resume with one
(``docs/plugins.md``: "bump when play changes"). So the search's play is fingerprinted
here: one seeded match per game at a small budget, its events hashed (Detroit-Cleveland's
at four players too, since its search's bias depends on the table's size). When the play
changes, this test fails until the version is bumped and the fingerprints recorded anew.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from racedeck.bots.ismcts import game_bias
from racedeck.bots.plugin import (
    GAME_BUDGET_VERSIONS,
    GAME_BUDGETS,
    GAME_VARIANT_VERSIONS,
    ISMCTS_BUDGETS,
    LEARNED_BIAS,
    SEARCH_VERSION,
    STRONG_BIAS_SCALE,
    VARIANT_VERSIONS,
)
from racedeck.cli.app import main
from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import EXIT_VERIFY_FAILED
from racedeck.core.log import LogWriter
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY

PINNED_VERSION = "3"
"""The search's version the fingerprints below were recorded under."""

FINGERPRINTS = {
    ("detroit-cleveland", 2): "e8e7b6bed1b7eaf9ef5360722c772cedecc55a7cc2e87651074bcf16080478af",
    ("detroit-cleveland", 4): "b1cb815bb459148e119e400132ea0703910a91ba3964121ed7f1cbf3f3d95730",
    ("famous-500", 2): "0fb0b7cd8f03b6dcbb2f50f92b9fa76ee5010d7969f50bc01f58f766cb5b4739",
    ("lacorsa", 2): "7525d2449c6dfe436412e41fbf1b74d9bbe76fd3d9e3140e8afc3a00a2c58e90",
    ("wacky-races", 2): "d72380fcf997695d8aaba3aa68e613e3403fdab6e4f0e08384f1fa73a0e18c23",
}
"""Per game and table, sha256 of the events of ``_fingerprinted``'s match under
``PINNED_VERSION``."""

_BUDGETS = {
    ("detroit-cleveland", 2): 4,
    ("detroit-cleveland", 4): 12,
    ("famous-500", 2): 20,
    ("lacorsa", 2): 20,
    ("wacky-races", 2): 10,
}
"""Simulations a decision in each fingerprint match: as few as still search. At four
players Detroit-Cleveland's takes enough that its bias counts: under a budget no larger
than a decision's legal actions, every simulation tries an untried action first."""

_OPTIONS = {"detroit-cleveland": {"races": 1}, "lacorsa": {"races": 1}}


def _fingerprinted(game_name: str, players: int, bot: str = "ismcts", **parameters: float) -> str:
    """Play ``bot`` (``ismcts``, small budget) in seat 0, the heuristic in the others, seed
    3; hash the event lines.

    The budget is the general one (whole heuristic playouts), in a game that registers its
    own too.
    """
    general = {
        "effort": "none",
        "horizon": "none",
        "rollout": "heuristic",
        "bias": "none",
        "searched": "none",
    }
    search = REGISTRY.bot(bot, game_name).with_parameters(
        simulations=_BUDGETS[game_name, players], **{**general, **parameters}
    )
    return _events_hash(game_name, players, search)


def _events_hash(game_name: str, players: int, search: BotSpec) -> str:
    """Play ``search`` in seat 0, the heuristic in the others, seed 3; hash the events."""
    game = REGISTRY.game(game_name)
    options = game.parse_options(_OPTIONS.get(game_name, {}))
    seats = [search] + [REGISTRY.bot("heuristic", game_name)] * (players - 1)
    buffer = io.BytesIO()
    run_match(game, options, seats, 3, writer=LogWriter(buffer))
    # The header names the engine's and the bots' versions, and every line's hash chains
    # from it: only the events themselves are hashed.
    lines = [json.loads(line) for line in buffer.getvalue().splitlines()]
    events = [
        json.dumps(event, sort_keys=True)
        for line in lines
        if line["kind"] == "turn"
        for event in line["events"]
    ]
    assert events
    return hashlib.sha256("\n".join(events).encode()).hexdigest()


def test_every_ismcts_variant_carries_the_searchs_version_or_its_own() -> None:
    assert SEARCH_VERSION == PINNED_VERSION, "record the fingerprints of the new version"
    assert dict(VARIANT_VERSIONS) == {"ismcts-strong": "4"}
    for name in ISMCTS_BUDGETS:
        for game_name, _ in FINGERPRINTS:
            wanted = VARIANT_VERSIONS.get(name, SEARCH_VERSION)
            if name in GAME_BUDGETS.get(game_name, {}):
                wanted = GAME_VARIANT_VERSIONS.get(
                    (game_name, name), GAME_BUDGET_VERSIONS[game_name]
                )
            assert REGISTRY.bot(name, game_name).version == wanted, name


def test_a_games_own_budget_is_the_general_search_with_that_budget_set() -> None:
    """A game's own budget (``GAME_BUDGETS``) is the general variant tuned by parameters.

    So its play is the search's, pinned by the fingerprints of the general and effort
    budgets, and what it plays is reachable by the parameters ``docs/bots.md`` names.
    """
    assert set(GAME_BUDGETS) == set(GAME_BUDGET_VERSIONS)
    own_versions = {*GAME_BUDGET_VERSIONS.values(), *GAME_VARIANT_VERSIONS.values()}
    assert not own_versions & {SEARCH_VERSION, *VARIANT_VERSIONS.values()}
    for game_name, name in GAME_VARIANT_VERSIONS:
        assert name in GAME_BUDGETS[game_name]
    for game_name, budgets in GAME_BUDGETS.items():
        for name, (budget, _what) in budgets.items():
            own = REGISTRY.bot(name, game_name)
            general, _ = ISMCTS_BUDGETS[name]
            assert own.parameters == budget != general
            changed = {
                field: value
                for field, value in vars(budget).items()
                if value != getattr(general, field)
            }
            tuned = {"simulations", "effort", "horizon", "rollout", "bias", "searched"}
            assert set(changed) <= tuned, changed
            # Spelled on any other game's own budget, the same parameters reach it.
            for other in GAME_BUDGETS:
                spec = REGISTRY.bot(name, other)
                fields = {*changed, *_changed(spec.parameters, general)}
                spelled = {k: _spelled(getattr(budget, k)) for k in fields}
                assert spec.with_parameters(**spelled).parameters == budget, (other, spelled)


def _changed(budget: object, general: object) -> set[str]:
    """Return the fields of ``budget`` that differ from the general ``general``."""
    return {k for k, v in vars(budget).items() if v != getattr(general, k)}


def _spelled(value: object) -> str:
    """Return a parameter's value as a user spells it after ``name:``."""
    return "none" if value is None else str(value)


@pytest.mark.parametrize(("game_name", "players"), sorted(FINGERPRINTS))
def test_ismcts_strong_4_is_the_search_with_its_bias_scaled(game_name: str, players: int) -> None:
    """``ismcts-strong`` version 4 plays as ``ismcts`` with the game's bias times 2.5.

    So its play is pinned by the search's fingerprints, and a gate of
    ``ismcts:simulations=1000,bias=10`` in Famous 500 is a gate of ``ismcts-strong``.
    """
    parameters = REGISTRY.bot("ismcts-strong", game_name).parameters
    assert getattr(parameters, "bias_scale", None) == STRONG_BIAS_SCALE == 2.5
    scaled = game_bias(game_name, players) * STRONG_BIAS_SCALE
    strong = _fingerprinted(game_name, players, "ismcts-strong")
    assert strong == _fingerprinted(game_name, players, bias=scaled)
    if not scaled:
        assert strong == FINGERPRINTS[game_name, players]
    elif (game_name, players) != ("detroit-cleveland", 2):
        # The scale is what sets the two apart, where the budget lets the bias count (at
        # two players Detroit-Cleveland's four simulations only try untried actions).
        assert strong != FINGERPRINTS[game_name, players]


@pytest.mark.parametrize(("game_name", "players"), sorted(FINGERPRINTS))
def test_the_searchs_play_is_what_its_version_names(game_name: str, players: int) -> None:
    played = _fingerprinted(game_name, players)
    assert played == FINGERPRINTS[game_name, players], (
        f"ismcts plays {game_name} at {players} players differently from version {PINNED_VERSION}: bump the "
        f"version (SEARCH_VERSION in racedeck/bots/plugin.py) and record {played}; a change "
        "to the game's heuristic, which the playouts use, changes the search's play too"
    )


EFFORT_FINGERPRINTS = {
    ("detroit-cleveland", 2): "7a40ff532a61a3765ffb67bea1e7e3d8cf32f5e7da6568c3d7d99daf77a830c1",
    ("detroit-cleveland", 4): "15f589a3e5ef1c68b730c13b46d8165f9dc3ca45ec4612d1876195b78391652b",
    ("famous-500", 2): "ca54b012a8c307aa054ce6fef64d0d127db1ec84bbc44343a0a2d33583d96bac",
    ("lacorsa", 2): "4ffdc192ddfeb6d6bc79874456de0abdbdfc1e892822f8d3ca74732443c9b056",
    ("wacky-races", 2): "342dfa388aea86e7a7afcb49cacfd9df0ba9f98488d51d60df2a34f169bfa36b",
}
"""Per game and table, sha256 of the events of ``EFFORT_BUDGET`` in seat 0 against the
heuristic, seed 3, under ``PINNED_VERSION``."""

EFFORT_BUDGET = {
    "simulations": "none",
    "effort": "0.25",
    "horizon": "20",
    "rollout": "heuristic",
    "bias": "none",
    "searched": "none",
}
"""A budget of effort with playouts cut at a horizon, as a user sets it:
``ismcts-fast:simulations=none,effort=0.25,horizon=20`` (the trials' ``ismcts-fast``), on
the general search (each built-in game's own ``ismcts-fast`` differs in the other fields)."""


@pytest.mark.parametrize(("game_name", "players"), sorted(EFFORT_FINGERPRINTS))
def test_a_budget_of_effort_plays_what_the_searchs_version_names(
    game_name: str, players: int
) -> None:
    """The opt-in budget of effort and its horizon are part of the search's pinned play."""
    search = REGISTRY.bot("ismcts-fast", game_name).with_parameters(**EFFORT_BUDGET)
    played = _events_hash(game_name, players, search)
    assert played == EFFORT_FINGERPRINTS[game_name, players], (
        f"ismcts-fast:simulations=none,effort=0.25,horizon=20 plays {game_name} at {players} "
        f"players differently from version {PINNED_VERSION}: bump SEARCH_VERSION and record "
        f"{played}"
    )


def test_the_registered_searches_neither_count_effort_nor_cut_playouts() -> None:
    """Their budgets are simulations and full playouts; effort and horizon are opt-in."""
    for name in ("ismcts-fast", "ismcts", "ismcts-strong"):
        budget, _ = ISMCTS_BUDGETS[name]
        assert (budget.effort, budget.horizon) == (None, None), name
    simulations = {name: ISMCTS_BUDGETS[name][0].simulations for name in ISMCTS_BUDGETS}
    assert simulations["ismcts-fast"] == 50 and simulations["ismcts"] == 200
    assert simulations["ismcts-strong"] == 1000


def test_a_log_of_the_searchs_version_1_is_refused_by_name_not_by_a_divergence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = REGISTRY.game("lacorsa")
    search = REGISTRY.bot("ismcts-fast", "lacorsa").with_parameters(simulations=5)
    here = search.version
    old = replace(search, name="ismcts-fast", version="1")
    log = tmp_path / "old-search.jsonl"
    with log.open("wb") as handle:
        seats = [old, REGISTRY.bot("random", "lacorsa")]
        run_match(game, game.parse_options({"races": 1}), seats, 4, writer=LogWriter(handle))
    assert main(["replay", str(log)]) == 0, "its hashes all hold"
    capsys.readouterr()
    assert main(["replay", str(log), "--verify", "--rerun"]) == EXIT_VERIFY_FAILED
    note, error = capsys.readouterr().err.strip().splitlines()
    assert note.startswith(f"racedeck: note: seat 0 (ismcts-fast) is at version {here} here")
    assert error.startswith("racedeck: error: ")
    assert error.endswith(
        f"seat 0 was played by ismcts-fast version 1, this installation has version {here}"
    )


OWN_FINGERPRINTS = {
    ("detroit-cleveland", "ismcts"): (
        "f2e832f7beeaffb1821892d41dd3958dc1c0608148e8b45aadd8ddf79d4f9048"
    ),
    ("detroit-cleveland", "ismcts-fast"): (
        "b46b1584b09fddccaeb75b131200408e95ed4e8ab15eafc5f37daaf66266bbf0"
    ),
    ("famous-500", "ismcts-fast"): (
        "568b58f31b0b827521f5ec3a406cf627cc7b6f0607fb11fefff7dc34aafa32c0"
    ),
    ("famous-500", "ismcts"): "8ff5a4e9b6035887fc95214d32868ab0ba92e40857a3f68b50a069a8a52e9c05",
    ("famous-500", "ismcts-strong"): (
        "8e48f8c77e02785577972f7d4c958b943900cc52fef29a6c06ba2a6e2fdf6f40"
    ),
    ("lacorsa", "ismcts"): "077c2dcf784b0317269ffdddadf8f12ac724f23ce93af5fe837f1fe9f8d989a9",
    ("lacorsa", "ismcts-strong"): (
        "3979ce374b3ae601a9ae431d4866bbb7c9a73acd1fcdf29daae7a59deca24d6d"
    ),
    ("wacky-races", "ismcts"): "24e9ddab1aa505c341d2e87bae53381d3a12ac0f27a66ae15c2afd297360790b",
    ("wacky-races", "ismcts-strong"): (
        "b889b5aeb833248365a41e5f1892cd34465bfe973f2ba3d879f3b71c51015354"
    ),
}
"""sha256 of the events of a game's own searches in seat 0 against the heuristic, two
players, seed 3, at the versions of ``OWN_VERSIONS`` (and of ``OWN_VARIANT_VERSIONS`` for a
variant that has its own). LACORSA's and Wacky Races' ``ismcts-fast`` play their policy's
choice (the test below); Detroit-Cleveland's ``ismcts-strong``, a match of minutes, is its
``ismcts`` with other numbers (``test_detroit_cleveland_s_own_strong_search_is_its_ismcts_
with_more_simulations``)."""

OWN_VERSIONS: dict[str, tuple[str, str | None]] = {
    "detroit-cleveland": ("5", None),
    "famous-500": ("6", None),
    "lacorsa": ("7", "1"),
    "wacky-races": ("8", "1"),
}
"""Per game, the version of its own searches and of the learned policy they play with
(None: they play without it: Famous 500's budgets of effort, whose ``ismcts-fast`` alone
tries the policy's favourite first, its fingerprint pinning that; Detroit-Cleveland's
searches of the cards alone)."""

GUIDED = [game for game, (_, policy) in OWN_VERSIONS.items() if policy is not None]
"""The games whose own searches play with their learned policy."""

OWN_VARIANT_VERSIONS = {
    ("famous-500", "ismcts-strong"): "8",
    ("wacky-races", "ismcts-strong"): "9",
}
"""A game's own variant whose play changed after the game's searches' version."""


@pytest.mark.parametrize(("game_name", "name"), sorted(OWN_FINGERPRINTS))
def test_a_games_own_searches_play_what_their_version_names(game_name: str, name: str) -> None:
    """A game's own searches play what their version names: a change to their budget or
    to the search changes their play, and their version with it. LACORSA's and Wacky
    Races' are guided by their learned policies, so new weights (a new policy version)
    change it too; Famous 500's are budgets of effort, of which only ``ismcts-fast`` asks
    its policy (so new weights change its fingerprint)."""
    own, learned = OWN_VERSIONS[game_name]
    assert GAME_BUDGET_VERSIONS[game_name] == own
    if learned is not None:
        assert REGISTRY.bot("distilled", game_name).version == learned, (
            f"{game_name}'s own searches play with the learned policy: record their play "
            f"anew under a new GAME_BUDGET_VERSIONS['{game_name}'] for each new policy version"
        )
    assert dict(GAME_VARIANT_VERSIONS) == OWN_VARIANT_VERSIONS
    spec = REGISTRY.bot(name, game_name)
    version = OWN_VARIANT_VERSIONS.get((game_name, name), OWN_VERSIONS[game_name][0])
    assert spec.version == version
    played = _events_hash(game_name, 2, spec)
    assert played == OWN_FINGERPRINTS[game_name, name], (
        f"{game_name}'s own {name} plays differently from version {version}: give it a "
        f"new version (GAME_VARIANT_VERSIONS) and record {played}"
    )


def test_detroit_cleveland_s_own_strong_search_is_its_ismcts_with_more_simulations() -> None:
    """Detroit-Cleveland's ``ismcts-strong`` is its ``ismcts`` (whose play the fingerprints
    pin, at the same version) with 500 simulations and the strong bias scale: the same
    search of the cards alone, so a change to that search changes both and the game's
    version with them."""
    strong = REGISTRY.bot("ismcts-strong", "detroit-cleveland")
    search = REGISTRY.bot("ismcts", "detroit-cleveland")
    assert strong.version == search.version == OWN_VERSIONS["detroit-cleveland"][0]
    spelled = search.with_parameters(simulations="500", bias_scale=str(STRONG_BIAS_SCALE))
    assert strong.parameters == spelled.parameters
    assert getattr(strong.parameters, "searched", None) == "play"


def test_famous_500_s_own_fast_search_is_a_budget_of_effort_guided_by_its_policy() -> None:
    """Famous 500's ``ismcts-fast``: 70 steps a decision, cut at 20, the policy's favourite
    first. Its few playouts seldom outvote the favourite (seed 3's match is the policy's
    choice throughout, at effort 0.05 to 0.3 alike), so the budget is pinned here, the
    play by its fingerprint."""
    fast = REGISTRY.bot("ismcts-fast", "famous-500")
    assert fast.version == OWN_VERSIONS["famous-500"][0]
    spelled = REGISTRY.bot("ismcts", "famous-500").with_parameters(
        effort="0.1", rollout="guided", bias=str(LEARNED_BIAS)
    )
    assert fast.parameters == spelled.parameters
    assert REGISTRY.bot("distilled", "famous-500").version == "1"


@pytest.mark.parametrize(("game_name", "players"), [(g, p) for g in GUIDED for p in (2, 6)])
def test_a_games_own_fast_search_plays_its_learned_policys_choice(
    game_name: str, players: int
) -> None:
    """``ismcts-fast`` is one simulation guided by the learned policy: its favourite is
    tried first and the search's choice is the most visited, so at every decision it plays
    what the ``distilled`` bot plays, for a sampled world and one playout more."""
    game = REGISTRY.game(game_name)
    options = game.parse_options({"races": 1} if game_name == "lacorsa" else {})
    fast = REGISTRY.bot("ismcts-fast", game_name)
    learned = REGISTRY.bot("distilled", game_name)
    asked = 0

    class Both(Bot):
        def __init__(self) -> None:
            self.fast, self.learned = fast.factory(), learned.factory()

        def bind_game(self, bound: Any) -> None:
            self.fast.bind_game(bound)
            self.learned.bind_game(bound)

        def start_match(self, name: str, seat: int, count: int, chosen: Any) -> None:
            self.fast.start_match(name, seat, count, chosen)
            self.learned.start_match(name, seat, count, chosen)

        def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
            nonlocal asked
            searched = self.fast.act(observation, legal, rng)
            assert searched == self.learned.act(observation, legal, random.Random(0))
            asked += 1
            return searched

    both = BotSpec(name="both", factory=Both, description="")
    heuristic = REGISTRY.bot("heuristic", game_name)
    run_match(game, options, [both, *[heuristic] * (players - 1)], 5)
    assert asked > 5
