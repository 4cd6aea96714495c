"""Pictures of knight's tours: the line in bounded pieces that join up into the tour, its
colour along the tour, and the pictures as a real renderer (librsvg) draws them."""

from __future__ import annotations

import colorsys
import re
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import pytest

from lazysearch import knights
from lazysearch.knights import Tour
from lazysearch.render.svg import MAX_ATTRIBUTE, TOUR_COLOURS, knights_tour, tour_colour

SVG = "{http://www.w3.org/2000/svg}"

#: Bytes per square of the 1000x1000 picture when the tour was one polyline.
OLD_BYTES_PER_SQUARE = 11.78


@pytest.fixture(scope="module")
def huge() -> Tour:
    """The tour ``lazysearch knights 1000 --one`` draws."""
    return knights.tour(1000)


def parse(svg: str) -> ET.Element:
    """The SVG's root, after checking that no attribute passes the bound."""
    root = ET.fromstring(svg)
    for element in root.iter():
        for name, value in element.attrib.items():
            assert len(value) <= MAX_ATTRIBUTE, (element.tag, name, len(value))
    return root


def line_group(root: ET.Element) -> ET.Element:
    """The group holding the tour's line."""
    group = root.find(f"{SVG}g")
    assert group is not None
    return group


def line_pieces(root: ET.Element) -> list[tuple[str, list[tuple[int, int]]]]:
    """The tour's pieces as ``(colour, squares)``, decoding each ``d`` (``M x y l dx dy
    ...``, every step relative) back into squares."""
    pieces = []
    for path in line_group(root).iter(f"{SVG}path"):
        d = path.attrib["d"]
        assert re.fullmatch(r"M[\d.]+ [\d.]+l[-\d ]+", d), d
        x, y, *steps = (float(n) for n in re.findall(r"-?[\d.]+", d))
        squares = [(int(y - 0.5), int(x - 0.5))]
        assert len(steps) % 2 == 0
        for dx, dy in zip(steps[::2], steps[1::2], strict=True):
            r, c = squares[-1]
            squares.append((r + int(dy), c + int(dx)))
        pieces.append((path.attrib["stroke"], squares))
    return pieces


def joined(pieces: list[tuple[str, list[tuple[int, int]]]]) -> list[tuple[int, int]]:
    """The squares of consecutive pieces, each piece starting where the last ended."""
    squares = list(pieces[0][1])
    for _, piece in pieces[1:]:
        assert piece[0] == squares[-1]
        squares.extend(piece[1:])
    return squares


def hue(colour: str) -> float:
    """The hue of ``#rrggbb`` in degrees."""
    red, green, blue = (int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
    return colorsys.rgb_to_hls(red, green, blue)[0] * 360


@pytest.mark.parametrize(
    ("make", "pieces"),
    [
        (lambda: knights.tour(8), 63),  # one piece per move
        (lambda: knights.tours(5, start=(0, 0)).first(), 24),
        (lambda: knights.tour(3, 40), TOUR_COLOURS),
        (lambda: knights.tour(50, start=(20, 31)), TOUR_COLOURS),
        (lambda: knights.tour(300), TOUR_COLOURS),
    ],
)
def test_the_pieces_join_up_into_the_tour(make: object, pieces: int) -> None:
    tour: Tour = make()  # type: ignore[operator]
    found = line_pieces(parse(tour.svg()))
    assert joined(found) == list(tour)
    assert len(found) == pieces
    # Each piece has the colour of its middle, so the colours go once round the wheel,
    # red to purple, in order along the tour.
    first, moves = 0, len(tour) - 1
    for colour, squares in found:
        last = first + len(squares) - 1
        assert colour == tour_colour((first + last) / 2 / moves)
        first = last
    hues = [hue(colour) for colour, _ in found]
    assert hues == sorted(hues) and hues[0] < 15 and hues[-1] > 285


def test_a_huge_tour_is_in_pieces_and_smaller(huge: Tour) -> None:
    svg = huge.svg()
    pieces = line_pieces(parse(svg))
    assert joined(pieces) == list(huge)
    # Every move is four characters ("-2 1", " 1-2"); the pieces and the board add little.
    assert len(svg.encode()) < 4.1 * 1000 * 1000 < OLD_BYTES_PER_SQUARE * 1000 * 1000 / 2
    # 64 colours of 15,625 moves, each cut for length into pieces of about 2,500 moves
    assert len(pieces) == TOUR_COLOURS * 7


def test_line_and_discs_grow_when_squares_are_few_pixels() -> None:
    """8x8 at 40 pixels a square keeps its thin line and small discs; 1000x1000 at 2
    pixels a square gets a line 0.6 squares wide, discs 10 pixels across, and the end's
    disc half size when it would hide the start's."""
    small = parse(knights.tour(8).svg())
    assert small.attrib["width"] == "320"
    assert line_group(small).attrib["stroke-width"] == "0.08"
    assert [c.attrib["r"] for c in small.iter(f"{SVG}circle")] == ["0.25", "0.25"]
    big = parse(knights_tour(Tour([(0, 0), (2, 1), (0, 2), (1, 0)], 1000, 1000)))
    assert big.attrib["width"] == "2000"
    assert line_group(big).attrib["stroke-width"] == "0.6"
    assert [c.attrib["r"] for c in big.iter(f"{SVG}circle")] == ["5", "2.5"]
    far = parse(knights_tour(Tour([(0, 0), (2, 1), (4, 2), (6, 3), (8, 4), (10, 5)], 1000, 1000)))
    assert [c.attrib["r"] for c in far.iter(f"{SVG}circle")] == ["5", "5"]


# Real renderings: librsvg's rsvg-convert, where it is installed.

RSVG = shutil.which("rsvg-convert")
needs_rsvg = pytest.mark.skipif(RSVG is None, reason="rsvg-convert (librsvg2-bin) not installed")


def render(svg: str, tmp_path: Path, *size: str) -> bytes:
    """The PNG that rsvg-convert makes of ``svg`` (``size``: e.g. ``-w 200``)."""
    source = tmp_path / "picture.svg"
    source.write_text(svg)
    done = subprocess.run(
        [str(RSVG), *size, str(source)], capture_output=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def png_rows(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows of an 8-bit RGB or RGBA PNG (what rsvg-convert writes,
    RGB when the picture is opaque), filters undone, each pixel as RGBA."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, kind = struct.unpack(">IIBB", png[16:26])
    assert depth == 8 and kind in (2, 6)
    step = 3 if kind == 2 else 4
    data, at = b"", 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        if png[at + 4 : at + 8] == b"IDAT":
            data += png[at + 8 : at + 8 + length]
        at += 12 + length
    raw = zlib.decompress(data)
    stride = step * width
    assert len(raw) == height * (1 + stride)
    rows: list[bytes] = []
    above = bytes(stride)
    for y in range(height):
        line = raw[y * (1 + stride) : (y + 1) * (1 + stride)]
        above = unfilter(line[0], bytearray(line[1:]), above, step)
        if step == 3:
            rows.append(b"".join(above[x : x + 3] + b"\xff" for x in range(0, stride, 3)))
        else:
            rows.append(above)
    return width, height, rows


def unfilter(kind: int, line: bytearray, above: bytes, step: int) -> bytes:
    """One PNG row with its filter (none, sub, up, average, Paeth) undone; ``step`` is
    the bytes per pixel."""
    for i in range(len(line)):
        a = line[i - step] if i >= step else 0
        b = above[i]
        c = above[i - step] if i >= step else 0
        if kind == 1:
            line[i] = (line[i] + a) & 255
        elif kind == 2:
            line[i] = (line[i] + b) & 255
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    return bytes(line)


def pixel(rows: list[bytes], x: int, y: int) -> tuple[int, ...]:
    """The RGBA of pixel ``(x, y)``."""
    return tuple(rows[y][4 * x : 4 * x + 4])


def hues_seen(rows: list[bytes]) -> set[int]:
    """The hues (in 30-degree bins) of the saturated pixels."""
    seen = set()
    for row in rows:
        for x in range(0, len(row), 4):
            red, green, blue = (v / 255 for v in row[x : x + 3])
            h, light, saturation = colorsys.rgb_to_hls(red, green, blue)
            if saturation > 0.6 and 0.2 < light < 0.6:
                seen.add(int(h * 12))
    return seen


@needs_rsvg
def test_rsvg_draws_a_small_tour(tmp_path: Path) -> None:
    tour = knights.tours(8, start=(0, 0)).first()
    width, height, rows = png_rows(render(tour.svg(), tmp_path))
    assert (width, height) == (320, 320)  # 40 pixels a square
    (r0, c0), (r1, c1) = tour[0], tour[-1]
    red, green, blue, _ = pixel(rows, 40 * c0 + 20, 40 * r0 + 20)
    assert green > 100 > red and green > blue  # the start's green disc
    red, green, blue, _ = pixel(rows, 40 * c1 + 20, 40 * r1 + 20)
    assert red > 150 > green and red > blue  # the end's red one
    assert pixel(rows, 319, 0) in {(0xF0, 0xD9, 0xB5, 255), (0xB5, 0x88, 0x63, 255)}  # a square
    assert len(hues_seen(rows)) >= 10  # the line goes round the colour wheel


@needs_rsvg
def test_rsvg_draws_a_50x50_tour(tmp_path: Path) -> None:
    width, height, rows = png_rows(render(knights.tour(50).svg(), tmp_path, "-w", "400"))
    assert (width, height) == (400, 400)
    assert len(hues_seen(rows)) >= 10


@needs_rsvg
def test_rsvg_draws_a_huge_tour(huge: Tour, tmp_path: Path) -> None:
    """The picture librsvg refused when it was one 11.8 MB attribute: at full size (the
    PNG's header and its data's length), and small, where it is a map of the visit
    order: hues all round the wheel, red where it starts, purple where it ends."""
    svg = huge.svg()
    png = render(svg, tmp_path)
    assert struct.unpack(">II", png[16:24]) == (2000, 2000)
    width, height, rows = png_rows(render(svg, tmp_path, "-w", "100"))
    assert (width, height) == (100, 100)
    assert len(hues_seen(rows)) >= 10
    red, green, blue, _ = pixel(rows, 2, 2)  # the corner, visited first: red
    assert red > 2 * green and red > 2 * blue
    red, green, blue, _ = pixel(rows, 50, 50)  # the centre, visited last: purple
    assert red > 2 * green and blue > 2 * green
