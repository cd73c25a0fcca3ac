"""Tournaments: schedules, executors, the store, ratings, statistics, the gate, reports.

A tournament is a ``TournamentSpec``; its schedule expands it, match by match, into seeds
and seatings that depend only on the spec and the match's index, so any executor with any
number of workers produces the same matches, and a resumed tournament plays exactly the
ones that are missing.

``racedeck.run_tournament(game, bots, ...)`` plays one from Python
(``racedeck.tournament.script``).
"""

from __future__ import annotations

from racedeck.tournament.spec import TournamentSpec

__all__ = ["TournamentSpec"]
