"""Data files a person names, and the ones a stranger's log names.

A user's data file (a track, a card table) is read only if it is a regular file: a pipe
is refused before a byte is read, where opening it waited for a writer that never came.
A log's header names its options, and a log may come from someone else: the match it
describes carries its data, so reading a log opens no file of the reader's machine.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.data import read_user_file
from racedeck.core.errors import DataError, LogError
from racedeck.core.log import Header, LogWriter
from racedeck.core.replay import open_game
from racedeck.core.runner import run_match
from racedeck.plugins import Registry

SRC = Path(__file__).resolve().parents[2] / "src"


def test_a_pipe_or_a_folder_is_refused_before_a_byte_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "track.json"
    os.mkfifo(fifo)
    # In a process of its own: were the pipe opened for reading, it would wait for ever.
    script = (
        "import sys\nfrom racedeck.core.data import read_user_file\n"
        "from racedeck.core.errors import DataError\n"
        "try:\n    read_user_file(sys.argv[1], 'track file')\n"
        "except DataError as exc:\n    print(exc)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(fifo)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        check=True,
    )
    assert done.stdout.strip() == f"{fifo}: the track file is not a regular file"
    with pytest.raises(DataError, match=r"not a regular file|Is a directory"):
        read_user_file(tmp_path)


def _header(registry: Registry, game: str, **options: object) -> Header:
    played = registry.game(game)
    buffer = io.BytesIO()
    seats = [registry.bot("random", game)] * 2
    run_match(played, played.parse_options({}), seats, 1, writer=LogWriter(buffer))
    header = msgspec.json.decode(buffer.getvalue().splitlines()[0], type=Header)
    return msgspec.structs.replace(header, options={**header.options, **options})


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("detroit-cleveland", {"track": "/etc/passwd.json", "track_data": None, "track_hash": ""}),
        ("famous-500", {"cards": "/dev/stdin", "cards_data": None}),
    ],
)
def test_a_log_header_naming_a_file_opens_nothing(
    registry: Registry, game: str, options: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[object] = []
    real_open = os.open
    monkeypatch.setattr(
        "racedeck.core.data.os.open", lambda *args: opened.append(args) or real_open(*args)
    )
    header = _header(registry, game, **options)
    with pytest.raises(LogError, match="a log's options name a file, which reading a log never"):
        open_game(registry, header, "stranger.jsonl")
    assert opened == []


@pytest.mark.parametrize(
    ("options", "why"),
    [
        ({"races": "1"}, "Expected `int`, got `str` - at `$.races`"),
        ({"races": 1.0}, "Expected `int`, got `float` - at `$.races`"),
        ({"extra_suit": "false"}, "Expected `bool`, got `str`"),
    ],
)
def test_header_options_not_as_racedeck_writes_them_are_refused(
    registry: Registry, options: dict[str, object], why: str
) -> None:
    """``parse_options`` reads a person's "1" as 1; a header holding it was edited (and the
    match it names would have logs of other bytes that all verify)."""
    header = _header(registry, "lacorsa", **options)
    with pytest.raises(LogError, match="not as racedeck writes them") as raised:
        open_game(registry, header, "stranger.jsonl")
    assert why in str(raised.value)
    open_game(registry, _header(registry, "lacorsa"), "mine.jsonl")


class _Plain(Bot):
    def act(self, observation: object, legal: object, rng: object) -> object:
        return legal[0]  # type: ignore[index]


def test_the_engine_failing_to_copy_what_a_bot_is_handed_is_no_seats_fault(
    registry: Registry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Copying the legal actions for a bot is the engine's work: its failure is an error of
    the engine, not a forfeit charged to an innocent seat."""

    def broken(*_: object) -> object:
        raise OverflowError("the engine's own copy failed")

    monkeypatch.setattr("racedeck.core.asking.copy_legal", broken)
    game = registry.game("lacorsa")
    seats = [BotSpec(name="plain", factory=_Plain, description="first")] * 2
    with pytest.raises(OverflowError, match="the engine's own copy failed"):
        run_match(game, game.parse_options({"races": 1}), seats, 1)
