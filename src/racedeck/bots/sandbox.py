"""Running a bot as a stranger's: in a bubblewrap sandbox of its own (``--sandbox``).

Every sandboxed bot, a program or a Python plugin (through ``racedeck.bots.host``), runs
under ``bwrap`` in new PID, network, IPC and UTS namespaces, in a session of its own,
with an empty environment, a fresh ``/proc`` that shows only its own processes, a
private size-bounded ``/tmp`` as its scratch folder, and read-only binds of only what it
needs: the system's ``/usr`` and libraries, its interpreter's installation, the Python
path racedeck runs from (for a plugin) and its own folder. When the engine kills the
sandbox (a timeout, the end of the match) or dies, the namespace's first process dies
and the kernel kills every process left in it.

Limits are set with ``setrlimit`` before ``bwrap`` starts and are inherited by everything
inside: address space per process (``--bot-memory``), processes, open files and file
size. Where the machine offers a writable control group, the sandbox also runs in one of
its own (``racedeck.bots.cgroups``), which bounds its memory and processes in total. Run
as root, the bot itself runs under a user id of its own (``setpriv``), so the process
limit counts its processes only and it can signal nothing outside; run as another user,
it keeps that user's id in a user namespace of its own.
"""

from __future__ import annotations

import itertools
import os
import resource
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from racedeck.bots.cgroups import Group, make_group
from racedeck.core.errors import RacedeckError

DEFAULT_MEMORY = 1 << 30
"""Bytes of address space each process of a sandboxed bot may map (``--bot-memory``), and
the memory its whole sandbox may hold where it has a control group."""
PROCESSES = 32
"""Processes (and threads) a sandboxed bot may run at once."""
OPEN_FILES = 256
"""Files a process of a sandboxed bot may hold open."""
FILE_SIZE = 64 << 20
"""The largest file a sandboxed bot may write, in bytes."""
SCRATCH_SIZE = 64 << 20
"""The size of its private ``/tmp``, in bytes (it is memory)."""
SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
"""The system folders bound read-only into every sandbox."""
SYSTEM_FILES = ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives")
"""System files (and one folder of links) a program's loader may read."""
PATH = "/usr/local/bin:/usr/bin:/bin"
"""Where a bare command name is looked up inside the sandbox."""
PACKAGE = "bubblewrap"
"""The package that provides ``bwrap``."""
_UID_BASE = 2_000_000_000
_UIDS = itertools.count()


class SandboxUnavailable(RacedeckError):
    """``--sandbox`` was asked for and bubblewrap is not installed (exit 3)."""


def bwrap_path() -> str:
    """Return the path of ``bwrap``, or raise ``SandboxUnavailable`` naming the package."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxUnavailable(
            f"--sandbox needs bubblewrap (bwrap), which is not installed: install the {PACKAGE}"
            f" package (apt-get install {PACKAGE})"
        )
    if os.geteuid() == 0 and not any(
        os.access(os.path.join(folder, "setpriv"), os.X_OK) for folder in PATH.split(":")
    ):
        raise SandboxUnavailable(
            "--sandbox run as root needs setpriv, which is not installed: install the"
            " util-linux package (apt-get install util-linux)"
        )
    return found


def parse_memory(text: str) -> int:
    """Read ``512M``, ``1G``, ``2g`` or a number of bytes; raise ``ValueError`` otherwise."""
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    raw = text.strip().lower().removesuffix("ib").removesuffix("b")
    scale = units.get(raw[-1:], 1)
    number = raw[:-1] if raw[-1:] in units else raw
    value = int(float(number) * scale)
    if value < (16 << 20):
        raise ValueError(f"--bot-memory must be at least 16M, got {text!r}")
    return value


@dataclass(frozen=True)
class Sandbox:
    """How a sandboxed bot is confined: its limits (see the module's docstring)."""

    memory: int = DEFAULT_MEMORY
    processes: int = PROCESSES
    open_files: int = OPEN_FILES
    file_size: int = FILE_SIZE
    scratch_size: int = SCRATCH_SIZE

    def limit(self) -> None:
        """Set this sandbox's limits on the calling process (between ``fork`` and ``exec``)."""
        for kind, value in (
            (resource.RLIMIT_AS, self.memory),
            (resource.RLIMIT_NPROC, self.processes),
            (resource.RLIMIT_NOFILE, self.open_files),
            (resource.RLIMIT_FSIZE, self.file_size),
            (resource.RLIMIT_CORE, 0),
        ):
            resource.setrlimit(kind, (value, value))

    def group(self) -> Group | None:
        """Make a control group bounding one sandboxed bot in total, if the machine can."""
        return make_group(self.memory, self.processes)

    def command(
        self,
        argv: Sequence[str],
        *,
        binds: Sequence[str] = (),
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> list[str]:
        """Return the command line that runs ``argv`` in a sandbox seeing only ``binds``."""
        folders = _folders([*_system(), *binds])
        out = [
            bwrap_path(),
            "--unshare-pid",
            "--unshare-net",
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
            "--clearenv",
            "--proc",
            "/proc",
            "--dev",
            "/dev",
            "--perms",
            "1777",
            "--size",
            str(self.scratch_size),
            "--tmpfs",
            "/tmp",
        ]
        made = _parents([*folders, os.path.join(cwd, "-")] if cwd else folders)
        for folder in made:
            out += ["--perms", "0755", "--dir", folder]
        for path in folders:
            out += ["--ro-bind", path, path]
        variables = {"PATH": PATH, "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
        variables.update(env or {})
        for name, value in variables.items():
            out += ["--setenv", name, value]
        out += ["--chdir", cwd or "/tmp"]
        if os.geteuid() == 0:
            uid = str(_own_uid())
            out += [
                "--",
                "setpriv",
                "--reuid",
                uid,
                "--regid",
                uid,
                "--clear-groups",
                "--inh-caps",
                "-all",
                "--bounding-set",
                "-all",
                "--no-new-privs",
            ]
        else:
            out.insert(1, "--unshare-user")
        return [*out, "--", *argv]


def in_sandbox(sandbox: Sandbox, prepare: Callable[[], None], group: Group | None) -> None:
    """Run before ``bwrap`` starts: ``prepare``, the bot's control group, the limits.

    ``prepare`` is what every program's process does; the group bounds the whole sandbox,
    the limits each of its processes.
    """
    prepare()
    if group is not None:
        group.join()
    sandbox.limit()


def _own_uid() -> int:
    """Return a user id for one sandbox: its process limit counts only its processes."""
    return _UID_BASE + (os.getpid() * 4096 + next(_UIDS) % 4096) % 100_000_000


def _system() -> list[str]:
    return [p for p in (*SYSTEM, *SYSTEM_FILES) if os.path.lexists(p)]


def _folders(paths: Sequence[str]) -> list[str]:
    """Return the existing paths, absolute, without one that another already holds."""
    found = sorted({os.path.abspath(p) for p in paths if os.path.exists(p)})
    kept: list[str] = []
    for path in found:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def _parents(paths: Sequence[str]) -> list[str]:
    """Every folder above the bound paths, outermost first, for the sandbox to make."""
    parents: set[str] = set()
    for path in paths:
        for parent in Path(path).parents:
            if str(parent) != "/":
                parents.add(str(parent))
    return sorted(parents, key=lambda p: (p.count("/"), p))


def program_binds(argv: Sequence[str], cwd: str | None) -> tuple[list[str], list[str]]:
    """Return what a program needs bound (its interpreter, its files) and its argv.

    A command name without a slash is looked up in the sandbox's own ``PATH``. A path to
    an executable binds its installation (the folder above ``bin``) and, through a link,
    the installation it leads to; every argument naming a file binds that file's folder,
    and an argument naming a folder binds the folder.
    """
    base = cwd or os.getcwd()
    binds: list[str] = []
    out = list(argv)
    for index, word in enumerate(argv):
        if index == 0 and "/" not in word:
            continue
        path = os.path.join(base, word)
        if not os.path.exists(path):
            continue
        absolute = os.path.abspath(path)
        if index == 0 or word.startswith("./") or not word.startswith("/"):
            out[index] = absolute if index == 0 else word
        for place in {absolute, os.path.realpath(absolute)}:
            bind = _installation(place) if index == 0 else _holder(place, base)
            if bind is not None:
                binds.append(bind)
    if cwd is not None and not _holds(cwd, os.getcwd()):
        binds.append(cwd)
    return binds, out


def _installation(executable: str) -> str:
    folder = os.path.dirname(executable)
    return os.path.dirname(folder) if os.path.basename(folder) == "bin" else folder


def _holder(path: str, base: str) -> str | None:
    """Return what to bind for ``path``: its folder, or only itself.

    Never a folder that holds the one the engine runs in (and so its logs and databases):
    a file there is bound alone, a folder there not at all.
    """
    if os.path.isdir(path):
        return None if _holds(path, base) else path
    folder = os.path.dirname(path)
    return path if _holds(folder, base) else folder


def _holds(folder: str, inner: str) -> bool:
    """Return True when ``folder`` is ``inner`` or one of the folders above it."""
    folder, inner = os.path.abspath(folder), os.path.abspath(inner)
    return inner == folder or inner.startswith(folder.rstrip("/") + "/")


def own_files(folder: str) -> list[str]:
    """Return what to bind for a plugins folder: itself, or its ``.py`` files alone.

    Only the files when it holds the folder the engine runs in (see ``_holder``).
    """
    if not _holds(folder, os.getcwd()):
        return [folder]
    return [str(p) for p in sorted(Path(folder).glob("*.py")) if p.is_file()]


def _racedeck_root() -> str:
    """Return the folder holding the racedeck package (site-packages, or a tree's src)."""
    import racedeck

    return str(Path(racedeck.__file__).resolve().parent.parent)


def _prefixes() -> tuple[str, ...]:
    return tuple(dict.fromkeys([sys.prefix, sys.base_prefix, os.path.realpath(sys.base_prefix)]))


def python_binds() -> list[str]:
    """Return what racedeck's own Python needs bound: its installations and racedeck.

    Only these: a plugin installed elsewhere (an editable install outside them) is not
    seen by the host; a plugins folder is bound by whoever names it.
    """
    return [*_prefixes(), os.path.dirname(os.path.realpath(sys.executable)), _racedeck_root()]


def python_path() -> str:
    """Return the Python path the host needs beyond its installation's own: racedeck's."""
    root = _racedeck_root()
    return "" if root.startswith(_prefixes()) else root
