"""docs/plugins.md names every game's action types, and its short bot for each game plays."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.runner import run_match
from tests.bots.helpers import REGISTRY

GUIDE = (Path(__file__).parents[2] / "docs" / "plugins.md").read_text()
BUILT_IN = ("detroit-cleveland", "famous-500", "lacorsa", "wacky-races")


def section(game: str) -> str:
    body = GUIDE.split(f"\n### Actions: {game}\n", 1)
    assert len(body) == 2, f"docs/plugins.md has no actions for {game}"
    return body[1].split("\n## ", 1)[0].split("\n### ", 1)[0]


def short_bot(game: str) -> type[Bot]:
    [code] = re.findall(r"```python\n# bot: " + re.escape(game) + r"\n(.*?)```", GUIDE, re.S)
    names: dict[str, object] = {}
    exec(compile(code, f"docs/plugins.md ({game})", "exec"), names)
    [bot] = [
        v for v in names.values() if isinstance(v, type) and issubclass(v, Bot) and v is not Bot
    ]
    return bot


@pytest.mark.parametrize("game", BUILT_IN)
def test_every_action_type_is_named_with_its_tag_and_fields(game: str) -> None:
    text = section(game)
    rules = REGISTRY.game(game)
    for action in typing.get_args(rules.action_type):
        tag = action.__struct_config__.tag
        lines = text.splitlines()
        line = next((s for s in lines if s.startswith(f"- `{action.__name__}` ")), "")
        assert f"(tag `{tag}`)" in line, (game, action.__name__)
        described = text.split(line, 1)[1].split("\n- ", 1)[0] + line
        for field in action.__struct_fields__:
            assert f"`{field}`" in described, (game, action.__name__, field)
    assert f"`{rules.action_type.__args__[0].__module__}`" in text or any(
        f"`{a.__module__}`" in text for a in typing.get_args(rules.action_type)
    )


@pytest.mark.parametrize("game", BUILT_IN)
def test_the_short_bot_plays_without_a_fault(game: str) -> None:
    bot = short_bot(game)
    spec = BotSpec(name="guide", factory=bot, description="from docs/plugins.md")
    rules = REGISTRY.game(game)
    options = rules.parse_options(rules.conformance_options[0])
    random = REGISTRY.bot("random", game)
    for seed in range(2):
        outcome = run_match(rules, options, [spec, random], seed)
        assert not outcome.faults and outcome.forfeit is None, (game, seed, outcome.faults)
