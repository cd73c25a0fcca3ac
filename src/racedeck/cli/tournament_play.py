"""What the tournament and gate commands do once their options are parsed.

The commands themselves (``racedeck.cli.tournament``) import this module when they run,
so that ``racedeck --help`` loads none of the tournament machinery.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, TextIO

import msgspec
import typer

from racedeck.cli import output
from racedeck.cli.common import emit_json
from racedeck.cli.contract import GateOutput, MatchOutput, StandingsOutput
from racedeck.core import interrupts
from racedeck.core.errors import RacedeckError, UsageError
from racedeck.tournament.executors import Executor
from racedeck.tournament.gate import (
    BETTER,
    NOT_BETTER,
    UNDECIDED,
    GateResult,
    Sprt,
    gate_from_records,
    judge_saved_gate,
    run_gate,
)
from racedeck.tournament.plan import make_executor
from racedeck.tournament.progress import (
    DEFAULT_REPORT_EVERY,
    Estimate,
    Progress,
    ProgressBar,
    ProgressLines,
    ReportEvery,
    clock,
    pace,
    parse_report_every,
)
from racedeck.tournament.record import MatchRecord
from racedeck.tournament.report import standings_json, standings_table
from racedeck.tournament.run import play
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.standings import Standings, compute_standings
from racedeck.tournament.store import Store, database_exists


class Interrupted(RacedeckError):
    """The user stopped a tournament with Ctrl-C; it can be resumed."""

    exit_code = 130


GATE_EXIT_CODES = {BETTER: 0, NOT_BETTER: 1, UNDECIDED: 5}
"""The gate's exit status: 0 the candidate is better, 1 it is not, 5 undecided at the limit.

Undecided has a status of its own, apart from 2 (a usage error), so that a script can tell
a gate that needs more matches from a command line that was wrong."""


def match_line(record: MatchRecord) -> MatchOutput:
    """Return a match's record as the JSON contract's line, its seed as a string."""
    fields = msgspec.structs.asdict(record)
    fields["seed"] = str(record.seed)
    return msgspec.convert(fields, MatchOutput)


def make_progress(store: Store, report_every: str | None, workers: int = 1) -> Progress | None:
    """Return the bar on a terminal, plain lines elsewhere: stderr, beside --json's stdout."""
    every = parse_report_every(report_every) if report_every is not None else None
    done = store.count()
    total = store.spec.matches
    if sys.stderr.isatty() and every is None:
        return ProgressBar(total, done, sys.stderr, workers)
    return ProgressLines(total, done, sys.stderr, every or DEFAULT_REPORT_EVERY, workers)


def play_store(
    store: Store, executor: Executor, json: bool, report_every: str | None = None
) -> None:
    """Play what the tournament in ``store`` is missing, with progress, then its standings."""
    before = store.count()
    progress = make_progress(store, report_every, executor.workers)

    def on_record(record: MatchRecord) -> None:
        if json:
            emit_json(match_line(record))
        if progress is not None:
            progress.record(record)

    try:
        with interrupts.sigterm_interrupts():
            play(store, executor, on_record)
    except KeyboardInterrupt:
        if progress is not None:
            progress.close()
            progress = None
        saved = store.count()
        finished = saved - before
        raise Interrupted(
            f"interrupted; {finished} {'match' if finished == 1 else 'matches'} finished in"
            f" this run and {'is' if finished == 1 else 'are'} saved"
            f" ({saved} of {store.spec.matches} in all), resume with:"
            f" racedeck tournament resume {store.path}"
        ) from None
    finally:
        if progress is not None:
            progress.close()
    print_standings(store, json)


def print_standings(store: Store, json: bool) -> None:
    """Print the standings of the tournament in ``store``: a table, or JSON."""
    standings = compute_standings(store.spec, store.records(), game_of(store.spec))
    logs = kept_logs(store)
    if logs is not None:
        typer.echo(output.clean(logs[1]), err=True)
    if json:
        emit_json(standings_output(standings, store.path, None, logs[0] if logs else None))
    else:
        show_standings(standings)
        typer.echo(f"\ndatabase: {store.path}")


def kept_logs(store: Store) -> tuple[str, str] | None:
    """Return the folder of the kept logs and a line saying how many went there, if any."""
    spec = store.spec
    if spec.keep_logs == "none" or not spec.log_dir:
        return None
    kept = sum(1 for record in store.records() if record.log)
    which = "every match's log" if spec.keep_logs == "all" else "the logs of failed matches"
    return spec.log_dir, f"kept logs ({which}): {kept} in {spec.log_dir}"


def show_standings(standings: Standings) -> None:
    """Print the standings: rich's tables on a terminal, the plain aligned text elsewhere."""
    if sys.stdout.isatty():
        from racedeck.cli.tables import print_standings_table

        print_standings_table(standings, sys.stdout)
    else:
        typer.echo(standings_table(standings))


def game_of(spec: TournamentSpec) -> Any:
    """Return the tournament's game as installed here, or None (then its unit tells)."""
    from racedeck.plugins import load_registry

    try:
        return load_registry(None).games.get(spec.game)
    except RacedeckError:
        return None


def standings_output(
    standings: Standings, db: Path, html: Path | None, logs: str | None = None
) -> StandingsOutput:
    """Return the standings as the JSON contract's output, with where they came from."""
    fields = standings_json(standings)
    fields.update(db=str(db), html=str(html) if html else None, logs=logs)
    return msgspec.convert(fields, StandingsOutput)


def open_or_create(path: Path, spec: TournamentSpec, json: bool) -> Store:
    """Create the database, or reopen it when it holds this very tournament."""
    if not database_exists(path):
        return Store.create(path, spec, lock=True)
    store = Store.open(path, lock=True)
    if store.spec != spec:
        store.close()
        raise UsageError(
            f"{path} holds another tournament; choose another --db, or continue it with"
            f" racedeck tournament resume {path}"
        )
    if not json:
        typer.echo(
            f"continuing {path}: {store.count()} of {spec.matches} matches recorded", err=True
        )
    return store


def judge_database(db: Path, candidate: str, baseline: str, sprt: Sprt) -> GateResult:
    """Judge the matches a database holds, playing none.

    A saved gate is judged as it judged them (by deals, in order), a tournament by the
    matches in which both bots sat.
    """
    with Store.open(db) as store:
        judge = judge_saved_gate if store.spec.format == "gate" else gate_from_records
        return judge(store.spec, store.records(), candidate, baseline, sprt)


def gate_store(path: Path, spec: TournamentSpec, json: bool) -> Store:
    """Create the gate's database, or reopen it when it holds this very gate.

    The match limit may differ (raising it is how a gate undecided at its limit goes on);
    anything else that shapes the matches must be the same, or they would not be its own.
    """
    if not database_exists(path):
        return Store.create(path, spec, lock=True)
    store = Store.open(path, lock=True)
    # The test (alpha, beta, margin) judges the matches; it does not shape them.
    if msgspec.structs.replace(store.spec, matches=spec.matches, sprt=spec.sprt) != spec:
        store.close()
        raise UsageError(
            f"{path} holds another gate or tournament (another game, bots, seed, options,"
            " table or time limit); choose another --save"
        )
    if store.spec.matches != spec.matches or store.spec.sprt != spec.sprt:
        # The spec stored says the limit and the test this run judges by, for the report.
        store.spec = msgspec.structs.replace(store.spec, sprt=spec.sprt)
        store.set_match_limit(spec.matches)
    if not json:
        typer.echo(f"continuing {path}: {store.count()} matches recorded", err=True)
    return store


def play_gate(
    spec: TournamentSpec,
    sprt: Sprt,
    store: Store | None,
    executor: str,
    workers: int | None,
    ray_address: str | None,
    every: ReportEvery,
    json: bool,
) -> GateResult:
    """Run the gate, recording each match in ``store`` (when saving) as soon as it is back."""
    recorded = list(store.records()) if store is not None else []
    on_played = store.add_many if store is not None else None
    with (
        interrupts.sigterm_interrupts(),
        make_executor(
            executor, workers, ray_address, spec.plugins_dir, most=spec.matches
        ) as running,
    ):
        try:
            return run_gate(
                spec,
                running,
                sprt,
                (lambda r: emit_json(match_line(r))) if json else None,
                GateProgress(sys.stderr, every, spec.matches, running.workers, len(recorded)),
                recorded=recorded,
                on_played=on_played,
            )
        except KeyboardInterrupt:
            if store is None:
                raise
            # What the workers had finished but not handed back is kept too.
            store.add_many([match.record for match in running.stop()])
            raise Interrupted(
                f"interrupted; {store.count()} matches are saved in {store.path}; run the"
                " same gate with the same --save to go on"
            ) from None


def print_verdict(result: GateResult, json: bool) -> None:
    """Print the gate's verdict: a line, or (with --json) its object and the line on stderr."""
    sprt = result.sprt
    if not json:
        typer.echo(result.verdict())
        return
    # The verdict line stays readable in a CI log; stdout keeps its JSON.
    typer.echo(result.verdict(), err=True)
    emit_json(
        msgspec.convert(
            {
                "decision": result.decision,
                "candidate": result.candidate,
                "baseline": result.baseline,
                "counted": result.unit,
                "matches": result.matches,
                "deals": result.deals,
                "wins": sprt.wins,
                "losses": sprt.losses,
                "draws": sprt.draws,
                "errors": result.errors,
                "llr": round(sprt.llr, 3),
                "bounds": [round(sprt.lower, 3), round(sprt.upper, 3)],
                **result.figures_json(),
                "verdict": result.verdict(),
            },
            GateOutput,
        )
    )


class GateProgress:
    """Tells the gate's running test on stderr every so many matches or seconds."""

    def __init__(
        self, stream: TextIO, every: ReportEvery, limit: int, workers: int = 1, saved: int = 0
    ) -> None:
        self._stream = stream
        self._every = every
        self._limit = limit
        self._workers = workers
        self._saved = saved
        """Matches a saved gate had before this run: judged at once, not played."""
        self._start = self._last_time = time.monotonic()
        self._last_matches = 0
        self._estimate = Estimate(limit, saved, workers, self._start, limit=True)

    def __call__(self, matches: int, sprt: Sprt) -> None:
        """Hear one more deal; say the estimate after the first played; a line when due."""
        now = time.monotonic()
        played = matches - self._saved
        line = self._estimate.due(matches, now)
        if line is not None:
            self._stream.write(line + "\n")
            self._stream.flush()
        every = self._every
        if (every.matches is not None and matches - self._last_matches >= every.matches) or (
            every.seconds is not None and now - self._last_time >= every.seconds
        ):
            self._last_time, self._last_matches = now, matches
            self._stream.write(
                f"gate: {matches}/{self._limit} matches, {pace(max(played, 0), now - self._start)},"
                f" elapsed {clock(now - self._start)}; deals won {sprt.wins} lost"
                f" {sprt.losses} split {sprt.draws}; LLR {sprt.llr:.2f} in"
                f" [{sprt.lower:.2f}, {sprt.upper:.2f}]\n"
            )
            self._stream.flush()
