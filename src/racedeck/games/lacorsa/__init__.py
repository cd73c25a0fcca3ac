"""LACORSA Grand Prix: challenges for position with a 13-card hand, 2-6 players."""
