"""Lap charts never clip: in a real browser every text lies inside the SVG, for every game at
its smallest and its largest table."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.inspect.chart import lap_chart
from racedeck.inspect.svg import chart_svg, text_width
from racedeck.plugins import Registry
from tests.inspect.browser import Browser
from tests.inspect.helpers import play

BUILT_IN = ("lacorsa", "detroit-cleveland", "famous-500", "wacky-races")

OUTSIDE = """JSON.stringify((() => {
  const svg = document.querySelector('svg');
  const frame = svg.getBoundingClientRect();
  return [...svg.querySelectorAll('text')].map(t => {
    const box = t.getBoundingClientRect();
    return {text: t.textContent, left: box.left - frame.left, right: box.right - frame.left,
            top: box.top - frame.top, bottom: box.bottom - frame.top};
  }).filter(b => b.left < 0 || b.top < 0 || b.right > frame.width || b.bottom > frame.height)
    .concat([{count: svg.querySelectorAll('text').length}]);
})())"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("profile"))
    yield opened
    opened.close()


def test_text_is_measured_wider_than_it_is() -> None:
    assert text_width("W" * 10) >= 10 * 12 * 0.7 and text_width("") == 1


@pytest.mark.parametrize("name", BUILT_IN)
def test_no_text_of_a_chart_leaves_the_picture(
    name: str, registry: Registry, browser: Browser, tmp_path: Path
) -> None:
    game = registry.game(name)
    for players in sorted({game.min_players, game.max_players}):
        log = play(
            registry,
            tmp_path / f"{name}-{players}.jsonl",
            game=name,
            bots=("random",) * players,
            seed=3,
            options=game.conformance_options[0],
        )
        chart = lap_chart(registry, log)
        page = tmp_path / f"{name}-{players}.html"
        page.write_text(
            "<!DOCTYPE html><html><body style='margin:0'>" + chart_svg(chart) + "</body></html>"
        )
        browser.open(page.as_uri(), "document.querySelector('svg')")
        *outside, counted = json.loads(browser.evaluate(OUTSIDE))
        assert counted["count"] > 2 * len(chart.cars)
        assert outside == [], (name, players)
