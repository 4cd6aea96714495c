"""Polyomino tilings: piece sets, boards, oracle counts, independent checks."""

from __future__ import annotations

import pytest

from lazysearch import polyomino
from lazysearch.errors import CheckpointError
from lazysearch.puzzles import pieces as piece_sets
from lazysearch.puzzles.polyomino import (
    PENTOMINOES,
    TETROMINOES,
    Tiling,
    board,
    piece,
    rectangle,
    tile,
)
from lazysearch.search import Search


def check_tiling(t: Tiling, pieces: dict[str, polyomino.Piece]) -> None:
    """Independent check: every board cell covered once, each piece once, in a legal shape."""
    covered: list[tuple[int, int]] = []
    names = []
    for name, cells in t.pieces:
        names.append(name)
        covered.extend(cells)
        shapes = {piece_sets._normalized(s) for s in pieces[name].orientations()}
        assert piece_sets._normalized(cells) in shapes, f"{name} has an illegal shape"
    assert sorted(names) == sorted(pieces)
    assert sorted(covered) == sorted(t.board.cells)


def test_piece_sets_have_the_right_sizes() -> None:
    assert len(PENTOMINOES) == 12 and all(len(p.cells) == 5 for p in PENTOMINOES.values())
    assert len(TETROMINOES) == 5
    assert len(polyomino.HEXOMINOES) == 35
    assert [len(polyomino.free_polyominoes(n)) for n in range(1, 8)] == [1, 1, 2, 5, 12, 35, 108]
    # Each pentomino is a different free shape.
    canon = {piece_sets.canonical(p.cells) for p in PENTOMINOES.values()}
    assert len(canon) == 12


def test_orientations() -> None:
    assert len(PENTOMINOES["X"].orientations()) == 1
    assert len(PENTOMINOES["I"].orientations()) == 2
    assert len(PENTOMINOES["F"].orientations()) == 8
    assert len(PENTOMINOES["F"].orientations(reflect=False)) == 4


@pytest.mark.parametrize(("rows", "cols", "count"), [(3, 20, 8)])
def test_pentomino_rectangles_match_the_oracle(rows: int, cols: int, count: int) -> None:
    tilings = list(tile(rectangle(rows, cols), PENTOMINOES))
    assert len(tilings) == count
    for t in tilings:
        check_tiling(t, PENTOMINOES)


def test_boards_with_holes() -> None:
    ring = board("###\n#.#\n###")
    two = {"A": piece("A", "####"), "B": piece("B", "####")}
    found = list(tile(ring, two))
    assert len(found) == 0  # a straight 4 cannot turn the corner
    els = {"A": piece("A", "###\n#.."), "B": piece("B", "###\n#..")}
    found = list(tile(ring, els))
    # Four ways to cut the ring into two L shapes, times two for which piece is which.
    assert len(found) == 8
    for t in found:
        check_tiling(t, els)


def test_text_picture() -> None:
    t = tile(rectangle(2, 4), {"A": piece("A", "##\n##"), "B": piece("B", "##\n##")}).first()
    assert str(t) == "AABB\nAABB"


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: piece("Q", "..."), "no cells"),
        (lambda: piece("Q", "#.#"), "not connected"),
        (lambda: rectangle(0, 3), "sides >= 1"),
        (lambda: board(" . \n"), "no cells"),
        (
            lambda: tile(rectangle(2, 2), {"A": piece("A", "##")}),
            "cover 2 cells but the board has 4",
        ),
        (lambda: tile(rectangle(1, 4), [piece("A", "##"), piece("A", "##")]), "names must differ"),
    ],
)
def test_bad_input_fails_at_the_call(call: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        call()  # type: ignore[operator]


def _orbit(t: Tiling) -> set[str]:
    """The pictures of a tiling under the rectangle's four symmetries."""
    rows = str(t).splitlines()
    flips = [rows, rows[::-1], [r[::-1] for r in rows], [r[::-1] for r in rows[::-1]]]
    return {"\n".join(f) for f in flips}


def test_distinct_finds_each_class_once() -> None:
    everything = {str(t) for t in tile(rectangle(3, 20), PENTOMINOES)}
    classes = list(tile(rectangle(3, 20), PENTOMINOES, distinct=True))
    assert len(classes) == 2  # shared/ORACLES.md
    seen: set[str] = set()
    for t in classes:
        check_tiling(t, PENTOMINOES)
        orbit = _orbit(t)
        assert not orbit & seen
        seen |= orbit
    assert seen == everything


def _shifted(b: polyomino.Board, dr: int, dc: int, margin: int) -> polyomino.Board:
    """The same cells moved by (dr, dc) inside a frame ``margin`` larger on every side."""
    cells = frozenset((r + dr, c + dc) for r, c in b.cells)
    return polyomino.Board(b.rows + 2 * margin, b.cols + 2 * margin, cells)


@pytest.mark.parametrize(
    ("picture", "classes"),
    [
        ("\n".join(["." + "#" * 20] * 3), 2),  # 3x20 drawn with a blank column
        ("\n".join(["#" * 20 + ".."] * 3 + ["." * 22]), 2),  # trailing holes
        ("\n".join(["." * 11] + ["." + "#" * 10] * 6), 2339),  # 6x10 inside a 7x11 frame
    ],
)
def test_distinct_ignores_a_blank_margin(picture: str, classes: int) -> None:
    # shared/ORACLES.md: 2 classes on 3x20 and 2,339 on 6x10.
    assert tile(board(picture), PENTOMINOES, distinct=True).count() == classes


def test_symmetries_are_the_cells_own_under_any_offset() -> None:
    ring = board("\n".join("#" * 8 if r in (0, 7) else "#" + "." * 6 + "#" for r in range(8)))
    plus = board(".#.\n###\n.#.")
    bar = rectangle(2, 5)
    notch = board("#.#\n###")
    for b, size in [(ring, 8), (plus, 8), (bar, 4), (notch, 2)]:
        assert len(polyomino.board_symmetries(b)) == size
        for dr, dc, margin in [(1, 0, 1), (0, 3, 3), (2, 1, 2)]:
            moved = _shifted(b, dr, dc, margin)
            group = polyomino.board_symmetries(moved)
            assert len(group) == size
            for g in group:  # each is a map of the cells onto themselves
                assert {g(r, c) for r, c in moved.cells} == moved.cells


def test_a_hand_built_board_with_offset_cells_tiles_as_the_plain_one() -> None:
    plain = rectangle(3, 20)
    moved = _shifted(plain, 2, 1, 2)
    assert tile(moved, PENTOMINOES).count() == 8
    classes = list(tile(moved, PENTOMINOES, distinct=True))
    assert len(classes) == 2
    for t in classes:
        check_tiling(t, PENTOMINOES)
    outside = polyomino.Board(2, 2, frozenset({(0, 0), (0, 1), (5, 5), (5, 6)}))
    with pytest.raises(ValueError, match=r"cell \(5, 5\) lies outside its 2x2 frame"):
        tile(outside, [piece("A", "##"), piece("B", "##")])


def test_distinct_without_an_asymmetric_piece_or_with_one_sided_pieces() -> None:
    # Refused before issue 20; tests/test_polyomino_grids.py checks more sets by brute force.
    squares = {"A": piece("A", "##\n##"), "B": piece("B", "##\n##")}
    assert tile(rectangle(2, 4), squares, distinct=True).count() == 1  # AB is BA mirrored
    # One-sided pentominoes as drawn: their mirror images are not in the set, so only the
    # half turn maps a tiling onto a tiling.
    everything = {str(t) for t in tile(rectangle(4, 15), PENTOMINOES, reflect=False)}
    classes = [str(t) for t in tile(rectangle(4, 15), PENTOMINOES, reflect=False, distinct=True)]

    def half_turn(picture: str) -> str:
        return "\n".join(row[::-1] for row in picture.splitlines()[::-1])

    assert len(set(classes)) == len(classes) == 8 and len(everything) == 16
    assert set(classes) | {half_turn(c) for c in classes} == everything
    assert not set(classes) & {half_turn(c) for c in classes}


# -- pieces with copies -------------------------------------------------------------------------


def brute_force_tilings(
    board: polyomino.Board,
    shapes: dict[str, list[frozenset[tuple[int, int]]]],
    counts: dict[str, int],
) -> set[frozenset[tuple[str, frozenset[tuple[int, int]]]]]:
    """Every tiling, as a set of (name, cells): fill the first empty cell in reading order
    with every orientation of every piece that has copies left (so each tiling once)."""
    found = set()
    stack = [(frozenset(board.cells), dict(counts), frozenset())]
    while stack:
        empty, left, placed = stack.pop()
        if not empty:
            found.add(placed)
            continue
        r0, c0 = min(empty)
        for name, orientations in shapes.items():
            if not left[name]:
                continue
            for shape in orientations:
                top = min(shape)  # the shape's first cell in reading order goes on (r0, c0)
                cells = frozenset((r - top[0] + r0, c - top[1] + c0) for r, c in shape)
                if cells <= empty:
                    stack.append(
                        (empty - cells, {**left, name: left[name] - 1}, placed | {(name, cells)})
                    )
    return found


@pytest.mark.parametrize(
    ("rows", "cols", "expected"), [(2, 4, 5), (3, 4, 11), (4, 4, 36), (4, 5, 95), (3, 6, 41)]
)
def test_domino_tilings_with_copies(rows: int, cols: int, expected: int) -> None:
    domino = polyomino.piece("D", "DD")
    stream = polyomino.tile(
        polyomino.rectangle(rows, cols), [domino], copies={"D": rows * cols // 2}
    )
    assert stream.count() == expected  # OEIS A004003 and its rectangles


def test_copies_of_several_pieces_match_brute_force() -> None:
    pieces = {
        "L": polyomino.piece("L", "L.\nLL"),
        "I": polyomino.piece("I", "III"),
        "D": polyomino.piece("D", "DD"),
    }
    counts = {"L": 2, "I": 1, "D": 3}
    board = polyomino.rectangle(3, 5)
    shapes = {name: p.orientations() for name, p in pieces.items()}
    expected = brute_force_tilings(board, shapes, counts)
    found = set()
    for tiling in polyomino.tile(board, pieces, copies=counts):
        assert sorted(name for name, _ in tiling.pieces) == ["D", "D", "D", "I", "L", "L"]
        covered = [cell for _, cells in tiling.pieces for cell in cells]
        assert sorted(covered) == sorted(board.cells)
        found.add(frozenset(tiling.pieces))
    assert found == expected and len(expected) > 10


@pytest.mark.parametrize(("rows", "cols", "expected"), [(4, 4, 36), (4, 5, 95), (8, 8, 12988816)])
def test_a_bound_that_cannot_bind_counts_as_any_number(rows: int, cols: int, expected: int) -> None:
    # One piece filling the board alone uses rows * cols / 2 copies whatever the bound:
    # the memo counts it on the cells alone (OEIS A004003), as with copies None; it gave
    # up on 8x8 after 4 M subproblems with 32 copies told apart.
    domino = polyomino.piece("D", "DD")
    board = polyomino.rectangle(rows, cols)
    bound = tile(board, [domino], copies={"D": rows * cols // 2})
    free = tile(board, [domino], copies={"D": None})
    assert bound.count(method="memo") == expected
    assert bound.search.problem.fingerprint() == free.search.problem.fingerprint()
    assert tile(board, [domino], copies={"D": rows * cols // 2}).take(5) == free.take(5)
    if rows * cols <= 20:
        shapes = {"D": domino.orientations()}
        counts = {"D": rows * cols // 2}
        assert len(brute_force_tilings(board, shapes, counts)) == expected


def test_copies_errors() -> None:
    domino = polyomino.piece("D", "DD")
    board = polyomino.rectangle(2, 2)
    with pytest.raises(ValueError, match="not among"):
        polyomino.tile(board, [domino], copies={"X": 2})
    with pytest.raises(ValueError, match=">= 0, got -1"):
        polyomino.tile(board, [domino], copies={"D": -1})
    with pytest.raises(ValueError, match="cover 6 cells but the board has 4"):
        polyomino.tile(board, [domino], copies={"D": 3})
    with pytest.raises(ValueError, match="distinct=True needs every piece used once"):
        polyomino.tile(board, [domino], copies={"D": 2}, distinct=True)


def _bar_tilings(k: int, n: int) -> int:
    """Tilings of k x n by 1 x k bars: the first column is one upright bar, or the ends
    of k lying ones (a(n) = a(n-1) + a(n-k)), counted without any search."""
    a = [1] * k
    while len(a) <= n:
        a.append(a[-1] + a[-k])
    return a[n]


@pytest.mark.parametrize("cols", [10, 11])
def test_boards_over_64_cells_fall_back_to_dancing_links(cols: int) -> None:
    # 6x10 (60 cells) runs on bitboards, 6x11 (66 cells) on dancing links.
    bar = polyomino.piece("I", "IIIIII")
    stream = tile(rectangle(6, cols), [bar], copies={"I": cols})
    assert stream.search.problem.kind == ("tiling" if cols == 10 else "exact-cover")
    assert stream.count() == _bar_tilings(6, cols)


def test_square_boards_8_cells_across_both_ways_tile_on_the_exact_cover() -> None:
    """Dana Scott's board, 8x8 minus its centre: filling columns of 8 cells, the bitboard
    engine took 4 times the exact cover's time (polyomino._tall_on_squares); narrower
    boards, and pieces with copies, stay on it."""
    scott = board("########\n" * 3 + "###..###\n" * 2 + "########\n" * 3)
    classes = tile(scott, PENTOMINOES, distinct=True)
    assert classes.search.problem.kind == "exact-cover"
    found = list(classes)
    assert len(found) == 65  # Scott (1958): 65 ways, up to the board's 8 symmetries
    for t in found:
        check_tiling(t, PENTOMINOES)
    assert tile(scott, PENTOMINOES).count() == 8 * 65  # no tiling of it is symmetric
    # A checkpoint the bitboard engine took on it before is refused, not replayed.
    cover = polyomino.tiling_problem(scott, PENTOMINOES)
    before = Search(polyomino.BitboardTiling.of(scott, cover, cover.anchor))
    _ = next(before)
    with pytest.raises(CheckpointError, match=r"another problem \('tiling'"):
        tile(scott, PENTOMINOES).resume(before.checkpoint())
    assert tile(rectangle(6, 10), PENTOMINOES).search.problem.kind == "tiling"
    assert tile(rectangle(3, 20), PENTOMINOES).search.problem.kind == "tiling"
    dominoes = tile(rectangle(8, 8), [piece("D", "DD")], copies={"D": 32})
    assert dominoes.search.problem.kind == "tiling"


@pytest.mark.parametrize(
    ("shape", "pieces", "copies", "distinct"),
    [
        (rectangle(3, 20), PENTOMINOES, None, False),
        (rectangle(3, 20), PENTOMINOES, None, True),
        (rectangle(4, 5), {"D": piece("D", "DD")}, {"D": 10}, False),
        (rectangle(4, 4), TETROMINOES, {"O": 0, "I": 2, "S": 0, "T": 0, "L": 2}, False),
        (
            board("########\n###..###\n###..###\n########"),
            TETROMINOES,
            {"I": 2, "L": 2, "T": 0, "O": 2},
            False,
        ),
    ],
)
def test_bitboards_and_dancing_links_find_the_same_tilings(
    shape: polyomino.Board, pieces: object, copies: dict[str, int] | None, distinct: bool
) -> None:
    # The same tilings from both engines, each once; only the order differs.
    fast = tile(shape, pieces, copies=copies, distinct=distinct)  # type: ignore[arg-type]
    assert fast.search.problem.kind == "tiling"
    cover = polyomino.tiling_problem(shape, pieces, copies=copies, distinct=distinct)  # type: ignore[arg-type]
    links = {frozenset(t.pieces) for t in _decoded(shape, cover)}
    found = [frozenset(t.pieces) for t in fast]
    assert set(found) == links and len(found) == len(links) > 1


def _decoded(shape: polyomino.Board, cover: object) -> list[Tiling]:
    out = []
    for solution in cover.solve():  # type: ignore[attr-defined]
        placed = []
        for j in solution:
            name = cover.piece_of[j]  # type: ignore[attr-defined]
            cells = cover.options[j]  # type: ignore[attr-defined]
            placed.append((name, frozenset(c for c in cells if c in shape.cells)))
        out.append(Tiling(shape, tuple(sorted(placed, key=lambda p: (p[0], min(p[1]))))))
    return out


def test_a_tiling_search_resumes_splits_and_counts_in_parallel() -> None:
    whole = list(tile(rectangle(4, 15), PENTOMINOES).take(40))
    s = tile(rectangle(4, 15), PENTOMINOES)
    head = s.take(13)
    rest = tile(rectangle(4, 15), PENTOMINOES).resume(s.checkpoint()).take(27)
    assert head + rest == whole
    stream = tile(rectangle(3, 20), PENTOMINOES)
    parts = [t for prefix in stream.subtrees(3) for t in stream.subtree(prefix)]
    assert [str(t) for t in parts] == [str(t) for t in tile(rectangle(3, 20), PENTOMINOES)]
    assert tile(rectangle(4, 15), PENTOMINOES, distinct=True).count(workers=2) == 368
