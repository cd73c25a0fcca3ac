"""Actions forced at a fork point (``racedeck fork --play SEAT=ACTION``).

A forced action is given in the game's own words (what ``presentation.describe`` says of
one of the seat's legal actions, matched without regard to case or extra spaces) or as
the JSON of the action, as a log's ``act`` holds it. It must be one of that seat's legal
actions at the fork point, and the seat must be one of those to act there. The fork's
header records it (``ForkOrigin.play``), so re-running or reading the fork finds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from racedeck.core.errors import UsageError
from racedeck.core.game import AnyGame
from racedeck.core.log import ForcedPlay, encode
from racedeck.core.model import Action
from racedeck.core.step import choose

LISTED = 20
"""How many legal actions a refusal names before it says how many more there are."""


def words(text: str) -> str:
    """Return ``text`` as it is matched: case folded, runs of spaces made one."""
    return " ".join(text.split()).casefold()


def parse_play(game: AnyGame, state: Any, given: str) -> ForcedPlay:
    """Return the forced play ``SEAT=ACTION`` names, checked against the state's legal actions."""
    seat_text, sep, action_text = given.partition("=")
    try:
        seat = int(seat_text.strip())
    except ValueError:
        seat = -1
    if not sep or seat < 0:
        raise UsageError(
            f"--play takes SEAT=ACTION (a seat number, then the action), got {given!r}"
        )
    legal = _legal_of(game, state, seat)
    described = game.presentation.describe
    text = action_text.strip()
    found: Action | None = None
    if text.startswith("{"):
        try:
            found = choose(legal, game.action_decoder.decode(text.encode()))
        except (msgspec.DecodeError, RecursionError):
            found = None
    else:
        wanted = words(text)
        found = next((a for a in legal if words(described(a)) == wanted), None)
    if found is None:
        raise UsageError(
            f"seat {seat} cannot play {text!r} at the fork point; "
            f"its legal actions: {listing(game, legal)}"
        )
    return ForcedPlay(seat=seat, act=msgspec.json.decode(encode(found)))


def forced_actions(game: AnyGame, state: Any, plays: Sequence[ForcedPlay]) -> dict[int, Action]:
    """Return each forced seat's action (the engine's own copy), checked legal at ``state``."""
    forced: dict[int, Action] = {}
    for play in plays:
        if play.seat in forced:
            raise UsageError(f"seat {play.seat}'s action is forced twice at the fork point")
        legal = _legal_of(game, state, play.seat)
        try:
            action = game.action_decoder.decode(encode(play.act))
        except (msgspec.DecodeError, RecursionError) as exc:
            raise UsageError(
                f"the forced play of seat {play.seat} is not an action: {exc}"
            ) from None
        listed = choose(legal, action)
        if listed is None:
            raise UsageError(
                f"seat {play.seat} cannot play {encode(play.act).decode()} at the fork point; "
                f"its legal actions: {listing(game, legal)}"
            )
        forced[play.seat] = listed
    return forced


def listing(game: AnyGame, legal: Sequence[Action]) -> str:
    """Return legal actions in the game's words, the first ``LISTED`` of them."""
    described = game.presentation.describe
    shown = "; ".join(described(action) for action in legal[:LISTED])
    more = len(legal) - LISTED
    return f"{shown} … {more} more" if more > 0 else shown or "none"


def _legal_of(game: AnyGame, state: Any, seat: int) -> tuple[Action, ...]:
    """Return ``seat``'s legal actions at the fork point; refuse a seat that is not to act."""
    step = game.next_step(state)
    if seat not in step.seats:
        acting = ", ".join(f"seat {s}" for s in step.seats)
        who = acting or ("no one: the match is over" if step.over else "the engine")
        raise UsageError(f"seat {seat} is not to act at the fork point; who acts there: {who}")
    return tuple(game.legal_actions(state, seat))
