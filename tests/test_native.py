"""The engine source runs as plain Python even where Cython is not installed."""

from __future__ import annotations

import sys

import pytest

from lazysearch.engine import _native, registry
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
    monkeypatch.setitem(sys.modules, "cython", None)
    for name in registry.ENGINES:
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


def test_load_refuses_a_module_the_registry_does_not_list() -> None:
    with pytest.raises(ValueError, match=r"'lazysearch\.exactcover\._dxl' is not an engine"):
        _native.load("lazysearch.exactcover._dxl")


def test_every_engine_the_package_loads_is_registered() -> None:
    """The loads name their engine as a string (read as an import, as it is): each such
    name is one the registry lists, so that a misspelt one fails here, not on the first
    run that reaches it."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parents[1] / "lazysearch"
    named = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("load", "load_source")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and str(node.args[0].value).startswith("lazysearch.")
            ):
                named.add(node.args[0].value)
    assert named, "no load found"
    assert named <= set(registry.ENGINES), sorted(named - set(registry.ENGINES))
