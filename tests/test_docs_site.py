"""The documentation site: built with warnings as errors, every public name in its API
reference, and its home page and one API page opened in headless Chromium.

The build and the browser are marked ``extended`` (.ci/run builds the site into
``site/`` first, then runs ``pytest -m extended``); what needs neither runs always.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import lazysearch

ROOT = Path(__file__).resolve().parents[1]


def hooks() -> object:
    """docs/hooks.py, the site's build-time pages, as a module."""
    path = ROOT / "docs" / "hooks.py"
    if not path.exists():
        pytest.skip("no docs/hooks.py (not a source checkout)")
    spec = importlib.util.spec_from_file_location("lazysearch_docs_hooks", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_api_reference_covers_every_public_name() -> None:
    """A page for the package (its __all__) and for each module the README lists."""
    documented = [module for _, module, *_ in hooks().API]  # type: ignore[attr-defined]
    assert documented[0] == "lazysearch"
    readme = (ROOT / "README.md").read_text()
    listed = re.findall(r"^\| `(lazysearch\.\w+)` \|", readme, re.M)
    assert listed and set(listed) <= set(documented), sorted(set(listed) - set(documented))
    for name in lazysearch.__all__:
        if name in {"graphs", "kakuro", "knights", "polyomino", "sudoku"}:
            assert f"lazysearch.{name}" in documented, name


def test_the_cli_reference_is_the_parsers_help() -> None:
    from lazysearch.cli.app import build_parser

    text = hooks().cli_reference()  # type: ignore[attr-defined]
    assert build_parser().format_usage().split()[1] in text
    for command in ("dlx", "queens", "sudoku", "knights", "kakuro", "generate"):
        assert f"## lazysearch {command}\n" in text, command
    assert "## lazysearch pentomino (polyomino)\n" in text
    # each subcommand once, its aliases beside it
    subcommands = next(a for a in build_parser()._actions if a.choices and a.dest == "command")
    assert text.count("## lazysearch ") == len({id(p) for p in subcommands.choices.values()})
    assert "## lazysearch graph\n" in text
    assert "--checkpoint" in text and "--time-limit" in text


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The built site: .ci/run's ``site/``, or built here with warnings as errors."""
    built = ROOT / "site"
    if (built / "index.html").exists():
        return built
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("MkDocs is not installed (pip install -e '.[docs]')")
    out = tmp_path_factory.mktemp("site")
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    return out


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no Chromium installed (apt-get install chromium)")


def rendered(page: Path, screenshot: Path) -> str:
    """The page's DOM after headless Chromium loaded it, and a screenshot of it."""
    flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={screenshot.parent / 'profile'}",
        "--window-size=1200,1600",
    ]
    url = page.as_uri()
    shot = subprocess.run(
        [chromium(), *flags, f"--screenshot={screenshot}", url],
        capture_output=True,
        timeout=120,
    )
    assert shot.returncode == 0 and screenshot.stat().st_size > 10_000, shot.stderr[-2000:]
    done = subprocess.run(
        [chromium(), *flags, "--dump-dom", url], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def pictures(page: Path, dom: str) -> list[Path]:
    """The SVG pictures the page shows, each a file of the site."""
    found = [page.parent / src for src in re.findall(r'<img [^>]*src="([^"]+\.svg)"', dom)]
    for path in found:
        assert path.resolve().is_file(), path
        assert path.read_text().lstrip().startswith("<svg"), path
    return found


@pytest.mark.extended
def test_the_home_page_renders_with_its_pictures(site: Path, tmp_path: Path) -> None:
    dom = rendered(site / "index.html", tmp_path / "home.png")
    assert "Getting started" in dom and "exact_cover" in dom
    assert len(pictures(site / "index.html", dom)) == 3
    assert 'href="api/lazysearch/"' in dom or "api/lazysearch/" in dom


@pytest.mark.extended
def test_an_api_page_renders_the_docstrings(site: Path, tmp_path: Path) -> None:
    page = site / "api" / "lazysearch" / "index.html"
    dom = rendered(page, tmp_path / "api.png")
    modules = {"graphs", "kakuro", "knights", "polyomino", "sudoku"}  # each a page of its own
    for name in set(lazysearch.__all__) - modules:
        assert f'id="lazysearch.{name}"' in dom, name
    assert "All exact covers of" in dom  # a docstring's text
    assert 'class="language-pycon' in dom or "highlight" in dom  # its examples as code
