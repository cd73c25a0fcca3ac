"""The encoders of the games: the built-in games' own, those plugins register, the generic one."""

from __future__ import annotations

from racedeck.core.game import AnyGame
from racedeck.core.model import Options
from racedeck.rl.encoding import Encoder, EncoderFactory, GenericEncoder

_REGISTERED: dict[str, EncoderFactory] = {}


def builtin_encoders() -> dict[str, EncoderFactory]:
    """Return the encoder factory of each built-in game, keyed by the game's name."""
    from racedeck.rl.encoders.detroit_cleveland import DetroitClevelandEncoder
    from racedeck.rl.encoders.famous500 import Famous500Encoder
    from racedeck.rl.encoders.lacorsa import LacorsaEncoder
    from racedeck.rl.encoders.wacky_races import WackyRacesEncoder

    return {
        "lacorsa": LacorsaEncoder,
        "detroit-cleveland": DetroitClevelandEncoder,
        "famous-500": Famous500Encoder,
        "wacky-races": WackyRacesEncoder,
    }


def register_encoder(game: str, factory: EncoderFactory) -> None:
    """Use ``factory(game, options, players)`` as the encoder of the game called ``game``."""
    _REGISTERED[game] = factory


def encoder(game: AnyGame, options: Options, players: int) -> Encoder:
    """Return the encoder of ``game``: registered, built in, or else the generic one."""
    factory = _REGISTERED.get(game.name) or builtin_encoders().get(game.name)
    if factory is None:
        return GenericEncoder(game, options, players)
    return factory(game, options, players)
