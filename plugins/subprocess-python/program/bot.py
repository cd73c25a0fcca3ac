"""An example racedeck bot in plain Python, speaking the JSON Lines protocol.

It needs nothing but the standard library, so it shows what a program in any language
does: read one JSON object a line from standard input, answer on standard output, flush.
Its strategy works for every game: in LACORSA it keeps its Extend cards for open road and
otherwise plays its lowest card; in any other game it picks an action at random, seeded by
the engine so that a match replays exactly.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def lacorsa_choice(legal: list[dict[str, Any]]) -> int:
    """Extend with the lowest Extend card if possible, else play or discard the lowest card."""
    extends = [i for i, a in enumerate(legal) if a["type"] == "extend"]
    if extends:
        return min(extends, key=lambda i: legal[i]["card"])
    return min(range(len(legal)), key=lambda i: (len(legal[i]["cards"]), legal[i]["cards"]))


def choose(message: dict[str, Any], game: str) -> tuple[int, str]:
    """Return the index of the chosen legal action and a line of debug text."""
    legal = message["legal"]
    if game == "lacorsa":
        return lacorsa_choice(legal), "lowest card, Extends kept for open road"
    rng = random.Random(message["seed"])
    return rng.randrange(len(legal)), "random"


def main() -> None:
    """Answer the engine's messages until it sends ``end`` or closes the input."""
    game = ""
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            game = message["game"]
            answer: dict[str, Any] = {
                "type": "ready",
                "protocol": 2,
                "name": "example-python",
                "version": "1.0",
                "debug": f"python example, seat {message['seat']}",
            }
        elif kind == "act":
            choice, why = choose(message, game)
            # Protocol 2: the answer echoes the decision it answers.
            answer = {"decision": message["decision"], "choice": choice, "debug": why}
        else:
            break
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
