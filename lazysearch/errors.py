"""The exceptions lazysearch raises for bad input.

Every one is a ``ValueError``: a caller that already catches ``ValueError`` keeps working,
and one that wants to tell the cases apart can catch the specific class.  One warning
lives here too: :class:`NotCompiledWarning`, for an install that runs plain Python.
"""

from __future__ import annotations


def brief(value: object, limit: int = 60) -> str:
    """``repr(value)`` for a message, cut to about ``limit`` characters with its length.

    >>> brief("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx... (1,000 characters)"

    The length is the string's own (its quotes not counted), or its repr's for any
    other value.
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    size = len(value) if isinstance(value, str | bytes) else len(text)
    unit = "bytes" if isinstance(value, bytes) else "characters"
    return f"{text[: limit - 10]}... ({size:,} {unit})"


def article(n: int) -> str:
    """The article before the number ``n`` as it is said: "an" for 8, 11, 18, 80-89,
    800-899, 8,000, 11,000... (a vowel first), else "a".

    >>> f"{article(8)} 8x8 board, {article(9)} 9x9 grid, {article(11)} 11x11 grid"
    'an 8x8 board, a 9x9 grid, an 11x11 grid'
    """
    digits = str(abs(n))
    eleven = len(digits) % 3 == 2 and digits.startswith(("11", "18"))
    return "an" if digits.startswith("8") or eleven else "a"


class LazysearchError(ValueError):
    """Base class: the input (a problem, a file, a checkpoint) cannot be used as given."""


class ParseError(LazysearchError):
    """A file or text is malformed; the message names the source, line and column.

    >>> str(ParseError("unknown item 'q'", source="x.dlx", line=3, column=5))
    "x.dlx:3:5: unknown item 'q'"
    """

    def __init__(self, message: str, *, source: str = "<text>", line: int, column: int) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(f"{source}:{line}:{column}: {message}")


class TooLargeError(LazysearchError):
    """A problem or file larger than this machine can hold, or than the engines count.

    The message names the size and the bound; the command line exits with status 3.
    """


class ExactCoverError(LazysearchError):
    """An exact-cover problem is ill-formed."""


class UnknownItemError(ExactCoverError):
    """An option names an item that is neither primary nor secondary."""


class EmptyOptionError(ExactCoverError):
    """An option names no item at all."""


class NoPrimaryItemError(ExactCoverError):
    """An option names only secondary items, so Algorithm X could never choose it."""


class DuplicateItemError(ExactCoverError):
    """An item is named twice in one option, or twice in the item lists."""


class ItemConflictError(ExactCoverError):
    """An item is both primary and secondary, or a primary item is given a colour."""


class CheckpointError(LazysearchError):
    """A checkpoint is corrupt, or was made for another problem or format version."""

    #: Whether the checkpoint (a sound one) was made for another problem, board,
    #: command or mode than the run resuming it: the command line then names the
    #: command that wrote it (see :func:`other_problem`).
    other_problem: bool = False


def other_problem(message: str) -> CheckpointError:
    """The :class:`CheckpointError` of a checkpoint made for another problem, board,
    command or mode (``other_problem`` set)."""
    error = CheckpointError(message)
    error.other_problem = True
    return error


class MemoLimitError(LazysearchError):
    """A memoized count would keep more subproblems than its ``max_nodes`` allows."""


class InvalidSolutionError(LazysearchError):
    """A verifier found that a claimed solution does not solve the problem."""


class NotExactlyOneError(LazysearchError):
    """``one()`` found no solution, or more than one."""


class NotCompiledWarning(RuntimeWarning):
    """The search engines run as plain Python because the install compiled none of them.

    Issued once per process, on first use of an engine, unless ``LAZYSEARCH_PURE=1``
    asked for plain Python; ``LAZYSEARCH_QUIET=1`` in the environment, or a warnings
    filter on this class, silences it.
    """


def json_line(line: str, *, source: str, number: int) -> object:
    """One line of JSON read, or a :class:`ParseError` at the line's first column that
    says why (deep nesting too, which the json module reports as a RecursionError)."""
    import json

    column = len(line) - len(line.lstrip()) + 1
    try:
        return json.loads(line)
    except (ValueError, RecursionError) as exc:
        reason = exc if isinstance(exc, ValueError) else "nested too deeply"
        raise ParseError(
            f"not a line of JSON: {reason}", source=source, line=number, column=column
        ) from None
