"""A light first run: `make run` installs racedeck alone, and the main job needs no extra."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
EXTRAS_ONLY = ("ray", "matplotlib", "pytest", "hypothesis", "tox", "ruff", "mypy", "numpy")


def test_the_base_install_holds_none_of_the_extras() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=\[ ]", dep)[0].lower() for dep in project["dependencies"]}
    assert not names & set(EXTRAS_ONLY), names
    dev = " ".join(project["optional-dependencies"]["dev"])
    assert all(extra in dev for extra in ("test", "ray", "charts", "rl", "ruff", "mypy"))


def test_make_run_installs_no_extra_and_make_test_installs_them() -> None:
    makefile = (ROOT / "Makefile").read_text()
    rules = dict(re.findall(r"^([^\s:#][^:]*):([^\n]*)$", makefile, flags=re.MULTILINE))
    assert rules["run"].split() == ["$(BIN)/racedeck"]
    install = makefile.split("$(BIN)/racedeck: pyproject.toml")[1].split("\n\n")[0]
    assert "pip install --quiet -e .\n" in install + "\n" and "[" not in install
    assert rules["test"].split() == ["$(DEV)"]
    assert 'pip install --quiet -e ".[$(EXTRAS)]"' in makefile and "EXTRAS ?= dev" in makefile


def test_the_main_job_runs_with_every_extra_missing(tmp_path: Path) -> None:
    blocked = ", ".join(repr(name) for name in EXTRAS_ONLY)
    code = (
        "import sys\n"
        f"for name in ({blocked},): sys.modules[name] = None  # importing it fails\n"
        "from racedeck.cli.app import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "tournament",
            "lacorsa",
            "--bot",
            "heuristic",
            "--bot",
            "random",
            "--players",
            "4",
            "--matches",
            "8",
            "-o",
            "races=1",
            "--workers",
            "1",
            "--db",
            str(tmp_path / "t.sqlite"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "8 of 8 matches (complete)" in done.stdout
