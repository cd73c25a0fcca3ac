"""One JSON contract without holes: every command takes --json and writes one document a run."""

from __future__ import annotations

import json
import platform
from pathlib import Path

import jsonschema
import pytest

from racedeck import __version__
from racedeck.cli.app import _command, main
from racedeck.cli.schemas import DIALECT, ID_PREFIX
from racedeck.core.errors import EXIT_BAD_INPUT

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def one_document(out: str, kind: str) -> dict[str, object]:
    """Parse ``out`` as exactly one JSON document, checked against its schema in docs/."""
    document = json.loads(out)  # fails on a second document
    assert document["kind"] == kind
    schema = json.loads((SCHEMAS / f"output-{kind}.json").read_text())
    jsonschema.validate(document, schema)
    return document


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("logs") / "m.jsonl"
    assert (
        main(
            [
                "play",
                "lacorsa",
                "-s",
                "heuristic",
                "-s",
                "random",
                "-o",
                "races=1",
                "--log",
                str(log),
            ]
        )
        == 0
    )
    return log


def damaged(played: Path, tmp_path: Path) -> Path:
    """A copy of the log whose sixth line's hash was altered, so the chain breaks there."""
    lines = played.read_text().splitlines(keepends=True)
    digit = lines[5].index('"hash":"') + len('"hash":"')
    flipped = "0" if lines[5][digit] != "0" else "1"
    lines[5] = lines[5][:digit] + flipped + lines[5][digit + 1 :]
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines))
    return broken


@pytest.mark.parametrize("command", [["replay"], ["replay", "--at", "9"], ["show"]])
def test_a_damaged_log_gives_one_document_the_error(
    command: list[str], played: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = damaged(played, tmp_path)
    code, out, err = run([command[0], str(broken), *command[1:], "--json"], capsys)
    assert code == EXIT_BAD_INPUT
    error = one_document(out, "error")
    assert error["where"] == f"{broken}:6" and str(error["message"]) in err


def test_every_command_takes_json() -> None:
    def walk(command: object, path: str) -> list[str]:
        subcommands = getattr(command, "commands", {})
        if subcommands:
            return [name for sub, c in subcommands.items() for name in walk(c, f"{path} {sub}")]
        names = {opt for p in getattr(command, "params", []) for opt in getattr(p, "opts", [])}
        return [] if "--json" in names else [path]

    assert walk(_command(), "racedeck") == []


def test_version_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(["--version", "--json"], capsys)
    assert code == 0
    version = one_document(out, "version")
    assert version["version"] == __version__ and version["python"] == platform.python_version()
    assert run(["--version"], capsys)[1] == f"racedeck {__version__}\n"


def test_schema_json_lists_prints_and_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(["schema", "--json"], capsys)
    names = one_document(out, "schema")["names"]
    assert code == 0 and "output-gate" in names and "action-lacorsa" in names  # type: ignore[operator]
    code, out, _err = run(["schema", "output-gate", "--json"], capsys)
    document = one_document(out, "schema")["document"]
    assert document == json.loads((SCHEMAS / "output-gate.json").read_text())
    code, out, _err = run(["schema", "--write", str(tmp_path), "--json"], capsys)
    assert one_document(out, "schema")["folder"] == str(tmp_path)
    assert sorted(p.stem for p in tmp_path.glob("*.json")) == names


def test_every_schema_names_its_dialect_and_id() -> None:
    for path in SCHEMAS.glob("*.json"):
        schema = json.loads(path.read_text())
        assert schema["$schema"] == DIALECT
        assert schema["$id"] == f"{ID_PREFIX}{path.name}"
        jsonschema.Draft202012Validator.check_schema(schema)


def test_step_json_prints_the_frame_after_at(
    played: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _err = run(["step", str(played), "--at", "3", "--json"], capsys)
    frame = one_document(out, "step")
    assert code == 0 and frame["at"] == 3 and frame["event"]["type"] == frame["event_kind"]  # type: ignore[index]
    code, out, _err = run(["show", str(played), "--at", "3", "--json"], capsys)
    assert frame["view"] == json.loads(out)["view"]
    code, out, _err = run(["step", str(played), "--at", "3", "--seat", "1", "--json"], capsys)
    seen = one_document(out, "step")
    assert seen["event"] is None and seen["seat"] == 1 and seen["event_kind"] == frame["event_kind"]
    code, out, _err = run(["step", str(played), "--json"], capsys)
    assert one_document(out, "step")["event_kind"] is None
