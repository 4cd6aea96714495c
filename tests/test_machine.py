"""The exact-cover engines' shared machine: one stack, one replay, in either build.

Each engine (dancing links, dancing cells, Algorithm M) is a subclass of
``lazysearch.engine._machine.Machine`` that adds only its data and its ``run()``.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from types import FunctionType
from typing import Any

import pytest

from lazysearch.engine import _native
from lazysearch.puzzles import queens_problem

ENGINES = {"_dlx": "DLXEngine", "_cells": "CellsEngine", "_mcc": "MCCEngine", "_bits": "BitsEngine"}


def engine_class(module: str) -> Any:
    return getattr(_native.load(f"lazysearch.exactcover.{module}"), ENGINES[module])


def queens6(module: str) -> Any:
    """An engine of ``module`` on the 6-queens problem (4 solutions)."""
    p = queens_problem(6).problem
    args = (p.primary, p.secondary, p.option_items, p.option_colors)
    if module == "_mcc":  # every primary item covered exactly once, no costs
        ones = [1] * p.primary
        return engine_class(module)(*args, ones, ones, [0] * len(p.option_items))
    return engine_class(module)(*args)


def is_plain(cls: Any) -> bool:
    """True when ``cls`` was defined by uncompiled Python (its methods are functions)."""
    return isinstance(cls.__dict__["replay"], FunctionType)


@pytest.mark.parametrize("module", ENGINES)
def test_each_engine_is_the_machine_and_its_search(module: str) -> None:
    cls = engine_class(module)
    base = cls.__mro__[1]
    assert base.__name__ == "Machine"
    shared = ["position", "degrees", "_allocate", "_keep", "_root"]
    if module != "_cells":  # cells has counters of its own to reset, links have none
        shared.append("restart")
    if module != "_mcc":  # a cost search replays each level with its own cost bound
        shared.append("replay")
    for method in shared:
        assert method not in cls.__dict__, f"{cls.__name__} writes {method}() again"
    assert "run" in cls.__dict__
    # a compiled engine sits on the compiled machine, an uncompiled one on plain Python
    compiled = _native.load(f"lazysearch.exactcover.{module}").COMPILED
    assert is_plain(base) is not compiled


def test_an_uncompiled_engine_takes_the_uncompiled_machine() -> None:
    """Even beside compiled modules (a compiled machine's fields cannot hold lists)."""
    dlx = _native.load_source("lazysearch.exactcover._dlx")
    assert dlx.COMPILED is False
    assert is_plain(dlx.DLXEngine.__mro__[1])
    p = queens_problem(6).problem
    engine = dlx.DLXEngine(p.primary, p.secondary, p.option_items, p.option_colors)
    assert engine.run(0, 0) == 4


@pytest.mark.parametrize("module", ENGINES)
def test_replay_rebuilds_the_stack_of_a_position(module: str) -> None:
    walker = queens6(module)
    leaves = []
    while walker.run(1, 0):
        leaves.append((walker.position(), walker.degrees(), walker.solution()))
    assert len(leaves) == 4 and walker.solutions == 4
    for position, degrees, solution in leaves:
        engine = queens6(module)
        assert engine.replay(position)
        assert engine.position() == position and engine.degrees() == degrees
        assert engine.solution() == solution and engine.branching() == -1
        assert engine.nodes == 0 and engine.solutions == 0  # a replay counts nothing
    engine = queens6(module)
    assert not engine.replay([6])  # the root has 6 children: 0..5
    engine.restart()
    assert not engine.replay([-1])
    engine.restart()
    assert engine.replay([]) and engine.run(0, 0) == 4


@pytest.mark.parametrize("module", ENGINES)
def test_restart_goes_back_to_the_root_without_a_cut(module: str) -> None:
    engine = queens6(module)
    engine.cut_depth = 1  # list the subtrees one level down
    cuts = []
    while engine.run(1, 0):
        cuts.append(engine.position())
    assert cuts == [[0], [1], [2], [3], [4], [5]]
    engine.restart()
    assert (engine.level, engine.floor, engine.state) == (0, 0, 0)
    assert engine.run(0, 0) == 4  # solutions again, not the cut nodes


@pytest.mark.parametrize("module", ENGINES)
def test_restart_mid_search_puts_the_data_back(module: str) -> None:
    """Stopped deep in the tree (links moved, segments shrunk, bounds spent), restarted:
    the same walk, node for node, as a new engine's."""
    fresh = queens6(module)
    leaves = []
    while fresh.run(1, 0):
        leaves.append(fresh.position())
    engine = queens6(module)
    engine.run(1, 0)
    engine.run(0, 7)  # somewhere below the first solution
    assert engine.level > 0
    before = engine.nodes
    engine.restart()
    again = []
    while engine.run(1, 0):
        again.append(engine.position())
    assert again == leaves
    assert engine.nodes - before == fresh.nodes  # the same tree; the count goes on


def test_the_machine_alone_has_no_search() -> None:
    machine = _native.load("lazysearch.engine._machine")
    with pytest.raises(NotImplementedError, match="Machine has no run"):
        machine.Machine().run(0, 0)


def test_the_install_carries_the_machine_declarations() -> None:
    """The compiled engines cimport the machine from ``_machine.pxd``: a build from the
    sdist needs it, so pyproject.toml's package data names every .pxd of the package."""
    root = Path(__file__).resolve().parents[1]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]
    patterns = data["package-data"]["lazysearch"]
    shipped = {p for pattern in patterns for p in (root / "lazysearch").glob(pattern)}
    declarations = set((root / "lazysearch").rglob("*.pxd"))
    assert root / "lazysearch" / "engine" / "_machine.pxd" in declarations
    assert declarations <= shipped


def load_setup(monkeypatch: pytest.MonkeyPatch) -> Any:
    """setup.py as a module, its ``setup()`` call made a no-op and nothing translated."""
    import importlib.util

    import setuptools

    monkeypatch.setattr(setuptools, "setup", lambda **_kwargs: None)
    monkeypatch.setenv("LAZYSEARCH_PURE", "1")
    path = Path(__file__).resolve().parents[1] / "setup.py"
    spec = importlib.util.spec_from_file_location("lazysearch_setup", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_setup_compiles_an_engine_only_over_a_compiled_machine(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A compiled engine over a plain-Python base cannot be imported, and would leave the
    package unimportable: when the machine fails to compile, its engines stay plain."""
    from setuptools import Distribution, Extension
    from setuptools.command.build_ext import build_ext

    setup = load_setup(monkeypatch)
    core = [source[:-3].replace("/", ".") for source in setup.CORE]
    for engine, base in setup.BASE.items():
        assert core.index(base) < core.index(engine)  # built in this order
    built = []

    def build(self: Any, ext: Any) -> None:
        if ext.name == "lazysearch.engine._machine":
            raise RuntimeError("no compiler today")
        built.append(ext.name)

    monkeypatch.setattr(build_ext, "build_extension", build)
    command = setup.OptionalBuildExt(Distribution())
    monkeypatch.setattr(command, "no_debug_flags", lambda: ([], []))
    for name in core:
        command.build_extension(Extension(name, [name.replace(".", "/") + ".c"]))
    over_machine = {e for e, base in setup.BASE.items() if base.endswith("._machine")}
    assert built == [name for name in core if name not in over_machine and "_machine" not in name]
    assert "lazysearch.exactcover._dlx not compiled" in capsys.readouterr().err
