"""Exact cover with Knuth's Algorithm X/C on dancing links, and Algorithm M (multiplicities
and costs).

The Knuth-format reader and writer are imported on first use.
"""

from typing import Any

from .problem import BoundError, Colour, CostError, DLXProblem, ExactCover, MCCProblem, exact_cover

# The verifier's module is loaded before its function is bound to the same name here: a
# later ``import lazysearch.exactcover.verify`` then finds the module loaded and leaves
# the name alone, where loading it on first use put the module in the function's place.
from .verify import verify

_LAZY = {
    "format_text": "knuth",
    "parse": "knuth",
    "read": "knuth",
    "write": "knuth",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "BoundError",
    "Colour",
    "CostError",
    "DLXProblem",
    "ExactCover",
    "MCCProblem",
    "exact_cover",
    "format_text",
    "parse",
    "read",
    "verify",
    "write",
]
