"""Exact-cover problems given as 0/1 matrices: a NumPy array or a SciPy sparse matrix.

Row ``j`` is option ``j``, column ``c`` is item ``c``, and a 1 at ``(j, c)`` says that
option ``j`` covers item ``c``.  NumPy and SciPy are never imported here: a matrix is
known by the module its type comes from, and read through its own methods.

>>> import numpy as np
>>> options(np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]]))
([[0, 2], [1], [0, 1]], 3)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Any

from ..errors import ExactCoverError


def is_matrix(value: object) -> bool:
    """True for a NumPy array (or matrix) and for a SciPy sparse matrix or array.

    >>> is_matrix([[1, 0], [0, 1]])
    False
    """
    module = type(value).__module__ or ""
    return module.split(".")[0] in ("numpy", "scipy") and hasattr(value, "shape")


def declared(
    matrix: Any, primary: Iterable[Hashable] | None, secondary: Iterable[Hashable] | None
) -> tuple[list[list[int]], Iterable[Hashable], Iterable[Hashable] | None]:
    """The options of a 0/1 ``matrix``, and its primary and secondary items: every column
    is an item to cover, primary unless ``secondary`` names it (a column of zeros then
    leaves no solution, as it would in the matrix), unless ``primary`` says otherwise.

    >>> import numpy as np
    >>> declared(np.array([[1, 0, 1], [0, 1, 1]]), None, [2])
    ([[0, 2], [1, 2]], [0, 1], [2])
    """
    rows, columns = options(matrix)
    if primary is None:
        secondary = None if secondary is None else list(secondary)
        apart = set(secondary or ())
        primary = [c for c in range(columns) if c not in apart]
    return rows, primary, secondary


def options(matrix: Any) -> tuple[list[list[int]], int]:
    """The options of a 0/1 ``matrix`` as lists of column numbers, and its column count.

    Raises
    ------
    ExactCoverError
        When the matrix is not two-dimensional, or holds an entry other than 0 and 1
        (naming its row, column and value).
    """
    shape = tuple(matrix.shape)
    if len(shape) != 2:
        raise ExactCoverError(
            f"exact_cover() takes a matrix of options by items (2 dimensions); "
            f"this one has {len(shape)} (shape {shape})"
        )
    if hasattr(matrix, "tocsr"):  # SciPy sparse
        return _sparse_options(matrix.tocsr(), shape[1])
    return _dense_options(matrix, shape[1])


def _bad_entry(row: int, column: int, value: Any) -> ExactCoverError:
    value = value.item() if hasattr(value, "item") else value  # a NumPy scalar as Python's
    return ExactCoverError(
        f"a matrix of options holds only 0 and 1; row {row}, column {column} holds {value!r}"
    )


def _dense_options(matrix: Any, columns: int) -> tuple[list[list[int]], int]:
    import numpy  # the matrix is NumPy's: it is imported already

    array = numpy.asarray(matrix)  # a numpy.matrix's rows as plain arrays
    ones = array == 1
    bad = ~(ones | (array == 0))
    if bad.any():
        rows, cols = bad.nonzero()
        row, column = int(rows[0]), int(cols[0])
        raise _bad_entry(row, column, array[row, column])
    return [row.nonzero()[0].tolist() for row in ones], columns


def _sparse_options(matrix: Any, columns: int) -> tuple[list[list[int]], int]:
    matrix = matrix.copy()
    matrix.sum_duplicates()  # an entry given twice (COO) holds the sum of both
    data, indices, indptr = matrix.data, matrix.indices, matrix.indptr
    bad = ~((data == 0) | (data == 1))
    if bad.any():
        at = int(bad.nonzero()[0][0])
        row = int((indptr <= at).sum()) - 1
        raise _bad_entry(row, int(indices[at]), data[at])
    rows = []
    for j in range(len(indptr) - 1):
        start, end = int(indptr[j]), int(indptr[j + 1])
        rows.append(indices[start:end][data[start:end] == 1].tolist())  # sorted: CSR
    return rows, columns
