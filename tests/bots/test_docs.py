"""The plugin and protocol documents agree with the code they describe."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from racedeck import hookspecs
from tests.bots.helpers import REGISTRY

DOCS = Path(__file__).parents[2] / "docs"
PLUGINS = (DOCS / "plugins.md").read_text()
PROTOCOL = (DOCS / "protocol.md").read_text()


def _hookspecs() -> dict[str, Any]:
    return {
        name: func
        for name, func in vars(hookspecs).items()
        if callable(func) and hasattr(func, "racedeck_spec")
    }


def _signature(name: str, func: Any) -> str:
    signature = inspect.signature(func)
    params = ", ".join(f"{p.name}: {p.annotation}" for p in signature.parameters.values())
    return f"def {name}({params}) -> {signature.return_annotation}"


@pytest.mark.parametrize("name", sorted(_hookspecs()))
def test_every_hook_is_documented_with_its_exact_signature(name: str) -> None:
    assert _signature(name, _hookspecs()[name]) in PLUGINS


def test_the_guide_documents_no_hook_that_does_not_exist() -> None:
    documented = set(re.findall(r"^def (racedeck_\w+)\(", PLUGINS, flags=re.M))
    assert documented == set(_hookspecs())


def _observation_section(game: str) -> str:
    observations = PLUGINS.split("\n## Observations per game\n", 1)[1].split("\n## ", 1)[0]
    section = observations.split(f"\n### {game}\n", 1)
    assert len(section) == 2, f"docs/plugins.md has no observation section for {game}"
    return section[1].split("\n#", 1)[0]


@pytest.mark.parametrize("game", sorted(REGISTRY.games))
def test_every_games_observation_is_documented_field_by_field(game: str) -> None:
    observation = REGISTRY.games[game].observation_type
    body = _observation_section(game)
    module = observation.__module__
    assert f"`{observation.__name__}`" in body and f"`{module}`" in body
    documented = re.findall(r"^- `(\w+)` \(`[^`]+`\): \S", body, flags=re.M)
    assert documented == list(observation.__struct_fields__)


def test_the_example_exchange_is_valid_protocol() -> None:
    block = PROTOCOL.split("```jsonl\n", 1)[1].split("```", 1)[0]
    game = REGISTRY.game("lacorsa")
    legal: list[Any] = []
    kinds = []
    for line in block.splitlines():
        if line == "...":
            continue
        direction, _, raw = line.partition(" ")
        message = msgspec.json.decode(raw)
        if direction == ">":
            kinds.append(message["type"])
            if message["type"] == "act":
                msgspec.convert(message["observation"], type=game.observation_type)
                legal = [msgspec.convert(a, type=game.action_type) for a in message["legal"]]
            elif message["type"] == "start":
                game.parse_options(message["options"])
        else:
            assert direction == "<"
            if kinds[-1] == "start":
                assert message["type"] == "ready"
            else:
                assert 0 <= message["choice"] < len(legal)
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("act") >= 3
