"""``racedeck tournament matches DB`` and ``racedeck tournament log DB N``.

From a row of the standings to the match behind it: ``matches`` lists a database's
matches (filtered by bot, seat and result), ``log`` writes one match's log, played again
from its seed exactly as its worker played it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from racedeck.cli.common import JsonFlag, emit_json

if TYPE_CHECKING:
    from racedeck.tournament.record import MatchRecord

_ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def matches_command(
    db: Annotated[Path, typer.Argument(help="The tournament database.")],
    bot: Annotated[
        str | None, typer.Option("--bot", "-b", help="Only matches this bot played in.")
    ] = None,
    seat: Annotated[
        int | None, typer.Option("--seat", "-s", help="Only matches where seat N fits the rest.")
    ] = None,
    result: Annotated[
        str | None,
        typer.Option(
            "--result",
            "-r",
            metavar="win|loss|fault|error",
            help="Only matches that ended so for a seat that fits --bot and --seat.",
        ),
    ] = None,
    json: JsonFlag = False,
) -> None:
    """List a tournament's matches: index, seed, how each seat ended; filter them."""
    from racedeck.cli.contract import MatchesOutput, MatchRow
    from racedeck.tournament.lookup import check_filters, seat_result, select
    from racedeck.tournament.store import Store

    with Store.open(db) as store:
        spec = store.spec
        check_filters(spec, bot, seat)
        recorded = list(store.records())
    chosen = list(select(recorded, bot, seat, result))
    if json:
        rows = [
            MatchRow(
                index=r.index,
                seed=str(r.seed),
                seats=list(r.seats),
                status=r.status,
                ranks=list(r.ranks),
                scores=list(r.scores),
                results=[seat_result(r, s) for s in range(len(r.seats))],
                reason=r.reason,
                log=r.log or None,
            )
            for r in chosen
        ]
        emit_json(MatchesOutput(db=str(db), game=spec.game, count=len(rows), matches=rows))
        return
    typer.echo(f"{len(chosen)} of the {len(recorded)} matches recorded in {db} ({spec.game})")
    for record in chosen:
        typer.echo(_line(record))


def _line(record: MatchRecord) -> str:
    from racedeck.tournament.lookup import seat_result

    seats = []
    for index, name in enumerate(record.seats):
        result = seat_result(record, index)
        place = record.ranks[index] if index < len(record.ranks) else 0
        said = f"{result}, {_ORDINALS.get(place, f'{place}th')}" if place else result
        seats.append(f"{index}:{name} ({said})")
    text = f"match {record.index:>5}  seed {record.seed:<20}  {'  '.join(seats)}"
    if record.reason:
        text += f"  [{record.reason}]"
    return text


_Out = Annotated[
    Path,
    typer.Option("--out", help="The log file to write; ending in .gz, it is gzip-compressed."),
]
_PluginsFolder = Annotated[
    Path | None,
    typer.Option("--plugins-dir", help="The plugins folder the tournament was run with."),
]
_Programs = Annotated[
    list[str] | None,
    typer.Option("--program", help="A program the tournament plays (cmd:...), to start it."),
]


def log_command(
    db: Annotated[Path, typer.Argument(help="The tournament database.")],
    index: Annotated[int, typer.Argument(metavar="N", help="The match's index (as listed).")],
    out: _Out,
    plugins_dir: _PluginsFolder = None,
    program: _Programs = None,
    json: JsonFlag = False,
) -> None:
    """Write match N's log, byte for byte the one --keep-logs would have kept."""
    from racedeck.cli.contract import MatchLogOutput
    from racedeck.core.errors import UsageError
    from racedeck.core.files import write_atomically
    from racedeck.tournament.logs import pack_log
    from racedeck.tournament.lookup import check_index, match_log, replay_spec
    from racedeck.tournament.store import Store

    if out.exists():
        raise UsageError(f"--out {out} exists; name a new file or remove it first")
    with Store.open(db) as store:
        spec = replay_spec(store.spec, db, plugins_dir, program or ())
        record = check_index(spec, store.records(), index)
    log = match_log(spec, record)
    write_atomically(out, pack_log(log) if out.name.endswith(".gz") else log)
    if json:
        seats = list(record.seats)
        emit_json(
            MatchLogOutput(
                db=str(db), index=index, seed=str(record.seed), seats=seats, log=str(out)
            )
        )
        return
    typer.echo(f"match {index} (seed {record.seed}): {out}")
