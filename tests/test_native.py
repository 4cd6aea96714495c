"""The engine source runs as plain Python even where Cython is not installed."""

from __future__ import annotations

import sys

import pytest

from lazysearch.engine import _native
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


def test_every_engine_source_loads_without_cython(monkeypatch: pytest.MonkeyPatch) -> None:
    import lazysearch

    monkeypatch.setitem(sys.modules, "cython", None)
    for name in lazysearch._ENGINES:
        if name == "lazysearch.engine._cython":
            continue
        module = _native.load_source(name)
        assert getattr(module, "COMPILED", False) is False, name


def test_knights_counts_run_without_cython() -> None:
    # The knights' engines declare C arrays (cython.int[16]) and 64-bit words
    # (cython.ulonglong): the stand-ins give them lists and Python integers. Before,
    # `import lazysearch.knights._count` failed there on cython.ulonglong.
    import os
    import subprocess

    script = (
        "import sys; sys.modules['cython'] = None\n"
        "from lazysearch import knights\n"
        "from lazysearch.knights import ordering\n"
        "print(ordering.order_count(5, 5).count, knights.count_closed(5, 8, method='dp'),\n"
        "      knights.count_closed(5, 8, method='join'),\n"
        "      knights.count_tours(5, 7, method='join', workers=1))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "LAZYSEARCH_PURE": "1"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["1728", "44202", "44202", "1245736"]
