"""The repository's tooling, outside the runtime package: the fuzzer and the strength ladder.

Run from the repository's root: ``python -m tools.fuzz`` (``make fuzz``) and
``python -m tools.ladder`` (``make strength``).
"""
