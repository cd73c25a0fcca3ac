"""One package per game; each has a ``plugin`` module that registers it."""
