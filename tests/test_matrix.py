"""Numbers in, numbers out: exact covers given as NumPy or SciPy 0/1 matrices, and
Solutions.to_numpy().  Skipped where NumPy (or SciPy) is not installed."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazysearch
from lazysearch import ExactCover, exact_cover
from lazysearch.errors import EmptyOptionError, ExactCoverError, LazysearchError
from lazysearch.exactcover import verify

np = pytest.importorskip("numpy")

KNUTH = ["c e", "a d g", "b c f", "a d f", "b g", "d e g"]


def knuth_matrix() -> object:
    items = "abcdefg"
    return np.array([[int(item in option.split()) for item in items] for option in KNUTH])


def as_sets(matrix: object) -> list[list[int]]:
    return [list(np.flatnonzero(row)) for row in np.asarray(matrix)]


def test_a_numpy_matrix_is_options_by_rows_and_items_by_columns() -> None:
    matrix = knuth_matrix()
    assert exact_cover(matrix).one() == (0, 3, 4)
    problem = ExactCover(matrix)
    assert problem.primary == tuple(range(7))
    assert [problem.options[j] for j in (0, 3, 4)] == [(2, 4), (0, 3, 5), (1, 6)]


@pytest.mark.parametrize("dtype", [bool, np.int8, np.int64, np.uint8, np.float64])
def test_any_numeric_dtype_of_zeros_and_ones(dtype: object) -> None:
    assert exact_cover(knuth_matrix().astype(dtype)).take(5) == [(0, 3, 4)]


def test_a_column_of_zeros_is_an_item_no_option_covers() -> None:
    matrix = np.array([[1, 0], [1, 0]])
    assert exact_cover(matrix).take(5) == []
    assert exact_cover(matrix, secondary=[1]).take(5) == [(0,), (1,)]


def test_secondary_columns() -> None:
    matrix = np.array([[1, 0, 1], [0, 1, 1], [0, 1, 0]])
    assert exact_cover(matrix, secondary=[2]).take(5) == [(0, 2)]
    assert exact_cover(matrix, primary=[0, 1], secondary=[2]).take(5) == [(0, 2)]


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # NumPy's, of numpy.matrix
def test_a_numpy_matrix_class_reads_as_an_array() -> None:
    assert exact_cover(np.asmatrix(knuth_matrix())).one() == (0, 3, 4)


@pytest.mark.parametrize(
    ("entries", "place"),
    [
        ([[1, 0], [0, 2]], "row 1, column 1 holds 2"),
        ([[1, 0.5], [0, 1]], "row 0, column 1 holds 0.5"),
        ([[1, 0], [-1, 1]], "row 1, column 0 holds -1"),
        ([[1, 0], [0, float("nan")]], "row 1, column 1 holds nan"),
    ],
)
def test_an_entry_other_than_0_or_1_is_named(entries: list[list[float]], place: str) -> None:
    with pytest.raises(ExactCoverError, match=place):
        exact_cover(np.array(entries))


@pytest.mark.parametrize("shape", [(3,), (2, 2, 2), ()])
def test_a_matrix_of_other_than_two_dimensions_is_refused(shape: tuple[int, ...]) -> None:
    with pytest.raises(ExactCoverError, match=rf"2 dimensions\); this one has {len(shape)}"):
        exact_cover(np.ones(shape, dtype=int))


def test_a_row_of_zeros_is_an_empty_option_as_in_a_list() -> None:
    with pytest.raises(EmptyOptionError, match="option 1 is empty"):
        exact_cover(np.array([[1, 0], [0, 0], [0, 1]]))


def test_a_scipy_sparse_matrix() -> None:
    sparse = pytest.importorskip("scipy.sparse")
    matrix = knuth_matrix()
    for kind in (sparse.csr_matrix, sparse.csc_matrix, sparse.coo_matrix, sparse.lil_matrix):
        assert exact_cover(kind(matrix)).one() == (0, 3, 4), kind
    if hasattr(sparse, "csr_array"):
        assert exact_cover(sparse.csr_array(matrix)).one() == (0, 3, 4)


def test_a_scipy_sparse_matrix_with_a_bad_or_explicit_zero_entry() -> None:
    sparse = pytest.importorskip("scipy.sparse")
    twice = sparse.coo_matrix(([1, 1, 1], ([0, 0, 1], [1, 1, 0])), shape=(2, 2))
    with pytest.raises(ExactCoverError, match="row 0, column 1 holds 2"):
        exact_cover(twice)  # an entry given twice is their sum
    zero = sparse.csr_matrix(([1, 0, 1], [0, 1, 1], [0, 2, 3]), shape=(2, 2))
    assert zero.nnz == 3  # the 0 at (0, 1) is stored, and is no item of option 0
    assert exact_cover(zero).take(3) == [(0, 1)]
    with pytest.raises(ExactCoverError, match="row 1, column 0 holds 3"):
        exact_cover(sparse.csr_matrix(np.array([[1, 0], [3, 1]])))


def test_numpy_is_imported_only_when_a_matrix_is_given() -> None:
    code = (
        "import sys, lazysearch\n"
        "lazysearch.exact_cover(['a b', 'a', 'b']).count()\n"
        "print('numpy' in sys.modules, 'scipy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.split() == ["False", "False"], done.stderr


@settings(max_examples=150, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda items: st.lists(
            st.lists(st.booleans(), min_size=items, max_size=items).filter(any),
            min_size=1,
            max_size=9,
        )
    ),
    st.sampled_from(["array", "csr", "coo"]),
)
def test_a_matrix_has_the_solutions_of_its_lists(rows: list[list[bool]], kind: str) -> None:
    matrix = np.array(rows, dtype=np.int8)
    if kind != "array":
        sparse = pytest.importorskip("scipy.sparse")
        matrix = sparse.csr_matrix(matrix) if kind == "csr" else sparse.coo_matrix(matrix)
    columns = len(rows[0])
    lists = [[c for c in range(columns) if row[c]] for row in rows]
    found = sorted(exact_cover(matrix))
    assert found == sorted(exact_cover(lists, primary=range(columns)))
    for solution in found:
        verify(lists, solution, primary=range(columns))


def test_to_numpy_stacks_solutions_of_one_length() -> None:
    array = lazysearch.queens(8).to_numpy()
    assert array.shape == (92, 8)
    assert [tuple(row) for row in array.tolist()] == lazysearch.queens(8).take(100)
    assert lazysearch.queens(8).to_numpy(3).shape == (3, 8)
    assert lazysearch.queens(8).to_numpy(dtype=np.int8).dtype == np.int8


def test_to_numpy_of_an_empty_stream() -> None:
    assert lazysearch.queens(3).to_numpy().shape == (0, 0)


def test_to_numpy_names_the_first_ragged_solution() -> None:
    stream = exact_cover(["a b", "a", "b", "c", "c d", "d"])  # covers of 2, 3 and 4 options
    assert [len(s) for s in exact_cover(["a b", "a", "b", "c", "c d", "d"])] == [3, 2, 4, 3]
    ragged = r"solution 1 has 2 entries where solution 0 has 3: \(0, 4\)"
    with pytest.raises(LazysearchError, match=ragged):
        stream.to_numpy()
    with pytest.raises(LazysearchError, match="solution 0 has no length: 7"):
        lazysearch.queens(4).map(lambda q: 7).to_numpy()
