"""The documented action indexes of the built-in games' encoders (docs/rl.md)."""

from __future__ import annotations

import pytest

import racedeck.rl as rl
from racedeck.games.detroit_cleveland.actions import Bid, Decline, Move, Pass
from racedeck.games.detroit_cleveland.actions import Play as DPlay
from racedeck.games.famous500.actions import (
    Design,
    FalseStart,
    KeepCards,
    LeavePit,
    PitStop,
    Race,
    Repair,
    ReturnCard,
)
from racedeck.games.famous500.actions import (
    Discard as FDiscard,
)
from racedeck.games.lacorsa.actions import Discard, Extend, Play
from racedeck.games.wacky_races.actions import ChooseRacer, EndTurn, PlayStep, UseAdvantage
from tests.rl.helpers import REGISTRY


def _encoder(name: str, players: int, options: dict[str, object] | None = None) -> rl.Encoder:
    game = REGISTRY.game(name)
    return rl.encoder(game, game.parse_options(options or {}), players)


def test_lacorsa_indexes() -> None:
    e = _encoder("lacorsa", 2)
    assert e.actions == 53 and e.stages == 1
    redline = 12 * 8
    assert e.path(Play(car=0, cards=(5 * 8 + 2,))) == (5,)
    assert e.path(Play(car=0, cards=(redline,))) == (12,)
    assert e.path(Play(car=1, cards=(redline, 3 * 8))) == (13 + 3,)
    assert e.path(Extend(car=0, card=2 * 8 + 1)) == (25 + 2,)
    assert e.path(Discard(car=0, cards=(0,))) == (28,)
    assert e.path(Discard(car=0, cards=(redline, 11 * 8))) == (41 + 11,)


def test_famous_500_indexes_and_the_three_stage_design() -> None:
    e = _encoder("famous-500", 2)
    s, d = 9, 18
    assert e.actions == 7 + 4 * s + d and e.stages == 3
    assert e.path(KeepCards()) == (0,)
    assert e.path(FalseStart()) == (1,)
    assert e.path(Race(card=40)) == (2,)
    assert e.path(PitStop(card=200)) == (2 + s + 8,)
    assert e.path(ReturnCard(card=60)) == (2 + 2 * s + 1,)
    assert e.path(Repair(column=2)) == (2 + 3 * s + 2,)
    assert e.path(LeavePit()) == (5 + 3 * s,)
    assert e.path(FDiscard(card=80)) == (6 + 3 * s + 2,)
    assert e.path(Design(tires=4, fuel=5, engine=6, speed=3)) == (6 + 4 * s + 4, 5, 6)
    game = REGISTRY.game("famous-500")
    designs = [a for a in _all_designs(d)]
    assert len(designs) == 1330
    assert len(set(e.paths(designs))) == 1330
    del game


def _all_designs(d: int) -> list[Design]:
    return [
        Design(tires=t, fuel=f, engine=g, speed=d - t - f - g)
        for t in range(d + 1)
        for f in range(d - t + 1)
        for g in range(d - t - f + 1)
    ]


def test_detroit_cleveland_indexes_and_the_two_stage_moves_and_bids() -> None:
    e = _encoder("detroit-cleveland", 3)
    assert e.actions == 256 and e.stages == 2
    assert e.path(DPlay(card=17)) == (17,)
    assert e.path(Pass()) == (64,)
    assert e.path(Decline()) == (65,)
    track = e.track  # type: ignore[attr-defined]
    space = track.ids[10]
    assert e.path(Move(car=3, to=space)) == (66 + 3, 10)
    assert e.path(Move(car=0, to="finish")) == (66, len(track.ids))
    assert e.path(Bid(amount=50_000)) == (72, 5)
    assert e.path(Bid(amount=3_000_000)) == (72 + 300 // 256, 300 % 256)


def test_wacky_races_indexes() -> None:
    e = _encoder("wacky-races", 3)
    assert e.actions == 137 and e.stages == 1
    assert e.path(ChooseRacer(racer=9)) == (9,)
    assert e.path(PlayStep(cards=(2,))) == (10 + 2,)
    assert e.path(PlayStep(cards=(1, 0))) == (10 + 4 + 1,)  # the pair (0, 1)
    assert e.path(PlayStep(cards=(3, 3, 3))) == (43,)
    assert e.path(UseAdvantage(advantage=1, target=-1)) == (44 + 23,)
    assert e.path(UseAdvantage(advantage=3, target=21)) == (44 + 3 * 23 + 22,)
    assert e.path(EndTurn()) == (136,)


@pytest.mark.parametrize("name", ["lacorsa", "detroit-cleveland", "famous-500", "wacky-races"])
def test_vectors_stay_in_the_space(name: str) -> None:
    game = REGISTRY.game(name)
    players = max(2, game.min_players)
    e = _encoder(name, players)
    options = game.parse_options({})
    state = game.initial_state(options, players)
    vector = e.encode(game.observe(state, 0))
    assert vector.shape == (e.size,) and vector.dtype.name == "float32"
    assert (abs(vector) <= 1).all()
