"""`racedeck html`: a self-contained page, stepped through in a real headless browser."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import iter_states
from racedeck.inspect.html import match_data
from racedeck.inspect.pictures import picture_for
from racedeck.plugins import Registry
from tests.inspect.browser import Browser
from tests.inspect.helpers import as_format_2, play, rewrite

STRIP = (
    "[...document.querySelectorAll('#strip g.car')].map(g => [+g.dataset.car, +g.dataset.space])"
)
STATUS = "JSON.stringify(Object.assign({}, document.getElementById('status').dataset))"


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> Path:
    return play(registry, tmp_path_factory.mktemp("html") / "match.jsonl", options={"races": 2})


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("profile"))
    yield opened
    opened.close()


def _expected_strips(registry: Registry, log: Path) -> list[list[list[int]]]:
    """Per event, the cars on the strip and their spaces, from the log itself."""
    strips = []
    for _seq, _event, state, replay in iter_states(registry, log):
        scene = picture_for(registry, replay.game).scene(state)
        strips.append(
            sorted(
                [car, c["space"]] for car, c in enumerate(scene["cars"]) if c["space"] is not None
            )
        )
    return strips


def test_html_page_loads_nothing_from_the_network(log: Path, tmp_path: Path) -> None:
    page = tmp_path / "replay.html"
    assert main(["html", str(log), "--out", str(page)]) == 0
    text = page.read_text()
    assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text)
    assert "default-src 'none'" in text
    assert (
        text.count("<script") == 2
        and "</script" not in text.split('id="match">')[1].split("</script>")[0]
    )


def test_html_same_log_same_bytes(log: Path, tmp_path: Path) -> None:
    main(["html", str(log), "--out", str(tmp_path / "a.html")])
    main(["html", str(log), "--out", str(tmp_path / "b.html")])
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()


def test_browser_steps_through_the_whole_match_showing_the_right_positions(
    log: Path, tmp_path: Path, registry: Registry, browser: Browser
) -> None:
    page = tmp_path / "replay.html"
    main(["html", str(log), "--out", str(page)])
    expected = _expected_strips(registry, log)
    browser.open(page.as_uri(), "document.getElementById('status').dataset.frame")
    assert json.loads(browser.evaluate(STATUS))["seq"] == "-1"
    for seq, strip in enumerate(expected):
        browser.press("ArrowRight", 39)
        status = json.loads(browser.evaluate(STATUS))
        assert status["seq"] == str(seq)
        assert sorted(browser.evaluate(STRIP)) == strip, seq
    browser.press("ArrowRight", 39)  # past the end it stays on the last event
    assert json.loads(browser.evaluate(STATUS))["seq"] == str(len(expected) - 1)
    browser.press("Home", 36)
    assert json.loads(browser.evaluate(STATUS))["seq"] == "-1"
    chosen = [3, len(expected) // 2, len(expected) - 1]
    for seq in chosen:
        browser.evaluate(
            f"(e => {{ e.value = {seq + 1}; e.dispatchEvent(new Event('input')); }})(document.getElementById('slider'))"
        )
        assert sorted(browser.evaluate(STRIP)) == expected[seq]


def test_browser_jumps_to_an_event_and_to_the_next_of_a_kind(
    log: Path, tmp_path: Path, browser: Browser
) -> None:
    page = tmp_path / "replay.html"
    main(["html", str(log), "--out", str(page)])
    browser.open(
        page.as_uri() + "#event=10&view=0", "document.getElementById('status').dataset.frame"
    )
    assert json.loads(browser.evaluate(STATUS))["seq"] == "10"
    browser.evaluate("(e => { e.value = 'race_scored'; })(document.getElementById('kind'))")
    browser.press("n", 78)
    status = json.loads(browser.evaluate(STATUS))
    assert status["kind"] == "race_scored" and int(status["seq"]) > 10
    browser.evaluate(
        "(e => { e.value = 42; e.dispatchEvent(new Event('change')); })(document.getElementById('goto'))"
    )
    assert json.loads(browser.evaluate(STATUS))["seq"] == "42"


def test_browser_seat_view_hides_other_seats_cards_and_event_contents(
    log: Path, tmp_path: Path, browser: Browser
) -> None:
    page = tmp_path / "replay.html"
    main(["html", str(log), "--out", str(page)])
    browser.open(
        page.as_uri() + "#event=5&view=0", "document.getElementById('status').dataset.frame"
    )
    hands = "[...document.querySelectorAll('#cars tr[data-car]')].map(r => r.cells[4].textContent)"
    assert "hidden" not in browser.evaluate(hands)
    browser.press("v", 86)
    browser.press("v", 86)  # view 2 is seat 1
    status = json.loads(browser.evaluate(STATUS))
    assert status["view"] == "2" and status["seq"] == "5"
    shown = browser.evaluate(hands)
    assert [h == "hidden" for h in shown] == [True, False, True, True]
    payload = "getComputedStyle(document.querySelector('#events .payload')).display"
    assert browser.evaluate(payload) == "none"


def _swap_hands(seq: int, event: dict) -> dict | None:
    if seq > 0:
        return None
    hands = list(event["hands"])
    hands[1], hands[2] = hands[2], hands[1]
    return {**event, "hands": hands}


def test_seat_views_in_the_page_come_from_observations_only(
    log: Path, tmp_path: Path, registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The edited logs end early, so their result lines are refused; the views are at stake.
    monkeypatch.setattr("racedeck.core.replay.check_result", lambda *args: None)
    first = rewrite(
        log, tmp_path / "first.jsonl", lambda seq, e: e if seq == 0 else None, as_format_2
    )
    swapped = rewrite(log, tmp_path / "swapped.jsonl", _swap_hands, as_format_2)
    a, b = match_data(registry, first), match_data(registry, swapped)

    def view(data: dict, frame: int, v: int) -> tuple[str, str]:
        row = data["frames"][frame]
        return data["strings"][row[2 * v]], data["strings"][row[2 * v + 1]]

    assert view(a, 1, 0) != view(b, 1, 0)  # the log's own view shows every hand
    assert view(a, 1, 1) == view(b, 1, 1)  # seat 0 cannot tell the two deals apart
    assert view(a, 1, 4) == view(b, 1, 4)  # nor can seat 3


def test_a_page_for_one_seat_holds_neither_states_nor_event_contents(
    log: Path, registry: Registry, tmp_path: Path
) -> None:
    page = tmp_path / "seat.html"
    assert main(["html", str(log), "--out", str(page), "--seat", "1"]) == 0
    data = match_data(registry, log, [1])
    assert data["views"] == ["seat 1 (heuristic)"]
    assert all(payload == -1 for _seq, _kind, payload in data["events"])
    assert "race_dealt" in page.read_text() and '"hands":[[' not in page.read_text()
    assert main(["html", str(log), "--out", str(tmp_path / "x.html"), "--seat", "9"]) == 2


def _drawn_cars(name: str, scene: dict) -> list[list[int]]:
    """The cars a game's drawing puts on its track, as [car, space or section]."""
    if name == "lacorsa":
        return sorted(
            [car, c["space"]] for car, c in enumerate(scene["cars"]) if c["space"] is not None
        )
    if name == "detroit-cleveland":
        return sorted([car, s] for car, s in enumerate(scene["positions"]) if s >= 0)
    if name == "famous-500":
        return (
            [[seat, scene["section"]] for seat in range(len(scene["sheets"]))]
            if scene["lap"] > 0
            else []
        )
    if name == "wacky-races":
        return sorted([car, p] for car, p in enumerate(scene["pos"])) if scene["tiles"] else []
    raise AssertionError(f"no drawing known for {name}")


def test_browser_draws_every_game_with_its_cars_where_the_log_has_them(
    tmp_path: Path, registry: Registry, browser: Browser
) -> None:
    drawn = (
        "[...document.querySelectorAll('#drawing g.car')]"
        ".map(g => [+g.dataset.car, +(g.dataset.space ?? g.dataset.section)])"
    )
    for name in sorted(registry.games):
        game = registry.game(name)
        players = max(game.min_players, min(game.max_players, 3))
        log = play(
            registry,
            tmp_path / f"{name}.jsonl",
            game=name,
            bots=("random",) * players,
            seed=4,
            options=game.conformance_options[0],
        )
        page = tmp_path / f"{name}.html"
        assert main(["html", str(log), "--out", str(page)]) == 0
        data = match_data(registry, log)
        assert data["drawing"] != "text", name
        browser.open(page.as_uri(), "document.getElementById('status').dataset.frame")
        frames = len(data["frames"])
        for frame in sorted({1, frames // 3, frames // 2, 2 * frames // 3, frames - 1}):
            browser.evaluate(
                f"(e => {{ e.value = {frame}; e.dispatchEvent(new Event('input')); }})"
                "(document.getElementById('slider'))"
            )
            scene = json.loads(data["strings"][data["frames"][frame][1]])
            assert sorted(browser.evaluate(drawn)) == _drawn_cars(name, scene), (name, frame)
            assert json.loads(browser.evaluate(STATUS))["seq"] == str(frame - 1)
