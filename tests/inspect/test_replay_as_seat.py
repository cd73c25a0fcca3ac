"""`racedeck replay LOG --at N --seat S` shows the state as that seat saw it, no more."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from racedeck.cli.app import main
from racedeck.core.replay import iter_states
from racedeck.plugins import Registry
from tests.inspect.helpers import as_format_2, play, rewrite


def _swap_hands(seq: int, event: dict, a: int, b: int) -> dict:
    if seq != 0:
        return event
    hands = list(event["hands"])
    hands[a], hands[b] = hands[b], hands[a]
    return {**event, "hands": hands}


def _before_error(text: str) -> str:
    return text.split("the log is intact up to")[0]


def test_replay_as_a_seat_is_blind_to_cards_it_cannot_see(
    tmp_path: Path, registry: Registry, capsys: pytest.CaptureFixture[str]
) -> None:
    base = play(registry, tmp_path / "base.jsonl")
    swapped = rewrite(
        base, tmp_path / "swapped.jsonl", lambda s, e: _swap_hands(s, e, 1, 2), as_format_2
    )
    views = []
    # The swapped log cannot be folded past its deal, so replaying it ends with that error
    # (exit 3) after showing the state asked for; the views before it are what is compared.
    for log, code in ((base, 0), (swapped, 3)):
        assert main(["replay", str(log), "--at", "0", "--seat", "0"]) == code
        views.append(_before_error(capsys.readouterr().out.replace(str(log), "LOG")))
        assert main(["replay", str(log), "--at", "0"]) == code
        views.append(_before_error(capsys.readouterr().out.replace(str(log), "LOG")))
    seat_view, omniscient, seat_view_swapped, omniscient_swapped = views
    assert seat_view == seat_view_swapped
    assert omniscient != omniscient_swapped
    assert "?????????????" in seat_view  # the others' 13 cards, shown as hidden


def test_every_game_renders_a_seat_view_unchanged_by_what_the_seat_cannot_see(
    tmp_path: Path, registry: Registry
) -> None:
    """What `replay --seat` prints must not move when unseen cards are redealt."""
    checked = 0
    for name, game in sorted(registry.games.items()):
        players = max(game.min_players, min(game.max_players, 3))
        log = play(
            registry,
            tmp_path / f"{name}.jsonl",
            game=name,
            bots=("random",) * players,
            seed=3,
            options=game.conformance_options[0],
        )
        rng = random.Random(0)
        for seq, _event, state, _replay in iter_states(registry, log):
            if seq % 3:
                continue
            for seat in range(players):
                variant = game.hidden_variants(state, seat, rng)
                if variant is not None:
                    checked += 1
                    assert game.presentation.render(variant, seat) == game.presentation.render(
                        state, seat
                    ), (name, seq, seat)
    assert checked > 100
