"""The Python examples of docs/python.md and docs/rl.md run, in order, as written."""

from __future__ import annotations

import re
from importlib.util import find_spec
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def blocks(name: str) -> list[str]:
    """Return the Python code blocks of a page, in order."""
    return BLOCK.findall((DOCS / name).read_text(encoding="utf-8"))


def run_page(name: str, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    found = blocks(name)
    assert found, f"{name} has no python examples"
    monkeypatch.chdir(folder)
    namespace: dict[str, object] = {"__name__": f"docs.{name}"}
    for number, code in enumerate(found, start=1):
        exec(compile(code, f"{name} example {number}", "exec"), namespace)


def test_the_python_page_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_page("python.md", tmp_path, monkeypatch)


@pytest.mark.skipif(find_spec("pettingzoo") is None, reason="needs the rl extra")
def test_the_rl_page_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run_page("rl.md", tmp_path, monkeypatch)
