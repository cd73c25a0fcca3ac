"""Pictures come through the games' own registration, a plugin game's as a built-in one's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from racedeck.core.errors import PluginError
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.inspect.chart import lap_chart
from racedeck.inspect.html import match_data
from racedeck.inspect.pictures import Picture, picture_for
from racedeck.plugins import Registry, load_registry

HIGH_CARD = Path(__file__).parents[1] / "conformance" / "plugin_games" / "high_card.py"

PICTURE = '''

# -- its picture, registered by the game's own plugin -------------------------------------
from racedeck.inspect.pictures import Picture


class HighCardPicture(Picture):
    """Seats ranked by points, one tick per round revealed."""

    axis = "round"

    def car_labels(self, view):
        return [f"seat {seat}" for seat in range(len(view.points))]

    def standings(self, view):
        return sorted(range(len(view.points)), key=lambda s: (-view.points[s], s))

    def tick(self, view):
        return str(view.rounds) if view.rounds else None

    def series(self, view):
        return {"points": list(view.points)}

    def scene(self, view):
        return {"points": list(view.points)}


@hookimpl
def racedeck_register_pictures(register):
    register("high-card", HighCardPicture)
'''


def _plugins(folder: Path, *extra: tuple[str, str]) -> Path:
    folder.mkdir()
    (folder / "high_card.py").write_text(HIGH_CARD.read_text() + PICTURE)
    for name, text in extra:
        (folder / name).write_text(text)
    return folder


@pytest.fixture(scope="module")
def plugin_registry(tmp_path_factory: pytest.TempPathFactory) -> Registry:
    return load_registry(_plugins(tmp_path_factory.mktemp("p") / "plugins"), entry_points=False)


def test_a_plugin_game_registers_its_picture(plugin_registry: Registry) -> None:
    game = plugin_registry.game("high-card")
    picture = picture_for(plugin_registry, game)
    assert type(picture).__name__ == "HighCardPicture"
    assert isinstance(picture, Picture)
    assert picture.game is game


def test_the_built_in_games_still_get_theirs(plugin_registry: Registry) -> None:
    for name in ("detroit-cleveland", "famous-500", "lacorsa", "wacky-races"):
        picture = picture_for(plugin_registry, plugin_registry.game(name))
        assert type(picture) is not Picture, name


def test_a_game_without_a_picture_gets_the_generic_one(
    tmp_path: Path, plugin_registry: Registry
) -> None:
    bare = load_registry(_plugins(tmp_path / "plugins"), entry_points=False)
    del bare.pictures["high-card"]
    assert type(picture_for(bare, bare.game("high-card"))) is Picture


def test_the_chart_and_the_page_draw_a_plugin_game_with_its_picture(
    tmp_path: Path, plugin_registry: Registry
) -> None:
    game = plugin_registry.game("high-card")
    log = tmp_path / "high-card.jsonl"
    seats = [plugin_registry.bot(name, "high-card") for name in ("heuristic", "random")]
    with open(log, "wb") as handle:
        run_match(game, game.parse_options({}), seats, 3, writer=LogWriter(handle))
    chart = lap_chart(plugin_registry, log)
    assert chart.axis == "round"
    assert chart.ticks == ["1", "2", "3", "4"]
    assert chart.cars == ["seat 0", "seat 1"]
    assert list(chart.series) == ["points"]
    data = match_data(plugin_registry, log)
    assert '{"points":[0,0]}' in data["strings"]


def test_two_pictures_for_one_game_are_refused(tmp_path: Path) -> None:
    again = "from racedeck.hookspecs import hookimpl\n\n@hookimpl\ndef racedeck_register_pictures(register):\n    register('high-card', lambda game: None)\n"
    folder = _plugins(tmp_path / "plugins", ("again.py", again))
    with pytest.raises(
        PluginError, match="two plugins register a picture for the game 'high-card'"
    ):
        load_registry(folder, entry_points=False)


def test_a_picture_for_no_game_is_refused(tmp_path: Path) -> None:
    stray = "from racedeck.hookspecs import hookimpl\n\n@hookimpl\ndef racedeck_register_pictures(register):\n    register('chess', lambda game: None)\n"
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "stray.py").write_text(stray)
    with pytest.raises(PluginError, match="picture for 'chess', which is not a game"):
        load_registry(folder, entry_points=False)


def test_a_factory_that_makes_no_picture_is_a_plugin_error(plugin_registry: Registry) -> None:
    registry = Registry(games=dict(plugin_registry.games))
    registry.add_picture("high-card", lambda game: "a string")  # type: ignore[arg-type,return-value]
    with pytest.raises(PluginError, match="the picture registered for high-card is not a Picture"):
        picture_for(registry, registry.game("high-card"))


def test_a_games_picture_module_is_imported_only_when_it_is_drawn() -> None:
    script = (
        "import sys\n"
        "from racedeck.plugins import load_registry\n"
        "from racedeck.inspect.pictures import picture_for\n"
        "registry = load_registry(entry_points=False)\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.endswith('.picture'))\n"
        "assert loaded() == [], loaded()\n"
        "picture_for(registry, registry.game('lacorsa'))\n"
        "assert loaded() == ['racedeck.games.lacorsa.picture'], loaded()\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)
