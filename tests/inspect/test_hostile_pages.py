"""Hostile strings on every page and terminal: escaped, and no script but the page's own runs."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from racedeck.cli.app import main
from racedeck.cli.output import clean
from racedeck.core.log import SeatEntry
from racedeck.plugins import Registry
from tests.inspect.browser import Browser
from tests.inspect.helpers import play, rewrite

PWN = "window.pwned=(window.pwned||0)+1"
HOSTILE = (
    f'<img src=x onerror="{PWN}">',
    f"</script><script>{PWN}</script>",
    "<!--<script>",
    "%%DATA%%",
    "%%TITLE%%",
    "%%SCRIPT%%",
    f"'\"><svg onload={PWN}>",
)
NAMES = ('<img src=x onerror="window.pwned=1">', "<svg onload=window.pwned=1>")
"""Bot names as a plugin may register them (no ':' or '/', which name parameters)."""
MONACO = Path(__file__).parents[2] / "src/racedeck/games/famous500/data/track-monaco.json"


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    opened = Browser(tmp_path_factory.mktemp("profile"))
    yield opened
    opened.close()


def _hostile_track(folder: Path) -> Path:
    track = json.loads(MONACO.read_text())
    track["name"] = HOSTILE[0]
    for section, text in zip(track["sections"], HOSTILE * 2, strict=False):
        section["name"] = text
    path = folder / "hostile-track.json"
    path.write_text(json.dumps(track))
    return path


def _hostile_log(registry: Registry, folder: Path) -> Path:
    """A Famous 500 match on a track named with markup, whose seats are named with markup."""
    played = play(
        registry,
        folder / "played.jsonl",
        game="famous-500",
        bots=("heuristic", "random"),
        seed=3,
        options={"track": str(_hostile_track(folder))},
    )
    name = folder / f"%%DATA%%<img src=x onerror={PWN}><!--<script>.jsonl"
    seats = (SeatEntry(bot=HOSTILE[1]), SeatEntry(bot=HOSTILE[2]))
    return rewrite(
        played, name, lambda _seq, event: event, lambda h: msgspec.structs.replace(h, seats=seats)
    )


def test_the_replay_page_shows_hostile_strings_as_text_and_runs_none(
    registry: Registry, tmp_path: Path, browser: Browser
) -> None:
    log = _hostile_log(registry, tmp_path)
    page = tmp_path / "page.html"
    assert main(["html", str(log), "--out", str(page)]) == 0
    text = page.read_text()
    policy = re.search(r'Content-Security-Policy" content="([^"]+)"', text)
    assert policy is not None
    assert "unsafe-inline" not in policy.group(1) and "'sha256-" in policy.group(1)
    assert text.count("<script") == 2 and "%%DATA%%" not in text.split("<script")[0].replace(
        "%%DATA%%&lt;img", ""
    )
    browser.open(page.as_uri(), "document.getElementById('status').dataset.frame")
    for _ in range(40):
        browser.press("ArrowRight", 39)
    assert browser.evaluate("window.pwned") is None
    assert browser.evaluate("document.querySelectorAll('img, script').length") == 2
    assert browser.evaluate("document.querySelectorAll('#events li').length") > 10
    assert browser.evaluate("!!document.getElementById('circuit')")
    drawn = browser.evaluate("document.getElementById('drawing').textContent")
    assert HOSTILE[2] in drawn and HOSTILE[1] in drawn  # section names, shown as text
    assert "%%DATA%%" in browser.evaluate("document.querySelector('h1').textContent")
    views = browser.evaluate("document.getElementById('view').textContent")
    assert HOSTILE[1] in views  # a seat's bot name, as text


def test_the_report_page_escapes_bot_names_and_runs_nothing(
    tmp_path: Path, browser: Browser
) -> None:
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "named.py").write_text(
        "from racedeck.bots.random_bot import RandomBot\n"
        "from racedeck.core.bot import BotSpec\n"
        "from racedeck.hookspecs import hookimpl\n"
        "@hookimpl\n"
        "def racedeck_register_bots(register):\n"
        f"    register(BotSpec(name={NAMES[0]!r}, factory=RandomBot, description=''))\n"
        f"    register(BotSpec(name={NAMES[1]!r}, factory=RandomBot, description=''))\n"
    )
    db = tmp_path / "t.sqlite"
    args = [
        "tournament",
        "lacorsa",
        "-o",
        "races=1",
        "--plugins-dir",
        str(plugins),
        "--bot",
        NAMES[0],
        "--bot",
        NAMES[1],
        "--players",
        "2",
        "--matches",
        "4",
        "--workers",
        "1",
        "--db",
        str(db),
    ]
    assert main(args) == 0
    page = tmp_path / "report.html"
    assert main(["tournament", "report", str(db), "--html", str(page)]) == 0
    assert "<img" not in page.read_text() and "script-src" not in page.read_text()
    browser.open(page.as_uri(), "document.querySelector('table')")
    assert browser.evaluate("window.pwned") is None
    assert browser.evaluate("document.querySelectorAll('img, script').length") == 0
    assert NAMES[0] in browser.evaluate("document.body.textContent")


def test_no_control_character_reaches_the_terminal(
    registry: Registry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = play(registry, tmp_path / "played.jsonl", bots=("heuristic", "random"))
    evil = "\x1b[2J\x1b]0;owned\x07\rbot\u202e"
    seats = (SeatEntry(bot=evil), SeatEntry(bot="random"))
    log = rewrite(
        played,
        tmp_path / "evil\x1b[31m.jsonl",
        lambda _seq, event: event,
        lambda h: msgspec.structs.replace(h, seats=seats),
    )
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    assert main(["show", str(log)]) == 0
    assert main(["replay", str(tmp_path / "missing\x1b[31m.jsonl")]) == 3
    out, err = capsys.readouterr()
    for text in (out, err):
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f\u202e]", text), repr(text)
    # Shown escaped (click drops the CSI sequence itself when the output is no terminal).
    assert clean("\x1b]0;owned\x07\rbot\u202e") in out
