"""Reinforcement learning on racedeck games: PettingZoo and Gymnasium environments.

Needs the ``rl`` extra (``pip install racedeck[rl]``: pettingzoo, gymnasium, numpy).

- ``env(game, players=..., options=..., seed=...)``: a PettingZoo AEC environment, one
  agent per seat (``racedeck.rl.aec``).
- ``gym_env(game, seat=..., opponents=[...], ...)``: one seat as a Gymnasium environment,
  racedeck bots at the others (``racedeck.rl.gym``). Importing this module registers
  each built-in game for ``gymnasium.make`` as ``racedeck/GAME-v0`` (``GYM_IDS``);
  ``register_gym(game)`` registers a plugin's game the same way.
- ``encoder(game, ...)`` and ``register_encoder(name, factory)``: how a game's
  observations and actions become numbers (``racedeck.rl.encoding``); every built-in
  game has its own, and any other game gets the generic one unless its plugin registers
  one.
- ``verify_episode(catalogue, path)``: re-run an episode's log from its own recorded
  decisions and compare it byte for byte (``racedeck.rl.episodes``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

try:
    import gymnasium  # noqa: F401 - checked here so the error names the extra
    import pettingzoo  # type: ignore[import-untyped] # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the installation
    raise ImportError(
        f"racedeck.rl needs the rl extra: pip install 'racedeck[rl]' ({exc})"
    ) from None

from racedeck.core.arguments import integer
from racedeck.core.arguments import names as bot_names
from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import UsageError
from racedeck.core.game import AnyGame
from racedeck.core.model import Options
from racedeck.rl.aec import LOG_SEAT, RacedeckEnv
from racedeck.rl.encoders import encoder, register_encoder
from racedeck.rl.encoding import (
    Choice,
    Encoder,
    EncoderFactory,
    EncodingError,
    Features,
    GenericEncoder,
)
from racedeck.rl.episodes import rerun_episode, verify_episode
from racedeck.rl.gym import SingleSeatEnv

__all__ = [
    "BUILT_IN_GAMES",
    "GYM_IDS",
    "Choice",
    "Encoder",
    "EncoderFactory",
    "EncodingError",
    "Features",
    "GenericEncoder",
    "RacedeckEnv",
    "SingleSeatEnv",
    "encoder",
    "env",
    "gym_env",
    "register_encoder",
    "register_gym",
    "rerun_episode",
    "verify_episode",
]


def _catalogue(catalogue: Catalogue | None, plugins_dir: str | Path | None) -> Catalogue:
    if catalogue is not None:
        return catalogue
    from racedeck.plugins import load_registry

    return load_registry(Path(plugins_dir) if plugins_dir is not None else None)


def _setup(
    catalogue: Catalogue, game: str, players: int | None, options: Mapping[str, Any] | None
) -> tuple[AnyGame, Options, int]:
    the_game = catalogue.game(game)
    parsed = the_game.parse_options(dict(options or {}))
    if players is None:
        players = min(max(2, the_game.min_players), the_game.max_players)
    players = integer(players, "players")
    the_game.check_players(parsed, players)
    return the_game, parsed, players


def env(
    game: str,
    *,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    reward: str = "rank",
    render_mode: str | None = None,
    catalogue: Catalogue | None = None,
    plugins_dir: str | Path | None = None,
) -> RacedeckEnv:
    """Return a PettingZoo AEC environment of the game called ``game``, one agent a seat.

    ``players`` defaults to two (one for a game that takes only one); ``options`` are the
    game's options by name; the first ``reset()`` plays ``seed`` and each later one the
    next seed, unless given one. Games come from the installed plugins (or ``catalogue``).
    """
    found = _catalogue(catalogue, plugins_dir)
    the_game, parsed, count = _setup(found, game, players, options)
    random_seat = found.bot(LOG_SEAT, the_game.name)
    return RacedeckEnv(
        the_game,
        parsed,
        count,
        encoder(the_game, parsed, count),
        seed=seed,
        reward=reward,
        render_mode=render_mode,
        log_seats=[random_seat] * count,
    )


def gym_env(
    game: str,
    *,
    seat: int = 0,
    opponents: Sequence[str] = ("random",),
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    reward: str = "rank",
    illegal: str = "lose",
    render_mode: str | None = None,
    catalogue: Catalogue | None = None,
    plugins_dir: str | Path | None = None,
) -> SingleSeatEnv:
    """Return a Gymnasium environment in which ``seat`` learns and racedeck bots play the rest.

    ``opponents`` names the bots of the other seats in seat order; one name is used for
    every other seat. ``players`` defaults to the learner plus one seat per name.
    ``illegal``: ``lose`` (the default: an index the mask forbids ends the episode with
    reward -1) or ``raise`` (it raises ``IllegalActionError``).
    """
    found = _catalogue(catalogue, plugins_dir)
    names = bot_names(opponents, "opponents")
    seat = integer(seat, "seat")
    if players is None:
        players = 1 + len(names)
    the_game, parsed, count = _setup(found, game, players, options)
    if not 0 <= seat < count:
        raise UsageError(f"seat {seat} does not exist: the match has seats 0 to {count - 1}")
    if len(names) == 1:
        names = names * (count - 1)
    if len(names) != count - 1:
        raise UsageError(f"{count} seats need {count - 1} opponents, got {len(names)}")
    bots = [found.bot(name, the_game.name) for name in names]
    bots.insert(seat, found.bot(LOG_SEAT, the_game.name))
    aec = RacedeckEnv(
        the_game,
        parsed,
        count,
        encoder(the_game, parsed, count),
        seed=seed,
        reward=reward,
        render_mode=render_mode,
        log_seats=bots,
        external=[seat],
    )
    return SingleSeatEnv(aec, seat, [None if s == seat else bots[s] for s in range(count)], illegal)


def register_gym(game: str, version: int = 0) -> str:
    """Register ``game``'s single-seat environment for ``gymnasium.make``; return its id.

    The id is ``racedeck/GAME-vN``; ``gymnasium.make(id, **kwargs)`` passes ``kwargs`` to
    ``gym_env`` (``seat``, ``opponents``, ``options``, ``render_mode``...).
    """
    import gymnasium

    name = f"racedeck/{game}-v{version}"
    if name not in gymnasium.registry:
        gymnasium.register(id=name, entry_point="racedeck.rl:gym_env", kwargs={"game": game})
    return name


BUILT_IN_GAMES = ("lacorsa", "detroit-cleveland", "famous-500", "wacky-races")
"""The games racedeck ships, registered for ``gymnasium.make`` on import."""

GYM_IDS = tuple(register_gym(game) for game in BUILT_IN_GAMES)
"""The ``gymnasium.make`` ids of the built-in games, registered when this module loads:
``gymnasium.make("racedeck/lacorsa-v0")`` after ``import racedeck.rl``, or
``gymnasium.make("racedeck.rl:racedeck/lacorsa-v0")`` with no import of one's own."""
