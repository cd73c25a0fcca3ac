"""The parts ``benchmarks.instructions --parts`` counts do the work they stand for.

Reading alone must read every line of the logs; the rules alone must derive every event
again from the recorded actions, as many as verifying finds. Run without valgrind: the
same worker scripts, in the same kind of fresh process, answering the same requests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks.baseline import VERIFY, environment
from benchmarks.instructions import GAMES, READ, ROOT, RULES, write


def _answers(worker: str, paths: list[str], requests: int = 2) -> list[int]:
    """Return what a fresh worker process prints for ``requests`` identical requests."""
    done = subprocess.run(
        [sys.executable, "-c", worker],
        input=(" ".join(paths) + "\n") * requests,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=environment(ROOT),
        check=True,
    )
    return [int(answer) for answer in done.stdout.split()]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_rules_alone_derive_every_event_and_reading_reads_every_line(
    game: str, tmp_path: Path
) -> None:
    """Each request to either part repeats the whole of its work: the counts say so."""
    paths = write(ROOT, game, tmp_path)
    verified = _answers(VERIFY, paths)
    assert verified[0] > 0 and verified == [verified[0]] * 2
    # The rules alone derive the very number of events the verification checked, again
    # on the second request, where the recorded actions are already decoded.
    assert _answers(RULES, paths) == verified
    # Every line but the header and the result line is an entry the reader yields (a
    # random bot's match has no fault or debug lines).
    lines = sum(len(Path(path).read_bytes().splitlines()) - 2 for path in paths)
    assert _answers(READ, paths) == [lines, lines]
