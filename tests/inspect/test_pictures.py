"""Pictures come through the games' own registration, a plugin game's as a built-in one's."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.errors import EXIT_BAD_INPUT, PluginError
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.inspect.chart import lap_chart
from racedeck.inspect.html import match_data, replay_page
from racedeck.inspect.page import SCRIPT, TEXT_ONLY, sha256_source
from racedeck.inspect.pictures import Picture, picture_for
from racedeck.plugins import Registry, load_registry
from tests.inspect.browser import Browser

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
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("profile"))
    yield opened
    opened.close()


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


# -- a game's drawing on the replay page comes with its picture ----------------------------

DRAWN = '''    script = """function (sc) {
      return '<svg id="high-card"><g class="car" data-car="0" data-points="' + sc.points[0] +
        '"></g></svg><p id="deck">' + esc(D.board.deck) + '</p>';
    }"""

    def board(self, view):
        return {"deck": "one to ten"}

'''


def _with_drawing(folder: Path, script: str = DRAWN) -> Path:
    """The high-card plugin with a picture that brings its own drawing."""
    folder.mkdir()
    picture = PICTURE.replace('    axis = "round"\n', '    axis = "round"\n' + script, 1)
    assert picture != PICTURE
    (folder / "high_card.py").write_text(HIGH_CARD.read_text() + picture)
    return folder


def _high_card_log(registry: Registry, path: Path) -> Path:
    game = registry.game("high-card")
    seats = [registry.bot(name, "high-card") for name in ("heuristic", "random")]
    with open(path, "wb") as handle:
        run_match(game, game.parse_options({}), seats, 3, writer=LogWriter(handle))
    return path


def _script_of(page: str) -> str:
    """The text of the page's one script that runs (the other holds the data)."""
    return page.split("<script>", 1)[1].split("</script>", 1)[0]


def test_the_page_runs_the_drawing_a_plugin_games_picture_brings(tmp_path: Path) -> None:
    """A game's drawing lives in its own package: the page takes it from the picture."""
    registry = load_registry(_with_drawing(tmp_path / "plugins"), entry_points=False)
    page = replay_page(registry, _high_card_log(registry, tmp_path / "h.jsonl"))
    script = _script_of(page)
    assert "data-points" in script and "D.board.deck" in script
    # The page's policy allows exactly this script, by its hash, and nothing else.
    assert f"script-src '{sha256_source(script)}'" in page


def test_a_picture_without_a_drawing_gets_the_text_alone(tmp_path: Path) -> None:
    registry = load_registry(_plugins(tmp_path / "plugins"), entry_points=False)
    page = replay_page(registry, _high_card_log(registry, tmp_path / "h.jsonl"))
    assert "(" + TEXT_ONLY + ")" in _script_of(page)


def test_the_page_itself_draws_no_game() -> None:
    """Adding a game needs no edit of the page: it holds no game's drawing of its own."""
    registry = load_registry(entry_points=False)
    assert "%%DRAWING%%" in SCRIPT
    for name in registry.games:
        picture = picture_for(registry, registry.game(name))
        assert picture.script.strip(), name
        assert picture.script.strip() not in SCRIPT, name
        assert f'id="{picture.drawing}"' not in SCRIPT, name


@pytest.mark.parametrize(
    "hostile",
    [
        *(
            f"    script = \"function (sc) {{ return '{closing}<script>window.pwned=1'; }}\"\n"
            for closing in ("</script>", "</SCRIPT >", "<!--")
        ),
        "    script = None\n",
        "    script = 42\n",
    ],
)
def test_a_drawing_that_would_end_the_pages_script_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], hostile: str
) -> None:
    folder = _with_drawing(tmp_path / "plugins", hostile)
    registry = load_registry(folder, entry_points=False)
    log = _high_card_log(registry, tmp_path / "h.jsonl")
    with pytest.raises(PluginError, match="the picture of 'high-card' has a drawing script"):
        replay_page(registry, log)
    out = tmp_path / "page.html"
    args = ["html", str(log), "--out", str(out), "--plugins-dir", str(folder)]
    assert (
        main(args) == EXIT_BAD_INPUT == 3
    )  # docs/debugging.md: "in one line naming the game (exit 3)"
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "'high-card'" in err[0] and "Traceback" not in err[0], err
    assert not out.exists()


def test_a_browser_draws_a_plugin_game_with_its_own_drawing(
    tmp_path: Path, browser: Browser
) -> None:
    registry = load_registry(_with_drawing(tmp_path / "plugins"), entry_points=False)
    log = _high_card_log(registry, tmp_path / "h.jsonl")
    page = tmp_path / "h.html"
    page.write_text(replay_page(registry, log))
    data = match_data(registry, log)
    browser.open(page.as_uri(), "document.getElementById('status').dataset.frame")
    browser.evaluate(
        "(e => { e.value = e.max; e.dispatchEvent(new Event('input')); })"
        "(document.getElementById('slider'))"
    )
    last = json.loads(data["strings"][data["frames"][-1][1]])
    drawn = browser.evaluate("document.querySelector('#drawing g.car').dataset.points")
    assert drawn == str(last["points"][0]) and last["points"][0] > 0
    assert browser.evaluate("document.getElementById('deck').textContent") == "one to ten"


def test_the_plugin_guides_example_drawing_draws_its_scene(
    tmp_path: Path, browser: Browser
) -> None:
    """docs/plugins.md's ``MyRacePicture.script``, run by the page on a scene of its shape."""
    guide = (Path(__file__).parents[2] / "docs" / "plugins.md").read_text(encoding="utf-8")
    example = guide[guide.index('    script = """function (sc) {') :]
    example = example[: example.index('}"""') + 4] + "\n"
    folder = _with_drawing(tmp_path / "plugins", example)
    plugin = folder / "high_card.py"
    # The example draws ``positions``: the picture's scene gives the points under that name.
    scene = 'def scene(self, view):\n        return {"points"'
    assert plugin.read_text().count(scene) == 1
    plugin.write_text(plugin.read_text().replace(scene, scene.replace("points", "positions")))
    registry = load_registry(folder, entry_points=False)
    log = _high_card_log(registry, tmp_path / "h.jsonl")
    page = tmp_path / "h.html"
    page.write_text(replay_page(registry, log))
    data = match_data(registry, log)
    browser.open(page.as_uri(), "document.getElementById('status').dataset.frame")
    browser.evaluate(
        "(e => { e.value = e.max; e.dispatchEvent(new Event('input')); })"
        "(document.getElementById('slider'))"
    )
    last = json.loads(data["strings"][data["frames"][-1][1]])
    widths = browser.evaluate(
        "[...document.querySelectorAll('#bars rect')].map(r => +r.getAttribute('width'))"
    )
    assert widths == [4 * p for p in last["positions"]] and any(widths)
