"""The learned-bot example plugin's tests (plugins/racedeck-learned-bot/tests), collected here.

The plugin's source is put on the path as an installed package would be; its test module
is loaded from its file and its tests are collected as this module's.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PLUGIN = Path(__file__).resolve().parents[2] / "plugins" / "racedeck-learned-bot"
if str(PLUGIN / "src") not in sys.path:
    sys.path.insert(0, str(PLUGIN / "src"))

_spec = importlib.util.spec_from_file_location(
    "racedeck_learned_bot_tests", PLUGIN / "tests" / "test_learned_bot.py"
)
assert _spec is not None and _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
globals().update({name: value for name, value in vars(_module).items() if name.startswith("test_")})
