"""Hostile inputs for racedeck itself: mutated logs and misbehaving bots (``make fuzz``).

``racedeck.fuzz.hostile`` holds one bot of each way a bot can fail; ``racedeck.fuzz.logs``
mutates logs; ``racedeck.fuzz.run`` throws both at the commands and counts what happens.
"""
