"""Ctrl-C during a match: the engine's handler is armed for the block only, where it may be."""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

import pytest

from racedeck.core import interrupts


@pytest.fixture(autouse=True)
def _default_handler() -> Iterator[None]:
    """Start from Python's own Ctrl-C handler: a run started in the background (CI's, say)
    inherits Ctrl-C ignored, which ``watching`` rightly leaves alone."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_watching_arms_the_handler_for_the_block_and_restores_the_default() -> None:
    with interrupts.watching():
        assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
        # A block inside another leaves the outer block's handler to it.
        with interrupts.watching():
            assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
        assert signal.getsignal(signal.SIGINT) is interrupts._on_sigint
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_watching_restores_the_default_when_the_block_raises() -> None:
    try:
        with interrupts.watching():
            raise ValueError("a bug in the block")
    except ValueError:
        pass
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_watching_leaves_an_ignored_ctrl_c_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with interrupts.watching():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN


def test_watching_leaves_a_handler_someone_else_set_alone() -> None:
    def theirs(signum: int, frame: object) -> None:
        """A program's own handler."""

    previous = signal.signal(signal.SIGINT, theirs)
    try:
        with interrupts.watching():
            assert signal.getsignal(signal.SIGINT) is theirs
        assert signal.getsignal(signal.SIGINT) is theirs
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("block", [interrupts.watching, interrupts.held])
def test_a_block_in_another_thread_changes_nothing(
    block: Callable[[], AbstractContextManager[None]],
) -> None:
    seen: list[object] = []

    def run() -> None:
        with block():
            seen.append(signal.getsignal(signal.SIGINT))

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    assert seen == [signal.default_int_handler]


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_held_keeps_ctrl_c_or_sigterm_back_until_the_block_ends(signum: int) -> None:
    reached: list[str] = []
    with pytest.raises(KeyboardInterrupt), interrupts.sigterm_interrupts():
        with interrupts.held():
            signal.raise_signal(signum)
            reached.append("the rest of the block")
        reached.append("after the block")
    assert reached == ["the rest of the block"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_held_without_a_signal_raises_nothing_and_restores_the_handlers() -> None:
    with interrupts.sigterm_interrupts():
        with interrupts.held():
            assert signal.getsignal(signal.SIGINT) is not signal.default_int_handler
            assert signal.getsignal(signal.SIGTERM) is not interrupts._on_sigterm
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        assert signal.getsignal(signal.SIGTERM) is interrupts._on_sigterm


def test_held_inside_held_hands_the_signal_to_the_outer_block() -> None:
    reached: list[str] = []
    with pytest.raises(KeyboardInterrupt), interrupts.held():
        with interrupts.held():
            signal.raise_signal(signal.SIGINT)
        reached.append("the rest of the outer block")
    assert reached == ["the rest of the outer block"]


def test_held_leaves_an_ignored_ctrl_c_ignored() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with interrupts.held():
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.raise_signal(signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
