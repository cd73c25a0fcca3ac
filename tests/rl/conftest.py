"""The RL tests need the ``rl`` extra; without pettingzoo and gymnasium they are not collected."""

from __future__ import annotations

from importlib.util import find_spec

collect_ignore_glob = (
    [] if find_spec("pettingzoo") is not None and find_spec("gymnasium") is not None else ["*.py"]
)
