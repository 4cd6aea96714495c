"""Root pytest configuration: what the doctest collector must not import."""

import os

from lazysearch import _ENGINES

# An install without compiled engines warns once per process (NotCompiledWarning); the
# suite, and the command lines it starts, keep quiet (tests/test_packaging.py checks it).
os.environ.setdefault("LAZYSEARCH_QUIET", "1")

# __main__ runs the command line on import; the engine source is shadowed by its
# compiled extension when one is built, so its doctest collection would mismatch.
collect_ignore = [
    "lazysearch/__main__.py",
    *(name.replace(".", "/") + ".py" for name in _ENGINES),
    "setup.py",
    "build",
]
