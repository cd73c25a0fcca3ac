"""The Ray executor: each batch of matches is a Ray task, on a local instance or a cluster.

A task is a Ray generator: it hands back each match the moment it finishes, so the driver
records it (and the progress line counts it) while the rest of the batch plays on. Batches
still spread the cost of shipping a task over many matches.

On a cluster three things matter that do not on one machine:

- **Plugins travel.** A ``--plugins-dir`` is shipped to every node as the job's working
  directory (Ray's runtime environment uploads it once and unpacks it on each node,
  where the workers run in that copy), so it need not exist on the nodes.
- **Every node is checked first.** Before the first match, one small task on each node
  with CPUs loads the registry there and reports the versions of the game and the bots;
  a node that loads another version (or cannot load a bot) stops the run with one line
  naming the node and the bot. A node that joins later is checked by its first batch,
  which refuses to play (``racedeck.tournament.worker.check_versions``).
- **Nodes die.** A batch lost with its node (the node died while playing it, or its
  finished result was still on that node) is submitted again and played elsewhere, so
  a lost node costs time, never a match; nothing is recorded twice, since only the
  matches of a batch that have not arrived yet are submitted again. A batch whose worker
  process died (a bot that kills its process) is split into the single matches it had
  not handed back yet, played apart; a match whose worker dies twice is recorded as
  ``error``, as on local processes. Ray's own retries are off, so that a bot that kills
  its worker is not played four times over.

Matches come back encoded with msgpack, which the driver decodes faster than pickles: at
cluster rates the driver's time per record is what limits the run.
"""

from __future__ import annotations

import importlib
import logging
import os
import socket
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from racedeck.core import diagnostics
from racedeck.core.errors import PluginError, RacedeckError, UsageError
from racedeck.tournament.executors import Batch, Executor, default_workers
from racedeck.tournament.record import PlayedMatch
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.worker import (
    VersionMismatch,
    died_record,
    iter_batch,
    loaded_versions,
    version_problem,
)

RAY_MAX_BATCH = 256
"""The most matches one Ray task plays: a Ray task costs more to ship than a pool's."""

LOCAL_OBJECT_STORE = 256 * 1024**2
"""Bytes of object store a local Ray instance reserves: batches and records are small."""

RESUBMITS = 3
"""How often a batch lost with its node is submitted again before the run gives up."""

CRASHES = 2
"""How often a single match's worker process must die before the match is recorded so."""

CHECK_TIMEOUT = 120.0
"""Seconds every node has to answer the version check before the first match."""

CONNECT_TIMEOUT = 10.0
"""Seconds to reach a cluster's address before Ray is asked to join it (Ray waits forever)."""

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(PlayedMatch)

_log = diagnostics.get_logger(component="executor")


def play_batch(
    spec: TournamentSpec, indices: Sequence[int], shipped: bool, isolate: bool = False
) -> Iterator[bytes]:
    """Play a batch on a Ray worker, yielding each match encoded with msgpack as it finishes.

    With ``isolate`` every bot plays in a process of its own (a match played again after
    its worker died).

    With ``shipped``, the worker runs in its node's copy of the ``--plugins-dir`` and
    loads the plugins from there.
    """
    for played in iter_batch(_here(spec, shipped), indices, isolate):
        yield _encoder.encode(played)


def node_versions(spec: TournamentSpec, shipped: bool) -> dict[str, str]:
    """Return the versions of the spec's game and bots as a worker on this node loads them."""
    return loaded_versions(_here(spec, shipped))


def _here(spec: TournamentSpec, shipped: bool) -> TournamentSpec:
    if shipped:
        return msgspec.structs.replace(spec, plugins_dir=os.getcwd())
    return spec


class RayExecutor(Executor):
    """Runs batches as Ray tasks, on a local Ray instance or a cluster at ``address``.

    Without an address it starts a local instance limited to ``workers`` CPUs (never
    joining another Ray that happens to run on the machine) and stops it on close; with
    one it joins that cluster, whose nodes must have racedeck and any plugin packages the
    tournament uses installed (a ``--plugins-dir`` travels by itself).
    """

    max_batch = RAY_MAX_BATCH

    def __init__(
        self, workers: int | None, address: str | None = None, plugins_dir: str | None = None
    ) -> None:
        try:
            ray: Any = importlib.import_module("ray")
        except ImportError:
            raise UsageError("--executor ray needs Ray: pip install 'racedeck[ray]'") from None
        self._ray = ray
        self._started = False
        self._shipped: str | None = None
        """The ``--plugins-dir`` every worker of this job runs in a copy of."""
        self._ray_level: int | None = None
        """The level of Ray's logger before a local instance was started, to restore."""
        if not ray.is_initialized():
            if address is not None:
                _check_reachable(address)
            else:
                # A local instance is the run's own, started and stopped with it: Ray's
                # warnings about it (token authentication, where its object store lives)
                # are nothing a user acts on, and would be the only lines on stderr that
                # are not racedeck's. A cluster's are its owner's to see.
                self._ray_level = logging.getLogger("ray").level
                logging.getLogger("ray").setLevel(logging.ERROR)
            try:
                ray.init(
                    address=address or "local",
                    runtime_env={"working_dir": plugins_dir} if plugins_dir else None,
                    num_cpus=None if address else (workers or default_workers()),
                    include_dashboard=False,
                    object_store_memory=None if address else LOCAL_OBJECT_STORE,
                    log_to_driver=False,
                    configure_logging=False,
                )
            except BaseException:
                self.close()
                raise
            self._started = True
            self._shipped = plugins_dir
            self._quiet(True)
        self.workers = workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
        _log.debug("ray pool started", workers=self.workers, address=address or "local")
        self._play = ray.remote(max_retries=0)(play_batch)
        self._versions = ray.remote(max_retries=0)(node_versions)
        self._checked: set[bytes] = set()

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield each played match as soon as its Ray task hands it back."""
        ray = self._ray
        shipped = self._ships(spec)
        self.check_nodes(spec)
        task = self._play
        spec_ref = ray.put(spec)
        source = iter(batches)
        pending: dict[Any, _Task] = {}
        again: deque[_Task] = deque()
        try:
            while True:
                while len(pending) < 2 * self.workers:
                    if again:
                        work = again.popleft()
                    else:
                        batch = next(source, [])
                        if not batch:
                            break
                        work = _Task(list(batch))
                    # A single match that crashed its worker is played again with every
                    # bot in a process of its own: the bot that crashes costs its seat.
                    isolate = work.crashes > 0 and len(work.batch) == 1
                    pending[task.remote(spec_ref, work.batch, shipped, isolate)] = work
                if not pending:
                    return
                streams = list(pending)
                ready, _ = ray.wait(streams, num_returns=len(streams), timeout=0)
                if not ready:
                    ready, _ = ray.wait(streams, num_returns=1, timeout=tick)
                    if not ready:
                        yield []
                        continue
                for stream in ready:
                    work = pending[stream]
                    played, failed, finished = self._take(spec, stream, work, again)
                    if failed:  # what is left of the task is in ``again``, or recorded
                        ray.cancel(stream)
                    if failed or finished:
                        del pending[stream]
                    if played:
                        yield played
        finally:
            for stream in pending:
                ray.cancel(stream)

    def _take(
        self, spec: TournamentSpec, stream: Any, work: _Task, again: deque[_Task]
    ) -> tuple[list[PlayedMatch], bool, bool]:
        """Take every match a task has handed back so far: (matches, failed, finished).

        The matches already there are fetched together, which costs the driver less than
        one at a time when a task hands back quick matches faster than it looks.
        """
        refs = []
        finished = False
        while True:
            try:
                refs.append(next(stream))
            except StopIteration:
                finished = True
                break
            if not stream.next_ready():
                break
        try:
            blobs = self._ray.get(refs)
        except self._ray.exceptions.RayError:
            blobs = None  # one of them failed: take them one by one to find which
        if blobs is not None:
            played = [_decoder.decode(blob) for blob in blobs]
            for match in played:
                work.batch.remove(match.record.index)
            return played, False, finished
        played = []
        for ref in refs:
            got, failed = self._get(spec, ref, work, again)
            if failed:
                return played + got, True, True
            work.batch.remove(got[0].record.index)
            played.extend(got)
        return played, False, finished

    def _get(
        self, spec: TournamentSpec, ref: Any, work: _Task, again: deque[_Task]
    ) -> tuple[list[PlayedMatch], bool]:
        """Return the next match a task handed back, and whether the task failed instead.

        A failed task's matches not yet handed back (``work.batch``) are put in ``again``
        to be played once more; a single match whose worker died too often is returned
        recorded so.
        """
        exceptions = self._ray.exceptions
        try:
            played: PlayedMatch = _decoder.decode(self._ray.get(ref))
        except exceptions.WorkerCrashedError:
            _log.info("worker died", matches=list(work.batch), crashes=work.crashes + 1)
            if len(work.batch) > 1:
                again.extend(_Task([index]) for index in work.batch)
            elif work.crashes + 1 >= CRASHES:
                return [PlayedMatch(died_record(spec, work.batch[0]))], True
            else:
                again.append(_Task(work.batch, work.crashes + 1, work.losses))
            return [], True
        except exceptions.RayTaskError as exc:
            cause = exc.cause
            if isinstance(cause, RacedeckError):
                raise cause from None
            raise RacedeckError(
                f"a batch of matches failed on node {exc.ip}: {type(cause).__name__}: {cause}"
            ) from None
        except exceptions.RayError as exc:  # the node died, or the result was lost with it
            _log.info(
                "batch lost with its node", matches=list(work.batch), error=type(exc).__name__
            )
            if work.losses >= RESUBMITS:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise RacedeckError(
                    f"Ray lost the same batch of matches {work.losses + 1} times ({reason});"
                    " every finished match is saved, resume the tournament to play the rest"
                ) from None
            again.append(_Task(work.batch, work.crashes, work.losses + 1))
            return [], True
        return [played], False

    def check_nodes(self, spec: TournamentSpec) -> None:
        """Check that every node with CPUs loads the spec's game and bots at their versions.

        Raises ``VersionMismatch`` (or ``PluginError``) naming the first node that does not.
        """
        key = msgspec.json.encode(
            [spec.plugins_dir, spec.entry_points, spec.game, spec.rules_version, spec.bot_versions]
        )
        if key in self._checked:
            return
        ray = self._ray
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        shipped = self._ships(spec)
        nodes = [n for n in ray.nodes() if n.get("Alive") and n["Resources"].get("CPU", 0) > 0]
        asked = {
            self._versions.options(
                num_cpus=0,
                scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False),
            ).remote(spec, shipped): n
            for n in nodes
        }
        _ready, late = ray.wait(list(asked), num_returns=len(asked), timeout=CHECK_TIMEOUT)
        if late:
            raise PluginError(
                f"node {_name(asked[late[0]])} did not answer the plugin check within"
                f" {CHECK_TIMEOUT:.0f} s"
            )
        for ref, node in asked.items():
            try:
                versions = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                raise PluginError(f"node {_name(node)}: {exc.cause}") from None
            except ray.exceptions.RayError:
                continue  # the node died meanwhile: it plays nothing
            problem = version_problem(spec, versions)
            if problem is not None:
                raise VersionMismatch(f"node {_name(node)}: {problem}")
        self._checked.add(key)

    def _ships(self, spec: TournamentSpec) -> bool:
        """Say whether the workers run in a shipped copy of the spec's ``--plugins-dir``.

        Otherwise (Ray was already running in this process) the folder must exist at the
        same path on every node, which the check before the first match makes sure of.
        """
        return spec.plugins_dir is not None and spec.plugins_dir == self._shipped

    def _quiet(self, quiet: bool) -> None:
        """Keep Ray from printing the cluster's events (a node lost...) on stdout.

        Ray's driver prints them there even without ``log_to_driver``, which would break
        ``--json`` output and the standings table; racedeck reports what matters itself.
        The switch is the one Ray's own debugger uses; without it, nothing changes.
        """
        worker = getattr(getattr(self._ray, "_private", None), "worker", None)
        if worker is not None and hasattr(worker, "_worker_logs_enabled"):
            worker._worker_logs_enabled = not quiet

    def close(self) -> None:
        """Stop the local Ray instance this executor started, or leave the cluster."""
        if self._started:
            self._ray.shutdown()
            self._quiet(False)
            self._started = False
        if self._ray_level is not None:
            logging.getLogger("ray").setLevel(self._ray_level)
            self._ray_level = None


def _check_reachable(address: str) -> None:
    """Raise ``UsageError`` unless something answers at a ``host:port`` address."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # not host:port ("auto", say): Ray's to judge
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise UsageError(
            f"--ray-address {address}: no Ray cluster answers there ({exc.strerror or exc})"
        ) from None


class _Task(msgspec.Struct):
    """A batch on its way through Ray, with how often its worker died or its node was lost.

    ``batch`` holds the matches not handed back yet: each is taken off as it arrives.
    """

    batch: list[int]
    crashes: int = 0
    losses: int = 0


def _name(node: dict[str, Any]) -> str:
    """Name a Ray node the way a person finds it: address, host and the start of its id."""
    return (
        f"{node.get('NodeManagerAddress', '?')} ({node.get('NodeManagerHostname', '?')},"
        f" id {str(node.get('NodeID', ''))[:8]})"
    )
