"""Rewrite the golden logs on purpose: ``make golden``, after a deliberate rules or format change."""

from __future__ import annotations

from racedeck.core.session import plan_match, play_to_log
from racedeck.plugins import load_registry
from tests.golden.specs import GOLDEN_DIR, GOLDEN_MATCHES


def main() -> None:
    registry = load_registry(entry_points=False)
    for old in GOLDEN_DIR.glob("*.jsonl"):
        old.unlink()
    for match in GOLDEN_MATCHES:
        plan = plan_match(registry, match.game, list(match.seats), match.seed, match.options)
        play_to_log(plan, match.path)
        print(f"wrote {match.path.relative_to(GOLDEN_DIR.parent.parent)}")


if __name__ == "__main__":
    main()
