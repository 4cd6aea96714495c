"""Root pytest configuration: what the doctest collector must not import."""

# __main__ runs the command line on import; the engine source is shadowed by its
# compiled extension when one is built, so its doctest collection would mismatch.
from lazysearch import _ENGINES

collect_ignore = [
    "lazysearch/__main__.py",
    *(name.replace(".", "/") + ".py" for name in _ENGINES),
    "setup.py",
    "build",
]
