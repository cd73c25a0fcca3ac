"""Wacky Races' options; the defaults follow the rules summary."""

from __future__ import annotations

from typing import Literal

from racedeck.core.model import Options

SpecialChoice = Literal["random", "swamp", "level_crossing", "crossroads", "acme_laboratory"]
"""The ``special_tile`` option: drawn at random, or one of the four."""


class WackyOptions(Options, frozen=True):
    """How a Wacky Races match is played.

    ``races``: 1 for a single race, more for a championship scored on the championship
    sheet. ``special_tile``: the special tile of stage two, drawn at random by default.
    ``dastardly_after_neutrals``: the rulebook's other reading, where Dick Dastardly also
    moves after the neutral racers (the summary says he does not). ``neutral_finish``:
    ``ends`` (a neutral racer reaching the finish first wins and ends the race) or
    ``continues`` (it waits there and the race goes on until a player's racer arrives).

    Two readings that contradict the rules summary are kept as options, off by default
    (rules version 1 played them): ``swamp_holds_neutrals``, a neutral racer on the Swamp
    makes no first move (the summary: "Realizan un primer movimiento sí o sí");
    ``short_turn_hands``, no refill at a turn's start, so a turn may begin with fewer than
    three cards, and the Glue Trap stops the victim's next refill at two (the summary:
    "Los jugadores comienzan la partida y cada uno de sus turnos con tres cartas").
    """

    races: int = 1
    special_tile: SpecialChoice = "random"
    dastardly_after_neutrals: bool = False
    neutral_finish: Literal["ends", "continues"] = "ends"
    swamp_holds_neutrals: bool = False
    short_turn_hands: bool = False
