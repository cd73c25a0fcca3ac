"""One package per game; each has a ``plugin`` module that registers it.

``racedeck.list_games()`` lists what the installed plugins registered.
"""
