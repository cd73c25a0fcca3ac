"""A long match shows light in a notebook: a summary, not megabytes of inline replay."""

from __future__ import annotations

from pathlib import Path

import racedeck
from racedeck.api import INLINE_LOG_BYTES


def test_a_long_match_shows_a_light_summary_and_a_short_one_its_replay(tmp_path: Path) -> None:
    long = racedeck.play("lacorsa", ["random", "random"], seed=5, options={"races": 7})
    replay = long.replay()
    assert len(replay.log_bytes()) > INLINE_LOG_BYTES
    view = long._repr_html_()
    assert len(view) < 5_000 and "<iframe" not in view
    assert "places [" in view and "final state" in view and "replay.html()" in view
    on_disk = tmp_path / "long.jsonl"
    on_disk.write_bytes(replay.log_bytes())
    assert f"racedeck html {on_disk} --out replay.html" in racedeck.load_log(on_disk)._repr_html_()
    short = racedeck.play("lacorsa", ["random", "random"], seed=5, options={"races": 1})
    assert short._repr_html_().startswith("<iframe srcdoc=")
