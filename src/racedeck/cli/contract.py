"""The JSON contract of the command line: one msgspec type for every ``--json`` output.

Every output is one JSON object on one line of standard output, its ``kind`` first and
its ``schema`` (the version of this contract) second; a command that reports as it goes
(``tournament``, ``gate``) prints one object a line, each with its own kind. With
``--json`` an error is an object of kind ``error`` on standard output too (and its
usual line on stderr). Seeds are strings: a 64-bit match seed as a JSON number is rounded
by ``jq`` and JavaScript, and the rounded seed plays another match.

``racedeck schema NAME`` prints the JSON Schema of one output (or of a log line, an
observation, an action, a protocol message: ``racedeck.cli.schemas``); the schemas are
kept in ``docs/schemas/`` and a test checks they match these types.
"""

from __future__ import annotations

from typing import Any

import msgspec

from racedeck.core.log import DebugNote, Fault, Forfeit, ForkOrigin
from racedeck.core.model import Result

SCHEMA_VERSION = 1
"""The version of this contract; a field's meaning never changes within a version."""


class Output(msgspec.Struct, kw_only=True, tag_field="kind"):
    """The fields every output starts with: ``kind`` (the tag) and ``schema``."""

    schema: int = SCHEMA_VERSION


class GameRow(msgspec.Struct, kw_only=True):
    """One registered game."""

    name: str
    title: str
    players: tuple[int, int]
    rules_version: str


class GamesOutput(Output, tag="games"):
    """``racedeck games --json``."""

    games: list[GameRow]


class ParameterRow(msgspec.Struct, kw_only=True):
    """A parameter a bot takes where it is named (``ismcts:simulations=500``)."""

    name: str
    type: str
    default: int | float | bool | str | None
    optional: bool
    """``none`` is a value too (no limit)."""
    choices: list[str] | None
    description: str


class BotRow(msgspec.Struct, kw_only=True):
    """One registered bot."""

    name: str
    version: str
    games: list[str] | None
    excluded: list[str]
    """With ``games`` null, the games another registration of the name plays."""
    description: str
    reproducible: bool
    parameters: list[ParameterRow]


class BotsOutput(Output, tag="bots"):
    """``racedeck bots --json``."""

    bots: list[BotRow]


class PluginRow(msgspec.Struct, kw_only=True):
    """One loaded plugin: where it comes from and what it registers."""

    plugin: str
    source: str
    """``builtin``, ``entry-point`` or ``file``."""
    package: str | None
    version: str | None
    path: str | None
    games: list[str]
    bots: list[str]
    pictures: list[str]


class PluginsOutput(Output, tag="plugins"):
    """``racedeck plugins --json``."""

    plugins: list[PluginRow]


class PlayOutput(Output, tag="play"):
    """``racedeck play --json``: how the match ended and where its log is."""

    game: str
    seed: str
    seats: list[str]
    events: int
    result: Result
    forfeit: Forfeit | None
    faults: list[Fault]
    debug: list[DebugNote]
    log: str | None


class ReplayOutput(Output, tag="replay"):
    """``racedeck replay --json``; ``view`` is a game's observation when ``--seat`` is given."""

    log: str
    game: str
    events: int
    complete: bool
    verified: bool
    state_hash: str | None
    result: dict[str, Any] | None
    """The result line's ``result``: ranks, scores, unit and summary, as the log has it."""
    faults: list[Fault]
    debug: list[DebugNote]
    view: Any
    error: str | None


class ShowOutput(Output, tag="show"):
    """``racedeck show --json``: the state, or a seat's observation, after an event."""

    log: str
    events: int
    seat: int | None
    view: Any


class StepOutput(Output, tag="step"):
    """``racedeck step --json``: one frame, as the viewer shows it, for a script to step."""

    log: str
    at: int
    """The event the frame comes after; -1 is before the first."""
    events: int
    """How many events the log holds."""
    event_kind: str | None
    """The kind of event ``at``; none before the first."""
    event: Any
    """Event ``at`` in full; none before the first, or in a seat's view (it may be hidden)."""
    seat: int | None
    view: Any
    """The state, or the seat's observation, after event ``at``."""


class SchemaOutput(Output, tag="schema"):
    """``racedeck schema --json``: the names of the schemas, one schema, or where they went."""

    names: list[str]
    """Every schema's name (without NAME); the one named (with it)."""
    document: Any = None
    """The JSON Schema named, when one is."""
    folder: str | None = None
    """Where ``--write`` wrote them."""


class VersionOutput(Output, tag="version"):
    """``racedeck --version --json``: racedeck's version and the Python it runs on."""

    version: str
    python: str


class DiffOutput(Output, tag="diff"):
    """``racedeck diff --json``: where two logs part, and each side's state there."""

    identical: bool
    header_differences: list[str]
    events_compared: int
    divergence: dict[str, Any] | None


class ForkOutput(Output, tag="fork"):
    """``racedeck fork --json``: the fork written."""

    log: str
    parent: str
    fork: ForkOrigin | None
    seed: str
    seats: list[str]
    events: int
    result: Result


class ForkVerifyOutput(Output, tag="fork-verify"):
    """``racedeck fork --verify --json``."""

    log: str
    verified: bool
    events: int
    fork: ForkOrigin


class PartingRow(msgspec.Struct, kw_only=True):
    """A decision where the bot would have played otherwise, in the game's words."""

    event: int
    """The number of the decision's first event."""
    played: str
    chosen: str | None
    """What the bot would have played; none when it failed (``fault``)."""
    fault: str | None = None


class CompareOutput(Output, tag="compare"):
    """``racedeck compare --json``: a seat's decisions against a bot's choices."""

    log: str
    seat: int
    played_by: str
    bot: str
    decisions: int
    agreed: int
    rate: float
    partings: list[PartingRow]


class HtmlOutput(Output, tag="html"):
    """``racedeck html --json``."""

    log: str
    html: str
    bytes: int
    seats: list[int] | None


class ChartOutput(Output, tag="chart"):
    """``racedeck chart --json``: the chart's data as well as where it went."""

    log: str
    chart: str
    ticks: list[Any]
    cars: list[Any]
    positions: list[Any]
    series: Any


class MatchOutput(Output, tag="match"):
    """One finished match of a tournament or a gate, a line as it is recorded."""

    index: int
    seed: str
    deal: int
    seats: list[str]
    status: str
    ranks: list[int]
    scores: list[int]
    unit: str
    events: int
    fault_seat: int
    reason: str
    faults: list[str]
    log: str


class MatchRow(msgspec.Struct, kw_only=True):
    """One recorded match as ``tournament matches`` lists it."""

    index: int
    seed: str
    seats: list[str]
    status: str
    ranks: list[int]
    scores: list[int]
    results: list[str]
    """How the match ended for each seat: ``win``, ``loss``, ``fault`` or ``error``."""
    reason: str
    log: str | None
    """The kept log's path, when the tournament kept it."""


class MatchesOutput(Output, tag="matches"):
    """``racedeck tournament matches DB --json``: the matches that fit the filters."""

    db: str
    game: str
    count: int
    matches: list[MatchRow]


class MatchLogOutput(Output, tag="match-log"):
    """``racedeck tournament log DB N --json``: where match N's log was written."""

    db: str
    index: int
    seed: str
    seats: list[str]
    log: str


class PairingRow(msgspec.Struct, kw_only=True):
    """How ``bot`` did against ``opponent``: a game per pair of their seats in a match."""

    bot: str
    opponent: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float | None
    score_ci95: list[float]
    elo: float | None
    elo_ci95: list[float | None]
    los: float


class SeatRow(msgspec.Struct, kw_only=True):
    """How a bot (or every bot) did from one seat."""

    matches: int
    wins: int
    mean_score: float


class BotStandingRow(msgspec.Struct, kw_only=True):
    """One bot's line of the standings (the columns are described in docs/tournaments.md)."""

    bot: str
    matches: int
    """Counted matches it played in, once each."""
    seats: int
    """Seats it took in them (a match with two copies counts twice)."""
    wins: int
    """Seats that finished first, ties included."""
    forfeits: int
    mean_score: float
    ci95: float | None
    """Half the width of the mean score's 95% interval (None with fewer than two seats)."""
    mean_place: float
    mu: float
    sigma: float
    ordinal: float
    by_seat: dict[str, SeatRow]


class ScoreRow(msgspec.Struct, kw_only=True):
    """What the game's score is called, which way is better, and how often it misled."""

    name: str
    higher_is_better: bool
    upsets: int
    """Matches whose winner had not the best score (the finishing order decides)."""


class StandingsOutput(Output, tag="standings"):
    """A tournament's standings (``tournament``, ``resume``, ``report``)."""

    game: str
    format: str
    seed: str
    scheduled: int
    recorded: int
    complete: bool
    forfeits: int
    errors: int
    unit: str
    bots: list[BotStandingRow]
    seats: dict[str, SeatRow]
    ranked: bool
    head_to_head: list[PairingRow]
    db: str
    html: str | None = None
    score: ScoreRow | None = None
    decision: str | None = None
    """A gate's verdict on its recorded matches; none for a tournament."""
    crosstable: dict[str, dict[str, float | None]] | None = None
    """Each bot's score against each other (None: itself, or never met); not in a gauntlet."""
    logs: str | None = None
    """The folder the run kept match logs in (``--keep-logs``); none when it kept none."""


class GateOutput(Output, tag="gate"):
    """The gate's verdict and the figures behind it."""

    decision: str
    candidate: str
    baseline: str
    counted: str
    """What one game of the test is: ``deals`` (the gate's pairs) or ``matches`` (--db)."""
    matches: int
    deals: int
    wins: int
    losses: int
    draws: int
    errors: int
    llr: float
    bounds: list[float]
    win_rate: float | None
    win_rate_ci95: list[float]
    elo: float | None
    elo_ci95: list[float | None]
    los: float
    verdict: str


class ViolationRow(msgspec.Struct, kw_only=True):
    """One breach of the subprocess protocol that ``bot check`` found."""

    match: int
    seed: str
    players: int
    seat: int
    decision: int
    kind: str
    detail: str
    message: str


class BotCheckOutput(Output, tag="bot-check"):
    """``racedeck bot check --json``."""

    game: str
    command: list[str]
    matches: int
    decisions: int
    ok: bool
    violations: list[ViolationRow]


class NewBotOutput(Output, tag="new-bot"):
    """``racedeck new-bot --json``: the package written."""

    bot: str
    game: str
    folder: str
    files: list[str]


class ErrorOutput(Output, tag="error"):
    """With ``--json``, any error: the exit code, the error's kind, one line, and where."""

    code: int
    """The exit status the command ends with."""
    error: str
    """What kind of error: ``usage``, ``bad-input``, ``verification``, ``interrupted``..."""
    message: str
    where: str | None
    """The file and line, or the command, the error is about."""


OUTPUTS: dict[str, type[Output]] = {
    cls.__struct_config__.tag: cls  # type: ignore[misc]
    for cls in (
        GamesOutput,
        BotsOutput,
        PluginsOutput,
        PlayOutput,
        ReplayOutput,
        ShowOutput,
        StepOutput,
        DiffOutput,
        ForkOutput,
        ForkVerifyOutput,
        CompareOutput,
        HtmlOutput,
        ChartOutput,
        MatchOutput,
        MatchesOutput,
        MatchLogOutput,
        StandingsOutput,
        GateOutput,
        BotCheckOutput,
        NewBotOutput,
        SchemaOutput,
        VersionOutput,
        ErrorOutput,
    )
}
"""Every output by its kind."""

STREAM_KINDS = frozenset({"match"})
"""Kinds written as a run goes, one a line, before the run's one result document."""


_encoder = msgspec.json.Encoder()


def encode_output(output: Output) -> bytes:
    """Return ``output`` as one line of JSON (without the newline)."""
    return _encoder.encode(output)
