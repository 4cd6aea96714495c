"""How much a count by the frontier programs may hold, and the error when it would hold
more: shared by the programs' drivers and their compiled engines alike (it imports no
engine).
"""

from __future__ import annotations

from ..errors import TooLargeError

#: Bytes one frontier costs at most in the compiled tables (two tables of 16-byte slots,
#: at most half full, one of them doubling) and, roughly, in a Python dict.
BYTES_PER_STATE = 200


class TooManyStatesError(TooLargeError):
    """A count by dynamic programming needed more frontiers than ``max_states``, or
    frontiers wider than the program packs (boards more than :data:`WIDEST` across).

    A :class:`~lazysearch.errors.TooLargeError`: the command line exits with status 3.
    """

    def reason(self) -> str:
        """The message without its advice to raise ``max_states`` (a keyword of the
        Python functions), for a caller that cannot pass it: the command line."""
        return str(self).split("; raise max_states")[0]


#: The widest short side the program takes: its frontiers of ``2k + 1`` squares are
#: packed in two 64-bit words, four bits a square (with the tour ends fixed).
WIDEST = 14


def check_width(rows: int, cols: int, what: str) -> None:
    """Raise :class:`TooManyStatesError` for a board more than :data:`WIDEST` across."""
    k = min(rows, cols)
    if k > WIDEST:
        raise TooManyStatesError(
            f"{what} {rows}x{cols} needs frontiers of {2 * k + 1} squares; the program "
            f"takes boards up to {WIDEST} squares across"
        )
