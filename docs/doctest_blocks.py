"""The docstrings' ``>>>`` examples shown as code on the site (an extension of griffe, the
reader of docstrings behind the API pages; named in mkdocs.yml).

The docstrings follow the standard library's habit: examples stand in the text, not in
fences, so that they read well in ``help()``.  Markdown would take them for text (and
their lists for links); each run of lines from a ``>>>`` line to the next blank line is
fenced here as a Python session.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence(text: str) -> str:
    """``text`` with each run of ``>>>`` lines and their output in a ``pycon`` fence."""
    out: list[str] = []
    inside = False  # within a fence of the docstring's own
    example: str | None = None  # the indent of the example being fenced
    for line in text.splitlines():
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if example is not None and not stripped:
            out.append(f"{example}```")
            example = None
        elif example is None and not inside and stripped.startswith(">>>"):
            example = indent
            out.append(f"{indent}```pycon")
        elif example is None and stripped.startswith("```"):
            inside = not inside
        out.append(line)
    if example is not None:
        out.append(f"{example}```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    """Fence the examples of every docstring griffe reads."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence(obj.docstring.value)
