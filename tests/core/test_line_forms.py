"""Every line of a log must be exactly what the writer writes, not merely hash to the chain.

A decision's action is written as its canonical bytes, and a fault or debug line (and a
format 1 or 2 log's event line) in the one form ``NOTE_LINE`` gives; the hash covers only
part of each, so the reader rebuilds the rest. A line that says the same thing in other
bytes (fields reordered, spaces, a field added) was not written by an engine: it is named
as altered, never verified as if it had been.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from racedeck.core.bot import Bot, BotSpec
from racedeck.core.errors import LogError
from racedeck.core.hashing import chain, header_hash
from racedeck.core.log import (
    TURN_PREFIX,
    Fault,
    LogReader,
    LogWriter,
    ResultLine,
    encode,
    seal_result,
)
from racedeck.core.log_lines import NOTE_LINE
from racedeck.core.model import Action, Observation
from racedeck.core.replay import copy_prefix
from racedeck.core.rng import Rng
from racedeck.core.runner import run_match
from racedeck.core.verify import verify_log
from racedeck.plugins import Registry

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
_TURN = re.compile(rb'^\{"kind":"turn","seq":(\d+),"hash":"[0-9a-f]+",(.*)$')
_NOTE = re.compile(rb'^\{"kind":"(fault|debug)","seq":(\d+),"hash":"[0-9a-f]+","\w+":(.*)\}$')


class _Noisy(Bot):
    """Plays the first legal action, leaves a debug note after each, and raises once."""

    emits_debug = True

    def __init__(self) -> None:
        self.asked = 0

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        self.asked += 1
        if self.asked == 3:
            raise ValueError("the third decision fails")
        return legal[0]

    def take_debug(self) -> str | None:
        return f"decision {self.asked}"


def _played(registry: Registry, path: Path, seats: list[BotSpec] | None = None) -> list[bytes]:
    game = registry.game("lacorsa")
    seats = seats or [registry.bot("random", "lacorsa")] * 2
    with open(path, "wb") as handle:
        run_match(
            game,
            game.parse_options({"races": 1}),
            seats,
            3,
            writer=LogWriter(handle),
            fault_policy="substitute",
        )
    return path.read_bytes().splitlines()


def _rechained(lines: list[bytes]) -> bytes:
    """Chain every line's hash again, and seal the result, as a forger would."""
    last = header_hash(lines[0])
    out = [lines[0]]
    for raw in lines[1:]:
        found = _TURN.match(raw)
        note = _NOTE.match(raw)
        if found is not None:
            body = found[2]
            last = chain(last, body)
            raw = TURN_PREFIX % (int(found[1]), last.encode()) + body
        elif note is not None:
            kind, seq, payload = note.groups()
            last = chain(last, payload)
            raw = NOTE_LINE % (kind, int(seq), last.encode(), kind, payload)
        elif raw.startswith(b'{"kind":"result"'):
            result = msgspec.json.decode(raw, type=ResultLine)
            raw = encode(seal_result(last, msgspec.structs.replace(result, hash=last)))
        out.append(raw)
    return b"\n".join(out) + b"\n"


def _refused(registry: Registry, path: Path, line: int, why: str) -> None:
    """The reader and ``verify_log`` both refuse ``path``, naming ``line`` and ``why``."""
    with LogReader(path) as reader, pytest.raises(LogError, match=why) as caught:
        for _entry in reader:
            pass
    assert caught.value.line == line
    _not_verified(registry, path, line, why)


def _not_verified(registry: Registry, path: Path, line: int, why: str) -> None:
    """``verify_log`` refuses ``path``, naming ``line`` and ``why``."""
    with pytest.raises(LogError, match=why) as caught:
        verify_log(registry, path)
    assert caught.value.line == line


def _first_action(lines: list[bytes]) -> int:
    return next(n for n, raw in enumerate(lines) if b'"act":{"type":"play","car":' in raw)


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        # The action's fields in another order: the same action to a decoder.
        (
            "reordered",
            lambda act: re.sub(rb'\{"type":"play","car":(\d+),', rb'{"car":\1,"type":"play",', act),
        ),
        ("spaced", lambda act: act.replace(b'"type":"play",', b'"type": "play", ', 1)),
    ],
)
def test_an_action_spelt_otherwise_and_rechained_is_refused(
    registry: Registry, tmp_path: Path, name: str, edit: object
) -> None:
    """Rule: the writer writes an action's canonical bytes; a decision line holding the
    same action in other bytes, its hash chained again, is refused as altered."""
    path = tmp_path / f"{name}.jsonl"
    lines = _played(registry, path)
    at = _first_action(lines)
    assert callable(edit)
    changed = edit(lines[at])
    assert changed != lines[at]
    lines[at] = changed
    path.write_bytes(_rechained(lines))
    # The lines themselves are whole and chained: only a reader that knows the game's
    # actions can tell, and verifying (as every replay) reads them so.
    with LogReader(path) as reader:
        assert sum(1 for _entry in reader) > at
    _not_verified(registry, path, at + 1, "the action is not in canonical form")


def test_a_fork_does_not_copy_an_action_spelt_otherwise(registry: Registry, tmp_path: Path) -> None:
    """Forking and resuming read a prefix's decisions without re-deriving them: they refuse
    the same edit, so it is never copied into a new log."""
    path = tmp_path / "match.jsonl"
    lines = _played(registry, path)
    at = _first_action(lines)
    lines[at] = lines[at].replace(b'"type":"play",', b'"type": "play", ', 1)
    path.write_bytes(_rechained(lines))
    game = registry.game("lacorsa")
    with LogReader(path) as reader, pytest.raises(LogError, match="not in canonical form"):
        copy_prefix(reader, game, game.parse_options({"races": 1}), 40, None)


def test_the_forgers_rechaining_is_faithful(registry: Registry, tmp_path: Path) -> None:
    """Untouched but re-chained, the log still verifies: the refusals above are the edit's."""
    path = tmp_path / "match.jsonl"
    path.write_bytes(_rechained(_played(registry, path)))
    assert verify_log(registry, path).whole


def _noisy_log(registry: Registry, path: Path) -> list[bytes]:
    noisy = BotSpec(name="noisy", factory=_Noisy, description="debug notes and one fault")
    lines = _played(registry, path, [noisy, registry.bot("heuristic", "lacorsa")])
    assert verify_log(registry, path).whole
    return lines


@pytest.mark.parametrize("kind", [b"fault", b"debug"])
@pytest.mark.parametrize("edit", ["reordered", "spaced", "extra field"])
def test_a_fault_or_debug_line_spelt_otherwise_is_refused(
    registry: Registry, tmp_path: Path, kind: bytes, edit: str
) -> None:
    """Rule: a fault or debug line is written in one form (``NOTE_LINE``). Its hash covers
    only its payload, so these edits need no re-chaining: the reader must rebuild the line."""
    path = tmp_path / "match.jsonl"
    lines = _noisy_log(registry, path)
    at = next(n for n, raw in enumerate(lines) if raw.startswith(b'{"kind":"' + kind + b'"'))
    found = re.match(rb'^\{"kind":"\w+","seq":(\d+),"hash":"([0-9a-f]+)","\w+":(.*)\}$', lines[at])
    assert found is not None
    seq, digest, payload = found.groups()
    if edit == "reordered":
        line = b'{"%s":%s,"kind":"%s","seq":%s,"hash":"%s"}' % (kind, payload, kind, seq, digest)
    elif edit == "spaced":
        line = lines[at].replace(b'","', b'", "', 1)
    else:
        line = lines[at][:-1] + b',"note":"added"}'
    assert line != lines[at]
    lines[at] = line
    path.write_bytes(b"\n".join(lines) + b"\n")
    _refused(registry, path, at + 1, f"the {kind.decode()} line is not in canonical form")


def test_a_format_2_event_line_spelt_otherwise_is_refused(
    registry: Registry, tmp_path: Path
) -> None:
    """A format 2 log's event line is refused the same way; the golden log itself verifies."""
    golden = GOLDEN / "old" / "lacorsa-2p-heuristic-random-seed2-format2.jsonl"
    path = tmp_path / "format2.jsonl"
    shutil.copyfile(golden, path)
    assert verify_log(registry, path).whole
    lines = path.read_bytes().splitlines()
    at = next(n for n, raw in enumerate(lines) if raw.startswith(b'{"kind":"event"'))
    lines[at] = lines[at].replace(b'{"kind":"event",', b'{ "kind":"event",', 1)
    path.write_bytes(b"\n".join(lines) + b"\n")
    _refused(registry, path, at + 1, "the event line is not in canonical form")


def _fault_line(seq: int, seat: int, bot: str, policy: str) -> bytes:
    """A fault line as the writer writes it (its hash is set when the log is re-chained)."""
    fault = Fault(seat=seat, bot=bot, reason="raised ValueError: forged", policy=policy)
    return NOTE_LINE % (b"fault", seq, b"0" * 32, b"fault", encode(fault))


def _decision_of(lines: list[bytes], seat: int, skip: int) -> int:
    """The index of seat ``seat``'s decision after the first ``skip`` lines."""
    by = b'"by":%d,' % seat
    return next(n for n, raw in enumerate(lines) if n > skip and by in raw)


def test_a_fault_line_added_before_a_seats_own_choice_is_refused(
    registry: Registry, tmp_path: Path
) -> None:
    """Rule (docs/bots.md, the fault policy): under ``substitute`` "the first legal action
    is played in the bot's place". A fault line added before a decision the seat's own bot
    made (not the first legal action), re-chained, is refused at that decision."""
    path = tmp_path / "match.jsonl"
    lines = _played(registry, path, [registry.bot("heuristic", "lacorsa")] * 2)
    game = registry.game("lacorsa")
    replay = verify_log(registry, path).replay
    assert not replay.faults
    # Find a decision of seat 1 whose action is not its first legal action.
    state = game.initial_state(game.parse_options({"races": 1}), 2)
    at = -1
    with LogReader(path) as reader:
        for entry in reader:
            decision = entry.decision
            if decision is None:
                continue
            if decision.actor == 1 and at < 0:
                first = encode(game.legal_actions(state, 1)[0])
                if decision.action != first:
                    at = entry.line - 1
            for raw in decision.events:
                state = game.evolve(state, game.event_decoder.decode(raw))
    assert at > 0
    seq = int(_TURN.match(lines[at])[1])  # type: ignore[index]
    lines.insert(at, _fault_line(seq, 1, "heuristic", "substitute"))
    path.write_bytes(_rechained(lines))
    _not_verified(registry, path, at + 2, "the first legal action")


def test_a_fault_line_under_another_policy_is_refused(registry: Registry, tmp_path: Path) -> None:
    """A fault line says which policy handled it; one that differs from the header's
    (a ``forfeit`` fault that did not end a ``substitute`` match) is refused where it is."""
    path = tmp_path / "match.jsonl"
    lines = _played(registry, path, [registry.bot("random", "lacorsa")] * 2)
    at = _decision_of(lines, 0, 3)
    seq = int(_TURN.match(lines[at])[1])  # type: ignore[index]
    lines.insert(at, _fault_line(seq, 0, "random", "forfeit"))
    path.write_bytes(_rechained(lines))
    _refused(registry, path, at + 1, "a fault handled by the 'forfeit' policy")


class _NoStart(Bot):
    """Fails to start: the substitute plays every one of its decisions."""

    def start_match(self, game: str, seat: int, players: int, options: object) -> None:
        raise RuntimeError("cannot start")

    def act(self, observation: Observation, legal: Sequence[Action], rng: Rng) -> Action:
        raise AssertionError("never asked")


def test_real_substituted_matches_verify(registry: Registry, tmp_path: Path) -> None:
    """The check holds no real match back: a bot that faults at a decision, and one that
    never starts, each substituted, verify (and the faults are there to check)."""
    for number, bot in enumerate((_Noisy, _NoStart)):
        path = tmp_path / f"match-{number}.jsonl"
        spec = BotSpec(name="failing", factory=bot, description="faults")
        _played(registry, path, [spec, registry.bot("heuristic", "lacorsa")])
        verified = verify_log(registry, path)
        assert verified.whole
        assert [fault.policy for fault in verified.replay.faults][:1] == ["substitute"]
