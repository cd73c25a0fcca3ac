"""The sandbox tier of ``make fuzz``: attackers' bots thrown at ``play --sandbox``.

Each class of attack (``tools.fuzz.attackers``) plays a match in a folder of its own,
seat 0 against ``random``, with a secret (``rdsecret`` and the match seed) in the
engine's environment, in its log's path and in a database file beside it. Each try is:

- ``escaped``: the engine did not end normally, a process the attacker started was still
  running after the match, a file it wrote outside its scratch folder exists, the
  loopback listener was reached, it got more memory or processes than the limits, or the
  match it played differs from the one its harmless twin plays;
- ``leaked``: it saw the secret or the match seed;
- ``contained``: neither.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from tools.fuzz.attackers import (
    MARK,
    PLUGIN,
    PLUGINS,
    PROGRAMS,
    TWIN_PLUGIN,
    WRITTEN,
    program_source,
)

OUTCOMES = ("contained", "leaked", "escaped")
MEMORY = 256 << 20
"""The ``--bot-memory`` the tier plays under."""
PROCESSES = 32
"""The sandbox's process limit (``racedeck.bots.sandbox.PROCESSES``)."""
TIMEOUT = 120.0
"""Seconds one match may take."""


def classes() -> list[str]:
    """Every class of attack, programs first."""
    return [*PROGRAMS, *PLUGINS]


def _escapees() -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                if MARK.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
    return found


def _play(seat: str, work: Path, seed: int, token: str, plugins: Path | None) -> tuple[int, Path]:
    log = work / token / "match.jsonl"
    command = [
        sys.executable,
        "-m",
        "racedeck",
        "play",
        "lacorsa",
        "--seat",
        seat,
        "--seat",
        "random",
        "-o",
        "races=1",
        "--seed",
        str(seed),
        "--sandbox",
        "--bot-memory",
        f"{MEMORY >> 20}M",
        "--fault-policy",
        "substitute",
        "--log",
        str(log),
    ]
    if plugins is not None:
        command += ["--plugins-dir", str(plugins)]
    env = {**os.environ, "RACEDECK_FUZZ_SECRET": token}
    try:
        done = subprocess.run(
            command, cwd=work, env=env, capture_output=True, timeout=TIMEOUT, check=False
        )
    except subprocess.TimeoutExpired:
        return -1, log
    return done.returncode, log


def _said(log: Path) -> list[dict[str, object]]:
    """Return the JSON the attacker (seat 0) put in its debug notes."""
    said = []
    with contextlib.suppress(OSError):
        for line in log.read_text().splitlines():
            entry = json.loads(line)
            note = entry.get("debug") if entry.get("kind") == "debug" else None
            if isinstance(note, dict) and note.get("seat") == 0:
                with contextlib.suppress(ValueError):
                    value = json.loads(str(note.get("text")))
                    if isinstance(value, dict):
                        said.append(value)
    return said


def try_one(name: str, folder: Path, seed: int) -> tuple[str, list[str]]:
    """Throw the attack ``name`` at ``--sandbox``; return its outcome and the reasons."""
    work = folder / f"{name}-{seed}"
    token = f"rdsecret{seed}"
    attackers = work / "attackers"
    attackers.mkdir(parents=True)
    for path in (work, attackers):
        path.chmod(0o755)  # the bot runs under a user id of its own
    (work / f"{token}.sqlite").write_text(f"tournament seed {token}\n")
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    plugins = None
    if name in PROGRAMS:
        program = attackers / f"{name}.py"
        program.write_text(program_source(name, listener.getsockname()[1]))
        seat = f"cmd:python3 {program}"
    else:
        plugins = attackers
        (attackers / "attackers.py").write_text(PLUGIN)
        seat = f"attacker-{name}"
    code, log = _play(seat, work, seed, token, plugins)
    escaped: list[str] = []
    leaked: list[str] = []
    if code != 0:
        escaped.append(f"the engine exited {code}")
    if not log.is_file():
        escaped.append("no log")
    left = _escapees()
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    if left:
        escaped.append(f"{len(left)} processes outlived the match")
    written = [p for p in (*folder.rglob(WRITTEN), Path("/") / WRITTEN) if p.exists()]
    if written:
        escaped.append(f"wrote {written[0]}")
    with contextlib.suppress(BlockingIOError):
        listener.accept()
        escaped.append("reached the loopback listener")
    listener.close()
    for said in _said(log):
        text = json.dumps(said.get("found", []))
        if token in text or str(seed) in json.dumps(said.get("numbers", [])):
            leaked.append(f"saw the secret: {text[:80]}")
        if int(str(said.get("bytes", 0))) > MEMORY:
            escaped.append(f"allocated {said['bytes']} bytes")
        if int(str(said.get("processes", 0))) > PROCESSES:
            escaped.append(f"ran {said['processes']} processes")
    if name == "descriptor":
        twin = work / "twin"
        twin.mkdir()
        twin.chmod(0o755)
        (twin / "twin.py").write_text(TWIN_PLUGIN)
        twin_code, twin_log = _play(seat, work / "twin", seed, token + "twin", twin)
        if twin_code != 0 or not log.is_file() or _events(log) != _events(twin_log):
            escaped.append("its match differs from its twin's")
    outcome = "escaped" if escaped else "leaked" if leaked else "contained"
    return outcome, escaped or leaked


def _events(log: Path) -> list[str]:
    with contextlib.suppress(OSError):
        return [line for line in log.read_text().splitlines() if '"kind":"header"' not in line]
    return []


def run_tier(
    folder: Path, rounds: int, seed: int, echo: Callable[[str], None], only: list[str] | None = None
) -> Counter[tuple[str, str]]:
    """Try every class ``rounds`` times; return the count of (class, outcome)."""
    rng = random.Random(seed)
    tally: Counter[tuple[str, str]] = Counter()
    for _ in range(rounds):
        for name in only or classes():
            match_seed = rng.randrange(10**11, 10**12)
            outcome, reasons = try_one(name, folder, match_seed)
            tally[(name, outcome)] += 1
            if outcome != "contained":
                echo(f"sandbox {name}: {outcome}: {'; '.join(reasons)}")
    return tally


def report(tally: Counter[tuple[str, str]]) -> str:
    """Return the table: per class, tried, contained, leaked, escaped, and the total."""
    names = list(dict.fromkeys(name for name, _ in tally))
    lines = [f"{'':<22}{'tried':>6}{'contained':>11}{'leaked':>8}{'escaped':>9}"]
    totals = Counter[str]()
    for name in names:
        counts = [tally[(name, o)] for o in OUTCOMES]
        totals.update(dict(zip(OUTCOMES, counts, strict=True)))
        lines.append(
            f"{'sandbox ' + name:<22}{sum(counts):>6}{counts[0]:>11}{counts[1]:>8}{counts[2]:>9}"
        )
    counts = [totals[o] for o in OUTCOMES]
    lines.append(
        f"{'sandbox total':<22}{sum(counts):>6}{counts[0]:>11}{counts[1]:>8}{counts[2]:>9}"
    )
    return "\n".join(lines)
