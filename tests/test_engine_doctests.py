"""The examples in the engine modules' docstrings, run on their plain-Python source.

The doctest collector leaves the engine modules out (conftest.py: the compiled extension
shadows the source, and collecting the file would import the wrong one), and the plain
pass runs tests/ only, so without this file their examples ran nowhere.
"""

from __future__ import annotations

import doctest

import pytest

from lazysearch.engine import _native
from lazysearch.engine.registry import ENGINES


@pytest.mark.parametrize("name", ENGINES)
def test_the_examples_of_each_engine_module_hold(name: str) -> None:
    module = _native.load_source(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    examples = 0
    for test in finder.find(module, module.__name__):
        examples += len(test.examples)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of the examples in {name} failed"
    # (How many there are: a module whose examples the finder missed would pass empty.)
    with open(module.__file__ or "", encoding="utf-8") as source:
        assert examples == source.read().count(">>> ")
