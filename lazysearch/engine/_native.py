"""Load an engine module: its compiled extension when there is one, else its source.

The engine modules are those :mod:`lazysearch.engine.registry` lists; :func:`load`
refuses any other name.

``LAZYSEARCH_PURE=1`` in the environment forces the plain-Python source even when the
extension is installed, so that both builds can be tested on one machine.  Without it,
an engine that falls back to plain Python (the install found no C compiler or no
Cython) says so once per process with a :class:`~lazysearch.errors.NotCompiledWarning`;
``LAZYSEARCH_QUIET=1`` silences it.
"""

from __future__ import annotations

import importlib
import os
import sys
from types import ModuleType

from . import registry

_loaded: dict[str, ModuleType] = {}
_warned = False


def pure_requested() -> bool:
    return os.environ.get("LAZYSEARCH_PURE", "") not in ("", "0")


def quiet_requested() -> bool:
    return os.environ.get("LAZYSEARCH_QUIET", "") not in ("", "0")


def load(name: str) -> ModuleType:
    """Import engine module ``name`` (dotted), honouring ``LAZYSEARCH_PURE``.

    Raises ``ValueError`` for a module :data:`registry.ENGINES` does not list.  The
    first engine of a process found running as plain Python when a compiled one was
    expected (``LAZYSEARCH_PURE`` unset) issues one ``NotCompiledWarning``.
    """
    module = _import(name)
    if not _warned and not getattr(module, "COMPILED", False) and not pure_requested():
        _warn_not_compiled()
    return module


def _import(name: str) -> ModuleType:
    if name in _loaded:
        return _loaded[name]
    if name not in registry.ENGINES:
        raise ValueError(f"{name!r} is not an engine module listed in lazysearch.engine.registry")
    if pure_requested():
        module = load_source(name)
        sys.modules[name] = module
    else:
        module = importlib.import_module(name)
    _loaded[name] = module
    return module


def _warn_not_compiled() -> None:
    global _warned
    _warned = True
    if quiet_requested():
        return
    import warnings

    from ..errors import NotCompiledWarning

    plain = [name for name, compiled_ in engines().items() if not compiled_]
    warnings.warn(
        f"lazysearch runs {', '.join(plain)} as plain Python, several times slower: "
        "the install found no C compiler or no Cython (reinstall with one to compile "
        "them). Set LAZYSEARCH_QUIET=1, or filter lazysearch.errors.NotCompiledWarning, "
        "to silence this.",
        NotCompiledWarning,
        stacklevel=3,
    )


def engines() -> dict[str, bool]:
    """Each engine module's name, and True when it runs compiled in this process.

    Loads every engine; all are False under ``LAZYSEARCH_PURE=1``.
    """
    return {name: bool(getattr(_import(name), "COMPILED", False)) for name in registry.ENGINES}


def load_source(name: str) -> ModuleType:
    """The plain-Python source of engine module ``name``, loaded apart from the import
    system (as ``name + "_source"``), so compiled and uncompiled can run side by side."""
    import importlib.machinery  # only here: the usual path needs neither
    import importlib.util

    package, _, leaf = name.rpartition(".")
    folder = os.path.dirname(importlib.import_module(package).__file__ or "")
    loader = importlib.machinery.SourceFileLoader(
        name + "_source", os.path.join(folder, leaf + ".py")
    )
    spec = importlib.util.spec_from_loader(loader.name, loader)
    if spec is None:  # pragma: no cover - a broken install
        raise ImportError(f"cannot load the source of engine module {name}")
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
