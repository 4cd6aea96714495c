"""Reading graph files: edge lists and DIMACS .col/.gr, what is ignored and said, and
one clear error (file, line, column) for each kind of bad line."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lazysearch import graphs
from lazysearch.errors import ParseError, TooLargeError
from lazysearch.graphs import EmptyGraphError, GraphError
from lazysearch.graphs.files import format_of, parse


def edges_of(g: graphs.Graph) -> set[tuple[object, object]]:
    """The graph's edges (arcs, directed) in its labels, each once."""
    out = set()
    for u in range(g.n):
        for v in g.neighbours(u):
            a, b = g.labels[u], g.labels[v]
            out.add((a, b) if g.directed or u < v else (b, a))
    return out


def test_edge_list_with_comments_and_numbers() -> None:
    g = parse("# a square\n1 2\n2 3  # the middle\n\n% a KONECT header\n3 4\n4 1\n")
    assert g.labels == (1, 2, 3, 4) and not g.directed and g.numbered
    assert graphs.hamiltonian_cycles(g).take(3) == [(1, 2, 3, 4)]
    assert g.notes() == []


def test_edge_list_words_stay_words() -> None:
    g = parse("Oslo Bergen\nBergen 07\n07 Oslo\n")
    assert g.labels == ("Oslo", "Bergen", "07") and not g.numbered
    assert g.label("07") == "07"
    mixed = parse("1 2\n2 x\nx 1")
    assert mixed.labels == ("1", "2", "x")


def test_weights_loops_and_repeats_are_ignored_and_said() -> None:
    g = parse("a b 1.5\nb c -2\nc a 1e3\nb b\na b\nb a\n", source="w.txt")
    assert edges_of(g) == {("a", "b"), ("b", "c"), ("a", "c")}
    assert (g.weights, g.loops, g.repeats) == (3, 1, 2)
    assert g.notes() == [
        "w.txt: 3 weights ignored",
        "w.txt: 1 self-loop ignored (line 4)",
        "w.txt: 2 repeated edges ignored (the first on line 5)",
    ]
    arcs = parse("a b\nb a\n", directed=True)
    assert edges_of(arcs) == {("a", "b"), ("b", "a")} and arcs.repeats == 0


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("1 2\n  7\n", 2, 4, "got one field '7'"),
        ("1 2\n1 2 3 4\n", 2, 7, "4 fields (the fourth: '4')"),
        ("1 2\n1  2  heavy\n", 2, 7, "its weight, a number, got 'heavy'"),
        ("1,2\n", 1, 4, "got one field '1,2'"),
    ],
)
def test_bad_edge_lines(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse(text, source="bad.txt")
    where = (caught.value.source, caught.value.line, caught.value.column)
    assert where == ("bad.txt", line, column)
    assert words in str(caught.value)
    assert str(caught.value).startswith(f"bad.txt:{line}:{column}: ")


def test_dimacs_col() -> None:
    text = "c the 4-cycle and a lonely vertex\np edge 5 4\ne 1 2\ne 2 3\ne 3 4\ne 4 1\nn 1 7\n"
    g = parse(text, "col", source="c.col")
    assert g.labels == (1, 2, 3, 4, 5) and not g.directed
    assert edges_of(g) == {(1, 2), (2, 3), (3, 4), (1, 4)}
    assert graphs.hamiltonian_cycles(g).count() == 0  # vertex 5 has no edge
    assert g.notes() == ["c.col: 1 weight ignored"]
    square = parse(text.replace("p edge 5", "p edge 4"), "col")
    assert graphs.hamiltonian_cycles(square).take(2) == [(1, 2, 3, 4)]


def test_dimacs_gr_is_directed() -> None:
    g = parse("c arcs\np sp 3 4\na 1 2 5\na 2 3 5\na 3 1 5\na 1 3 9\n", "gr", source="r.gr")
    assert g.directed and g.weights == 4
    assert graphs.hamiltonian_cycles(g).take(3) == [(2, 3, 1)]
    undirected = parse("p sp 3 2\na 1 2 1\na 2 1 1\n", "gr", directed=False)
    assert not undirected.directed and undirected.repeats == 1


def test_declared_edges_that_differ_are_said() -> None:
    g = parse("p edge 3 5\ne 1 2\ne 2 3\n", "col", source="short.col")
    assert g.notes() == ["short.col: the p line says 5 edges, and the file has 2 edge lines"]


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("e 1 2\np edge 2 1\n", 1, 1, "an 'e' line before the 'p edge N M' line"),
        ("p edge 2 1\np edge 2 1\n", 2, 1, "a second 'p' line (the first is line 1)"),
        ("p edge 3 1\ne 1 4\n", 2, 5, "vertex '4' of an 'e' line is not one of 1..3"),
        ("p edge 3 1\ne 1 x\n", 2, 5, "vertex 'x'"),
        ("p edge 3 1\ne 1\n", 2, 1, "an edge line is 'e u v', got 2 fields"),
        ("p edge 3 1\n  x 1 2\n", 2, 3, "begins with c, p, e or n, got 'x'"),
        ("p col\n", 1, 1, "is 'p edge N M', got 'p col'"),
        ("p edge three 1\n", 1, 8, "the number of vertices is a whole number >= 0"),
        ("c nothing\n", 1, 1, "no 'p edge N M' line"),
    ],
)
def test_bad_col_lines(text: str, line: int, column: int, words: str) -> None:
    with pytest.raises(ParseError) as caught:
        parse(text, "col", source="bad.col")
    assert (caught.value.line, caught.value.column) == (line, column)
    assert words in str(caught.value)


def test_bad_gr_lines() -> None:
    with pytest.raises(ParseError, match=r"bad.gr:2:7: an arc's weight is a number, got 'w'"):
        parse("p sp 2 1\na 1 2 w\n", "gr", source="bad.gr")
    with pytest.raises(ParseError, match=r"begins with c, p or a, got 'e'"):
        parse("p sp 2 1\ne 1 2\n", "gr", source="bad.gr")
    with pytest.raises(ParseError, match=r"is 'p sp N M'"):
        parse("p edge 2 1\n", "gr", source="bad.gr")


def test_empty_and_huge_graphs() -> None:
    for text, form in (("", "edges"), ("# nothing\n", "edges"), ("p edge 0 0\n", "col")):
        with pytest.raises(EmptyGraphError, match=r"empty\.txt: the graph has no vertex"):
            parse(text, form, source="empty.txt")
    with pytest.raises(TooLargeError, match=r"huge\.col:1: a graph of 9,999,999,999 vertices"):
        parse("p edge 9999999999 0\n", "col", source="huge.col")


def test_formats_by_suffix(tmp_path: Path) -> None:
    assert format_of("a.COL") == "col" and format_of("b.gr") == "gr"
    assert format_of("c.edges") == format_of("d") == "edges"
    assert format_of("x.col", "edges") == "edges"
    with pytest.raises(GraphError, match="one of 'edges', 'col', 'gr', got 'csv'"):
        format_of("x", "csv")
    path = tmp_path / "k4.col"
    pairs = itertools.combinations(range(1, 5), 2)
    path.write_text("p edge 4 6\n" + "".join(f"e {u} {v}\n" for u, v in pairs))
    g = graphs.read(path)
    assert g.source == str(path) and g.format == "col"
    assert graphs.hamiltonian_cycles(g).count() == 3
    assert graphs.hamiltonian_cycles(graphs.read(str(path), "col")).count() == 3


@settings(max_examples=60, deadline=None)
@given(
    st.integers(3, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.tuples(st.integers(1, n), st.integers(1, n)), max_size=3 * n),
        )
    )
)
def test_written_and_read_back(case: tuple[int, list[tuple[int, int]]]) -> None:
    """A graph written as an edge list and as DIMACS reads back as the same graph, with
    as many cycles and paths as the graph given as a list of edges."""
    n, edges = case
    kept = [(u, v) for u, v in edges if u != v]
    col = f"p edge {n} {len(edges)}\n" + "".join(f"e {u} {v}\n" for u, v in edges)
    from_col = parse(col, "col")
    expected = {(min(e), max(e)) for e in kept}
    assert edges_of(from_col) == expected
    assert from_col.loops == len(edges) - len(kept)
    assert from_col.repeats == len(kept) - len(expected)
    if kept:
        from_list = parse("".join(f"{u} {v}\n" for u, v in edges))
        assert {tuple(sorted(e)) for e in edges_of(from_list)} == expected
        loops = "".join(f"{v} {v}\n" for v in range(1, n + 1))
        whole = parse("".join(f"{u} {v}\n" for u, v in kept) + loops)
        reference = graphs.hamiltonian_cycles(kept + [(v, v) for v in range(1, n + 1)]).count()
        assert graphs.hamiltonian_cycles(whole).count() == reference
        mapping = {
            v: [u for u, w in expected if w == v] + [w for u, w in expected if u == v]
            for v in range(1, n + 1)
        }
        cycles = graphs.hamiltonian_cycles(mapping).count()
        assert graphs.hamiltonian_cycles(from_col).count() == cycles
