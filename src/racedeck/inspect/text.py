"""Plain-text pictures shared by the commands: two marked columns, an entry in words."""

from __future__ import annotations

import textwrap
from typing import Any

import msgspec

from racedeck.core.log import Fault
from racedeck.inspect.diff import DiffReport, Side

CHANGED = "!"
"""The mark of a row whose two sides differ, in the column before them."""

PIPE_WIDTH = 100
"""The width text is fitted to when it does not go to a terminal."""


def side_by_side(
    left: str,
    right: str,
    titles: tuple[str, str] = ("", ""),
    gap: int = 3,
    width: int | None = None,
) -> str:
    """Return two blocks of text as two columns, each row marked ``!`` where they differ.

    Within ``width`` (when given) each column keeps to its share and a longer line is
    wrapped onto the next rows (marked as the row it came from).
    """
    left_lines, right_lines = left.splitlines(), right.splitlines()
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    pairs = [(titles[0], titles[1], " ")] if any(titles) else []
    pairs += [
        (a, b, CHANGED if a != b else " ") for a, b in zip(left_lines, right_lines, strict=True)
    ]
    column = max((len(a) for a, _b, _m in pairs), default=0)
    widest = max((len(b) for _a, b, _m in pairs), default=0)
    if width is not None and 2 + column + gap + widest > width:
        column = max(10, (width - 2 - gap) // 2)
        widest = max(10, width - 2 - gap - column)
    out: list[str] = []
    for a, b, mark in pairs:
        a_parts, b_parts = _chunks(a, column), _chunks(b, widest)
        for i in range(max(len(a_parts), len(b_parts))):
            a_part = a_parts[i] if i < len(a_parts) else ""
            b_part = b_parts[i] if i < len(b_parts) else ""
            out.append(f"{mark} {a_part:<{column}}{' ' * gap}{b_part}".rstrip())
    return "\n".join(out)


def _chunks(line: str, width: int) -> list[str]:
    """Return ``line`` cut into pieces of at most ``width`` characters (one when empty).

    Cut between words where it can, inside a word longer than ``width`` where it must.
    """
    if len(line) <= width:
        return [line]
    parts = textwrap.wrap(
        line, width, drop_whitespace=False, replace_whitespace=False, break_on_hyphens=False
    )
    return [part.rstrip() for part in parts] or [""]


def fit(text: str, width: int) -> str:
    """Return ``text`` with every line longer than ``width`` wrapped onto indented rows."""
    out: list[str] = []
    for line in text.splitlines():
        first, *rest = _chunks(line, width)
        out.append(first)
        out += ["    " + part for part in _chunks("".join(rest), width - 4)] if rest else []
    return "\n".join(out)


def entry_text(entry: Any, side: Side | None = None) -> str:
    """Return an event in its game's words (cards by their faces), a fault, or the log's end."""
    if entry is None:
        return "(the log ends here)"
    if isinstance(entry, Fault):
        return f"fault: seat {entry.seat} ({entry.bot}): {entry.reason} ({entry.policy})"
    if side is not None:
        return side.game.presentation.describe(entry)
    return msgspec.json.encode(entry).decode()


def view_text(side: Side, seat: int | None) -> str:
    """Return a side's state as text, as ``seat`` saw it when one is given."""
    if side.error:
        return f"(this entry cannot be folded: {side.error})"
    if seat is None:
        return side.game.presentation.render(side.state, None)
    return side.game.presentation.render_observation(side.game.observe(side.state, seat))


def describe_diff(report: DiffReport, seat: int | None = None, width: int | None = None) -> str:
    """Return a readable account of a diff: headers, the divergence, both states.

    Entries are worded as their game words them; the states are two columns with every
    row that differs marked; with ``width`` no line is wider than it.
    """
    lines: list[str] = []
    if report.header_differences:
        lines.append("headers differ in: " + ", ".join(report.header_differences))
    divergence = report.divergence
    if divergence is None:
        lines.append(f"identical: {report.events_compared} events, the same result")
        return "\n".join(lines)
    a, b = divergence.a, divergence.b
    lines.append(
        f"the logs diverge at event {divergence.seq} "
        f"({a.path} line {a.line or 'end'}, {b.path} line {b.line or 'end'}): {divergence.why}"
    )
    worded = entry_text(a.entry, a), entry_text(b.entry, b)
    lines.append(f"  A: {worded[0]}")
    lines.append(f"  B: {worded[1]}")
    if worded[0] == worded[1]:
        # The words hide the difference: show what differs, as recorded.
        lines.append(f"  A as recorded: {entry_text(a.entry)}")
        lines.append(f"  B as recorded: {entry_text(b.entry)}")
    where = "after" if a.entry is not None or b.entry is not None else "at"
    viewer = f", as seat {seat} saw it" if seat is not None else ""
    lines.append(f"states {where} that entry{viewer} ({CHANGED}: the rows that differ):")
    text = "\n".join(lines)
    columns = side_by_side(
        view_text(a, seat), view_text(b, seat), (f"A: {a.path}", f"B: {b.path}"), width=width
    )
    return (fit(text, width) if width is not None else text) + "\n" + columns


def diff_json(report: DiffReport, seat: int | None = None) -> dict[str, Any]:
    """Return a diff as a JSON-ready mapping for scripts."""
    divergence = report.divergence
    out: dict[str, Any] = {
        "identical": report.identical,
        "header_differences": report.header_differences,
        "events_compared": report.events_compared,
        "divergence": None,
    }
    if divergence is not None:
        out["divergence"] = {
            "seq": divergence.seq,
            "why": divergence.why,
            "a": _side_json(divergence.a, seat),
            "b": _side_json(divergence.b, seat),
        }
    return out


def _side_json(side: Side, seat: int | None) -> dict[str, Any]:
    view = side.state if seat is None else side.game.observe(side.state, seat)
    return {
        "path": side.path,
        "line": side.line,
        "entry": msgspec.to_builtins(side.entry),
        "view": None if side.error else msgspec.to_builtins(view),
        "error": side.error or None,
    }
