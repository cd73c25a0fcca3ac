"""``make fuzz``: throw mutated logs at every log command, hostile bots at play and tournaments.

Every try ends in one of:

- ``caught``: the command refused with its documented exit code and one error line (a
  mutated log), or the bot's misbehaviour became a fault of its seat in a log that
  replays (a hostile bot);
- ``equivalent``: a mutated log was accepted, but it says the same about its match as
  the original (a forged debug note: a bot's free text, which no one can check);
- ``silently accepted``: a mutated log that changed the match was accepted, or a bot
  misbehaved and nothing was recorded;
- ``crashed``: a traceback, exit 70, any other exit code, or a missing or broken log;
- ``hung``: no answer within the time allowed, or a process left running.

It exits 1 when any try was silently accepted, crashed or hung.
Then the sandbox tier (``tools.fuzz.sandbox_tier``) throws attackers' bots at
``play --sandbox`` and prints tried / contained / leaked / escaped per class; it exits 1
when any leaked or escaped. ``python -m tools.fuzz --rounds 1 --games 1 --bots 3
--tournaments 1`` (with a short sandbox tier) is the short run the test suite makes;
``make fuzz`` the long one.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

from racedeck.core.bot import BotSpec
from racedeck.core.log import LogWriter
from racedeck.core.runner import run_match
from racedeck.plugins import Registry, load_registry
from tools.fuzz.hostile import HOSTILE, NEEDS_LIMIT, NEEDS_PROCESS_IN_PLAY, PLAYS_ON, PLUGIN
from tools.fuzz.logs import meaning, mutations
from tools.fuzz.sandbox_tier import report, run_tier

OUTCOMES = ("caught", "equivalent", "silently accepted", "crashed", "hung")
FAILURES = ("silently accepted", "crashed", "hung")
GAMES: dict[str, dict[str, object]] = {
    "lacorsa": {"races": 1},
    "wacky-races": {},
    "detroit-cleveland": {},
    "famous-500": {},
}
COMMAND_TIMEOUT = 30.0
"""Seconds one log command may take on one mutated log."""
PLAY_TIMEOUT = 90.0
"""Seconds one ``play`` or tournament with a hostile bot may take."""


class _Hung(BaseException):
    """Raised by the alarm in a command that ran too long (no ``except Exception`` stops it)."""


class Tally:
    """Counts outcomes per family of tries and remembers the first failures."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter[str]] = {}
        self.failures: list[str] = []

    def add(self, family: str, outcome: str, what: str) -> None:
        """Count one try."""
        self.counts.setdefault(family, Counter())[outcome] += 1
        if outcome in FAILURES and len(self.failures) < 40:
            self.failures.append(f"{outcome}: {what}")

    def total(self) -> Counter[str]:
        """Return the counts over every family."""
        return sum(self.counts.values(), Counter())

    def report(self) -> str:
        """Return the table ``make fuzz`` prints."""
        width = max([len(f) for f in self.counts] + [6])
        head = f"{'':<{width}}  tried  " + "  ".join(OUTCOMES)
        rows = [head]
        for family, counts in [*self.counts.items(), ("total", self.total())]:
            cells = "  ".join(f"{counts[o]:>{len(o)}}" for o in OUTCOMES)
            rows.append(f"{family:<{width}}  {sum(counts.values()):>5}  {cells}")
        rows += self.failures
        return "\n".join(rows)


def _base_logs(registry: Registry, folder: Path, games: int) -> list[Path]:
    """Play one ordinary and one forfeited match per game, as the logs to mutate."""
    paths = []
    for name, options in list(GAMES.items())[:games]:
        game = registry.game(name)
        players = max(2, game.min_players)
        for forfeit in (False, True):
            seats = [registry.bot("random", name)] * players
            if forfeit:
                seats[1] = BotSpec(
                    name="hostile-raiser", factory=HOSTILE["hostile-raiser"], description=""
                )
            path = folder / f"{name}{'-forfeit' if forfeit else ''}.jsonl"
            with open(path, "wb") as handle:
                run_match(game, game.parse_options(options), seats, 11, writer=LogWriter(handle))
            paths.append(path)
    return paths


def _run_command(args: list[str], stdin: str = "") -> tuple[int | None, str]:
    """Run ``racedeck ARGS`` in this process; return its exit code (None: hung) and stderr."""
    from racedeck.cli.app import main

    out, err = io.StringIO(), io.StringIO()

    def alarm(signum: int, frame: object) -> None:
        raise _Hung

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, COMMAND_TIMEOUT)
    old_stdin = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code: int | None = main(args)
    except _Hung:
        code = None
    except BaseException as exc:  # anything main lets out is a crash to report
        err.write(f"Traceback: {type(exc).__name__}: {exc}")
        code = 70
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.stdin = old_stdin
    return code, err.getvalue()


def _log_commands(log: Path, base: Path, out: Path) -> list[tuple[list[str], str]]:
    return [
        (["replay", str(log)], ""),
        (["replay", str(log), "--verify"], ""),
        (["show", str(log)], ""),
        (["show", str(log), "--at", "0"], ""),
        (["html", str(log), "--out", str(out / "page.html")], ""),
        (["chart", str(log), "--out", str(out / "chart.svg")], ""),
        (["step", str(log)], "n\nq\n"),
        (["fork", str(log), "--at", "0", "--log", str(out / "fork.jsonl")], ""),
        (["diff", str(base), str(log)], ""),
    ]


def fuzz_logs(
    registry: Registry, folder: Path, rounds: int, seed: int, tally: Tally, games: int
) -> None:
    """Mutate each base log ``rounds`` times over and run every log command on each."""
    rng = random.Random(seed)
    for base in _base_logs(registry, folder, games):
        original = base.read_bytes()
        said = meaning(original, registry=registry)
        said_whole = meaning(original, whole_header=True, registry=registry)
        for _ in range(rounds):
            for kind, mutated in mutations(original, rng):
                if mutated == original:
                    continue
                log = folder / "mutated.jsonl"
                log.write_bytes(mutated)
                changed = meaning(mutated, registry=registry) != said
                changed_whole = meaning(mutated, whole_header=True, registry=registry) != said_whole
                for args, stdin in _log_commands(log, base, folder):
                    for leftover in ("page.html", "chart.svg", "fork.jsonl"):
                        (folder / leftover).unlink(missing_ok=True)
                    code, err = _run_command(args, stdin)
                    what = f"{base.stem} {kind}: racedeck {args[0]} -> {code} {err.strip()[:160]}"
                    # Re-running checks the whole header: the seed and the seats' bots too.
                    whole = "--verify" in args
                    outcome = _judge_log(args[0], code, err, changed_whole if whole else changed)
                    tally.add(f"log {args[0]}", outcome, what)


def _judge_log(command: str, code: int | None, err: str, changed: bool) -> str:
    if code is None:
        return "hung"
    if "Traceback" in err or code == 70:
        return "crashed"
    if code == 0:
        return "silently accepted" if changed else "equivalent"
    # A documented refusal in one line: bad input (3), failed verification (4), a usage
    # error (2: a fork point inside a decision of an edited log), diff's "they differ" (1).
    refused = (2, 3, 4) + ((1,) if command == "diff" else ())
    if code in refused and err.count("\n") <= 1:
        return "caught"
    return "crashed"


def _orphans() -> list[int]:
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                stat = Path(f"/proc/{entry}/stat").read_text()
                if b"racedeck-fuzz-orphan" in cmdline and stat.rsplit(")", 1)[1].split()[0] != "Z":
                    found.append(int(entry))
    return found


def _racedeck(args: Sequence[str], timeout: float) -> tuple[int | None, str, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "racedeck", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=timeout)
        code: int | None = process.returncode
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        code = None
    return code, out.decode(errors="replace"), err.decode(errors="replace")


def fuzz_bots(
    registry: Registry, folder: Path, bots: Sequence[str], tournaments: bool, tally: Tally
) -> None:
    """Play each hostile bot against a random one with ``play``, then in a tournament."""
    plugins = folder / "plugins"
    plugins.mkdir(exist_ok=True)
    (plugins / "hostile_bots.py").write_text(PLUGIN)
    with_plugins = load_registry(plugins, entry_points=False)
    for bot in bots:
        limit = ["--time-limit", "1"] if bot in NEEDS_LIMIT | NEEDS_PROCESS_IN_PLAY else []
        for game in ("lacorsa", "wacky-races"):
            log = folder / f"{bot}-{game}.jsonl"
            log.unlink(missing_ok=True)
            before = set(_orphans())
            code, _out, err = _racedeck(
                [
                    "play",
                    game,
                    "-s",
                    bot,
                    "-s",
                    "random",
                    "--log",
                    str(log),
                    "--plugins-dir",
                    str(plugins),
                    *limit,
                ],
                PLAY_TIMEOUT,
            )
            left = set(_orphans()) - before
            for pid in left:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            outcome = "hung" if code is None or left else _judge_play(with_plugins, bot, code, log)
            tally.add("bot play", outcome, f"{bot} in {game}: exit {code} {err.strip()[:160]}")
        if tournaments:
            # A tournament isolates a bot that took its worker down on its own: no limit.
            _tournament(
                bot, folder, plugins, ["--time-limit", "1"] if bot in NEEDS_LIMIT else [], tally
            )


def _judge_play(registry: Registry, bot: str, code: int, log: Path) -> str:
    from racedeck.core.replay import replay_log

    if code != 0 or not log.exists():
        return "crashed"
    replay = replay_log(registry, log)
    if not replay.complete:
        return "crashed"
    faulted = any(fault.seat == 0 for fault in replay.faults)
    if bot in PLAYS_ON and bot != "hostile-end":
        return "caught"  # it misbehaved only around its answers, which were legal
    return "caught" if faulted else "silently accepted"


def _tournament(bot: str, folder: Path, plugins: Path, limit: list[str], tally: Tally) -> None:
    db = folder / f"{bot}.sqlite"
    code, out, err = _racedeck(
        [
            "tournament",
            "lacorsa",
            "-o",
            "races=1",
            "--bot",
            "random",
            "--bot",
            bot,
            "--players",
            "2",
            "--matches",
            "6",
            "--workers",
            "2",
            "--plugins-dir",
            str(plugins),
            "--db",
            str(db),
            "--json",
            *limit,
        ],
        PLAY_TIMEOUT * 2,
    )
    what = f"{bot} in a tournament: exit {code} {err.strip()[:160]}"
    if code is None:
        tally.add("bot tournament", "hung", what)
        return
    try:
        lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    except json.JSONDecodeError:
        tally.add("bot tournament", "crashed", what + " (not JSON)")
        return
    matches = [line for line in lines if line.get("kind") == "match"]
    if code != 0 or len(matches) != 6:
        tally.add("bot tournament", "crashed", what)
        return
    for match in matches:
        seats = match["seats"]
        if match["status"] == "error":
            outcome = "crashed"
        elif bot not in seats or bot in PLAYS_ON:
            outcome = "caught" if match["status"] in ("ok", "forfeit") else "crashed"
        elif match["status"] == "forfeit" and seats[match["fault_seat"]] == bot:
            outcome = "caught"
        else:
            outcome = "silently accepted"
        tally.add("bot tournament", outcome, f"{what} match {match['index']}: {match['status']}")


def main(argv: Sequence[str] | None = None, echo: Callable[[str], None] = print) -> int:
    """Run the fuzzer; return 1 when anything was silently accepted, crashed or hung."""
    parser = argparse.ArgumentParser(prog="python -m tools.fuzz", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="mutation rounds per base log")
    parser.add_argument("--bots", type=int, default=len(HOSTILE), help="hostile bots to throw")
    parser.add_argument(
        "--tournaments",
        type=int,
        default=len(HOSTILE),
        help="of those, how many also play a local tournament",
    )
    parser.add_argument("--games", type=int, default=len(GAMES), help="games whose logs to mutate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sandbox-rounds", type=int, default=3, help="rounds of every attack on --sandbox"
    )
    parser.add_argument(
        "--attacks", default="", help="the sandbox tier's classes, comma-separated (default all)"
    )
    options = parser.parse_args(argv)
    registry = load_registry(entry_points=False)
    tally = Tally()
    start = time.monotonic()
    rng = random.Random(options.seed)
    bots = sorted(HOSTILE)
    if options.bots < len(bots):
        bots = rng.sample(bots, options.bots)
    with tempfile.TemporaryDirectory(prefix="racedeck-fuzz-") as tmp:
        folder = Path(tmp)
        fuzz_logs(registry, folder, options.rounds, options.seed, tally, options.games)
        played = bots[: options.tournaments]
        fuzz_bots(registry, folder, played, True, tally)
        fuzz_bots(registry, folder, bots[options.tournaments :], False, tally)
        breaches = _sandbox_tier(folder, options, echo)
    echo(tally.report())
    echo(f"({time.monotonic() - start:.0f} s)")
    total = tally.total()
    return 1 if breaches or any(total[o] for o in FAILURES) else 0


def _sandbox_tier(folder: Path, options: argparse.Namespace, echo: Callable[[str], None]) -> int:
    """Run the sandbox tier, print its table; return how many tries leaked or escaped."""
    if options.sandbox_rounds <= 0:
        return 0
    if shutil.which("bwrap") is None:
        echo("sandbox tier: not run, bubblewrap is not installed (apt-get install bubblewrap)")
        return 1
    only = [name for name in options.attacks.split(",") if name] or None
    tier = folder / "sandbox"
    tier.mkdir()
    tier.chmod(0o755)
    folder.chmod(0o755)
    tally = run_tier(tier, options.sandbox_rounds, options.seed, echo, only)
    echo(report(tally))
    return sum(n for (_, outcome), n in tally.items() if outcome != "contained")
