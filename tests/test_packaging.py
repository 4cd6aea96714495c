"""Packaging: the warning when the engines run uncompiled, and what the sdist ships."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import lazysearch
from lazysearch.engine import _native, registry
from lazysearch.errors import NotCompiledWarning


@pytest.fixture
def uncompiled_install(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """This process as an install that compiled no engine: importing an engine finds
    only its source (no extension), and no engine is loaded or warned about yet."""
    # LAZYSEARCH_PURE=1 puts the sources in sys.modules under the engines' names
    before = {name: sys.modules.get(name) for name in registry.ENGINES}
    real_import = importlib.import_module

    def import_module(name: str, package: str | None = None) -> ModuleType:
        if name in registry.ENGINES:
            return _native.load_source(name)
        return real_import(name, package)

    monkeypatch.setattr(importlib, "import_module", import_module)
    monkeypatch.setattr(_native, "_loaded", {})
    monkeypatch.setattr(_native, "_warned", False)
    monkeypatch.delenv("LAZYSEARCH_PURE", raising=False)
    monkeypatch.delenv("LAZYSEARCH_QUIET", raising=False)
    yield
    for name, module in before.items():
        if module is None:
            sys.modules.pop(name, None)
        else:
            sys.modules[name] = module


def load_engines_recording() -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # every warning issued is recorded, even repeats
        _native.load("lazysearch.exactcover._dlx")
        _native.load("lazysearch.exactcover._dlx")
        _native.load("lazysearch.knights._tour")
        assert lazysearch.queens(6).count() == 4
    return [w for w in caught if issubclass(w.category, NotCompiledWarning)]


@pytest.mark.usefixtures("uncompiled_install")
def test_an_uncompiled_install_warns_once_naming_the_engines() -> None:
    caught = load_engines_recording()
    assert len(caught) == 1
    message = str(caught[0].message)
    for name in registry.ENGINES:
        assert name in message
    assert "LAZYSEARCH_QUIET=1" in message
    assert issubclass(NotCompiledWarning, RuntimeWarning)
    assert _native.engines() == dict.fromkeys(registry.ENGINES, False)


@pytest.mark.usefixtures("uncompiled_install")
def test_plain_python_asked_for_does_not_warn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAZYSEARCH_PURE", "1")
    assert load_engines_recording() == []


@pytest.mark.usefixtures("uncompiled_install")
def test_the_warning_is_silenced_by_lazysearch_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LAZYSEARCH_QUIET", "1")
    assert load_engines_recording() == []


@pytest.mark.usefixtures("uncompiled_install")
def test_the_warning_is_silenced_by_a_filter() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.filterwarnings("ignore", category=NotCompiledWarning)
        _native.load("lazysearch.exactcover._dlx")
    assert caught == []


def test_engines_says_which_engines_run_compiled() -> None:
    found = _native.engines()
    assert list(found) == list(registry.ENGINES)
    assert all(found.values()) is lazysearch.compiled()
    if _native.pure_requested():
        assert not any(found.values())


def test_a_small_sudoku_run_imports_only_what_it_needs(tmp_path: Path) -> None:
    """Start-up dominates small jobs (benchmarks/test_startup_bench.py): solving one
    sudoku without a run file imports no checkpoint, signal or progress-bar machinery
    and no other puzzle's module."""
    puzzle = tmp_path / "one.txt"
    puzzle.write_text("1.3..........2.4\n")
    code = (
        "import sys\n"
        "from lazysearch.cli import main\n"
        f"status = main(['sudoku', {str(puzzle)!r}, '--quiet'])\n"
        "print(status, *sorted(sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    status, *modules = done.stdout.splitlines()[-1].split()
    assert status == "0"
    unwanted = {
        "tempfile",
        "signal",
        "random",
        "tqdm",
        "more_itertools",
        "lazysearch.kakuro",
        "lazysearch.knights",
        "lazysearch.puzzles.polyomino",
        "lazysearch.render",
    }
    assert "lazysearch.puzzles.sudoku" in modules
    assert unwanted.isdisjoint(modules), sorted(unwanted.intersection(modules))


def test_the_sdist_carries_what_its_tests_need() -> None:
    """MANIFEST.in, applied (by setuptools' own reader) to the files git tracks, keeps
    every file of tests/, docs/ and examples/, the root conftest.py and the LICENSE, and
    leaves out Cython's generated C.  (A built sdist was unpacked and its tests run once
    by hand: see the commit that added this test.)"""
    filelist = pytest.importorskip("setuptools._distutils.filelist")
    root = Path(__file__).resolve().parents[1]
    listed = subprocess.run(
        ["git", "ls-files"], cwd=root, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0 or not listed.stdout:
        pytest.skip("not a git checkout (an unpacked sdist): nothing to compare with")
    tracked = listed.stdout.splitlines()
    files = filelist.FileList()
    files.allfiles = [*tracked, "lazysearch/exactcover/_dlx.c"]  # as after a build
    for line in (root / "MANIFEST.in").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            files.process_template_line(line)
    needed = {
        name
        for name in tracked
        if name.startswith(("tests/", "docs/", "examples/"))
        or name in ("conftest.py", "LICENSE", "README.md", "CHANGELOG.md")
    }
    assert "tests/helpers.py" in needed and "tests/golden/kakuro_small.svg" in needed
    assert needed <= set(files.files), sorted(needed - set(files.files))
    assert not any(name.endswith(".c") for name in files.files)


def test_the_compiled_engines_carry_no_debug_information() -> None:
    """setup.py compiles with -g0 and links with -s where the compiler takes them: with
    the DWARF sections of Python's -g, each extension would be some 1.9 MB."""
    import importlib.machinery

    package = Path(lazysearch.__file__).parent
    built = [
        path
        for name in (*registry.ENGINES, *registry.HELPERS, registry.SHARED)
        for suffix in importlib.machinery.EXTENSION_SUFFIXES
        if (
            path := package.parent.joinpath(*name.split(".")[:-1], name.split(".")[-1] + suffix)
        ).exists()
    ]
    if not built:
        pytest.skip("no compiled engine installed")
    for path in built:
        data = path.read_bytes()
        if not data.startswith(b"\x7fELF"):
            pytest.skip(f"{path.name} is not an ELF file; its format is not checked here")
        debug = b".debug_info" in data  # a section name, in the ELF's table of names
        assert not debug, f"{path} carries debug information"


def test_the_compiled_engines_share_one_module_of_cython_utility_code() -> None:
    """Each compiled module imports Cython's utility code (memoryviews and its helpers)
    from lazysearch.engine._cyutility rather than carrying a copy (some 200 KB each)."""
    if not lazysearch.compiled():
        pytest.skip("the engines run as plain Python")
    code = (
        "import sys, lazysearch\n"
        "assert lazysearch.queens(6).count() == 4\n"
        f"print({registry.SHARED!r} in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]


@pytest.mark.parametrize(
    "script",
    [
        # each in a fresh process: the first import of each name, both ways round
        "import lazysearch.sudoku as s, lazysearch.puzzles.sudoku as t; assert s is t",
        "import lazysearch.puzzles.sudoku as t, lazysearch.sudoku as s; assert s is t",
        "import lazysearch; m = lazysearch.polyomino; import lazysearch.polyomino as p; "
        "assert p is m",
        "from lazysearch.polyomino import tile, box, SOMA; "
        "assert tile(box(3, 3, 3), SOMA, distinct=True).count() == 240",
        "from lazysearch.sudoku import solve; assert solve('.' * 16).count() == 288",
        "import lazysearch; names = dir(lazysearch); "
        "assert {'sudoku', 'polyomino', 'kakuro', 'knights', 'queens'} <= set(names); "
        "assert 'TYPE_CHECKING' not in names and '_native' not in names",
    ],
)
def test_the_documented_family_names_are_importable_modules(script: str) -> None:
    # `import lazysearch.sudoku` raised ModuleNotFoundError: the names existed only as
    # attributes of the package.
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_version_has_one_source_and_the_changelog_tells_it() -> None:
    """pyproject.toml reads the version from lazysearch.__version__ (it names none of its
    own), the installed metadata says the same, and CHANGELOG.md's newest release is it."""
    import importlib.metadata
    import re
    import tomllib

    root = Path(__file__).resolve().parents[1]
    project = tomllib.loads((root / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "lazysearch.__version__"}
    assert lazysearch.__version__ == "0.2.0"
    assert importlib.metadata.version("lazysearch") == lazysearch.__version__
    changelog = root / "CHANGELOG.md"
    if not changelog.exists():
        pytest.skip("no CHANGELOG.md beside the tests (an install without its sources)")
    releases = re.findall(r"^## \[(\d[^\]]*)\] - \d{4}-\d\d-\d\d$", changelog.read_text(), re.M)
    assert releases[0] == lazysearch.__version__, releases
