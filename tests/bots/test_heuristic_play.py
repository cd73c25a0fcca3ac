"""The heuristic bots' play is pinned: what makes them cheaper must not change a move.

Playouts lean on the heuristics, so their hot paths are cached and trimmed for speed; the
heuristics' own play must stay exactly what it was. Each game's heuristic plays itself on
several seeds, at two players and at the game's largest table, and the events of every
match are hashed against the hashes recorded before any of that work.
"""

from __future__ import annotations

import hashlib
import io
import json

import pytest

from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY

SEEDS = (1, 2, 3)

_OPTIONS = {"detroit-cleveland": {"races": 1}, "lacorsa": {"races": 1}}

PLAY = {
    ("lacorsa", 2): "514f5f07d6d8f0a837c4bd519f83c28cd65bdd51588a4a1f1aea383421fcb186",
    ("lacorsa", 6): "e0356d0d167b7c11e0ef1e350a6c9a566ffafc6571916d4c04a63be687600c67",
    ("famous-500", 2): "c1c7b723d48a28c21c83be3fb0427f04c3583c163e8db2d62d07bea834e8564a",
    ("wacky-races", 2): "766fa8cdb3b782ad28257699a0617f819c2d51de524263622c2144344634b07f",
    ("wacky-races", 6): "c3c877a45a3817c3b6d65ff018ca933894df51878e4030bce7a6688b270d0cc4",
    ("detroit-cleveland", 2): "c29009dd6561d2dfc435f71e89f46738c000e6c471f15f6a07aca4a03afb6eca",
    ("detroit-cleveland", 6): "ed2d0f109b88e65435a9f4c9c68a58da028e3c2550a227a507743cde80ab07b1",
}
"""Per game and table, sha256 of the events of heuristic-vs-heuristic matches on ``SEEDS``
(one hash over the seeds' event lines, in seed order)."""


def heuristic_play(game_name: str, players: int) -> str:
    """Return the hash of the heuristic's matches against itself on ``SEEDS``."""
    game = REGISTRY.game(game_name)
    options = game.parse_options(_OPTIONS.get(game_name, {}))
    seats = [REGISTRY.bot("heuristic", game_name)] * players
    digest = hashlib.sha256()
    for seed in SEEDS:
        buffer = io.BytesIO()
        run_match(game, options, seats, seed, writer=LogWriter(buffer))
        for line in buffer.getvalue().splitlines():
            record = json.loads(line)
            # The header names the versions; the events alone are the play, whichever
            # lines hold them (a line an event in log format 2, a line a decision in 3).
            kind = record["kind"]
            events = (
                [record["event"]] if kind == "event" else record["events"] if kind == "turn" else []
            )
            for event in events:
                digest.update(json.dumps(event, sort_keys=True).encode() + b"\n")
    return digest.hexdigest()


@pytest.mark.parametrize(("game_name", "players"), sorted(PLAY))
def test_the_heuristics_play_is_what_it_was(game_name: str, players: int) -> None:
    assert heuristic_play(game_name, players) == PLAY[game_name, players], (
        f"{game_name}'s heuristic plays differently at {players} players"
    )
