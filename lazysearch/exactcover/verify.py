"""An independent check of exact-cover solutions, for tests and for users who doubt.

It shares no code with the solver: it reads the options as given and counts.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from ..errors import InvalidSolutionError

_NO_COLOUR = object()


def _entries(option: Iterable[Hashable] | str) -> list[tuple[Hashable, object]]:
    if isinstance(option, str):
        out: list[tuple[Hashable, object]] = []
        for token in option.split():
            item, sep, colour = token.partition(":")
            out.append((item, colour if sep else _NO_COLOUR))
        return out
    pairs: list[tuple[Hashable, object]] = []
    for entry in option:
        # A Colour is a NamedTuple with these two fields; check by shape, not by import.
        if isinstance(entry, tuple) and getattr(entry, "_fields", None) == ("item", "colour"):
            pairs.append((entry[0], entry[1]))
        else:
            pairs.append((entry, _NO_COLOUR))
    return pairs


def verify(
    options: Sequence[Iterable[Hashable] | str] | Mapping[Hashable, Iterable[Hashable] | str],
    solution: Sequence[Any],
    *,
    primary: Iterable[Hashable] | None = None,
    secondary: Iterable[Hashable] | None = None,
    bounds: Mapping[Hashable, tuple[int, int]] | None = None,
) -> None:
    """Raise :class:`InvalidSolutionError` unless ``solution`` is an exact cover.

    >>> verify(["a b", "a", "b"], (1, 2))
    >>> verify(["a b", "a", "b"], (0, 1))
    Traceback (most recent call last):
    ...
    lazysearch.errors.InvalidSolutionError: item 'a' is covered 2 times (options 0, 1)

    A solution is a strictly increasing sequence of option indices that covers every
    primary item exactly once, and each secondary item at most once, or by several
    options that all give it the same colour.  Items default as in ``exact_cover``.
    With ``bounds``, a primary item named there as ``(u, v)`` is covered ``u`` to ``v``
    times instead.
    """
    if isinstance(options, Mapping):  # options named by the keys: so is the solution
        index = {name: j for j, name in enumerate(options)}
        for name in solution:
            if name not in index:
                raise InvalidSolutionError(f"solution names {name!r}, which names no option")
        return verify(
            list(options.values()),
            [index[name] for name in solution],
            primary=primary,
            secondary=secondary,
            bounds=bounds,
        )
    parsed = [_entries(o) for o in options]
    sec = set(secondary or ())
    if primary is None:
        prim = {item for entries in parsed for item, _ in entries if item not in sec}
    else:
        prim = set(primary)
    if list(solution) != sorted(set(solution)):
        raise InvalidSolutionError(f"solution {tuple(solution)} is not strictly increasing")
    uses: dict[Hashable, list[tuple[int, object]]] = {}
    for j in solution:
        if not 0 <= j < len(parsed):
            raise InvalidSolutionError(
                f"solution names option {j}, but there are {len(parsed)} options"
            )
        for item, colour in parsed[j]:
            if item not in prim and item not in sec:
                raise InvalidSolutionError(f"option {j} names unknown item {item!r}")
            uses.setdefault(item, []).append((j, colour))
    for item in prim:
        n = len(uses.get(item, ()))
        low, high = (bounds or {}).get(item, (1, 1))
        if not low <= n <= high:
            where = ", ".join(str(j) for j, _ in uses.get(item, ()))
            raise InvalidSolutionError(
                f"item {item!r} is covered {n} times"
                + (f" (options {where})" if where else "")
                + ("" if (low, high) == (1, 1) else f", not {low} to {high}")
            )
    for item in sec:
        used = uses.get(item, [])
        if len(used) > 1:
            colours = {c for _, c in used}
            if _NO_COLOUR in colours or len(colours) > 1:
                where = ", ".join(str(j) for j, _ in used)
                raise InvalidSolutionError(
                    f"secondary item {item!r} is shared by options {where} "
                    "without one common colour"
                )
