"""LACORSA's options; the defaults follow the rulebook."""

from __future__ import annotations

from racedeck.core.model import Options
from racedeck.games.lacorsa.data import CHAMPIONSHIP_RACES


class LacorsaOptions(Options, frozen=True):
    """How a LACORSA match is played.

    ``races``: races in the championship (the rulebook's is 7). ``extra_suit``: a
    2-player game adds a fifth suit; 13 cards are still dealt per car and the rest stay out
    of play, unseen. ``pairs_as_teams``: in a drivers' championship (4-6 players), seats
    0+1, 2+3 and 4+5 also score as teams. ``board_length``: 0 for the open-ended strip;
    otherwise the number of spaces, and a leader on the last one cannot extend.
    """

    races: int = CHAMPIONSHIP_RACES
    extra_suit: bool = False
    pairs_as_teams: bool = False
    board_length: int = 0
