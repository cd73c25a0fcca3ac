"""Installing a plugin package the way a user would, into a folder of the test's own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def install_into(package: Path, target: Path) -> dict[str, str]:
    """Pip-install ``package`` (no dependencies, no network) into ``target``.

    Returns an environment in which a ``python -m racedeck`` subprocess finds it through
    its entry points, with no plugin allow-list in the way.
    """
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(package),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), *sys.path])}
    env.pop("RACEDECK_LOAD_PLUGINS", None)
    return env
