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
    known = set(registry.ENGINES) | set(registry.MOVED)  # (a moved engine by its first name)
    assert named <= known, sorted(named - known)


class _Installed:
    """A stand-in for importlib.metadata's distribution of lazysearch at ``folder``."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def locate_file(self, name: str) -> str:
        import os

        return os.path.join(self.folder, name)


def test_a_source_checkout_hiding_the_install_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    # Python started inside the clone imports its lazysearch/ folder (no compiled
    # engines) before the installed package; the warning and --version blamed the
    # install ("found no C compiler"). They now name both folders.
    import importlib.metadata
    import os

    site = os.path.join(str(tmp_path), "site-packages")
    os.makedirs(os.path.join(site, "lazysearch"))
    open(os.path.join(site, "lazysearch", "__init__.py"), "w").close()
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Installed(site))
    monkeypatch.delenv("LAZYSEARCH_PURE", raising=False)
    assert _native.shadowed_install() == os.path.join(site, "lazysearch")
    why = _native.why_plain()
    assert why.startswith(f"imported from the source folder {_native.package_folder()}")
    assert why.endswith(f"hides the installed package at {os.path.join(site, 'lazysearch')}")


def test_an_editable_or_absent_install_is_not_called_hidden(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    import importlib.metadata
    import os

    # editable: the distribution has no package folder of its own
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Installed(str(tmp_path)))
    assert _native.shadowed_install() is None
    # the imported package is the installed one
    parent = os.path.dirname(_native.package_folder())
    monkeypatch.setattr(importlib.metadata, "distribution", lambda name: _Installed(parent))
    assert _native.shadowed_install() is None

    def missing(name: str) -> object:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", missing)
    assert _native.shadowed_install() is None
    monkeypatch.delenv("LAZYSEARCH_PURE", raising=False)
    assert _native.why_plain().startswith("not compiled at install")
    monkeypatch.setenv("LAZYSEARCH_PURE", "1")
    assert _native.why_plain() == "LAZYSEARCH_PURE is set"
