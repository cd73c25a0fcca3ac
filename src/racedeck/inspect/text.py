"""Plain-text pictures shared by the commands: two columns side by side, an entry's JSON."""

from __future__ import annotations

from typing import Any

import msgspec

from racedeck.inspect.diff import DiffReport, Side


def side_by_side(left: str, right: str, titles: tuple[str, str] = ("", ""), gap: int = 3) -> str:
    """Return two blocks of text as two columns, the left one padded to its widest line."""
    left_lines = ([titles[0]] if titles[0] else []) + left.splitlines()
    right_lines = ([titles[1]] if titles[1] else []) + right.splitlines()
    width = max((len(line) for line in left_lines), default=0)
    rows = max(len(left_lines), len(right_lines))
    left_lines += [""] * (rows - len(left_lines))
    right_lines += [""] * (rows - len(right_lines))
    return "\n".join(
        (f"{a:<{width}}{' ' * gap}{b}").rstrip()
        for a, b in zip(left_lines, right_lines, strict=True)
    )


def entry_text(entry: Any) -> str:
    """Return an event or fault as one line of JSON, or a note that the log has ended."""
    if entry is None:
        return "(the log ends here)"
    return msgspec.json.encode(entry).decode()


def view_text(side: Side, seat: int | None) -> str:
    """Return a side's state as text, as ``seat`` saw it when one is given."""
    if side.error:
        return f"(this entry cannot be folded: {side.error})"
    if seat is None:
        return side.game.presentation.render(side.state, None)
    return side.game.presentation.render_observation(side.game.observe(side.state, seat))


def describe_diff(report: DiffReport, seat: int | None = None) -> str:
    """Return a readable account of a diff: headers, the divergence, both states."""
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
    lines.append(f"  A: {entry_text(a.entry)}")
    lines.append(f"  B: {entry_text(b.entry)}")
    where = "after" if a.entry is not None or b.entry is not None else "at"
    viewer = f", as seat {seat} saw it" if seat is not None else ""
    lines.append(f"states {where} that entry{viewer}:")
    lines.append(
        side_by_side(view_text(a, seat), view_text(b, seat), (f"A: {a.path}", f"B: {b.path}"))
    )
    return "\n".join(lines)


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
