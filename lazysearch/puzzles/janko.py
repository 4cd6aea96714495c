"""Collections scraped from janko.at, as the kakuro and sudoku readers both take them:
``{"data": {name: {"problem": text, ...}, ...}}``, each problem a janko text whose
first line is its size (``rows cols``)."""

from __future__ import annotations

from collections.abc import Callable

from ..errors import ParseError, brief

#: A ParseError (or a subclass) from a message, source, line and column.
Fault = Callable[..., ParseError]


def entries(
    data: object, source: str, fmt: str, fault: Fault = ParseError
) -> list[tuple[str, str]]:
    """The ``(name, problem text)`` of each puzzle of a janko collection ``data`` (its
    JSON read), in the file's order; ``fault`` makes the error of a malformed one.

    >>> entries({"data": {"1_4x4": {"problem": "4 4\\n- 2 - -"}}}, "x.json", "janko-json")
    [('1_4x4', '4 4\\n- 2 - -')]
    """
    collection = data.get("data") if isinstance(data, dict) else None
    if not isinstance(collection, dict):
        raise fault(
            f"not a collection: no 'data' object of named puzzles (read as {fmt})",
            source=source,
            line=1,
            column=1,
        )
    found = []
    for name, entry in collection.items():
        problem = entry.get("problem") if isinstance(entry, dict) else None
        if not isinstance(problem, str):
            raise fault(
                f"puzzle {brief(name)} has no 'problem' text (read as {fmt})",
                source=source,
                line=1,
                column=1,
            )
        found.append((name, problem))
    return found


def is_collection(data: object) -> bool:
    """Whether ``data`` (JSON read) is a janko collection: a ``data`` object."""
    return isinstance(data, dict) and isinstance(data.get("data"), dict)


def label(name: str) -> str:
    """A puzzle's name as messages show it (long names cut)."""
    return name if len(name) <= 40 else f"{name[:37]}..."
