"""The one atomic-write helper: a file is written whole under its name, or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from racedeck.core.files import (
    FileWriteError,
    UnsafeTargetError,
    atomic_path,
    atomic_write,
    partial_path,
    write_atomically,
)


class Boom(Exception):
    pass


def test_the_partial_name_is_beside_the_target(tmp_path: Path) -> None:
    assert partial_path(tmp_path / "m.jsonl") == tmp_path / "m.jsonl.partial"


def test_a_written_file_appears_whole_under_its_name(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    with atomic_write(target) as handle:
        handle.write(b"first ")
        assert not target.exists()  # nothing under the name until the end
        assert partial_path(target).exists()
        handle.write(b"second")
    assert target.read_bytes() == b"first second"
    assert not partial_path(target).exists()


def test_a_failure_leaves_no_target_and_no_partial(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    with pytest.raises(Boom), atomic_write(target) as handle:
        handle.write(b"half")
        raise Boom
    assert not target.exists()
    assert not partial_path(target).exists()


def test_a_failure_leaves_an_existing_target_untouched(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"the old content")
    with pytest.raises(Boom), atomic_write(target) as handle:
        handle.write(b"the new content, cut short")
        raise Boom
    assert target.read_bytes() == b"the old content"
    assert not partial_path(target).exists()


def test_an_interrupt_is_cleaned_up_too(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    with pytest.raises(KeyboardInterrupt), atomic_write(target) as handle:
        handle.write(b"x")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_success_replaces_an_existing_target(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    target.write_bytes(b"old")
    assert write_atomically(target, b"new") == target
    assert target.read_bytes() == b"new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.bin"]


def test_a_stale_partial_from_an_earlier_failure_does_not_leak_in(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    partial_path(target).write_bytes(b"stale bytes from a killed run")
    write_atomically(target, b"fresh")
    assert target.read_bytes() == b"fresh"
    assert not partial_path(target).exists()


def test_a_file_that_cannot_be_written_is_one_error_naming_it(tmp_path: Path) -> None:
    target = tmp_path / "no such folder" / "out.bin"
    with pytest.raises(FileWriteError) as caught:
        write_atomically(target, b"x", f"the chart {target}")
    assert str(caught.value) == f"cannot write the chart {target}: No such file or directory"
    assert isinstance(caught.value.cause, FileNotFoundError)
    with pytest.raises(FileWriteError, match=f"cannot write {target}: "):
        write_atomically(target, b"x")


def test_a_failed_rename_leaves_the_target_and_no_partial(tmp_path: Path) -> None:
    target = tmp_path / "a folder"
    target.mkdir()
    (target / "inside").write_bytes(b"kept")
    with pytest.raises(FileWriteError):
        write_atomically(target, b"x")
    assert (target / "inside").read_bytes() == b"kept"
    assert not partial_path(target).exists()


def test_atomic_path_is_for_writers_that_open_the_file_themselves(tmp_path: Path) -> None:
    target = tmp_path / "db"
    with atomic_path(target) as partial:
        assert partial == partial_path(target)
        partial.write_bytes(b"tables")
        assert not target.exists()
    assert target.read_bytes() == b"tables"
    with pytest.raises(Boom), atomic_path(target) as partial:
        partial.write_bytes(b"broken")
        raise Boom
    assert target.read_bytes() == b"tables"
    assert not partial_path(target).exists()


def test_a_symbolic_link_at_the_target_is_refused_and_left_alone(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.write_bytes(b"kept")
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(UnsafeTargetError, match="symbolic link"):
        write_atomically(link, b"x")
    assert link.is_symlink() and real.read_bytes() == b"kept"


def test_a_device_or_a_folder_at_the_target_is_refused_before_anything_is_written(
    tmp_path: Path,
) -> None:
    with pytest.raises(UnsafeTargetError, match="not a regular file"):
        write_atomically("/dev/null", b"x")
    with pytest.raises(UnsafeTargetError, match="a folder"), atomic_write(tmp_path):
        raise AssertionError("the block must not run")
    with pytest.raises(UnsafeTargetError, match="names no file"):
        write_atomically("", b"x")


def test_a_link_planted_at_the_partial_name_is_not_written_through(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.write_bytes(b"kept")
    partial_path(tmp_path / "out").symlink_to(real)
    with pytest.raises(UnsafeTargetError, match="symbolic link"):
        write_atomically(tmp_path / "out", b"x")
    assert real.read_bytes() == b"kept"
