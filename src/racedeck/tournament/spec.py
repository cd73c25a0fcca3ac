"""What defines a tournament: stored whole in its database so that it can be resumed."""

from __future__ import annotations

import math
from typing import Any

import msgspec

from racedeck.core.errors import UsageError

FORMATS: tuple[str, ...] = ("round-robin", "duplicate", "gauntlet", "gate")
"""Schedule formats; ``gate`` is the paired schedule of ``racedeck gate``."""

KEEP_LOGS: tuple[str, ...] = ("none", "all", "failures")
"""Which match logs a tournament keeps on disk."""

LOG_COMPRESSIONS: tuple[str, ...] = ("gzip", "none")
"""How kept logs are stored: ``match-N.jsonl.gz``, or plain ``match-N.jsonl``."""


MAX_SEATS = 100
"""The most seats a tournament's table may have (no game takes more than a few)."""

MAX_TABLES = 1_000_000
"""The most different tables (groups of bots) a schedule lists."""


class TournamentSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything that determines a tournament's matches and where their logs go.

    ``bots`` are bot names as the registry knows them; for a gauntlet the first is the
    candidate and the rest its field; for a gate they are the candidate, the baseline and
    the bot that fills any other seat. ``plugins_dir`` and ``entry_points`` tell each
    worker how to load the same registry as the command that started the tournament.
    ``time_limit`` is the seconds a bot may take per decision (``None``: no limit); a match
    in which a bot overruns it is decided by the clock and so is not reproducible.
    ``log_compression`` says how kept logs are stored. ``rules_version`` and
    ``bot_versions`` are the versions the game and each bot had when the tournament was
    planned: every worker checks that it loads the same before it plays (empty in
    databases written before they were recorded, which then check nothing).
    """

    game: str
    bots: tuple[str, ...]
    players: int
    matches: int
    seed: int
    format: str = "round-robin"
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    fault_policy: str = "forfeit"
    time_limit: float | None = None
    keep_logs: str = "none"
    log_dir: str = ""
    plugins_dir: str | None = None
    entry_points: bool = True
    log_compression: str = "none"
    rules_version: str = ""
    bot_versions: dict[str, str] = msgspec.field(default_factory=dict)
    sprt: tuple[float, float, float] | None = None
    """A gate's test: alpha, beta and the candidate's share of decisive deals it detects
    (none for a tournament, and in gate databases written before it was recorded)."""
    sandbox_memory: int = 0
    """With ``--sandbox``: the bytes each of a bot's processes may map; 0 plays unsandboxed."""

    def check(self) -> None:
        """Raise ``UsageError`` when the fields do not make a tournament."""
        if self.format not in FORMATS:
            raise UsageError(
                f"--format must be one of {', '.join(FORMATS[:3])}, got {self.format!r}"
            )
        if self.keep_logs not in KEEP_LOGS:
            raise UsageError(
                f"--keep-logs must be one of {', '.join(KEEP_LOGS)}, got {self.keep_logs!r}"
            )
        if self.log_compression not in LOG_COMPRESSIONS:
            raise UsageError(
                f"--log-compression must be one of {', '.join(LOG_COMPRESSIONS)},"
                f" got {self.log_compression!r}"
            )
        if len(self.bots) < 2 and self.format != "gate":
            raise UsageError("a tournament needs at least two --bot")
        if self.format == "gauntlet" and len(self.bots) < 2:
            raise UsageError("a gauntlet needs a candidate and at least one other --bot")
        if self.matches < 1:
            option = "--max-matches" if self.format == "gate" else "--matches"
            raise UsageError(f"{option} must be at least 1, got {self.matches}")
        if self.time_limit is not None and not self.time_limit > 0:
            raise UsageError(
                f"--time-limit must be a positive number of seconds, got {self.time_limit}"
            )
        self._check_table()
        # The runner's own list: imported here, as a report that only reads needs none of it.
        from racedeck.core.runner import FAULT_POLICIES

        if self.fault_policy not in FAULT_POLICIES:
            raise UsageError(
                f"--fault-policy must be one of {', '.join(FAULT_POLICIES)}, got"
                f" {self.fault_policy!r}"
            )
        if self.sandbox_memory < 0:
            raise UsageError(f"--bot-memory must be positive, got {self.sandbox_memory}")

    def _check_table(self) -> None:
        """Refuse a table no game seats, or more tables than a schedule can list.

        A stored spec may come from someone else: 10**8 seats, or 40 bots at tables of
        20 (some 10**11 groups, each a table of the schedule), would take the memory of
        the machine before a match is played.
        """
        if not 1 <= self.players <= MAX_SEATS:
            raise UsageError(f"--players must be 1 to {MAX_SEATS}, got {self.players}")
        bots = len(self.bots) - (1 if self.format == "gauntlet" else 0)
        seats = self.players - (1 if self.format == "gauntlet" else 0)
        if self.format != "gate" and seats <= bots:
            tables = math.comb(bots, seats)
            if tables > MAX_TABLES:
                raise UsageError(
                    f"{bots} bots at tables of {seats} make {tables:,} different tables;"
                    f" a schedule lists at most {MAX_TABLES:,}"
                )


_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(TournamentSpec)


def encode_spec(spec: TournamentSpec) -> bytes:
    """Return the canonical JSON of ``spec``."""
    return _encoder.encode(spec)


def decode_spec(raw: bytes | str) -> TournamentSpec:
    """Read a spec back from its JSON."""
    return _decoder.decode(raw)
