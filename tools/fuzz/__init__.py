"""Hostile inputs for racedeck itself: mutated logs and misbehaving bots (``make fuzz``).

``tools.fuzz.hostile`` holds one bot of each way a bot can fail; ``tools.fuzz.logs``
mutates logs; ``tools.fuzz.run`` throws both at the commands and counts what happens.
"""
