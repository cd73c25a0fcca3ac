"""A bot author outside the checkout: the new-bot package installs with pip's own dependency
check in a fresh virtual environment, next to a racedeck installed from a wheel of this
checkout, as its README says, with no package index asked for racedeck."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from racedeck.bots.scaffold import install_line, write_package

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def racedeck_wheel(folder: Path) -> Path:
    """Build racedeck's wheel from a copy of the checkout (the checkout itself stays clean)."""
    source = folder / "racedeck-src"
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    run(
        sys.executable,
        "-m",
        "pip",
        "wheel",
        "--quiet",
        "--no-deps",
        "--no-build-isolation",
        "--wheel-dir",
        folder / "dist",
        source,
    )
    [wheel] = (folder / "dist").glob("racedeck-*.whl")
    return wheel


def test_the_new_bot_package_installs_beside_a_racedeck_wheel_in_a_fresh_venv(
    tmp_path: Path,
) -> None:
    wheel = racedeck_wheel(tmp_path)
    home = tmp_path / "venv"
    venv.create(home, with_pip=False)
    python = home / "bin" / "python"
    site = run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    # racedeck's own dependencies (typer, msgspec...) and the install tools (pip,
    # setuptools) come from this interpreter's site, as an index would give them; racedeck
    # itself is the wheel, installed first.
    (Path(site) / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(python, "-m", "pip", "install", "--quiet", "--no-index", wheel)
    package = tmp_path / "racedeck-pit-boss"
    write_package("pit-boss", "lacorsa", package)
    # pip checks racedeck>=0.1 against the installed wheel; --no-index: nothing is fetched.
    run(
        python,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--no-index",
        "--no-build-isolation",
        "-e",
        package,
    )
    listed = run(home / "bin" / "racedeck", "bots", "--game", "lacorsa")
    assert "pit-boss" in listed
    tests = run(
        python, "-m", "pytest", "-q", "-p", "no:cacheprovider", package / "tests", cwd=package
    )
    assert "4 passed" in tests


def test_the_readme_says_how_to_install_this_racedeck_first(tmp_path: Path) -> None:
    package = tmp_path / "racedeck-pit-boss"
    write_package("pit-boss", "lacorsa", package)
    readme = (package / "README.md").read_text()
    assert install_line() in readme and readme.index(install_line()) < readme.index("-e '.[test]'")
    assert install_line().startswith("pip install")
    assert 'dependencies = ["racedeck>=0.1"]' in (package / "pyproject.toml").read_text()
