"""Run every ``benchmarks/bench_*.py`` module, or those named on the command line.

Each module defines ``benchmarks() -> list[Benchmark]``. Exit status 1 when a benchmark
misses its target.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from pathlib import Path

from benchmarks.harness import Ratio, measure, measure_ratio, ratio_line, report_line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("only", nargs="*", help="module names, such as bench_lacorsa")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one JSON object a benchmark")
    args = parser.parse_args()
    folder = Path(__file__).parent
    names = sorted(
        info.name for info in pkgutil.iter_modules([str(folder)]) if info.name.startswith("bench_")
    )
    if args.only:
        names = [n for n in names if n in args.only]
    missed = 0
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        for benchmark in module.benchmarks():
            if isinstance(benchmark, Ratio):
                r = measure_ratio(benchmark, args.repeats)
                if args.json:
                    print(
                        json.dumps(
                            {
                                "name": benchmark.name,
                                "unit": "ratio",
                                "median": r.median,
                                "ratios": r.ratios,
                                "measured": r.measured,
                                "reference": r.reference,
                                "target": benchmark.target,
                            }
                        )
                    )
                else:
                    print(ratio_line(r), flush=True)
                missed += r.passed is False
                continue
            m = measure(benchmark, args.repeats)
            if args.json:
                print(
                    json.dumps(
                        {
                            "name": benchmark.name,
                            "unit": benchmark.unit,
                            "median": m.median,
                            "rates": m.rates,
                            "target": benchmark.target,
                        }
                    )
                )
            else:
                print(report_line(m), flush=True)
            missed += m.passed is False
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
