"""Replay debugging and pictures: diff, fork, the step viewer, the HTML replay, lap charts.

Everything here reads logs through ``racedeck.core`` and never changes a match: it only
looks at one, or starts a new one from a point of it.
"""
