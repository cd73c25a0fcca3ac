"""Wacky Races: The Board Game: terrain cards, traps, advantages and Dick Dastardly, 1-6 players."""
