"""The short run of ``make fuzz``: nothing silently accepted, crashed or hung."""

from __future__ import annotations

import shutil

import pytest

from tools.fuzz.run import FAILURES, OUTCOMES, main


def test_a_short_fuzz_run_finds_nothing() -> None:
    printed: list[str] = []
    code = main(
        [
            "--rounds",
            "1",
            "--games",
            "1",
            "--bots",
            "4",
            "--tournaments",
            "1",
            "--sandbox-rounds",
            "0",
        ],
        printed.append,
    )
    report = "\n".join(printed)
    assert code == 0, report
    total = next(line for line in report.splitlines() if line.startswith("total")).split()
    counts = dict(zip(["tried", *OUTCOMES], [int(n) for n in total[1:]], strict=False))
    assert counts["tried"] > 100 and counts["caught"] > 0
    assert all(counts[outcome] == 0 for outcome in FAILURES)


SHORT_TIER = "proc,files,environment,fork-bomb,reforker,memory-bomb,writes,interrupt"


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="needs bubblewrap")
def test_a_short_sandbox_tier_contains_every_attack() -> None:
    printed: list[str] = []
    code = main(
        [
            "--rounds",
            "0",
            "--games",
            "0",
            "--bots",
            "0",
            "--tournaments",
            "0",
            "--sandbox-rounds",
            "1",
            "--attacks",
            SHORT_TIER,
        ],
        printed.append,
    )
    report = "\n".join(printed)
    assert code == 0, report
    rows = {
        line.split()[1]: line.split()[2:]
        for line in report.splitlines()
        if line.startswith("sandbox ")
    }
    assert set(SHORT_TIER.split(",")) <= set(rows)
    assert rows["total"] == ["8", "8", "0", "0"], report
