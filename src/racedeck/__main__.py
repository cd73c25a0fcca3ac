"""``python -m racedeck`` runs the command line."""

from racedeck.cli.app import run

run()
