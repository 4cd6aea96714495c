"""Stand-ins for the ``cython`` names the engines use, for machines without Cython.

The engines are written in Cython's pure-Python mode: typed ``.py`` files that Cython
compiles to C when a compiler is present.  When they run uncompiled and the Cython
package is not installed, they import this module under the name ``cython``; every
decorator here returns its argument unchanged and every type is a plain Python type.
"""

from __future__ import annotations

from typing import Any, TypeVar

_T = TypeVar("_T")

compiled = False

int = int
longlong = int
Py_ssize_t = int
double = float
bint = bool


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
    return value


def cast(_kind: object, value: _T) -> _T:
    return value


void = None
