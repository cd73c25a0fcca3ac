"""The command line: a thin Typer app over the library."""
