"""Shared helpers for the tests: brute force, shared data, generated problems."""

from __future__ import annotations

import itertools
import os
from collections.abc import Hashable, Sequence
from pathlib import Path

import pytest
from hypothesis import strategies as st

from lazysearch import Colour

#: ../shared beside the checkout (or $LAZYSEARCH_SHARED); tests that read it skip without it.
SHARED = Path(os.environ.get("LAZYSEARCH_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def shared_file(*parts: str) -> Path:
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"shared data not present: {path}")
    return path


def brute_force_covers(
    options: Sequence[Sequence[Hashable]],
    primary: Sequence[Hashable],
    secondary: Sequence[Hashable] = (),
) -> set[tuple[int, ...]]:
    """Every exact cover, by trying every subset of options (small problems only)."""
    found = set()
    for r in range(len(options) + 1):
        for subset in itertools.combinations(range(len(options)), r):
            counts: dict[Hashable, list[object]] = {}
            for j in subset:
                for entry in options[j]:
                    item, colour = (
                        (entry.item, entry.colour) if isinstance(entry, Colour) else (entry, None)
                    )
                    counts.setdefault(item, []).append(colour)
            if any(len(counts.get(i, ())) != 1 for i in primary):
                continue
            ok = True
            for i in secondary:
                used = counts.get(i, [])
                if len(used) > 1 and (None in used or len(set(used)) > 1):
                    ok = False
            if ok:
                found.add(subset)
    return found


@st.composite
def small_problems(
    draw: st.DrawFn, colours: bool = True
) -> tuple[list[list[Hashable]], list[str], list[str]]:
    """A random exact-cover problem small enough for brute force (at most 11 options)."""
    n_primary = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, 3))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    n_options = draw(st.integers(1, 11))
    options: list[list[Hashable]] = []
    for _ in range(n_options):
        first = draw(st.sampled_from(primary))
        rest = draw(st.lists(st.sampled_from(primary + secondary), max_size=3, unique=True))
        items = [first] + [i for i in rest if i != first]
        option: list[Hashable] = []
        for item in items:
            if colours and item in secondary and draw(st.booleans()):
                option.append(Colour(item, draw(st.sampled_from("RG"))))
            else:
                option.append(item)
        options.append(option)
    return options, primary, secondary
