"""What the documentation site makes at build time (MkDocs hooks, named in mkdocs.yml).

- The command-line reference (cli.md): each parser's ``--help``, from the parser that
  ``lazysearch`` itself runs (``lazysearch.cli.app.build_parser``), never written twice.
- The API reference: a page a documented module, read from the docstrings.
- The pictures the getting-started page shows, drawn by the library.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

#: The API reference: the public modules, each a page (title, module, and any module
#: whose names the page shows too).
API = [
    ("lazysearch", "lazysearch"),
    ("Streams: Solutions", "lazysearch.stream"),
    ("Searches: Search", "lazysearch.search"),
    ("Exact cover", "lazysearch.exactcover"),
    ("Sudoku", "lazysearch.sudoku"),
    ("Polyominoes and polyforms", "lazysearch.polyomino"),
    ("Queens and Langford pairs", "lazysearch.puzzles"),
    ("Kakuro", "lazysearch.kakuro"),
    ("Knight's tours", "lazysearch.knights"),
    ("Graphs", "lazysearch.graphs"),
    ("Pictures", "lazysearch.render", "lazysearch.render.svg"),
    ("Parallel counts and listings", "lazysearch.parallel"),
    ("Long runs", "lazysearch.longrun"),
    ("Errors", "lazysearch.errors"),
    ("Command line", "lazysearch.cli"),
]

#: Where the command-line reference goes in cli.md.
CLI_MARK = "<!-- the parsers' help, made at build time -->"

#: The pictures of the getting-started page: file -> how to draw it.
PICTURES = {
    "pictures/pentominoes.svg": "tiling",
    "pictures/tour.svg": "tour",
    "pictures/sudoku.svg": "sudoku",
}


def api_path(module: str) -> str:
    return f"api/{module.removeprefix('lazysearch.').replace('.', '-')}.md"


def on_config(config: Any) -> Any:
    """The API pages join the navigation, in the order of :data:`API`."""
    pages = [{title: api_path(module)} for title, module, *_ in API]
    config["nav"].append({"API reference": pages})
    return config


def on_files(files: Any, config: Any) -> Any:
    """The API pages and the pictures, made here rather than kept as files."""
    from mkdocs.structure.files import File

    for title, module, *more in API:
        text = f"# {title}\n\n" + "".join(f"::: {name}\n\n" for name in (module, *more))
        files.append(File.generated(config, api_path(module), content=text))
    for path, kind in PICTURES.items():
        files.append(File.generated(config, path, content=picture(kind)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    if CLI_MARK in markdown:
        markdown = markdown.replace(CLI_MARK, cli_reference())
    return markdown


def cli_reference() -> str:
    """Each parser's help, the program's first, then one section a subcommand."""
    from lazysearch.cli.app import build_parser

    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"  # the help's width, as the parser's formatter reads it
    try:
        parser = build_parser()
        parts = ["```text", parser.format_help().rstrip(), "```"]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                names: dict[int, list[str]] = {}  # a subcommand's name and its aliases
                for name, sub in action.choices.items():
                    names.setdefault(id(sub), []).append(name)
                for name, *aliases in names.values():
                    also = f" ({', '.join(aliases)})" if aliases else ""
                    parts += ["", f"## lazysearch {name}{also}", "", "```text"]
                    parts += [action.choices[name].format_help().rstrip(), "```"]
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved
    return "\n".join(parts)


def picture(kind: str) -> str:
    """One of the getting-started page's pictures, as SVG."""
    import lazysearch

    if kind == "tiling":
        p = lazysearch.polyomino
        return str(p.tile(p.rectangle(6, 10), p.PENTOMINOES).first().svg())
    if kind == "tour":
        return str(lazysearch.knights.tour(8).svg())
    grid = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    solution = lazysearch.sudoku.solve(grid).one()
    return str(lazysearch.sudoku.svg(solution, puzzle=grid))
