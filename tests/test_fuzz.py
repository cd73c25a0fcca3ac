"""The short run of ``make fuzz``: nothing silently accepted, crashed or hung."""

from __future__ import annotations

from racedeck.fuzz.run import FAILURES, OUTCOMES, main


def test_a_short_fuzz_run_finds_nothing() -> None:
    printed: list[str] = []
    code = main(["--rounds", "1", "--games", "1", "--bots", "4", "--tournaments", "1"], printed.append)
    report = "\n".join(printed)
    assert code == 0, report
    total = next(line for line in report.splitlines() if line.startswith("total")).split()
    counts = dict(zip(["tried", *OUTCOMES], [int(n) for n in total[1:]], strict=False))
    assert counts["tried"] > 100 and counts["caught"] > 0
    assert all(counts[outcome] == 0 for outcome in FAILURES)
