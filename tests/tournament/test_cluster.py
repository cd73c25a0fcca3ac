"""Tournaments on a real Ray cluster: a head and two worker nodes, joined with --ray-address.

The nodes are separate processes on this machine, started with Ray's own cluster utility
(``ray.cluster_utils.Cluster``), exactly as ``ray start`` would start them on separate
machines: each has its own raylet, object store and worker processes, and one can be
killed while the others play on. The head has no CPUs, so every match is played on a
worker node. On one of the two worker nodes the test plugin's ``skewed`` bot has another
version than everywhere else (as if that machine had another release installed); only a
tournament that enters that bot notices. Every tournament runs as its own ``racedeck`` process (the driver) joining
the cluster, as a user's would. These tests run wherever Ray is installed (the ``dev``
extra installs it).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from racedeck.core.errors import EXIT_BAD_INPUT
from tests.tournament.conftest import PLUGINS, rows, rows_or_none

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")
psutil = pytest.importorskip("psutil")  # Ray's own copy, on the path once Ray is imported

MB = 1024**2
HEAD = {
    "num_cpus": 0,
    "object_store_memory": 100 * MB,
    "node_ip_address": "127.0.0.1",
    "include_dashboard": False,
}
WORKER = {"num_cpus": 1, "object_store_memory": 100 * MB, "node_ip_address": "127.0.0.1"}

MATCHES = 2000
TOURNAMENT = [
    "tournament",
    "lacorsa",
    "--bot",
    "heuristic",
    "--bot",
    "random",
    "-o",
    "races=1",
    "--players",
    "4",
    "--matches",
    str(MATCHES),
    "--seed",
    "16",
    "--keep-logs",
    "all",
    "--json",
]
TIMEOUT = 120
"""Seconds any one run may take before the test gives up on it."""


SKEW = {"RACEDECK_TEST_SKEW": "2"}
"""The environment of the node on which the ``skewed`` test bot has version 2, not 1."""


class RayCluster:
    """The Ray cluster the tests join: its address and its two worker nodes."""

    def __init__(self, made: Any) -> None:
        self.made = made
        self.address: str = made.address
        self.plain = _add(made)
        self.skewed = _add(made, **SKEW)

    def replace_plain(self) -> None:
        """Start a new plain node, after the first one was killed."""
        self.plain = _add(self.made)


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A head and two worker nodes with one CPU each, torn down whatever happens."""
    with pytest.MonkeyPatch.context() as env:
        # Ray finds a node's address by the route out of the machine; this makes it the
        # loopback address, so the cluster (and every driver the tests start) stays on
        # 127.0.0.1.
        env.setenv("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
        env.delenv("RAY_ADDRESS", raising=False)
        made = cluster_utils.Cluster(shutdown_at_exit=True)
        try:
            made.add_node(**HEAD)
            yield RayCluster(made)
        finally:
            _tear_down(made)


def _processes(node: Any) -> list[Any]:
    """Every process a node started (raylet, object store, workers...), by pid."""
    found = []
    for entries in node.all_processes.values():
        for entry in entries:
            with contextlib.suppress(psutil.NoSuchProcess):
                process = psutil.Process(entry.process.pid)
                found += [process, *process.children(recursive=True)]
    return found


def _kill(processes: list[Any]) -> None:
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(processes, timeout=10)


def _tear_down(made: Any) -> None:
    if ray.is_initialized():
        ray.shutdown()
    nodes = [n for n in (made.head_node, *made.worker_nodes) if n is not None]
    processes = [p for node in nodes for p in _processes(node)]
    with contextlib.suppress(Exception):
        made.shutdown()
    _kill(processes)  # whatever shutdown left, by pid: never another Ray on the machine


def _remove(made: Any, node: Any) -> None:
    """Kill a worker node at once, as a machine that loses its power."""
    processes = _processes(node)
    made.remove_node(node, allow_graceful=False)
    _kill(processes)


def _add(made: Any, **environment: str) -> Any:
    """Start one more worker node, its processes seeing ``environment`` besides ours."""
    with pytest.MonkeyPatch.context() as env:
        for key, value in environment.items():
            env.setenv(key, value)
        node = made.add_node(**WORKER)
    made.wait_for_nodes()
    return node


def contents(db: Path) -> list[tuple[object, ...]]:
    """The rows of a database, each kept log's path replaced by its file name and bytes."""
    found = []
    for row in rows(db):
        log = Path(str(row[-1]))
        found.append((*row[:-1], log.name, log.read_bytes()))
    return found


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[object, ...]]:
    """The tournament as two local worker processes play it."""
    db = tmp_path_factory.mktemp("reference") / "local.sqlite"
    done = racedeck(*TOURNAMENT, "--workers", "2", "--db", str(db))
    assert done.returncode == 0, done.stderr
    found = contents(db)
    assert len(found) == MATCHES
    return found


def on(cluster: RayCluster) -> list[str]:
    """The options that run a tournament on the cluster."""
    return ["--executor", "ray", "--ray-address", cluster.address]


def racedeck(*args: str) -> subprocess.CompletedProcess[str]:
    """Run a racedeck command in its own process, as a user would; wait for it to end."""
    command = [sys.executable, "-m", "racedeck", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT)


def _driver(cluster: RayCluster, db: Path) -> subprocess.Popen[bytes]:
    """Start the tournament in its own process, joined to the cluster; do not wait."""
    command = [sys.executable, "-m", "racedeck", *TOURNAMENT, *on(cluster), "--db", str(db)]
    return subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
    )


def _wait_for_rows(db: Path, driver: subprocess.Popen[bytes], least: int) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline and driver.poll() is None:
        found = rows_or_none(db)
        if found is not None and len(found) >= least:
            return
        time.sleep(0.02)
    assert driver.poll() is None, "the tournament ended before it could be interrupted"
    raise AssertionError(f"no {least} matches recorded within {TIMEOUT} s")


def _indices(out: str) -> list[int]:
    lines = [json.loads(line) for line in out.splitlines()]
    return [line["index"] for line in lines if line["kind"] == "match"]


def test_a_cluster_plays_exactly_the_tournament_local_processes_play_and_sends_logs_home(
    cluster: RayCluster, reference: list[tuple[object, ...]], tmp_path: Path
) -> None:
    db = tmp_path / "cluster.sqlite"
    done = racedeck(*TOURNAMENT, *on(cluster), "--db", str(db))
    assert done.returncode == 0, done.stderr
    assert contents(db) == reference
    logs = sorted((tmp_path / "cluster-logs").iterdir())
    assert len(logs) == MATCHES and all(p.name.endswith(".jsonl.gz") for p in logs)


def test_each_match_comes_home_as_it_finishes_not_with_its_batch(
    cluster: RayCluster, tmp_path: Path
) -> None:
    # Eight matches on two one-CPU nodes are two batches of four (``MIN_BATCH``); each
    # match takes over a second. Handed back with their batch, the first rows would
    # appear four at a time after four seconds.
    db = tmp_path / "t.sqlite"
    args = ["tournament", "lacorsa", "-o", "races=1", "--players", "2", "--matches", "8"]
    bots = ["--bot", "pausing", "--bot", "random", "--seed", "1"]
    command = [sys.executable, "-m", "racedeck", *args, *bots, "--plugins-dir", str(PLUGINS)]
    driver = subprocess.Popen(
        [*command, *on(cluster), "--db", str(db)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        _wait_for_rows(db, driver, 1)
        first = len(rows(db))
        _, err = driver.communicate(timeout=TIMEOUT)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
    assert driver.returncode == 0, err.decode()
    assert first <= 2, f"{first} matches arrived together: they came home with their batch"
    assert len(rows(db)) == 8


def test_a_worker_node_killed_mid_run_loses_and_repeats_no_match(
    cluster: RayCluster, reference: list[tuple[object, ...]], tmp_path: Path
) -> None:
    db = tmp_path / "t.sqlite"
    driver = _driver(cluster, db)
    try:
        _wait_for_rows(db, driver, 1)
        _remove(cluster.made, cluster.plain)
        out, err = driver.communicate(timeout=TIMEOUT)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
        cluster.replace_plain()
    assert driver.returncode == 0, err.decode()
    assert sorted(_indices(out.decode())) == list(range(MATCHES)), "each match reported once"
    assert contents(db) == reference


def test_the_driver_killed_with_kill_9_resumes_against_the_cluster_to_the_same_database(
    cluster: RayCluster, reference: list[tuple[object, ...]], tmp_path: Path
) -> None:
    db = tmp_path / "t.sqlite"
    driver = _driver(cluster, db)
    try:
        _wait_for_rows(db, driver, 1)
        os.kill(driver.pid, signal.SIGKILL)
        assert driver.wait(timeout=10) == -signal.SIGKILL
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(driver.pid, signal.SIGKILL)
    before = {row[0] for row in rows(db)}
    assert 0 < len(before) < MATCHES
    done = racedeck("tournament", "resume", str(db), *on(cluster), "--json")
    assert done.returncode == 0, done.stderr
    assert sorted(_indices(done.stdout)) == sorted(set(range(MATCHES)) - before), "the missing"
    assert contents(db) == reference
    assert not list((tmp_path / "t-logs").glob("*.partial"))


def test_the_plugins_dir_travels_to_the_nodes(cluster: RayCluster, tmp_path: Path) -> None:
    plugins = tmp_path / "plugins"
    shutil.copytree(PLUGINS, plugins)
    args = ["tournament", "lacorsa", "--bot", "where", "--bot", "random", "--matches", "4"]
    db = tmp_path / "t.sqlite"
    done = racedeck(*args, "--plugins-dir", str(plugins), *on(cluster), "--db", str(db), "--json")
    assert done.returncode == 0, done.stderr
    reasons = {json.loads(line).get("reason") for line in done.stdout.splitlines()[:-1]}
    folders = {Path(r.partition("loaded from ")[2]) for r in reasons}
    assert len(folders) >= 1 and plugins not in folders, "played from each node's own copy"
    for folder in folders:
        copy = folder / "tournament_test_bots.py"
        assert copy.read_bytes() == (plugins / "tournament_test_bots.py").read_bytes()


def test_a_node_that_loads_another_version_of_a_bot_stops_the_run_before_any_match(
    cluster: RayCluster, tmp_path: Path
) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", "lacorsa", "--bot", "skewed", "--bot", "random"]
    done = racedeck(*args, "--plugins-dir", str(PLUGINS), *on(cluster), "--db", str(db))
    assert done.returncode == EXIT_BAD_INPUT, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith("racedeck: error: node 127.0.0.1 (")
    assert line.endswith(
        f"id {cluster.skewed.node_id[:8]}): bot 'skewed' loads at version 2, the tournament recorded version 1"
    )
    assert rows(db) == []


def test_a_bot_that_kills_its_worker_costs_its_match_only_on_a_cluster(
    cluster: RayCluster, tmp_path: Path
) -> None:
    args = ["tournament", "lacorsa", "-o", "races=1", "--players", "2", "--matches", "3"]
    bots = ["--bot", "heuristic", "--bot", "random", "--bot", "exiter"]
    db = tmp_path / "t.sqlite"
    done = racedeck(
        *args, *bots, "--plugins-dir", str(PLUGINS), *on(cluster), "--db", str(db), "--json"
    )
    assert done.returncode == 0, done.stderr
    matches = [json.loads(line) for line in done.stdout.splitlines()[:-1]]
    assert sorted(m["index"] for m in matches) == [0, 1, 2]
    for m in matches:
        if "exiter" in m["seats"]:
            # Played again with every bot in a process of its own: the exiter's seat is
            # at fault, and the match counts like any other forfeit.
            assert m["status"] == "forfeit" and "exited (code 3)" in m["reason"], m
            assert m["seats"][m["fault_seat"]] == "exiter"
        else:
            assert m["status"] == "ok"
