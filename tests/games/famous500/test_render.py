"""The text picture: the track, both car sheets and the cards in play."""

from __future__ import annotations

from racedeck.games.famous500.actions import Race

from .helpers import GAME, MONACO_GREY, act, racing


def test_render_shows_track_sheets_and_cards_hiding_what_the_viewer_cannot_see() -> None:
    state = act(racing(section=MONACO_GREY), 1, Race(card=180))
    full = GAME.presentation.render(state)
    assert "Famous 500 at Monaco (difficulty 18" in full
    assert "»W: [G] W G B G W B G B" in full
    assert "tires  fuel  engine  speed" in full
    assert "60 100   laid: 180" in full
    assert "pit deck: 3 face down: 80 140 200 (top first)" in full
    seat0 = GAME.presentation.render(state, 0)
    assert "40 120 160" in seat0
    assert "seat 1 hand: ? ?   laid: ?" in seat0
    assert "pit deck: 3 face down: ? ? ?" in seat0
    assert "180" not in seat0
