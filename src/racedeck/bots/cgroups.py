"""A control group per sandboxed bot: its memory and processes bounded in total.

``setrlimit`` bounds each process of a sandbox; a bot that forks could still map its
address space limit in every one of its processes. A control group bounds them all
together: the sandbox's first process joins a group of its own before ``bwrap`` runs
(``Group.join``, between ``fork`` and ``exec``), so everything the bot starts is counted
in it. Its memory (its ``/tmp`` included: that is memory too) may not pass
``--bot-memory`` in total, swap included, and its processes not ``PROCESSES``; past the
memory limit the kernel's OOM killer kills inside the group only.

cgroup v2 is used where ``/sys/fs/cgroup`` (or ``/sys/fs/cgroup/unified``) offers the
``memory`` and ``pids`` controllers and the engine may make groups below its own; else
cgroup v1, with a ``memory`` and a ``pids`` hierarchy mounted read-write. Where neither is
writable (a user without delegation), the per-process limits alone bound the bot, and one
line on standard error says so.

Groups are named ``racedeck-<engine pid>-<n>`` and removed with the bot (``Group.remove``)
or at the engine's exit; one left by an engine that was killed is removed by the next
engine that makes a group, once its processes are gone.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
import signal
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from racedeck.core import diagnostics

PREFIX = "racedeck-"
"""The start of every group's name."""
ROOT = Path("/sys/fs/cgroup")
"""Where the control groups are mounted."""
_COUNTER = itertools.count()
_LIVE: set[Group] = set()
_state: dict[str, object] = {}
_log = diagnostics.get_logger(component="sandbox")


@dataclass(eq=False)
class Group:
    """One bot's control group: one folder (v2) or one per controller (v1)."""

    version: int
    folders: list[Path]
    removed: bool = field(default=False)
    owner: int = field(default_factory=os.getpid)

    def join(self) -> None:
        """Put the calling process in the group (run in the child, before it execs).

        Race-free: the bot's first process is in the group before any code of the bot runs.
        A write that fails raises, and the bot does not start unbounded.
        """
        pid = str(os.getpid()).encode()
        for folder in self.folders:
            fd = os.open(folder / "cgroup.procs", os.O_WRONLY)
            try:
                os.write(fd, pid)
            finally:
                os.close(fd)

    def oom_kills(self) -> int:
        """Return how many processes the kernel killed in the group for its memory limit."""
        name = "memory.events" if self.version == 2 else "memory.oom_control"
        for line in _read(self.folders[0] / name).splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill":
                return int(value)
        return 0

    def peak(self) -> int | None:
        """Return the most memory the group ever held, in bytes, where the kernel says it."""
        name = "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"
        text = _read(self.folders[0] / name).strip()
        return int(text) if text.isdigit() else None

    def pids(self) -> list[int]:
        """Return the processes in the group now."""
        found: set[int] = set()
        for folder in self.folders:
            found.update(int(p) for p in _read(folder / "cgroup.procs").split() if p.isdigit())
        return sorted(found)

    def remove(self) -> None:
        """Kill every process left in the group, then remove the group; idempotent."""
        if self.removed:
            return
        self.removed = True
        _LIVE.discard(self)
        if diagnostics.enabled(diagnostics.DEBUG):
            _log.debug("sandbox group killed", group=str(self.folders[0]), pids=self.pids())
        kill = self.folders[0] / "cgroup.kill"
        if self.version == 2 and kill.exists():
            with contextlib.suppress(OSError):
                kill.write_text("1")
        deadline = time.monotonic() + 5
        for folder in self.folders:
            while folder.exists():
                for pid in self.pids():
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    break
                except OSError:
                    # Killed processes leave the group only once the kernel has freed them.
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)


def make_group(memory: int, processes: int) -> Group | None:
    """Make a bot's group bounding it to ``memory`` bytes and ``processes`` processes.

    Return None where no writable control group exists: then say once, on standard
    error, what bounds a sandboxed bot instead.
    """
    found = bases()
    if found is None:
        _log.debug("no writable cgroup: bounding the sandbox per process", processes=processes)
        if not _state.get("said"):
            _state["said"] = True
            sys.stderr.write(
                "racedeck: no writable cgroup with memory and pids controllers: a sandboxed"
                " bot is bounded per process only (--bot-memory of address space in each of"
                f" its {processes} processes)\n"
            )
        return None
    version, parents = found
    if not _state.get("swept"):
        _state["swept"] = True
        sweep(parents)
    name = f"{PREFIX}{os.getpid()}-{next(_COUNTER)}"
    group = Group(version, [parent / name for parent in parents])
    try:
        for folder in group.folders:
            folder.mkdir()
        _LIVE.add(group)
        _set_limits(group, memory, processes)
    except OSError:
        group.remove()
        raise
    return group


def _set_limits(group: Group, memory: int, processes: int) -> None:
    if group.version == 2:
        folder = group.folders[0]
        (folder / "memory.max").write_text(str(memory))
        # Without swap, the limit bounds what the bot holds, not only what stays resident.
        for name, value in (("memory.swap.max", "0"), ("memory.oom.group", "1")):
            if (folder / name).exists():
                (folder / name).write_text(value)
        (folder / "pids.max").write_text(str(processes))
        return
    memory_folder, pids_folder = group.folders
    (memory_folder / "memory.limit_in_bytes").write_text(str(memory))
    swap = memory_folder / "memory.memsw.limit_in_bytes"
    if swap.exists():  # present when the kernel accounts swap: memory and swap together
        swap.write_text(str(memory))
    (pids_folder / "pids.max").write_text(str(processes))


def bases() -> tuple[int, list[Path]] | None:
    """Return the cgroup version and the folders new groups go in, or None if none is usable.

    The folders are the engine's own groups, so whatever bounds the engine bounds its bots.
    """
    if "bases" not in _state:
        _state["bases"] = _v2() or _v1()
    found = _state["bases"]
    return found if isinstance(found, tuple) else None


def _own_paths() -> dict[str, str]:
    """Return the engine's group in each hierarchy: ``""`` for v2, else per controller."""
    paths: dict[str, str] = {}
    for line in _read(Path("/proc/self/cgroup")).splitlines():
        _, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def _v2() -> tuple[int, list[Path]] | None:
    own = _own_paths().get("")
    if own is None:
        return None
    for mount in (ROOT, ROOT / "unified"):
        controllers = _read(mount / "cgroup.controllers").split()
        if "memory" not in controllers or "pids" not in controllers:
            continue
        parent = mount / own.lstrip("/")
        enabled = _read(parent / "cgroup.subtree_control").split()
        if "memory" not in enabled or "pids" not in enabled:
            try:  # refused when the engine's own group holds processes (v2 allows no both)
                (parent / "cgroup.subtree_control").write_text("+memory +pids")
            except OSError:
                continue
        if os.access(parent, os.W_OK):
            return 2, [parent]
    return None


def _v1() -> tuple[int, list[Path]] | None:
    own = _own_paths()
    parents = []
    for controller in ("memory", "pids"):
        mount = ROOT / controller
        if controller not in own or not (mount / "cgroup.procs").exists():
            return None
        parent = mount / own[controller].lstrip("/")
        if not parent.is_dir() or not os.access(parent, os.W_OK):
            return None
        parents.append(parent)
    return 1, parents


def sweep(parents: list[Path]) -> list[Path]:
    """Remove the groups left by engines that are gone, once their processes are; return them."""
    removed = []
    for parent in parents:
        for folder in _stale(parent):
            with contextlib.suppress(OSError):
                folder.rmdir()
                removed.append(folder)
    return removed


def _stale(parent: Path) -> Iterator[Path]:
    with contextlib.suppress(OSError):
        for folder in parent.iterdir():
            owner = folder.name.removeprefix(PREFIX).split("-")[0]
            if not folder.name.startswith(PREFIX) or not owner.isdigit():
                continue
            if not _running(int(owner)) and not _read(folder / "cgroup.procs").split():
                yield folder


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def leftovers() -> list[Path]:
    """Return the groups of this engine that exist now (none once every bot is done)."""
    found = bases()
    if found is None:
        return []
    mine = f"{PREFIX}{os.getpid()}-"
    return [f for p in found[1] if p.is_dir() for f in p.iterdir() if f.name.startswith(mine)]


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@atexit.register
def _remove_live() -> None:
    """Remove the groups still open when the engine exits (an error, an interrupt)."""
    for group in list(_LIVE):
        if group.owner == os.getpid():  # a forked child's exit leaves its parent's bots be
            group.remove()
