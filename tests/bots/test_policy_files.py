"""The learned policies' weights files: each is the file its version names."""

from __future__ import annotations

import hashlib
from importlib import resources

import pytest

from tests.bots.helpers import REGISTRY

POLICY_DIGESTS = {
    ("famous-500", "1"): "d20ca1afe6f8819cc028a16d911d60260ae7e7bd92b253740a84a14f5d4cb916",
    ("lacorsa", "1"): "40e24d860a0c1f39f5bd8954cef1a02bdae55da02c16cd33cbcfd0bbfca7b613",
    ("wacky-races", "1"): "693140612f135e14a1f621d539dd72f3129ff765b90032f8210955032b7d75a2",
}
"""Per game and version, the SHA-256 of the weights file: new weights need a new version,
since a log names the bot's version and a re-run must play as the match did."""


@pytest.mark.parametrize("game", ["famous-500", "lacorsa", "wacky-races"])
def test_the_stored_weights_are_the_ones_their_version_names(game: str) -> None:
    policy = REGISTRY.bot("distilled", game)
    package = policy.factory.__module__.rpartition(".")[0]  # the game's package
    raw = resources.files(package).joinpath("data", "policy.json").read_bytes()
    assert POLICY_DIGESTS.get((game, policy.version)) == hashlib.sha256(raw).hexdigest(), (
        f"{package}:data/policy.json changed: give it a new version (tools.distill "
        "--version) and record its digest here"
    )
    assert policy.factory().weights, "the policy was trained"  # type: ignore[attr-defined]
