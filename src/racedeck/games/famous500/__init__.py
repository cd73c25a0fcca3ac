"""Famous 500: a two-player car racing card game of speed and endurance."""
