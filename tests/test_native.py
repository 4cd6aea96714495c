"""The engine source runs as plain Python even where Cython is not installed."""

from __future__ import annotations

import sys

import pytest

from lazysearch import _native
from lazysearch.puzzles import queens_problem


def test_engine_source_runs_without_cython(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cython", None)  # "import cython" now fails
    dlx = _native.load_source("lazysearch.exactcover._dlx")
    assert dlx.COMPILED is False
    p = queens_problem(6).problem
    engine = dlx.DLXEngine(p.primary, p.secondary, p.option_items, p.option_colors)
    assert engine.run(0, 0) == 4


def test_every_subpackage_is_installed() -> None:
    """pyproject.toml lists its packages by hand: a new folder must be added there, or a
    non-editable install leaves it out."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    listed = set(
        tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(root).parts)
        for p in (root / "lazysearch").rglob("__init__.py")
    }
    assert found == listed
