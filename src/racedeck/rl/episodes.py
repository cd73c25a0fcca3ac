"""Re-running an environment episode's log from the decisions it records.

``racedeck replay --verify`` accepts an episode's log as any log of decisions (see
``RacedeckEnv.episode_log``): it checks the hashes, each decision against the rules, each
decision's events, the engine's draws and the result, without playing anything again.
``verify_episode`` goes further: it plays the whole match again through an environment,
from the header's seed, taking each outside seat's decisions from the log's ``external``
debug lines and asking the header's bots for the others, and the log it writes must be
the file, byte for byte.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from racedeck.core.catalogue import Catalogue
from racedeck.core.errors import RacedeckError, VerificationError
from racedeck.core.log import LogReader
from racedeck.core.model import Action
from racedeck.core.replay import open_game
from racedeck.core.step import choose
from racedeck.core.verify import clip, first_difference
from racedeck.rl.aec import EXTERNAL, RacedeckEnv
from racedeck.rl.encoders import encoder
from racedeck.rl.seats import BotSeats


def rerun_episode(catalogue: Catalogue, path: str | Path) -> bytes:
    """Return the log that playing the episode in ``path`` again writes."""
    with LogReader(path) as reader:
        header = reader.header
        notes = [entry.debug for entry in reader if entry.debug is not None]
    outside = [note for note in notes if note.bot == EXTERNAL]
    if header.fork is not None or not outside:
        raise VerificationError(f"{path} is not an environment episode's log")
    game, options = open_game(catalogue, header, str(path))
    try:
        specs = [catalogue.bot(seat.bot, game.name) for seat in header.seats]
    except RacedeckError as exc:
        raise VerificationError(f"{path}: cannot re-run the episode: {exc}") from None
    external = sorted({note.seat for note in outside})
    env = RacedeckEnv(
        game,
        options,
        header.players,
        encoder(game, options, header.players),
        seed=header.seed,
        log_seats=specs,
        external=external,
    )
    env.reset()
    queues: dict[int, deque[Action]] = {seat: deque() for seat in external}
    for note in outside:
        try:
            queues[note.seat].append(game.action_decoder.decode(note.text))
        except Exception as exc:  # a forged line may hold anything
            raise VerificationError(f"{path}: a recorded decision is no action: {exc}") from None
    bots = BotSeats(env, [None if seat in queues else specs[seat] for seat in range(len(specs))])
    try:
        while not env.over:
            seat = env.deciding
            if seat not in queues:
                env.decide(bots.ask(seat))
                continue
            if not queues[seat]:
                raise VerificationError(f"{path}: seat {seat} has no recorded decision left")
            recorded = queues[seat].popleft()
            action = choose(env.legal, recorded)
            if action is None:
                raise VerificationError(
                    f"{path}: seat {seat}'s recorded decision {recorded!r} is not legal there"
                )
            env.decide(action)
    finally:
        bots.close()
    return env.episode_log()


def verify_episode(catalogue: Catalogue, path: str | Path) -> None:
    """Play the episode in ``path`` again; raise ``VerificationError`` where it differs."""
    again = rerun_episode(catalogue, path)

    def report(line: int, logged: bytes, rerun: bytes) -> None:
        raise VerificationError(
            f"{path}:{line}: playing the episode again differs: log has {clip(logged)}, "
            f"the episode gives {clip(rerun)}"
        )

    first_difference(Path(path), again, on_difference=report)
