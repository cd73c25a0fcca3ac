"""The tournament driver's side: how fast the store takes records, and what a match weighs.

``make bench`` measures the records a second the driver commits (target: 20,000), taking
them as the executors hand them over (batches of 256) through the same path a
tournament uses (``racedeck.tournament.run.play``: the recorder, batched transactions
synced to disk); the same store taking one transaction a record, for comparison; and the
database's size per match. The records are real ones: LACORSA matches of four random
bots, played once and numbered again.

The one-off measurements quoted in ``docs/tournaments.md`` are commands of this module:

    python -m benchmarks.bench_store driver [--nodes 100 --cores 8]
    python -m benchmarks.bench_store million [--matches 1000000]

``driver`` measures each game's cost per match on this machine (play, record, compress a
log), then feeds the driver batches of records, encoded as Ray hands them back, at the
rate that many nodes would send them, and reports whether it keeps up; ``million`` runs a
LACORSA tournament of random bots with the command line and samples the memory of the
driver and of its workers as it goes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

import msgspec

from benchmarks.harness import Benchmark
from racedeck.plugins import load_registry
from racedeck.tournament.executors import Batch, Executor
from racedeck.tournament.plan import plan_tournament, with_log_dir
from racedeck.tournament.ray_executor import RAY_MAX_BATCH
from racedeck.tournament.record import PlayedMatch
from racedeck.tournament.run import play
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.store import Store
from racedeck.tournament.worker import run_batch

INGEST_RECORDS = 50_000
SINGLE_RECORDS = 200
INGEST_TARGET = 20_000

_registry = load_registry(entry_points=False)


def _spec(
    game: str,
    matches: int,
    players: int,
    options: dict[str, object] | None = None,
    keep_logs: str = "none",
) -> TournamentSpec:
    return plan_tournament(
        _registry,
        game,
        ["random", "heuristic"],
        matches=matches,
        seed=1,
        players=players,
        options=options or {},
        keep_logs=keep_logs,
        entry_points=False,
    )


def _sample(spec: TournamentSpec, count: int = 64) -> list[PlayedMatch]:
    """Real matches of ``spec``'s game between random bots."""
    randoms = msgspec.structs.replace(spec, bots=("random", "random"), bot_versions={})
    return run_batch(randoms, range(count))


def _numbered(sample: list[PlayedMatch], start: int, stop: int) -> list[PlayedMatch]:
    """The sample's matches again and again, numbered ``start`` to ``stop - 1``."""
    return [
        PlayedMatch(
            msgspec.structs.replace(sample[i % len(sample)].record, index=i),
            sample[i % len(sample)].log,
        )
        for i in range(start, stop)
    ]


class Handed(Executor):
    """Hands over prepared matches, a batch at a time, as fast as the driver takes them."""

    workers = 2
    max_batch = RAY_MAX_BATCH

    def __init__(self, matches: list[PlayedMatch]) -> None:
        self.matches = matches

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        for batch in batches:
            yield self.matches[batch[0] : batch[-1] + 1]


_lacorsa = _spec("lacorsa", INGEST_RECORDS, 4, {"races": 1})
_prepared: list[PlayedMatch] = []
_sizes: list[float] = []


def _ingest_batched() -> int:
    if not _prepared:
        _prepared.extend(_numbered(_sample(_lacorsa), 0, INGEST_RECORDS))
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.sqlite"
        with Store.create(path, _lacorsa) as store:
            played = play(store, Handed(_prepared))
        _sizes.append(path.stat().st_size / played)
    return played


def _ingest_single() -> int:
    if not _prepared:
        _prepared.extend(_numbered(_sample(_lacorsa), 0, INGEST_RECORDS))
    with (
        tempfile.TemporaryDirectory() as folder,
        Store.create(Path(folder) / "t.sqlite", _lacorsa) as store,
    ):
        for match in _prepared[:SINGLE_RECORDS]:
            store.add(match.record)
    return SINGLE_RECORDS


def benchmarks() -> Iterator[Benchmark]:
    yield Benchmark(
        f"store: records committed in batches (target {INGEST_TARGET:,})",
        "records",
        _ingest_batched,
        INGEST_TARGET,
    )
    yield Benchmark("store: one transaction a record (for comparison)", "records", _ingest_single)
    print(f"store: {statistics.median(_sizes):.0f} bytes of database a match (lacorsa, 4 seats)")


# One-off measurements -----------------------------------------------------------------------

GAMES: list[tuple[str, int, dict[str, object]]] = [
    ("lacorsa", 4, {"races": 1}),
    ("lacorsa", 4, {}),
    ("detroit-cleveland", 4, {}),
    ("famous-500", 2, {}),
    ("wacky-races", 4, {}),
]
"""The games of the hundred-node table, with their seats and options."""


class Paced(Executor):
    """Hands the driver batches of matches at a set rate, as a cluster's workers would.

    The batches come as msgpack bytes, as the Ray executor receives them, and are decoded
    here, in the driver's time, as they would be. The executor's own cut of the schedule
    is not used: the batches are the Ray maximum throughout, as on a large cluster.
    """

    max_batch = RAY_MAX_BATCH
    workers = 1

    def __init__(self, payloads: list[bytes], rate: float) -> None:
        self.payloads = payloads
        self.rate = rate
        self.behind = 0.0
        """The most seconds the driver fell behind the cluster's pace."""

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        decode = msgspec.msgpack.Decoder(list[PlayedMatch]).decode
        start = time.perf_counter()
        sent = 0
        for payload in self.payloads:
            due = start + sent / self.rate
            lag = time.perf_counter() - due
            if lag < 0:
                time.sleep(-lag)
            self.behind = max(self.behind, lag)
            played = decode(payload)
            sent += len(played)
            yield played


class Driven(msgspec.Struct):
    """How the driver fared against a cluster's pace."""

    offered: float
    achieved: float
    behind: float
    cpu: float
    """The driver's processor seconds a match (decoding, logs, store)."""


def _drive(spec: TournamentSpec, sample: list[PlayedMatch], rate: float, count: int) -> Driven:
    """Feed ``count`` matches at ``rate`` to a real store, as ``play`` takes them."""
    encode = msgspec.msgpack.Encoder().encode
    payloads = [
        encode(_numbered(sample, first, min(first + RAY_MAX_BATCH, count)))
        for first in range(0, count, RAY_MAX_BATCH)
    ]
    feed = Paced(payloads, rate)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.sqlite"
        spec = with_log_dir(msgspec.structs.replace(spec, matches=count), path)
        with Store.create(path, spec) as store:
            start, cpu = time.perf_counter(), time.process_time()
            play(store, feed)
            took, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Driven(rate, count / took, feed.behind, cpu / count)


def _per_match(spec: TournamentSpec, count: int) -> tuple[float, float, float]:
    """Return a worker's seconds a match without and with a kept log, and the log's size."""
    randoms = msgspec.structs.replace(spec, bots=("random", "random"), bot_versions={})
    run_batch(randoms, range(2))
    timed = []
    for keep in ("none", "all"):
        start = time.process_time()
        matches = run_batch(msgspec.structs.replace(randoms, keep_logs=keep), range(count))
        timed.append((time.process_time() - start) / count)
    return timed[0], timed[1], statistics.mean(len(m.log) for m in matches)


def _ray_task_cost(payload: bytes, tasks: int) -> tuple[float, float]:
    """Return Ray's round trips a second on a local instance, and the driver's CPU per task.

    Each task hands back ``payload`` (a batch of 256 records); the driver keeps two tasks
    per CPU in flight and waits as the Ray executor does.
    """
    import ray

    ray.init(
        address="local",
        num_cpus=2,
        include_dashboard=False,
        object_store_memory=200 * 2**20,
        log_to_driver=False,
        configure_logging=False,
    )
    try:

        @ray.remote(max_retries=0)
        def back() -> bytes:
            return payload

        ray.get([back.remote() for _ in range(20)])
        pending = []
        start, cpu = time.perf_counter(), time.process_time()
        submitted = 0
        while submitted < tasks or pending:
            while submitted < tasks and len(pending) < 4:
                pending.append(back.remote())
                submitted += 1
            done, pending = ray.wait(pending, num_returns=1)
            ray.get(done[0])
        took, cpu = time.perf_counter() - start, time.process_time() - cpu
    finally:
        ray.shutdown()
    return tasks / took, cpu / tasks


def driver(nodes: int, cores: int, seconds: float) -> None:
    """Print each game's cost per match and whether one driver keeps up with the cluster."""
    workers = nodes * cores
    print(f"{nodes} nodes x {cores} cores = {workers} workers\n")
    lacorsa = _spec("lacorsa", 1, 4, {"races": 1}, keep_logs="none")
    payload = msgspec.msgpack.Encoder().encode(_numbered(_sample(lacorsa), 0, RAY_MAX_BATCH))
    trips, per_task = _ray_task_cost(payload, 2000)
    print(
        f"Ray, local instance: {trips:,.0f} tasks a second round trip; the driver spends"
        f" {per_task * 1e3:.2f} ms of CPU a task ({per_task / RAY_MAX_BATCH * 1e6:.1f} us a"
        f" match in batches of {RAY_MAX_BATCH})\n"
    )
    for game, players, options in GAMES:
        spec = _spec(game, 1, players, options)
        plain, with_log, log_bytes = _per_match(spec, 40 if options else 12)
        name = f"{game} {options or ''}".strip()
        print(
            f"{name}: a worker plays and records a match in {plain * 1e3:.2f} ms;"
            f" keeping its log adds {(with_log - plain) * 1e3:.2f} ms and"
            f" {log_bytes / 1024:.1f} KiB"
        )
        for keep, cost in (("none", plain), ("all", with_log)):
            kept = msgspec.structs.replace(spec, keep_logs=keep, log_compression="gzip")
            offered = workers / cost
            count = int(min(offered * seconds, 400_000 if keep == "none" else 40_000))
            fared = _drive(kept, _sample(kept), offered, max(count, 4 * RAY_MAX_BATCH))
            per_match = fared.cpu + per_task / RAY_MAX_BATCH
            verdict = "keeps up" if fared.achieved >= 0.97 * offered else "falls behind"
            print(
                f"  keep-logs {keep}: {workers} workers send {offered:,.0f} a second; the driver"
                f" took {fared.achieved:,.0f} a second ({verdict}, at most {fared.behind:.2f} s"
                f" behind), {fared.cpu * 1e6:.1f} us of CPU a match, {per_match * 1e6:.1f} us"
                f" with Ray's share: one driver core serves {1 / per_match:,.0f} a second"
            )


SECOND_RANDOM = '''"""A second random bot, so that a tournament can seat random bots only."""

from racedeck.bots.random_bot import RandomBot
from racedeck.core.bot import BotSpec
from racedeck.hookspecs import hookimpl


@hookimpl
def racedeck_register_bots(register):
    register(BotSpec(name="random-b", factory=RandomBot, description="random, again"))
'''


def million(matches: int, workers: int, sample_every: float) -> None:
    """Run a LACORSA tournament of random bots; print the driver's and workers' memory."""
    with tempfile.TemporaryDirectory() as folder:
        plugins = Path(folder) / "plugins"
        plugins.mkdir()
        (plugins / "random_b.py").write_text(SECOND_RANDOM)
        db = Path(folder) / "million.sqlite"
        command = [
            *("racedeck", "tournament", "lacorsa", "--bot", "random", "--bot", "random-b"),
            *("--players", "4", "-o", "races=1", "--matches", str(matches)),
            *("--workers", str(workers), "--plugins-dir", str(plugins), "--db", str(db)),
        ]
        print("$", " ".join(command), flush=True)
        start = time.monotonic()
        driver = subprocess.Popen(
            [sys.executable, "-m", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        samples: list[tuple[float, int, int, int]] = []
        played = 0.0
        """Seconds until the last match was committed (then the standings are computed)."""
        next_sample = sample_every
        while driver.poll() is None:
            time.sleep(1)
            now = time.monotonic() - start
            done = _recorded(db) if not played else matches
            if done == matches and not played:
                played = now
            if now < next_sample:
                continue
            next_sample += sample_every
            try:
                mine = _rss(driver.pid)
                theirs = sum(_rss(child) for child in _children(driver.pid))
            except OSError:
                break
            if not mine:  # it has just ended
                break
            samples.append((now, done, mine, theirs))
            print(
                f"{now:8.0f} s  {done:>9,} matches  driver {mine / 2**20:6.1f} MiB"
                f"  workers {theirs / 2**20:6.1f} MiB",
                flush=True,
            )
        out, err = driver.communicate()
        took = time.monotonic() - start
        if driver.returncode != 0:
            raise SystemExit(f"the tournament failed: {err.decode()}")
        played = played or took
        size = db.stat().st_size
        print(out.decode().splitlines()[0])
        print(
            f"{matches:,} matches played and committed in {played:,.0f} s"
            f" ({matches / played:,.0f} a second), standings {took - played:,.0f} s more;"
            f" database {size / 2**20:,.1f} MiB ({size / matches:.0f} bytes a match)"
        )
        if samples:
            tenth = samples[: max(1, len(samples) // 10)]
            print(
                "driver memory: "
                f"{max(s[2] for s in tenth) / 2**20:.1f} MiB at most in the first tenth,"
                f" {max(s[2] for s in samples) / 2**20:.1f} MiB at most overall;"
                f" workers {max(s[3] for s in samples) / 2**20:.1f} MiB at most"
            )


def _recorded(db: Path) -> int:
    """Matches committed so far (another connection's view)."""
    if not db.exists():
        return 0
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(db, timeout=1)) as connection:
            return int(connection.execute("SELECT COUNT(*) FROM matches").fetchone()[0])
    except sqlite3.Error:
        return 0


def _rss(pid: int) -> int:
    """Resident memory of a process, in bytes (Linux)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    one = commands.add_parser("driver", help="feed the driver at a cluster's rate")
    one.add_argument("--nodes", type=int, default=100)
    one.add_argument("--cores", type=int, default=8)
    one.add_argument("--seconds", type=float, default=10.0)
    two = commands.add_parser("million", help="a million-match tournament's memory")
    two.add_argument("--matches", type=int, default=1_000_000)
    two.add_argument("--workers", type=int, default=2)
    two.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    args = parser.parse_args()
    if args.command == "driver":
        driver(args.nodes, args.cores, args.seconds)
    else:
        million(args.matches, args.workers, args.every)


if __name__ == "__main__":
    main()
