"""The data file: every item tagged, and a malformed file rejected with a clear message."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from racedeck.core.errors import DataError
from racedeck.games.wacky_races import data

RAW = resources.files("racedeck.games.wacky_races").joinpath("data/wacky_races.json").read_bytes()


def _broken(change: Any) -> bytes:
    doc = json.loads(RAW)
    change(doc)
    return json.dumps(doc).encode()


def _tags(value: Any) -> list[str]:
    if isinstance(value, dict):
        found = [value["source"]] if "source" in value else []
        return found + [t for v in value.values() for t in _tags(v)]
    if isinstance(value, list):
        return [t for v in value for t in _tags(v)]
    return []


def test_every_item_is_tagged_seed_published_or_proposal() -> None:
    doc = json.loads(RAW)
    assert set(_tags(doc)) <= {"seed", "published", "proposal"}
    for racer in doc["racers"]:
        assert racer["source"] and all(a["source"] for a in racer["advantages"])
    assert all(t["source"] for t in doc["traps"]) and all(t["source"] for t in doc["terrains"])


def test_components_match_the_box() -> None:
    """- 10 hojas de Piloto - 40 cartas de Ventaja - 64 cartas de Movimiento - 16 cartas de
    Trampa - 16 fichas de Terreno - 4 fichas Especiales."""
    assert len(data.RACER_KEYS) == 10
    assert sum(len(a) for a in data.ADVANTAGE_NAMES) == 40
    assert sum(data.DECK) == 64
    assert sum(data.TRAP_COPIES) == 16
    assert sum(data.STAGE_ONE_COPIES) + sum(data.STAGE_TWO_COPIES) == 16
    assert len(data.SPECIAL_TILES) == 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("traps"), "missing required field"),
        (lambda d: d["terrains"].pop(), "expected 4 terrains"),
        (lambda d: d["racers"][0]["advantages"].pop(), "has 3 advantages"),
        (lambda d: d["racers"][0]["advantages"][0].update(trap="banana"), "unknown trap 'banana'"),
        (lambda d: d["traps"][0].update(effect="explode"), "Invalid enum value 'explode'"),
        (lambda d: d["traps"][0].update(source="rumour"), "source"),
        (lambda d: d["movement_deck"].update(copies=[1, 1, 1, 1]), "too small"),
        (lambda d: d["circuit"]["stage_one_tiles"].update(value=9), "stage_one_tiles"),
        (lambda d: d["specials"].reverse(), "specials must be"),
        (lambda d: d.update(extra=1), "unknown field"),
    ],
)
def test_a_malformed_data_file_is_rejected_with_a_clear_message(change: Any, message: str) -> None:
    with pytest.raises(DataError, match=r"custom\.json") as info:
        data.load(_broken(change), "custom.json")
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_unreadable_json_is_rejected() -> None:
    with pytest.raises(DataError, match=r"custom\.json"):
        data.load(b"{not json", "custom.json")
