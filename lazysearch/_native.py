"""Load an engine module: its compiled extension when there is one, else its source.

``LAZYSEARCH_PURE=1`` in the environment forces the plain-Python source even when the
extension is installed, so that both builds can be tested on one machine.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
from types import ModuleType

_loaded: dict[str, ModuleType] = {}


def pure_requested() -> bool:
    return os.environ.get("LAZYSEARCH_PURE", "") not in ("", "0")


def load(name: str) -> ModuleType:
    """Import engine module ``name`` (dotted), honouring ``LAZYSEARCH_PURE``."""
    if name in _loaded:
        return _loaded[name]
    if pure_requested():
        module = load_source(name)
        sys.modules[name] = module
    else:
        module = importlib.import_module(name)
    _loaded[name] = module
    return module


def load_source(name: str) -> ModuleType:
    """The plain-Python source of engine module ``name``, loaded apart from the import
    system (as ``name + "_source"``), so compiled and uncompiled can run side by side."""
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


def compiled() -> bool:
    """True when the engines in use run as compiled C extensions."""
    return all(getattr(m, "COMPILED", False) for m in _loaded.values()) and bool(_loaded)
