"""Memory stays flat however many matches a tournament plays."""

from __future__ import annotations

import tracemalloc
from collections.abc import Iterable, Iterator
from pathlib import Path

from racedeck.tournament.executors import Batch, Executor
from racedeck.tournament.record import OK, MatchRecord, PlayedMatch
from racedeck.tournament.run import play
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store


class InstantExecutor(Executor):
    """Answers every batch at once with made-up results, so only the pipeline is measured."""

    workers = 2

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        for batch in batches:
            yield [
                PlayedMatch(
                    MatchRecord(
                        index=i,
                        seed=i,
                        deal=i,
                        seats=("a", "b"),
                        status=OK,
                        ranks=(1, 2),
                        scores=(5, 3),
                        unit="points",
                    )
                )
                for i in batch
            ]


def _peak(tmp_path: Path, matches: int) -> int:
    spec = TournamentSpec(game="g", bots=("a", "b"), players=2, matches=matches, seed=0)
    with Store.create(tmp_path / f"{matches}.sqlite", spec) as store:
        tracemalloc.start()
        played = play(store, InstantExecutor())
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert played == matches
    return peak


def test_playing_holds_no_results_in_memory(tmp_path: Path) -> None:
    # Both runs are longer than one commit batch (COMMIT_ROWS), which is all that is held.
    small, large = _peak(tmp_path, 5_000), _peak(tmp_path, 50_000)
    assert large < small * 1.3 + 100_000, (small, large)
