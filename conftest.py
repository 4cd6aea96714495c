"""Root pytest configuration: what the doctest collector must not import."""

# __main__ runs the command line on import; the engine source is shadowed by its
# compiled extension when one is built, so its doctest collection would mismatch.
collect_ignore = [
    "lazysearch/__main__.py",
    "lazysearch/exactcover/_dlx.py",
    "lazysearch/kakuro/_engine.py",
    "lazysearch/knights/_tour.py",
    "lazysearch/puzzles/_tiling.py",
    "setup.py",
    "build",
]
