"""`racedeck chart`: a lap chart for every registered game, as SVG and PNG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import iter_states
from racedeck.inspect.chart import lap_chart
from racedeck.inspect.pictures import Picture, picture_for
from racedeck.plugins import Registry
from tests.inspect.helpers import play


def _game_log(registry: Registry, folder: Path, name: str) -> Path:
    game = registry.game(name)
    players = max(game.min_players, min(game.max_players, 3))
    return play(
        registry,
        folder / f"{name}.jsonl",
        game=name,
        bots=("random",) * players,
        seed=2,
        options=game.conformance_options[0],
    )


@pytest.fixture(scope="module")
def game_logs(tmp_path_factory: pytest.TempPathFactory, registry: Registry) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("games")
    return {name: _game_log(registry, folder, name) for name in sorted(registry.games)}


def test_every_registered_game_has_a_picture_of_its_own(registry: Registry) -> None:
    assert sorted(registry.pictures) == sorted(registry.games)
    for name, game in registry.games.items():
        picture = picture_for(registry, game)
        assert type(picture) is not Picture, name
        assert type(picture).__module__ == f"{type(game).__module__.rpartition('.')[0]}.picture"


def test_a_chart_for_every_game_with_a_point_per_lap_and_every_car_placed(
    game_logs: dict[str, Path], registry: Registry, tmp_path: Path
) -> None:
    for name, log in game_logs.items():
        chart = lap_chart(registry, log)
        assert len(chart.ticks) >= 2, name
        assert len(set(chart.ticks)) == len(chart.ticks), name  # one point per lap or turn
        for places in chart.positions:
            assert sorted(places) == list(range(1, len(chart.cars) + 1)), name
        for suffix in ("svg", "png"):
            out = tmp_path / f"{name}.{suffix}"
            assert main(["chart", str(log), "--out", str(out)]) == 0
            assert out.stat().st_size > 500
        assert (tmp_path / f"{name}.svg").read_text().startswith("<svg")
        assert (tmp_path / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_lacorsa_chart_points_are_the_grid_order_at_each_lap_end(
    tmp_path: Path, registry: Registry
) -> None:
    log = play(registry, tmp_path / "l.jsonl", options={"races": 2})
    picture = None
    expected: list[tuple[str, list[int]]] = []
    last: tuple[str, list[int]] | None = None
    for _seq, _event, state, replay in iter_states(registry, log):
        picture = picture or picture_for(registry, replay.game)
        tick = picture.tick(state)
        if last is not None and tick != last[0]:
            expected.append(last)
        last = (tick, list(reversed(state.order))) if tick is not None else None
    if last is not None:
        expected.append(last)
    chart = lap_chart(registry, log)
    assert chart.ticks == [tick for tick, _ in expected]
    assert chart.axis == "race.lap"
    for places, (_tick, leader_first) in zip(chart.positions, expected, strict=True):
        assert [car for _place, car in sorted((p, c) for c, p in enumerate(places))] == leader_first


def test_famous_500_chart_has_the_four_car_sheet_columns(
    game_logs: dict[str, Path],
    registry: Registry,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    if "famous-500" not in game_logs:
        pytest.fail("famous-500 is not registered")
    chart = lap_chart(registry, game_logs["famous-500"])
    assert list(chart.series) == ["tires", "fuel", "engine", "speed"]
    assert all(len(rows) == len(chart.ticks) for rows in chart.series.values())
    main(["chart", str(game_logs["famous-500"]), "--out", str(tmp_path / "f.svg"), "--json"])
    assert json.loads(capsys.readouterr().out)["series"]["speed"] == chart.series["speed"]


def test_chart_output_is_byte_identical_for_the_same_log(
    game_logs: dict[str, Path], tmp_path: Path
) -> None:
    log = game_logs["lacorsa"]
    for name in ("a", "b"):
        for suffix in ("svg", "png"):
            main(["chart", str(log), "--out", str(tmp_path / f"{name}.{suffix}")])
    for suffix in ("svg", "png"):
        assert (tmp_path / f"a.{suffix}").read_bytes() == (tmp_path / f"b.{suffix}").read_bytes()


def test_chart_refuses_another_format_and_writes_nothing(
    game_logs: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["chart", str(game_logs["lacorsa"]), "--out", str(tmp_path / "c.jpg")]) == 2
    assert ".svg or .png" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())
