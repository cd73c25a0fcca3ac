"""racedeck: a headless, event-sourced engine for racing card and board games."""

__version__ = "0.1.0"
