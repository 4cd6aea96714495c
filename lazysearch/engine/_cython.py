"""Stand-ins for the ``cython`` names the engines use, for machines without Cython.

The engines are written in Cython's pure-Python mode: typed ``.py`` files that Cython
compiles to C when a compiler is present.  When they run uncompiled and the Cython
package is not installed, they import this module under the name ``cython``; every
decorator here returns its argument unchanged and every type is a plain Python type.
"""

from __future__ import annotations

import builtins
from typing import Any, TypeVar

_T = TypeVar("_T")

compiled = False


class _Array:
    """``cython.int[3]`` (a C array: :func:`declare` gives a list of zeros) or
    ``cython.int[::1]`` (a memoryview: anything)."""

    def __init__(self, item: object) -> None:
        self.size = item if isinstance(item, builtins.int) else None


class _Type:
    """A C type: called, its Python type's value; subscripted, an :class:`_Array`."""

    def __init__(self, python: type) -> None:
        self.python = python

    def __call__(self, value: object = 0) -> Any:
        return self.python(value)

    def __getitem__(self, item: object) -> _Array:
        return _Array(item)


int = _Type(builtins.int)
uint = _Type(builtins.int)
long = _Type(builtins.int)
longlong = _Type(builtins.int)
ulonglong = _Type(builtins.int)
Py_ssize_t = _Type(builtins.int)
size_t = _Type(builtins.int)
char = _Type(builtins.int)
uchar = _Type(builtins.int)
short = _Type(builtins.int)
double = _Type(builtins.float)
float = _Type(builtins.float)
bint = _Type(builtins.bool)


class _AnyArray:
    """``cython.int[::1]`` and friends: subscripting a type gives a type."""

    def __getitem__(self, item: object) -> Any:
        return Any


int_array = _AnyArray()


def _identity(obj: _T) -> _T:
    return obj


def _directive(*_args: object, **_kwargs: object) -> Any:
    return _identity


cclass = _identity
cfunc = _identity
ccall = _identity
inline = _identity
final = _identity
locals = _directive
boundscheck = _directive
wraparound = _directive
cdivision = _directive
initializedcheck = _directive
exceptval = _directive


def declare(kind: object = None, value: object = None, **_kwargs: object) -> Any:
    if value is None and isinstance(kind, _Array) and kind.size is not None:
        return [0] * kind.size
    return value


def cast(_kind: object, value: _T) -> _T:
    return value


void = None
