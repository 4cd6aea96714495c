"""Root pytest configuration: what the doctest collector must not import, and the
examples that need an optional dependency."""

import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from lazysearch.engine.registry import ENGINES

# Property tests draw the same cases on every run (a seed per test, no example database
# carried between runs), so that a run's result depends on the code alone.  To explore
# new cases: HYPOTHESIS_PROFILE=explore (random draws, as hypothesis does by default).
settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))

# An install without compiled engines warns once per process (NotCompiledWarning); the
# suite, and the command lines it starts, keep quiet (tests/test_packaging.py checks it).
os.environ.setdefault("LAZYSEARCH_QUIET", "1")

# A suite started with ``&`` by a shell without job control (a CI script's background
# job, a soak loop) inherits SIGINT ignored, Python leaves it so, and the command lines
# the tests start would inherit it too and never see the Ctrl-C some tests send (a run
# went on to exit 0 instead of 130). A handler, unlike "ignored", is not inherited.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# __main__ runs the command line on import; the engine source is shadowed by its
# compiled extension when one is built, so its doctest collection would mismatch
# (tests/test_engine_doctests.py runs the engines' examples on their source instead).
collect_ignore = [
    "lazysearch/__main__.py",
    # the short names of two families: each is the family's module itself once imported
    "lazysearch/sudoku.py",
    "lazysearch/polyomino.py",
    *(name.replace(".", "/") + ".py" for name in ENGINES),
    "setup.py",
    "build",
    # the documentation site's build-time code, which imports MkDocs' and griffe's parts
    "docs/hooks.py",
    "docs/doctest_blocks.py",
    "site",
    # Any other module built as an extension too (sums/_combos.py, say).
    *(
        str(source.relative_to(Path(__file__).parent))
        for source in Path(__file__).parent.joinpath("lazysearch").rglob("*.py")
        if any(source.parent.glob(f"{source.stem}.*.so"))
    ),
]


@pytest.fixture(autouse=True)
def _numpy_examples(request: pytest.FixtureRequest) -> None:
    """A docstring's example that uses NumPy (an optional dependency, the numpy extra)
    is skipped where NumPy is not installed, as tests/test_matrix.py is."""
    examples = getattr(getattr(request.node, "dtest", None), "examples", ())
    if any("numpy" in example.source for example in examples):
        pytest.importorskip("numpy")
