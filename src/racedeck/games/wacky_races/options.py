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
    """

    races: int = 1
    special_tile: SpecialChoice = "random"
    dastardly_after_neutrals: bool = False
    neutral_finish: Literal["ends", "continues"] = "ends"
