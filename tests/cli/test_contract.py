"""One JSON contract: kinds, schema versions, string seeds, JSON errors, checked schemas."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import msgspec
import pytest

from racedeck.cli.app import _command, main
from racedeck.cli.contract import OUTPUTS, SCHEMA_VERSION
from racedeck.cli.schemas import schema_json, schema_types
from racedeck.core.errors import EXIT_BAD_INPUT, EXIT_USAGE, EXIT_VERIFY_FAILED
from racedeck.plugins import load_registry

SCHEMAS = Path(__file__).parents[2] / "docs" / "schemas"
PLUGINS = Path(__file__).parents[2] / "plugins" / "single-file"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def outputs(out: str) -> list[msgspec.Struct]:
    """Decode every line strictly as the output type its kind names."""
    decoded = []
    for line in out.splitlines():
        kind = json.loads(line)["kind"]
        value = msgspec.json.decode(line, type=OUTPUTS[kind])
        assert value.schema == SCHEMA_VERSION  # type: ignore[attr-defined]
        decoded.append(value)
    return decoded


def test_the_schemas_in_docs_are_the_ones_the_code_generates() -> None:
    registry = load_registry(entry_points=False)
    names = sorted(schema_types(registry))
    on_disk = sorted(path.stem for path in SCHEMAS.glob("*.json"))
    assert on_disk == names, "run: racedeck schema --write docs/schemas"
    for name in names:
        assert (SCHEMAS / f"{name}.json").read_bytes() == schema_json(registry, name), (
            f"docs/schemas/{name}.json is stale; run: racedeck schema --write docs/schemas"
        )


def test_schema_prints_one_and_refuses_an_unknown_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(["schema", "output-gate"], capsys)
    assert code == 0 and json.loads(out)["$ref"] == "#/$defs/GateOutput"
    code, _out, err = run(["schema", "output-nothing"], capsys)
    assert code == EXIT_USAGE and "no schema 'output-nothing'" in err


def test_every_json_output_has_its_kind_and_decodes_as_its_type(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    db = tmp_path / "t.sqlite"
    commands = [
        ["games", "--json"],
        ["bots", "--json"],
        ["plugins", "--json"],
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
            "--json",
        ],
        ["replay", str(log), "--verify", "--json"],
        ["show", str(log), "--at", "3", "--json"],
        ["diff", str(log), str(log), "--json"],
        ["fork", str(log), "--at", "4", "--log", str(tmp_path / "f.jsonl"), "--json"],
        ["fork", str(tmp_path / "f.jsonl"), "--verify", "--json"],
        ["compare", str(log), "--seat", "1", "--bot", "heuristic", "--json"],
        ["html", str(log), "--out", str(tmp_path / "p.html"), "--json"],
        ["chart", str(log), "--out", str(tmp_path / "c.svg"), "--json"],
        [
            "tournament",
            "lacorsa",
            "--bot",
            "heuristic",
            "--bot",
            "random",
            "-o",
            "races=1",
            "--matches",
            "2",
            "--workers",
            "1",
            "--db",
            str(db),
            "--json",
        ],
        ["tournament", "report", str(db), "--json"],
        ["tournament", "matches", str(db), "--json"],
        ["tournament", "log", str(db), "1", "--out", str(tmp_path / "m1.jsonl"), "--json"],
        ["gate", "--db", str(db), "--candidate", "heuristic", "--baseline", "random", "--json"],
        ["new-bot", "my-bot", "--game", "lacorsa", "--into", str(tmp_path / "nb"), "--json"],
        ["step", str(log), "--at", "2", "--json"],
        ["schema", "--json"],
        ["--version", "--json"],
    ]
    kinds = set()
    for args in commands:
        _code, out, err = run(args, capsys)
        assert out, (args, err)
        for value in outputs(out):
            kinds.add(type(value).__struct_config__.tag)  # type: ignore[attr-defined]
    assert kinds >= set(OUTPUTS) - {"bot-check", "error"}


def test_match_seeds_are_strings_that_keep_every_bit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "t.sqlite"
    args = ["tournament", "lacorsa", "--bot", "heuristic", "--bot", "random", "-o", "races=1"]
    code, out, err = run(
        [*args, "--matches", "4", "--workers", "1", "--db", str(db), "--json"], capsys
    )
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    seeds = {line["index"]: line["seed"] for line in lines if line["kind"] == "match"}
    assert all(isinstance(seed, str) for seed in seeds.values())
    with sqlite3.connect(db) as connection:
        stored = dict(connection.execute("SELECT idx, seed FROM matches").fetchall())
    assert {i: str(s) for i, s in stored.items()} == seeds
    assert any(int(seed) >= 2**53 for seed in seeds.values())  # would be rounded as a number
    assert lines[-1]["seed"] == "0"


@pytest.mark.parametrize(
    ("args", "code", "error", "where"),
    [
        (["play", "chess", "-s", "random"], EXIT_BAD_INPUT, "bad-input", "play"),
        (["play", "lacorsa", "-s", "random", "-o", "races"], EXIT_USAGE, "usage", "play"),
        (
            ["tournament", "report", "/nonexistent.sqlite"],
            EXIT_BAD_INPUT,
            "bad-input",
            "tournament report",
        ),
        (["play", "--nope"], EXIT_USAGE, "usage", "play"),
    ],
)
def test_with_json_an_error_is_a_json_object_too(
    args: list[str], code: int, error: str, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    got, out, err = run([*args, "--json"], capsys)
    assert got == code
    [value] = outputs(out)
    data = msgspec.to_builtins(value)
    assert data["code"] == code and data["error"] == error and data["where"] == where
    assert data["message"] and data["message"] in err


def test_a_bad_log_names_its_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "bad.jsonl"
    log.write_text('{"kind": "header"}\n')
    code, out, _err = run(["replay", str(log), "--json"], capsys)
    assert code == EXIT_BAD_INPUT
    assert json.loads(out)["where"] == f"{log}:1"


def test_replay_verify_json_reports_a_mismatch_and_exits_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "greedy.jsonl"
    args = ["play", "lacorsa", "--plugins-dir", str(PLUGINS), "-s", "greedy", "-s", "random"]
    code, _out, err = run([*args, "-o", "races=1", "--log", str(log)], capsys)
    assert code == 0, err
    other = tmp_path / "other"
    other.mkdir()
    (other / "greedy.py").write_text(
        (PLUGINS / "greedy.py").read_text().replace("return legal[-1]", "return legal[0]")
    )
    code, out, err = run(
        ["replay", str(log), "--verify", "--rerun", "--plugins-dir", str(other), "--json"], capsys
    )
    assert code == EXIT_VERIFY_FAILED
    data = json.loads(out.splitlines()[-1])
    assert data["kind"] == "error" and data["code"] == 4 and "differs at event" in data["message"]


def test_replay_verify_says_in_one_line_when_a_bot_version_differs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "greedy.jsonl"
    args = ["play", "lacorsa", "--plugins-dir", str(PLUGINS), "-s", "greedy", "-s", "random"]
    assert run([*args, "-o", "races=1", "--log", str(log)], capsys)[0] == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "greedy.py").write_text(
        (PLUGINS / "greedy.py")
        .read_text()
        .replace("return legal[-1]", "return legal[0]")
        .replace("description=", 'version="2", description=')
    )
    code, _out, err = run(
        ["replay", str(log), "--verify", "--rerun", "--plugins-dir", str(other)], capsys
    )
    assert code == EXIT_VERIFY_FAILED
    lines = err.splitlines()
    assert lines[0] == (
        "racedeck: note: seat 0 (greedy) is at version 2 here, the log recorded version 1:"
        " the match may not replay the same"
    )
    assert lines[1].startswith("racedeck: error:") and len(lines) == 2


def test_help_names_values_and_shows_no_types(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["play"], ["tournament", "run"], ["gate"], ["fork"], ["html"]):
        assert main([*command, "--help"]) == 0
        text = capsys.readouterr().out
        for noise in ("<bool>", "<str>", "<int>", "<list[str]>", "<path>", "<float>"):
            assert noise not in text, (command, noise)
    assert main(["play", "--help"]) == 0
    assert "BOT" in capsys.readouterr().out


def test_one_short_flag_means_one_option_everywhere() -> None:
    meanings: dict[str, set[str]] = {}

    def walk(command: object) -> None:
        for param in getattr(command, "params", []):
            for flag in getattr(param, "opts", []):
                if flag.startswith("-") and not flag.startswith("--"):
                    longs = [o for o in param.opts if o.startswith("--")]
                    meanings.setdefault(flag, set()).update(longs)
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(_command())
    assert meanings["-o"] == {"--option"}
    assert all(len(longs) == 1 for longs in meanings.values()), meanings


def test_fork_writes_its_log_where_log_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "m.jsonl"
    args = ["play", "lacorsa", "-s", "heuristic", "-s", "random", "-o", "races=1"]
    assert run([*args, "--log", str(log)], capsys)[0] == 0
    target = tmp_path / "what-if.jsonl"
    code, out, err = run(["fork", str(log), "--at", "4", "--log", str(target)], capsys)
    assert code == 0, err
    assert target.exists() and f"log: {target}" in out


def test_plugins_lists_who_registers_what_and_pins_versions(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _err = run(["plugins", "--plugins-dir", str(PLUGINS), "--json"], capsys)
    assert code == 0
    rows = {row["plugin"]: row for row in json.loads(out)["plugins"]}
    assert rows["racedeck.games.lacorsa.plugin"]["games"] == ["lacorsa"]
    assert rows["racedeck.games.lacorsa.plugin"]["package"] == "racedeck"
    assert "ismcts" in rows["racedeck.bots.plugin"]["bots"]
    assert rows["greedy.py"]["source"] == "file" and rows["greedy.py"]["bots"] == ["greedy"]
    code, out, _err = run(["plugins", "--requirements"], capsys)
    assert code == 0 and "racedeck==" in out
