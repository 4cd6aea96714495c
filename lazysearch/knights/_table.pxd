# The frontier table under its first name (it lives in lazysearch/graphs/_table.pxd): the
# programs that cimport it from here get the same declarations.
from lazysearch.graphs._table cimport *
