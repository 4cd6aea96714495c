"""Polyforms on other grids: polycubes, polyiamonds, polyhexes; distinct tilings with
one-sided pieces and with piece sets that have no asymmetric piece."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

import lazysearch
from lazysearch.puzzles import grids, polyomino
from lazysearch.puzzles import pieces as piece_sets
from lazysearch.puzzles.polyomino import (
    BEDLAM,
    HEXIAMONDS,
    PENTOMINOES,
    SOMA,
    TETRAHEXES,
    Board,
    Piece,
    Tiling,
    board,
    box,
    free_polyforms,
    parallelogram,
    piece,
    solid,
    tile,
)

Cell = tuple[int, ...]


def check_tiling(t: Tiling, pieces: dict[str, Piece], *, reflect: bool = True) -> None:
    """Independent check: every board cell covered once, each piece once, in one of the
    shapes it may take (found here by brute force over the grid's maps)."""
    g = grids.grid(t.board.grid)
    covered: list[Cell] = []
    for name, cells in t.pieces:
        covered.extend(cells)
        shapes = {g.normalized(m(x) for x in pieces[name].cells) for m in g.maps(reflect=reflect)}
        assert g.normalized(cells) in shapes, f"{name} has an illegal shape"
    assert sorted(name for name, _ in t.pieces) == sorted(pieces)
    assert sorted(covered) == sorted(t.board.cells)


# -- the grids -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "size", "rotations"),
    [("square", 8, 4), ("cube", 48, 24), ("triangle", 12, 6), ("hex", 12, 6)],
)
def test_point_groups(name: str, size: int, rotations: int) -> None:
    g = grids.grid(name)
    assert len(g.maps()) == size and len(g.rotations()) == rotations
    assert len(g.maps(rotate=False)) == 2 and len(g.maps(rotate=False, reflect=False)) == 1
    # Each map keeps neighbours neighbours (it is a symmetry of the grid) and the maps
    # are distinct on a small asymmetric shape.
    shape = free_polyforms(4 if name != "triangle" else 6, name)[-1]
    for m in g.maps():
        for x in shape:
            for n in g.neighbours(x):
                assert m(n) in g.neighbours(m(x))
    # Some shape of 5 cells has as many forms as the group has maps (no symmetry).
    forms = [len(Piece("", s, name).orientations()) for s in free_polyforms(5, name)]
    assert max(forms) == size


@pytest.mark.parametrize(
    ("grid", "reflect", "counts"),
    [
        ("triangle", True, [1, 1, 1, 3, 4, 12, 24]),  # OEIS A000577 (polyiamonds)
        ("hex", True, [1, 1, 3, 7, 22]),  # OEIS A000228 (polyhexes)
        ("cube", False, [1, 1, 2, 8, 29]),  # OEIS A000162 (polycubes, mirror pairs apart)
        ("cube", True, [1, 1, 2, 7, 23]),  # OEIS A038119 (free polycubes)
    ],
)
def test_free_polyforms_match_the_oeis(grid: str, reflect: bool, counts: list[int]) -> None:
    found = [len(free_polyforms(n, grid, reflect=reflect)) for n in range(1, len(counts) + 1)]
    assert found == counts


def test_triangle_and_hex_pictures() -> None:
    # "###" is up, down, up: a trapezoid; with the row below, a hexagon of 6 triangles.
    hexagon = board("###\n###", "triangle")
    assert len(polyomino.board_symmetries(hexagon)) == 12
    assert len(polyomino.board_symmetries(board("###", "triangle"))) == 2
    # A hex picture may use either column parity; it is read the same.
    a = piece("A", "# #\n # #", "hex")
    b = piece("B", " # #\n# #", "hex")
    assert len(a.orientations()) == len(b.orientations()) == 3
    flower = board(" # #\n# # #\n # #", "hex")
    assert len(flower.cells) == 7 and len(polyomino.board_symmetries(flower)) == 12


def test_cube_pictures_three_ways() -> None:
    split = piece("P", "##|#.\n#.|..", "cube")
    blank = piece("P", "##\n#.\n\n#.", "cube")
    listed = piece("P", ["##\n#.", "#."], "cube")
    assert split.cells == blank.cells == listed.cells
    assert split.cells == {(0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0)}
    assert len(polyomino.board_symmetries(box(3, 3, 3))) == 48
    assert len(polyomino.board_symmetries(box(2, 3, 4))) == 8
    assert len(polyomino.board_symmetries(box(2, 2, 4))) == 16


# -- the piece sets ----------------------------------------------------------------------------


def test_built_in_sets() -> None:
    assert set(map(_canon("triangle"), HEXIAMONDS.values())) == set(free_polyforms(6, "triangle"))
    assert set(map(_canon("hex"), TETRAHEXES.values())) == set(free_polyforms(4, "hex"))
    cubes = polyomino.PENTACUBES
    assert len(cubes) == 29 and all(len(p.cells) == 5 and p.grid == "cube" for p in cubes.values())
    assert len({_canon("cube", False)(p) for p in cubes.values()}) == 29
    flat = [p for p in cubes.values() if len({z for z, _, _ in p.cells}) == 1]
    assert len(flat) == 12  # the solid pentominoes
    # Soma: the seven irregular pieces of 3 and 4 cubes, A and B mirror images.
    assert sorted(len(p.cells) for p in SOMA.values()) == [3, 4, 4, 4, 4, 4, 4]
    assert _canon("cube", True)(SOMA["A"]) == _canon("cube", True)(SOMA["B"])
    assert _canon("cube", False)(SOMA["A"]) != _canon("cube", False)(SOMA["B"])
    # Bedlam: "7 may be rotated into 24 possible orientations, 5 into 12 and 1 into 3"
    # (Scott Kurowski, scottkurowski.com/BedlamCube/).
    turns = sorted(len(p.orientations(reflect=False)) for p in BEDLAM.values())
    assert turns == [3] + [12] * 5 + [24] * 7
    assert sum(len(p.cells) for p in BEDLAM.values()) == 64


def _canon(grid: str, reflect: bool = True):  # type: ignore[no-untyped-def]
    return lambda p: piece_sets.canonical(p.cells, grid, reflect)


# -- published counts --------------------------------------------------------------------------


def test_soma_cube() -> None:
    # 240 solutions up to rotation and reflection, 11,520 in all (Conway and Guy, 1961;
    # e.g. Wikipedia "Soma cube"; aminebenhariz.com/soma-cube-solving-the-puzzle-3d).
    cube = box(3, 3, 3)
    everything = tile(cube, SOMA, reflect=False)
    assert everything.count() == 11520
    classes = list(tile(cube, SOMA, reflect=False, distinct=True))
    assert len(classes) == 240
    for t in classes[:20]:
        check_tiling(t, SOMA, reflect=False)


def test_solid_pentominoes_in_a_box() -> None:
    # The 12 solid pentominoes fill 2x3x10 in 12 ways up to symmetry (and 2x5x6 in 264,
    # 3x4x5 in 3,940: benchmarks/test_polyform_bench.py); e.g. Wikipedia "Pentomino",
    # lumberjocks.com/projects/4589.
    pieces = solid(PENTOMINOES)
    b = box(2, 3, 10)
    classes = list(tile(b, pieces, distinct=True))
    assert len(classes) == 12
    for t in classes:
        check_tiling(t, pieces)
    if lazysearch.compiled():  # a minute as plain Python
        assert tile(b, pieces).count() == 12 * 8  # no tiling is symmetric


@pytest.mark.parametrize(
    ("rows", "cols", "classes"),
    [
        pytest.param(
            4,
            9,
            74,
            marks=pytest.mark.skipif(not lazysearch.compiled(), reason="30 s as plain Python"),
        ),
        pytest.param(
            6,
            6,
            156,
            marks=pytest.mark.skipif(not lazysearch.compiled(), reason="30 s as plain Python"),
        ),
    ],
)
def test_hexiamond_parallelograms(rows: int, cols: int, classes: int) -> None:
    # The 12 hexiamonds fill the 6x6 rhombus in 156 ways and the 4x9 parallelogram in 74,
    # up to symmetry (T. H. O'Beirne, New Scientist 1961; Knuth, TAOCP 7.2.2.1; D. Goodger's
    # Polyform Puzzler, puzzler.sourceforge.net/docs/hexiamonds.html).
    b = parallelogram(rows, cols, "triangle")
    found = list(tile(b, HEXIAMONDS, distinct=True))
    assert len(found) == classes
    for t in found[:10]:
        check_tiling(t, HEXIAMONDS)
    if lazysearch.compiled():  # minutes as plain Python
        group = len(polyomino.board_symmetries(b))
        assert tile(b, HEXIAMONDS).count() == classes * group


def test_tetrahexes_fill_a_shape_both_engines_agree() -> None:
    # 28 hexagons: a 4x7 parallelogram.  Dancing links and bitboards find the same tilings.
    b = parallelogram(4, 7, "hex")
    fast = {frozenset(t.pieces) for t in tile(b, TETRAHEXES)}
    cover = polyomino.tiling_problem(b, TETRAHEXES)
    links = set()
    for solution in cover.solve():
        links.add(
            frozenset(
                (cover.piece_of[j], frozenset(x for x in cover.options[j] if x in b.cells))
                for j in solution
            )
        )
    assert fast == links
    for t in list(tile(b, TETRAHEXES))[:5]:
        check_tiling(t, TETRAHEXES)


# -- distinct with one-sided pieces and with symmetric piece sets --------------------------


def _classes(tilings: Iterable[Tiling], symmetries: list) -> int:  # type: ignore[type-arg]
    """Classes of tilings under the symmetries (with their renamings), by brute force."""
    seen: set[frozenset[tuple[str, frozenset[Cell]]]] = set()
    classes = 0
    for t in tilings:
        me = frozenset(t.pieces)
        if me in seen:
            continue
        classes += 1
        for m, rename in symmetries:
            seen.add(frozenset((rename[n], frozenset(m(x) for x in c)) for n, c in t.pieces))
    return classes


ONE_SIDED_TETROMINOES = {
    "I": piece("I", "####"),
    "O": piece("O", "##\n##"),
    "T": piece("T", "###\n.#."),
    "S": piece("S", ".##\n##."),
    "Z": piece("Z", "##.\n.##"),
    "L": piece("L", "###\n#.."),
    "J": piece("J", "###\n..#"),
}


@pytest.mark.parametrize(
    ("shape", "pieces", "reflect"),
    [
        (polyomino.rectangle(3, 8), {k: ONE_SIDED_TETROMINOES[k] for k in "OISZLJ"}, False),
        (polyomino.rectangle(2, 4), {"A": piece("A", "##\n##"), "B": piece("B", "##\n##")}, True),
        (
            polyomino.rectangle(4, 4),
            {k: ONE_SIDED_TETROMINOES[k] for k in "IOLJ"},  # L and J swap
            False,
        ),
        (
            board("#####\n#####", "square"),
            {"A": piece("A", "#####"), "B": piece("B", "#####")},
            True,
        ),
        (
            board("###\n###", "triangle"),
            {
                "D": piece("D", "##", "triangle"),
                "E": piece("E", "##", "triangle"),
                "F": piece("F", "##", "triangle"),
            },
            True,
        ),
        (box(2, 2, 3), {k: SOMA[k] for k in "ABL"}, False),  # the two screws swap
    ],
)
def test_distinct_counts_classes_for_any_piece_set(
    shape: Board, pieces: dict[str, Piece], reflect: bool
) -> None:
    everything = list(tile(shape, pieces, reflect=reflect))
    symmetries = polyomino.problem_symmetries(shape, list(pieces.values()), True, reflect)
    expected = _classes(everything, symmetries)
    found = list(tile(shape, pieces, reflect=reflect, distinct=True))
    assert len(found) == expected >= 1
    # Each class once: no two found tilings are images of each other.
    assert _classes(found, symmetries) == len(found)
    assert tile(shape, pieces, reflect=reflect, distinct=True).count() == expected


def test_one_sided_sets_not_closed_under_mirrors_use_the_rotations() -> None:
    # The one-sided L alone with an O: a reflection would need J, so only the rotations
    # of the board are symmetries of the problem.
    pieces = [ONE_SIDED_TETROMINOES["L"], ONE_SIDED_TETROMINOES["O"]]
    symmetries = polyomino.problem_symmetries(polyomino.rectangle(2, 4), pieces, True, False)
    assert len(symmetries) == 2  # identity and the half turn
    soma = polyomino.problem_symmetries(box(3, 3, 3), list(SOMA.values()), True, False)
    assert len(soma) == 48
    swapped = [rename for _, rename in soma if rename["A"] == "B"]
    assert len(swapped) == 24 and all(r["B"] == "A" and r["P"] == "P" for r in swapped)


# -- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "words"),
    [
        (lambda: piece("Q", "#.#", "triangle"), "not connected: the cell at line 1, column 3"),
        (lambda: piece("Q", "#|.\n.|#", "cube"), "not connected: the cell at layer 2, line 2"),
        (lambda: piece("Q", "# #\n##", "hex"), "the hexagon at line 2, column 1 is off the grid"),
        (lambda: piece("Q", "#|#\n#", "cube"), "line 2 has 1 layers"),
        (lambda: piece("Q", "#", "penrose"), "unknown grid 'penrose'"),
        (lambda: tile(box(1, 1, 5), [piece("I", "#####")]), "piece 'I' is on the square grid"),
        (lambda: tile(box(3, 3, 3), HEXIAMONDS), "on the triangle grid and the board on the cube"),
        (lambda: box(0, 2, 2), "box\\(\\) needs whole sides >= 1, got 0x2x2"),
        (lambda: parallelogram(2, 2, "cube"), "triangle or hex grid, got 'cube'"),
        (lambda: solid(SOMA), "'V' is on the cube grid"),
    ],
)
def test_bad_input_names_the_place(call: object, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        call()  # type: ignore[operator]


# -- pictures ----------------------------------------------------------------------------------


def test_text_pictures() -> None:
    t = tile(box(3, 3, 3), SOMA, reflect=False).first()
    layers = str(t).splitlines()
    assert len(layers) == 3 and all(len(row.split(" ")) == 3 for row in layers)
    assert sorted("".join(layers).replace(" ", "")) == sorted(
        name for name, cells in t.pieces for _ in cells
    )
    assert [len(layer) for layer in t.layers()] == [3, 3, 3]
    hexi = tile(parallelogram(4, 9, "triangle"), HEXIAMONDS).first()
    rows = str(hexi).splitlines()
    assert len(rows) == 4 and sum(ch != "." for row in rows for ch in row) == 72
    hexes = tile(parallelogram(4, 7, "hex"), TETRAHEXES).first()
    assert str(hexes).splitlines()[1].startswith(" ")


def test_svg_pictures_of_every_grid() -> None:
    from xml.etree import ElementTree

    cases = [
        (tile(parallelogram(4, 9, "triangle"), HEXIAMONDS).first(), 12, "polyiamond"),
        (tile(parallelogram(4, 7, "hex"), TETRAHEXES).first(), 7, "polyhex"),
        (tile(box(3, 3, 3), SOMA, reflect=False).first(), 7, "polycube"),
    ]
    for t, pieces, kind in cases:
        svg = t.svg()
        root = ElementTree.fromstring(svg)
        assert root.tag.endswith("svg")
        assert svg.count("<title>") == pieces + 1 and f"a {kind} tiling" in svg
        texts = [e.text for e in root.iter() if e.tag.endswith("text")]
        assert set(texts) == {name for name, _ in t.pieces}
    # A polycube's name is written once in each layer the piece is in.
    soma = cases[2][0]
    layers = sum(len({z for z, _, _ in cells}) for _, cells in soma.pieces)
    assert soma.svg().count("<text") == layers


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    from lazysearch.cli import main

    assert main(["polycube", "soma", "--count", "--distinct"]) == 0
    assert capsys.readouterr().out == "240\n"
    if lazysearch.compiled():  # 30 s as plain Python
        assert main(["polyiamond", "hexiamonds", "--board", "4x9", "--count", "--distinct"]) == 0
        assert capsys.readouterr().out == "74\n"
    cmd = ["polycube", "solid-pentominoes", "--board", "2x3x10", "--limit", "1", "-q"]
    assert main(cmd) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4  # "1:" and the 3 rows
    assert main(["polyhex", "tetrahexes", "--limit", "1", "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("1:\n") and len(out.splitlines()) == 5
    assert main(["polycube", "soma", "--nth", "2", "--format", "svg", "-q"]) == 0
    assert capsys.readouterr().out.startswith("<svg")
    for args, words in [
        (["polycube", "pentacubes", "--count"], "has no board of its own"),
        (
            ["polycube", "soma", "--board", "3x9", "--count"],
            "soma fill a box XxYxZ, got --board 3x9",
        ),
        (["polycube", "bedlam", "--board", "3x3x3"], "cover 64 cells, and the board 3x3x3 has 27"),
    ]:
        assert main(args) == 2
        out, err = capsys.readouterr()
        assert out == "" and words in err and err.count("\n") == 1
    with pytest.raises(SystemExit) as info:
        main(["polycube", "soma", "--board", "3xx3"])
    assert info.value.code == 2
    assert "expected sides joined by 'x'" in capsys.readouterr().err


def test_the_walled_in_check_prunes_and_keeps_every_tiling() -> None:
    from lazysearch.search import Search
    from lazysearch.stream import Solutions

    # Six Soma pieces (24 cubes) in a 2x3x4 box: 488 tilings either way, 10,519 nodes
    # against 11,017.
    pieces = {k: SOMA[k] for k in "ABLTZP"}
    checked = tile(box(2, 3, 4), pieces, reflect=False)
    problem = checked.search.problem
    assert problem.neighbours  # type: ignore[attr-defined]
    plain = polyomino.BitboardTiling(
        problem.cells,  # type: ignore[attr-defined]
        problem.anchored,  # type: ignore[attr-defined]
        problem.first,  # type: ignore[attr-defined]
        problem.copies,  # type: ignore[attr-defined]
    )
    unchecked = Solutions(Search(plain))
    assert sorted(checked.search) == sorted(unchecked)
    assert checked.search.stats.nodes < unchecked.search.stats.nodes
    # Squares keep their engine as it was; a piece of one or two cells turns it off.
    assert not tile(polyomino.rectangle(3, 20), PENTOMINOES).search.problem.neighbours  # type: ignore[attr-defined]
    small = {"a": piece("a", "##", "cube"), "c": piece("c", "###", "cube")}
    assert not tile(box(5, 1, 1), small).search.problem.neighbours  # type: ignore[attr-defined]


def test_the_fewest_placements_rule_prunes_and_keeps_every_tiling() -> None:
    from lazysearch.search import Search
    from lazysearch.stream import Solutions

    # The Soma cube's 11,520 tilings: 272,946 nodes branching on the empty cell the
    # fewest placements still cover, 729,690 filling cells in a fixed order (with the
    # walled-in check).
    fewest = tile(box(3, 3, 3), SOMA, reflect=False)
    problem = fewest.search.problem
    assert problem.fewest == 27  # type: ignore[attr-defined]
    fixed = polyomino.BitboardTiling(
        problem.cells,  # type: ignore[attr-defined]
        problem.anchored,  # type: ignore[attr-defined]
        problem.first,  # type: ignore[attr-defined]
        problem.copies,  # type: ignore[attr-defined]
        None,
        problem.neighbours,  # type: ignore[attr-defined]
    )
    plain = Solutions(Search(fixed))
    assert sorted(fewest.search) == sorted(plain.search)
    assert fewest.search.stats.nodes * 2 < plain.search.stats.nodes
    assert problem.fingerprint() != fixed.fingerprint()  # type: ignore[attr-defined]
    # Squares keep the fixed order (faster there).
    assert not tile(polyomino.rectangle(3, 20), PENTOMINOES).search.problem.fewest  # type: ignore[attr-defined]


@pytest.mark.parametrize("depth", [3, 27])
def test_branching_tells_the_children_the_walk_finds(depth: int) -> None:
    # At every node of the Soma cube's distinct search (anchor first, then the fewest
    # rule down to ``depth``, then the fixed order), ``branching()`` before the node is
    # entered is what the walk then finds.
    problem = tile(box(3, 3, 3), SOMA, reflect=False, distinct=True).search.problem
    problem.fewest = depth  # type: ignore[attr-defined]
    engine = problem.engine()  # type: ignore[attr-defined]
    seen = {-1: 0, 0: 0, 1: 0}
    while engine.state != 2:  # DONE
        level = engine.level
        expected = engine.branching()
        engine.run(0, 1)
        if expected > 0:
            assert engine.level == level + 1
            assert engine.degrees()[level] == expected
        seen[min(expected, 1)] += 1
    assert seen[-1] == 240
    assert seen[0] > 0 and seen[1] > 0


def test_a_polycube_search_resumes() -> None:
    whole = [str(t) for t in tile(box(3, 3, 3), SOMA, reflect=False).take(30)]
    s = tile(box(3, 3, 3), SOMA, reflect=False)
    head = [str(t) for t in s.take(11)]
    rest = tile(box(3, 3, 3), SOMA, reflect=False).resume(s.checkpoint())
    assert head + [str(t) for t in rest.take(19)] == whole


@pytest.mark.parametrize(
    ("plain", "framed", "pieces", "reflect"),
    [
        # A blank row and column around a hexiamond-free board of triangles: (1, 1) keeps
        # each triangle pointing the same way.
        ("###\n###", "....\n.###\n.###", {k: piece(k, "##", "triangle") for k in "DEF"}, True),
        (
            " # #\n# # #\n # #",
            "\n   # #\n  # # #\n   # #",
            {k: piece(k, "# # #" if k == "B" else "# #", "hex") for k in "BDE"},
            True,
        ),
        (
            "###|###|###\n###|###|###\n###|###|###",
            "....|....|....|....\n.###|.###|.###|....\n.###|.###|.###|....\n.###|.###|.###|....",
            SOMA,
            False,
        ),
    ],
)
def test_distinct_ignores_a_blank_margin_on_every_grid(
    plain: str, framed: str, pieces: dict[str, Piece], reflect: bool
) -> None:
    grid = next(iter(pieces.values())).grid
    a, b = board(plain, grid), board(framed, grid)
    assert len(a.cells) == len(b.cells) and b.frame != a.frame
    assert len(polyomino.board_symmetries(a)) == len(polyomino.board_symmetries(b))
    here = tile(a, pieces, reflect=reflect, distinct=True).count()
    assert here == tile(b, pieces, reflect=reflect, distinct=True).count() >= 1


def test_pieces_sharing_a_first_letter_are_drawn_apart() -> None:
    cubes = polyomino.PENTACUBES
    flat = {name: p for name, p in cubes.items() if len({z for z, _, _ in p.cells}) == 1}
    t = tile(box(2, 3, 10), flat).first()
    picture = str(t).replace(" ", "").replace("\n", "")
    assert len(set(picture)) == 12  # not twelve C's


def test_solid_pieces_are_not_mirrored_by_default_as_the_cli_has_it() -> None:
    # A solid piece cannot be turned over into its mirror image: on a box the library's
    # default is the published 240 Soma cubes (before: 1,126, mirrored pieces allowed),
    # the same as the command line, and reflect=True still asks for mirrored pieces.
    assert tile(box(3, 3, 3), SOMA, distinct=True).count() == 240
    assert tile(box(3, 3, 3), SOMA, reflect=False, distinct=True).count() == 240
    assert tile(box(3, 3, 3), SOMA, reflect=True, distinct=True).count() == 1126
    for t in tile(box(3, 3, 3), SOMA).take(20):
        check_tiling(t, SOMA, reflect=False)
    # Flat pieces keep flipping on their own grids.
    assert tile(polyomino.rectangle(3, 20), PENTOMINOES, distinct=True).count() == 2
