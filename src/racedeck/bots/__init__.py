"""Game-independent bots.

``racedeck.list_bots(game)`` lists what the installed plugins registered.
"""
