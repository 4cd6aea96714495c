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
    name = registry.MOVED.get(name, name)
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
    hidden = shadowed_install()
    why = (
        "the install found no C compiler or no Cython (reinstall with one to compile them)"
        if hidden is None
        else f"lazysearch was imported from the source folder {package_folder()}, which "
        f"hides the installed package at {hidden} (run Python from another folder to use it)"
    )
    warnings.warn(
        f"lazysearch runs {', '.join(plain)} as plain Python, several times slower: {why}. "
        "Set LAZYSEARCH_QUIET=1, or filter lazysearch.errors.NotCompiledWarning, "
        "to silence this.",
        NotCompiledWarning,
        stacklevel=3,
    )


def package_folder() -> str:
    """The folder of the ``lazysearch`` package this process imported."""
    return os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def shadowed_install() -> str | None:
    """The folder of an installed (not editable) lazysearch that the one imported hides,
    or None: Python started in a source checkout imports its ``lazysearch/`` folder,
    which holds no compiled engines, before the installed package."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        installed = str(distribution("lazysearch").locate_file("lazysearch"))
    except (ImportError, PackageNotFoundError, OSError):
        return None
    if not os.path.isfile(os.path.join(installed, "__init__.py")):
        return None  # an editable install: the package is the source folder itself
    if os.path.realpath(installed) == os.path.realpath(package_folder()):
        return None
    return installed


def why_plain() -> str:
    """Why engines run as plain Python in this process, in a few words for users."""
    if pure_requested():
        return "LAZYSEARCH_PURE is set"
    hidden = shadowed_install()
    if hidden is not None:
        return (
            f"imported from the source folder {package_folder()}, which hides the "
            f"installed package at {hidden}"
        )
    return "not compiled at install: reinstall with a C compiler and Cython"


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
    # Known by its own name while it runs, as any import is, so that it can find itself
    # (graphs._table's plain() imports it by name).
    sys.modules[loader.name] = module
    loader.exec_module(module)
    return module
