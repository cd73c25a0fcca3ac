"""The sequential gate: is the candidate better than the baseline? Asked with Wald's SPRT.

Matches come in *deals*: two matches on one seed, the candidate and the baseline swapping
seats, so both are dealt the same cards from the same seats. A deal is won by the bot that
finished ahead of the other more often over its two matches; a deal they split is a draw
and tells nothing about which is better, so it is left out (the sign test). Decisive deals
are then independent Bernoulli trials with the candidate's chance ``p`` of winning one, and
the SPRT weighs ``H0: p = p0`` ("not better", ``p0 = 0.5``) against ``H1: p = p1``
("better by a margin", ``p1 = 0.5 + delta``) after every deal, stopping as soon as the log
likelihood ratio leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``. Under
either hypothesis the chances of the wrong verdict are at most ``alpha`` (calling it better
when it is not) and ``beta`` (missing a real margin); a match limit bounds the run.

Deals are judged strictly in index order, whatever order the workers finish them in, so
the verdict and the number of matches it took are the same with any executor. Matches
already played (a saved gate run again) are judged the same way and not played again, so
a gate that was stopped, or that reached its limit and is given a higher one, goes on
where it was and ends with the verdict one uninterrupted run would have given.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import msgspec

from racedeck.core import diagnostics
from racedeck.core.errors import UsageError
from racedeck.tournament.executors import Batch, Executor
from racedeck.tournament.record import ERROR, MatchRecord, PlayedMatch
from racedeck.tournament.schedule import Schedule
from racedeck.tournament.spec import TournamentSpec
from racedeck.tournament.stats import Tally, finite, wilson_interval

_log = diagnostics.get_logger(component="gate")

BETTER = "better"
NOT_BETTER = "not better"
UNDECIDED = "undecided"

GATE_BATCH = 4
"""Matches (two deals) a task plays: small, so little runs past the verdict."""


@dataclass
class Sprt:
    """Wald's sequential probability ratio test on decisive deals."""

    alpha: float = 0.05
    beta: float = 0.05
    p0: float = 0.5
    p1: float = 0.6
    wins: int = 0
    losses: int = 0
    draws: int = 0

    def __post_init__(self) -> None:
        if not 0 < self.alpha < 0.5 or not 0 < self.beta < 0.5:
            raise ValueError("alpha and beta must be between 0 and 0.5")
        if not 0 < self.p0 < self.p1 < 1:
            raise ValueError("the margin must put p1 between 0.5 and 1")

    @property
    def lower(self) -> float:
        """The bound under which H0 (not better) is accepted."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """The bound over which H1 (better) is accepted."""
        return math.log((1 - self.beta) / self.alpha)

    @property
    def llr(self) -> float:
        """The log likelihood ratio of H1 against H0 so far."""
        return self.wins * math.log(self.p1 / self.p0) + self.losses * math.log(
            (1 - self.p1) / (1 - self.p0)
        )

    def add(self, candidate_points: float) -> None:
        """Count one deal, given the candidate's points over its two matches (0 to 2)."""
        if candidate_points > 1:
            self.wins += 1
        elif candidate_points < 1:
            self.losses += 1
        else:
            self.draws += 1

    @property
    def decision(self) -> str:
        """``better``, ``not better``, or ``undecided`` while between the bounds."""
        llr = self.llr
        if llr >= self.upper:
            return BETTER
        if llr <= self.lower:
            return NOT_BETTER
        return UNDECIDED


@dataclass
class GateResult:
    """How a gate ended and the figures behind the verdict."""

    candidate: str
    baseline: str
    decision: str
    matches: int
    deals: int
    errors: int
    sprt: Sprt
    limit: int
    unit: str = "deals"
    """What the test counted: ``deals`` (the gate's own pairs) or ``matches`` (a tournament's)."""
    played: bool = True
    """False when a saved gate was judged from its database alone, with nothing played."""

    @property
    def tally(self) -> Tally:
        """The candidate's decisive and split games, as a tally."""
        return Tally(self.sprt.wins, self.sprt.draws, self.sprt.losses)

    def figures(self) -> str:
        """Return the win rate, the Elo-style difference and the LOS, each with its interval."""
        s = self.sprt
        decisive = s.wins + s.losses
        low, high = wilson_interval(s.wins, decisive)
        tally = self.tally
        elo_low, elo_high = tally.elo_interval()
        rate = f"{100 * s.wins / decisive:.1f}%" if decisive else "-"
        return (
            f"win rate {rate} [{100 * low:.1f}%, {100 * high:.1f}%],"
            f" Elo {_signed(tally.elo())} [{_signed(elo_low)}, {_signed(elo_high)}],"
            f" LOS {100 * tally.los():.1f}%"
        )

    def figures_json(self) -> dict[str, object]:
        """Return the same figures as JSON-ready data (``None`` where one is infinite)."""
        s = self.sprt
        decisive = s.wins + s.losses
        tally = self.tally
        elo_low, elo_high = tally.elo_interval()
        low, high = wilson_interval(s.wins, decisive)
        return {
            "win_rate": round(s.wins / decisive, 4) if decisive else None,
            "win_rate_ci95": [round(low, 4), round(high, 4)],
            "elo": _rounded(finite(tally.elo()), 1),
            "elo_ci95": [_rounded(finite(elo_low), 1), _rounded(finite(elo_high), 1)],
            "los": round(tally.los(), 4),
        }

    def verdict(self) -> str:
        """Return the one-line verdict with its figures."""
        s = self.sprt
        decisive = s.wins + s.losses
        share = f"{100 * s.wins / decisive:.1f}%" if decisive else "-"
        if self.decision == BETTER:
            head = f"{self.candidate} is better than {self.baseline}"
        elif self.decision == NOT_BETTER:
            head = f"{self.candidate} is not better than {self.baseline}"
        elif self.unit == "matches":
            head = "undecided over the recorded matches"
        elif not self.played:
            head = "undecided over the saved matches"
        else:
            head = f"undecided at the limit of {self.limit} matches"
        errors = f", {self.errors} unplayable matches" if self.errors else ""
        counted = f"{self.matches} matches ({self.deals} deals)"
        if self.unit == "matches":
            counted = f"{self.matches} recorded matches in which both played"
        return (
            f"gate: {head}: after {counted} "
            f"{self.candidate} won {s.wins} of {decisive} decisive {self.unit} ({share}), "
            f"{s.draws} split{errors}; {self.figures()}; "
            f"LLR {s.llr:.2f} in bounds [{s.lower:.2f}, {s.upper:.2f}] "
            f"(alpha {s.alpha}, beta {s.beta}, p1 {s.p1:.2f})"
        )


def _signed(value: float) -> str:
    if math.isnan(value):
        return "-"
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def _batches(indices: Iterable[int]) -> Iterator[Batch]:
    batch: Batch = []
    for index in indices:
        batch.append(index)
        if len(batch) == GATE_BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def candidate_points(schedule: Schedule, record: MatchRecord) -> float:
    """Return 1 when the candidate finished ahead of the baseline, 0.5 when level, else 0."""
    mine, theirs = schedule.gate_seats(record.index)
    if record.ranks[mine] < record.ranks[theirs]:
        return 1.0
    return 0.5 if record.ranks[mine] == record.ranks[theirs] else 0.0


def run_gate(
    spec: TournamentSpec,
    executor: Executor,
    sprt: Sprt,
    on_record: Callable[[MatchRecord], None] | None = None,
    on_deal: Callable[[int, Sprt], None] | None = None,
    *,
    recorded: Iterable[MatchRecord] = (),
    on_played: Callable[[list[MatchRecord]], None] | None = None,
) -> GateResult:
    """Play deals in order until the SPRT decides or ``spec.matches`` is reached.

    ``on_record`` hears every match as it is judged, ``on_deal`` the matches judged so far
    and the test after every deal. ``recorded`` are matches of this very gate played
    before: they are judged first and not played again. ``on_played`` hears every batch of
    newly played matches as soon as it is back, before it is judged (so none is lost to a
    verdict reached or an interrupt).
    """
    schedule = Schedule(spec)
    limit = spec.matches - spec.matches % 2
    waiting: dict[int, MatchRecord] = {r.index: r for r in recorded if r.index < limit}
    judged = 0
    errors = 0

    def judge() -> str:
        """Judge every deal whose two matches are in; return the decision so far."""
        nonlocal judged, errors
        while judged in waiting and judged + 1 in waiting:
            pair = (waiting.pop(judged), waiting.pop(judged + 1))
            judged += 2
            for record in pair:
                if on_record is not None:
                    on_record(record)
            if any(r.status == ERROR for r in pair):
                errors += sum(r.status == ERROR for r in pair)
                continue
            sprt.add(sum(candidate_points(schedule, r) for r in pair))
            _log.debug("deal judged", deal=judged // 2 - 1, llr=round(sprt.llr, 3))
            if on_deal is not None:
                on_deal(judged, sprt)
            if sprt.decision != UNDECIDED:
                return sprt.decision
        return UNDECIDED

    decision = judge()
    if decision == UNDECIDED:
        known = set(waiting)
        # Only matches not yet judged are played: those of ``recorded`` are in ``waiting``.
        todo = (i for i in range(judged, limit) if i not in known)
        results = executor.run(spec, _batches(todo))
        try:
            for played in results:
                if on_played is not None and played:
                    on_played([match.record for match in played])
                for match in played:
                    waiting[match.record.index] = match.record
                decision = judge()
                if decision != UNDECIDED:
                    break
        finally:
            getattr(results, "close", lambda: None)()  # a generator stops its workers
    _log.info(
        "gate judged",
        candidate=spec.bots[0],
        baseline=spec.bots[1],
        decision=decision,
        matches=judged,
        errors=errors,
        llr=round(sprt.llr, 3),
    )
    return GateResult(
        candidate=spec.bots[0],
        baseline=spec.bots[1],
        decision=decision,
        matches=judged,
        deals=judged // 2,
        errors=errors,
        sprt=sprt,
        limit=limit,
    )


def _rounded(value: float | None, digits: int) -> float | None:
    """Round a figure for JSON; None (no finite value) stays None."""
    return None if value is None else round(value, digits)


class _PlaysNothing(Executor):
    """An executor for judging saved matches only: every match it is asked for stays unplayed."""

    workers = 1

    def run(
        self, spec: TournamentSpec, batches: Iterable[Batch], tick: float | None = None
    ) -> Iterator[list[PlayedMatch]]:
        """Yield nothing: the judge stops at the first match that was not saved."""
        return iter(())


def judge_saved_gate(
    spec: TournamentSpec,
    records: Iterable[MatchRecord],
    candidate: str,
    baseline: str,
    sprt: Sprt,
) -> GateResult:
    """Judge the matches a gate saved (``gate --save``) as the gate does, playing none.

    Deals are judged in index order up to the verdict, or up to the first deal not saved
    whole; so the figures are those the gate itself reached after as many matches.
    """
    if (candidate, baseline) != spec.bots[:2]:
        raise UsageError(
            f"this database holds the gate of {spec.bots[0]} against {spec.bots[1]};"
            f" judge it with --candidate {spec.bots[0]} --baseline {spec.bots[1]}"
        )
    kept = list(records)
    end = max((r.index for r in kept), default=0) + 1
    sized = msgspec.structs.replace(spec, matches=max(2, end + end % 2))
    result = run_gate(sized, _PlaysNothing(), sprt, recorded=kept)
    return dataclasses.replace(result, played=False)


def gate_from_records(
    spec: TournamentSpec,
    records: Iterable[MatchRecord],
    candidate: str,
    baseline: str,
    sprt: Sprt,
) -> GateResult:
    """Judge a tournament that already ran, from its records.

    Every counted match in which both bots sat is one game: the candidate's points averaged
    over each pair of its and the baseline's seats (ahead 1, level 0.5, behind 0). The
    decision is where the LLR ends after all of them (no stopping early: the matches were
    all played anyway).
    """
    for name, option in ((candidate, "--candidate"), (baseline, "--baseline")):
        if name not in spec.bots:
            raise UsageError(
                f"{option} {name}: not in this tournament; its bots: {', '.join(spec.bots)}"
            )
    matches = errors = 0
    for record in records:
        if record.status == ERROR:
            errors += 1
            continue
        mine = [seat for seat, bot in enumerate(record.seats) if bot == candidate]
        theirs = [seat for seat, bot in enumerate(record.seats) if bot == baseline]
        if not mine or not theirs:
            continue
        matches += 1
        points = [
            1.0
            if record.ranks[a] < record.ranks[b]
            else 0.5
            if record.ranks[a] == record.ranks[b]
            else 0.0
            for a in mine
            for b in theirs
        ]
        sprt.add(2 * sum(points) / len(points))
    return GateResult(
        candidate=candidate,
        baseline=baseline,
        decision=sprt.decision,
        matches=matches,
        deals=0,
        errors=errors,
        sprt=sprt,
        limit=spec.matches,
        unit="matches",
    )
