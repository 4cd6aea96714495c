"""Exact cover with Knuth's Algorithm X/C on dancing links."""

from .knuth import format_text, parse, read, write
from .problem import Colour, DLXProblem, ExactCover, exact_cover
from .verify import verify

__all__ = [
    "Colour",
    "DLXProblem",
    "ExactCover",
    "exact_cover",
    "format_text",
    "parse",
    "read",
    "verify",
    "write",
]
