"""Reading the text files of puzzles and problems: one place that says, for a file that
is not text in its encoding, which file and where.

Every reader of lazysearch (Knuth's format, sudoku and variant files, kakuro files,
diagrams) reads through :func:`read_text`: a file that is not UTF-8 raises a
:class:`~lazysearch.errors.ParseError` naming the file, and the line and column of
the first byte that is not, instead of Python's bare ``UnicodeDecodeError``.
"""

from __future__ import annotations

import codecs
import os

from .errors import ParseError


def read_text(
    path: str | os.PathLike[str],
    *,
    encoding: str = "utf-8",
    error: type[ParseError] = ParseError,
) -> str:
    """The text of the file ``path``, its line ends made ``\\n`` (as ``open()`` reads).

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".txt", delete=False) as f:
    ...     _ = f.write(b"a b\\nc \\xff d\\n")
    >>> read_text(f.name)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lazysearch.errors.ParseError: ...txt:2:3: not UTF-8 text (byte 6 is 0xff)
    >>> os.remove(f.name)

    Raises
    ------
    error
        (a :class:`~lazysearch.errors.ParseError`, or the reader's own subclass of it)
        naming the file, line and column, when the file is not text in ``encoding``.
    OSError
        When the file cannot be opened or read, as ``open()`` does.
    """
    try:
        with open(path, encoding=encoding) as handle:
            return handle.read()
    except UnicodeDecodeError:
        raise _not_text(path, encoding, error) from None


def _not_text(path: str | os.PathLike[str], encoding: str, error: type[ParseError]) -> ParseError:
    """The error for a file that is not text in ``encoding``: where its first byte that
    is not lies (found again from the file's bytes: the reader saw a chunk of them)."""
    source = os.fspath(path)
    with open(path, "rb") as handle:
        data = handle.read()
    # utf-8-sig's byte mark is no character (and its decoder counts bytes after it).
    mark = len(codecs.BOM_UTF8) if _is_sig(encoding) and data.startswith(codecs.BOM_UTF8) else 0
    try:
        data[mark:].decode(encoding)
    except UnicodeDecodeError as exc:
        start = mark + exc.start
    else:  # pragma: no cover - the file changed between the two reads
        return error(f"not {_name(encoding)} text", source=source, line=1, column=1)
    bad = data[start]
    before = data[mark:start].decode(encoding, errors="replace")
    before = before.replace("\r\n", "\n").replace("\r", "\n")
    line = before.count("\n") + 1
    column = len(before) - (before.rfind("\n") + 1) + 1
    return error(
        f"not {_name(encoding)} text (byte {start:,} is 0x{bad:02x})",
        source=source,
        line=line,
        column=column,
    )


def _is_sig(encoding: str) -> bool:
    return codecs.lookup(encoding).name == "utf-8-sig"


def _name(encoding: str) -> str:
    """The encoding as users know it (``utf-8-sig``: UTF-8 with or without its mark)."""
    return "UTF-8" if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig") else encoding
