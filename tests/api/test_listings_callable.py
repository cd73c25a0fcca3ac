"""``racedeck.games()`` and ``racedeck.bots(game)`` work however the packages were reached."""

from __future__ import annotations

import subprocess
import sys


def test_the_packages_are_callable_even_when_imported_before_the_api() -> None:
    """The registry imports ``racedeck.games`` first; calling it must still list the games."""
    script = (
        "import racedeck\n"
        "from racedeck.plugins import load_registry\n"
        "load_registry(entry_points=False)\n"
        "names = [g.name for g in racedeck.games()]\n"
        "assert {'lacorsa', 'famous-500'} <= set(names), names\n"
        "assert 'heuristic' in [b.name for b in racedeck.bots('lacorsa')]\n"
        "import racedeck.games.lacorsa.rules as rules\n"
        "assert racedeck.games.lacorsa.rules is rules\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
