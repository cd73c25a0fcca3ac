"""Killing a bot's process and everything it started, even what left its process group.

A program may start children that call ``setsid`` (a daemon, a double fork): killing its
process group misses them. On Linux the bot's process is made a *child subreaper*, so
its orphaned descendants are re-parented to it instead of to init; while it lives, its
descendants are found under ``/proc`` and killed, deepest first, before it is. Elsewhere
only the process group is killed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
from typing import Any

_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_PDEATHSIG = 1


def _find_prctl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


# Looked up once, here: between fork and exec nothing may take the loader's lock.
_PRCTL = _find_prctl()


def _prctl(option: int, value: int) -> None:
    if _PRCTL is not None:
        _PRCTL(option, value, 0, 0, 0)


def become_subreaper() -> None:
    """Make this process adopt its orphaned descendants (Linux; nothing elsewhere).

    Safe to call between ``fork`` and ``exec``: the setting survives ``exec``.
    """
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def die_with_parent() -> None:
    """Have this process killed when the thread that started it ends (Linux only)."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def in_child() -> None:
    """Run in a bot program's process before it starts: adopt orphans, die with the engine."""
    become_subreaper()
    die_with_parent()


def descendants(root: int) -> list[int]:
    """Return the processes descended from ``root``, parents before their children."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        # The command name is in parentheses and may hold spaces; the parent follows it.
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            children.setdefault(int(fields[1]), []).append(int(entry))
    found: list[int] = []
    queue = [root]
    while queue:
        pid = queue.pop(0)
        for child in children.get(pid, []):
            found.append(child)
            queue.append(child)
    return found


def children(parent: int) -> list[int]:
    """Return the processes whose parent is ``parent`` (Linux; empty elsewhere)."""
    try:
        with open(f"/proc/{parent}/task/{parent}/children", "rb") as handle:
            return [int(pid) for pid in handle.read().split()]
    except OSError:
        pass
    found = descendants(parent)
    return [pid for pid in found if _parent(pid) == parent]


def _parent(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read()
    except OSError:
        return -1
    return int(stat[stat.rfind(b")") + 2 :].split()[1])


def pipes_of(process: Any) -> frozenset[int]:
    """Return the identities (inodes) of the pipes a started process talks through."""
    found = set()
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            with contextlib.suppress(OSError, ValueError):
                found.add(os.fstat(pipe.fileno()).st_ino)
    return frozenset(found)


def kill_holders(pipes: frozenset[int]) -> None:
    """Kill, with all they started, the processes that still hold one of ``pipes``.

    A program's child that left its session after the program exited was re-parented to
    init, out of reach of the program's own adoption; what it inherited gives it away. A
    process that let go of those pipes too is beyond this (``--sandbox`` holds it).
    """
    if not pipes:
        return
    wanted = {f"pipe:[{inode}]" for inode in pipes}
    me = os.getpid()
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return
    for entry in entries:
        pid = int(entry)
        if pid == me:
            continue
        try:
            held = {os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")}
        except OSError:
            continue
        if held & wanted:
            kill_tree(pid)


def kill_descendants(root: int) -> None:
    """Kill every process descended from ``root``, deepest first (``root`` itself lives)."""
    for _ in range(3):  # a process may fork while its siblings are being killed
        found = descendants(root)
        for pid in reversed(found):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not found:
            break


def kill_tree(root: int) -> None:
    """Kill ``root``, its process group and every descendant it adopted or started."""
    kill_descendants(root)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(root, signal.SIGKILL)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(root, signal.SIGKILL)
