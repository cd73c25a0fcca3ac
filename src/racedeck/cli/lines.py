"""Reading commands a line at a time: with line editing and history at a terminal.

At a terminal the standard library's ``readline`` gives ``input`` its editing keys (the
arrows move in the line and recall earlier lines, Ctrl-R searches them); elsewhere (a
pipe, a script) lines are read as they come, so a scripted session reads the same.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TextIO


def line_reader(prompt: str, stream: TextIO | None = None) -> tuple[Callable[[], str | None], bool]:
    """Return a function reading the next line (``None`` at the end) and whether it prompts.

    At a terminal the reader shows ``prompt`` itself and edits the line with ``readline``;
    otherwise the caller writes the prompt (the reader's answer is ``False``).
    """
    source = stream if stream is not None else sys.stdin
    if source is sys.stdin and source.isatty():
        with contextlib.suppress(ImportError):  # a Python built without readline edits less
            import readline  # noqa: F401  (importing it is what gives input() its editing)

        def edited() -> str | None:
            # input() edits with readline only when sys.stdout is the process's own
            # standard output, not the wrapper that escapes control characters.
            shown, sys.stdout = sys.stdout, sys.__stdout__
            try:
                return input(prompt)
            except EOFError:
                return None
            finally:
                sys.stdout = shown

        return edited, True

    def plain() -> str | None:
        line = source.readline()
        return line if line else None

    return plain, False
