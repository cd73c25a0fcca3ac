"""Every game words its actions, events and cards: cards by their faces, not their ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.model import ENGINE
from racedeck.core.names import spell
from racedeck.core.rng import Rng
from racedeck.core.step import resolve
from racedeck.games.lacorsa import data as lacorsa_data
from racedeck.games.lacorsa.actions import Play
from racedeck.inspect.chart import lap_chart
from racedeck.inspect.html import match_data
from racedeck.plugins import load_registry

REGISTRY = load_registry(entry_points=False)


def test_lacorsa_names_a_play_by_the_faces_of_its_cards() -> None:
    game = REGISTRY.game("lacorsa")
    words = game.presentation.describe(Play(car=0, cards=(96, 18)))
    assert words == f"car 0 plays {lacorsa_data.label(96)} {lacorsa_data.label(18)}"
    assert "96" not in words and "18" not in words


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_every_game_words_each_action_it_offers_without_field_dumps(name: str) -> None:
    game = REGISTRY.game(name)
    options = game.parse_options(game.conformance_options[0])
    players = game.min_players
    state = game.initial_state(options, players)
    rng = Rng(7)
    seen = 0
    for _ in range(400):
        step = game.next_step(state)
        if not step.seats and not step.engine:
            break
        if step.engine:
            state = resolve(game, state, ENGINE, None, rng).state
            continue
        seat = step.seats[0]
        legal = game.legal_actions(state, seat)
        for action in legal:
            words = game.presentation.describe(action)
            assert words and "=" not in words, (name, action, words)
            seen += 1
        state = resolve(game, state, seat, legal[0], rng).state
    assert seen > 0


@pytest.mark.parametrize("name", sorted(REGISTRY.games))
def test_every_game_names_its_cards_its_own_way(name: str) -> None:
    game = REGISTRY.game(name)
    assert any(game.presentation.describe(card) != spell(card) for card in range(0, 100))


def _log(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    log = tmp_path / "m.jsonl"
    args = ["play", "lacorsa", "-s", "heuristic", "-s", "random", "-o", "races=1"]
    assert main([*args, "--log", str(log)]) == 0
    capsys.readouterr()
    return log


def test_the_html_replay_lists_events_in_words_and_names_each_seats_bot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = _log(tmp_path, capsys)
    data = match_data(REGISTRY, log)
    first = data["strings"][data["events"][0][2]]
    assert first.startswith("race dealt race=0 hands=(") and "[" not in first
    assert data["seats"] == ["heuristic", "random"]
    page = tmp_path / "p.html"
    assert main(["html", str(log), "--out", str(page)]) == 0
    html = page.read_text()
    assert '<p id="bots"></p>' in html and '"seat " + seat + ": " + bot' in html


def test_the_chart_names_each_seats_bot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = _log(tmp_path, capsys)
    chart = lap_chart(REGISTRY, log)
    assert chart.title.endswith("seat 0 heuristic, seat 1 random")
    assert main(["chart", str(log), "--out", str(tmp_path / "c.svg"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["kind"] == "chart"
