"""The engine core: the game contract, random streams, the match runner, logs and replay."""
