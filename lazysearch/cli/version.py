"""``lazysearch --version``: the version, and which engines run compiled (C) or as
plain Python.  The list of engines is read in one place, :func:`engine_names`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from .exits import EXIT_OK


def engine_names() -> tuple[str, ...]:
    """The modules of the compiled engines, as the registry lists them."""
    from ..engine.registry import ENGINES

    return tuple(ENGINES)


class Version(argparse.Action):
    """``--version``: print :func:`version_text` and exit."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None):
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> NoReturn:
        print(version_text())
        parser.exit(EXIT_OK)


def version_text() -> str:
    """What ``lazysearch --version`` prints: the version, then the engines in use."""
    import platform

    from .. import __version__
    from ..engine import _native

    compiled: list[str] = []
    plain: list[str] = []
    for name in engine_names():
        module = _native.load(name)
        short = name.removeprefix("lazysearch.")
        (compiled if getattr(module, "COMPILED", False) else plain).append(short)
    if not plain:
        engines = f"engines: compiled C ({', '.join(compiled)})"
    else:
        why = _native.why_plain()
        engines = f"engines: plain Python, slower ({why}): {', '.join(plain)}"
        if compiled:
            engines += f"; compiled C: {', '.join(compiled)}"
    return f"lazysearch {__version__} (Python {platform.python_version()})\n{engines}"
