"""Every ``python -m MODULE`` the README and the docs tell a reader to run names a module.

A script that moves (the strength ladder left the runtime package for ``tools``) leaves
commands in the docs that fail with "No module named"; this reads them all and finds each.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMAND = re.compile(r"python3? -m ([A-Za-z_][A-Za-z0-9_.]*)")
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def _modules() -> dict[str, str]:
    found: dict[str, str] = {}
    for page in PAGES:
        for module in COMMAND.findall(page.read_text(encoding="utf-8")):
            found.setdefault(module.rstrip("."), page.relative_to(ROOT).as_posix())
    return found


def test_the_docs_name_commands() -> None:
    assert len(_modules()) > 10


def test_every_documented_module_exists() -> None:
    missing = {
        module: page
        for module, page in _modules().items()
        if importlib.util.find_spec(module) is None
    }
    assert missing == {}
