"""The HTML replay: one self-contained page that steps through a whole match.

The log is streamed once. For every moment (before the first event, then after each)
the page gets the omniscient view (the state, as the log knows it) and one view per
seat built only from that seat's observation, each as text (the game's own ``render`` /
``render_observation``) and as a scene for the game's drawing. Texts and scenes repeat a
lot from one moment to the next, so each distinct one is stored once in a table and the
moments refer to it by number. The bots' debug notes are read in a second pass over the
log, each kept with the decision it came with (its line's ``seq``: the decision's first
event), its text clipped and stripped of control characters. Nothing is loaded from the
network.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any

import msgspec

from racedeck.core.errors import LogError, UsageError
from racedeck.core.log import LogReader
from racedeck.core.replay import iter_states
from racedeck.inspect.page import PAGE, STYLE, page_script, policy
from racedeck.inspect.pictures import Picture, picture_for
from racedeck.inspect.svg import COLOURS
from racedeck.plugins import Registry

_encode = msgspec.json.Encoder().encode

NOTE_LIMIT = 2000
"""The most characters of a debug note the page shows; a longer one is clipped."""

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


class _Table:
    """Distinct strings, each stored once, referred to by index."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._index: dict[str, int] = {}

    def add(self, text: str) -> int:
        index = self._index.get(text)
        if index is None:
            index = self._index[text] = len(self.items)
            self.items.append(text)
        return index


def match_data(
    registry: Registry, path: str | Path, seats: Sequence[int] | None = None
) -> dict[str, Any]:
    """Return everything the page shows of a log, as a JSON-ready mapping.

    With ``seats``, the page holds only those seats' views: no state, and the events by
    kind alone, so it can be handed to a player without showing what the seat never saw.
    """
    return _match(registry, path, seats)[0]


def _match(
    registry: Registry, path: str | Path, seats: Sequence[int] | None
) -> tuple[dict[str, Any], Picture]:
    """Return ``match_data`` and the picture it was drawn with (which draws the page)."""
    table = _Table()
    omniscient = seats is None
    events: list[list[Any]] = []
    frames: list[list[int]] = []
    header: Any = None
    game: Any = None
    picture: Any = None

    def add_frame(state: Any) -> None:
        row = []
        if omniscient:
            text = game.presentation.render(state, None)
            row += [table.add(text), table.add(_json(picture.scene(state)))]
        for seat in shown:
            observation = game.observe(state, seat)
            row.append(table.add(game.presentation.render_observation(observation)))
            row.append(table.add(_json(picture.scene(observation))))
        frames.append(row)

    replay: Any = None
    board: dict[str, Any] = {}
    for seq, event, state, replay in iter_states(registry, path):
        if game is None:
            header, game = replay.header, replay.game
            picture = picture_for(registry, game)
            shown = _check_seats(seats, header.players, str(path))
            initial = game.initial_state(replay.options, header.players)
            board = picture.board(initial)
            add_frame(initial)
        # The event as the game words it: cards by their faces, not their ids.
        payload = table.add(game.presentation.describe(event)) if omniscient else -1
        events.append([seq, event.__struct_config__.tag, payload])
        add_frame(state)
    if replay is None:
        raise LogError(str(path), 0, "the log has no events to replay")
    result = replay.result
    view_seats: list[int | None] = ([None] if omniscient else []) + list(shown)
    data = {
        "title": game.title,
        "game": game.name,
        "drawing": picture.drawing,
        "log": Path(path).name,
        "seed": header.seed,
        "seats": [seat.bot for seat in header.seats],
        "views": (["everything (the log)"] if omniscient else [])
        + [f"seat {seat} ({header.seats[seat].bot})" for seat in shown],
        "colours": list(COLOURS),
        "board": board,
        "result": None if result is None else result.result,
        "strings": table.items,
        "events": events,
        "frames": frames,
        "view_seats": view_seats,
        "notes": _notes(path, shown, table),
    }
    return data, picture


def _notes(path: str | Path, shown: Sequence[int], table: _Table) -> list[list[int]]:
    """Return the debug notes of the ``shown`` seats as ``[seq, seat, text]`` rows.

    ``seq`` is the first event of the decision the note came with and ``text`` the index
    of its words in ``table``: the bot's name and what it wrote, clipped to
    ``NOTE_LIMIT`` characters, control characters replaced (the page shows it as text).
    """
    rows: list[list[int]] = []
    with LogReader(path) as reader:
        reader.event_entries = False
        for entry in reader:
            note = entry.debug
            if note is None or note.seat not in shown:
                continue
            text = _CONTROL.sub("\ufffd", note.text)
            if len(text) > NOTE_LIMIT:
                text = text[:NOTE_LIMIT] + f"... ({len(text) - NOTE_LIMIT} more characters)"
            bot = _CONTROL.sub("\ufffd", note.bot)[:NOTE_LIMIT]
            words = f"seat {note.seat} ({bot}): {text}"
            rows.append([entry.seq, note.seat, table.add(words)])
    return rows


def _check_seats(seats: Sequence[int] | None, players: int, path: str) -> list[int]:
    if seats is None:
        return list(range(players))
    for seat in seats:
        if not 0 <= seat < players:
            raise UsageError(f"--seat {seat} does not exist: {path} has seats 0 to {players - 1}")
    return sorted(set(seats))


def _json(value: Any) -> str:
    return _encode(value).decode()


def replay_page(registry: Registry, path: str | Path, seats: Sequence[int] | None = None) -> str:
    """Return the whole HTML page replaying the match in ``path`` (see ``match_data``)."""
    data, picture = _match(registry, path, seats)
    script = page_script(picture.script, data["game"])
    title = f"{data['title']} - {data['log']}"
    fill = {
        "%%POLICY%%": policy(script, STYLE),
        "%%TITLE%%": escape(title),
        "%%DATA%%": script_json(data),
        "%%SCRIPT%%": script,
    }
    # One pass: a title holding "%%DATA%%" stays text, it is not filled in again.
    return _SLOTS.sub(lambda slot: fill[slot.group(0)], PAGE)


_SLOTS = re.compile("%%(?:POLICY|TITLE|DATA|SCRIPT)%%")


def script_json(value: Any) -> str:
    """Return ``value`` as JSON safe inside a script element, whatever its strings hold.

    Every ``<``, ``>`` and ``&`` is written as a JSON escape, so no string can end the
    element (``</script>``) or switch the parser's state (``<!--``); the JSON is the same.
    """
    raw = _encode(value).decode()
    return raw.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
