"""Help without type noise: each option's value is named for what it is, flags show none.

Typer labels every option with its Python type (``<int>``, ``<list[str]>``, and ``<bool>``
on a flag that takes no value). This names a value after its option instead
(``--seed SEED``, ``--bot BOT``), the way argparse and most command lines do, unless the
option sets its own metavar.
"""

from __future__ import annotations

from typing import Any

METAVARS = {
    "seat": "BOT",
    "bot": "BOT",
    "candidate": "BOT",
    "baseline": "BOT",
    "field": "BOT",
    "option": "KEY=VALUE",
    "plugins_dir": "DIR",
    "db": "DB",
    "log": "LOG",
    "log_out": "LOG",
    "out": "PATH",
    "html": "PATH",
    "into": "DIR",
    "time_limit": "SECONDS",
    "bot_memory": "SIZE",
}
"""Names for values that say more than the option's own name would."""

NUMBERS = {"seat": "SEAT", "at": "N", "matches": "N", "players": "N", "workers": "N"}
"""Names for options whose value is a number: ``--seat`` is a bot where a command fills
seats (``play --seat BOT``) and a seat's number where it views one (``replay --seat SEAT``)."""


def plain_help(command: Any) -> Any:
    """Give every option and argument under ``command`` a plain metavar; return it."""
    # By kind, not class: Typer's parameter classes are not always click's own.
    for param in getattr(command, "params", []):
        kind = getattr(param, "param_type_name", "")
        if kind == "option":
            if param.is_flag or param.count:
                param.metavar = ""
            elif param.metavar is None:
                name = param.name or ""
                if getattr(param.type, "name", "") in ("int", "integer") and name in NUMBERS:
                    param.metavar = NUMBERS[name]
                else:
                    param.metavar = METAVARS.get(name, (name or "value").upper())
        elif kind == "argument":
            if param.metavar is None:
                param.metavar = (param.name or "arg").upper()
            if hasattr(param, "display_type_rich"):
                # An argument's name already says what it is; Typer would add its type.
                param.display_type_rich = _no_type
    original = getattr(command, "get_help_option", None)
    if original is not None:
        # --help is made afresh for each context: it gets no value name either.
        def get_help_option(ctx: Any) -> Any:
            option = original(ctx)
            if option is not None:
                option.metavar = ""
            return option

        command.get_help_option = get_help_option
    for sub in getattr(command, "commands", {}).values():
        help_text = getattr(sub, "help", None)
        if getattr(sub, "short_help", None) is None and help_text:
            # The list of commands shows each one's whole first line, wrapped, not cut.
            sub.short_help = help_text.strip().splitlines()[0]
        plain_help(sub)
    return command


def _no_type(ctx: Any) -> None:
    """Show no type beside an argument."""
    return None
