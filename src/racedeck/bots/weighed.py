"""What a bot weighed for a decision, written to the match log as one debug line.

Any bot can say why it chose: derive from ``Weighing`` (before ``Bot``), and at the end
of ``act`` call ``self.record_weighed(choices, spent)`` with the actions it considered,
in the game's words, each with how often it tried it and what it found it worth, and the
effort the decision took. The engine asks for the line after the decision
(``take_debug``) and writes it to the log as a ``debug`` line, which ``racedeck replay``
and ``racedeck play`` print. A decision with nothing recorded writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

TOP = 3
"""How many of the actions weighed a line names: the most tried first."""


@dataclass(frozen=True)
class Choice:
    """One action a bot weighed: in the game's words, how often tried, what it was worth."""

    action: str
    visits: float
    value: float


def weighed_text(choices: Iterable[Choice], spent: int, unit: str = "simulations") -> str:
    """Return the line for a decision: the effort spent and the ``TOP`` most tried actions.

    Ties in visits keep the order the actions were given in, so the line is the same
    whenever the decision is.
    """
    ranked = sorted(choices, key=lambda choice: -choice.visits)[:TOP]
    parts = [f"{c.action} ({c.visits:g} visits, value {c.value:.3f})" for c in ranked]
    return f"weighed {spent} {unit}: " + "; ".join(parts)


def search_choices(
    table: Mapping[Any, Sequence[float]], legal: Sequence[Any], describe: Callable[[Any], str]
) -> list[Choice]:
    """Return a search's statistics as choices: each row is visits and reward sum first.

    In ``legal``'s order, the actions never tried left out: a search that plays the first
    of the most tried then heads the line with the action it plays.
    """
    choices = []
    for action in legal:
        row = table.get(action)
        if row is not None and row[0]:
            choices.append(Choice(describe(action), row[0], row[1] / row[0]))
    return choices


class Weighing:
    """A bot that records what it weighed for each decision (see the module's text)."""

    emits_debug: ClassVar[bool] = True
    _weighed: str | None = None

    def record_weighed(
        self, choices: Iterable[Choice], spent: int, unit: str = "simulations"
    ) -> None:
        """Keep the line for this decision; the engine takes it once the decision is made."""
        self._weighed = weighed_text(choices, spent, unit)

    def take_debug(self) -> str | None:
        """Return (and forget) the line recorded for the last decision, if any."""
        text, self._weighed = self._weighed, None
        return text
