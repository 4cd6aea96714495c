"""Build the compiled core when a C compiler is present; install plain Python when not.

The engines are typed ``.py`` files in Cython's pure-Python mode.  Cython turns them
into C extension modules that sit beside the ``.py`` files (Python imports the
extension first).  If Cython or the compiler is missing, or ``LAZYSEARCH_PURE=1`` is set
at build time, the install carries only the ``.py`` files, which work the same, slower.
"""

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

CORE = [
    "lazysearch/exactcover/_dlx.py",
    "lazysearch/exactcover/_memo.py",
    "lazysearch/kakuro/_cdcl.py",
    "lazysearch/kakuro/_engine.py",
    "lazysearch/knights/_count.py",
    "lazysearch/knights/_tour.py",
    "lazysearch/puzzles/_tiling.py",
]


class OptionalBuildExt(build_ext):
    """Compile what can be compiled; warn, and keep going, for what cannot."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(
                f"lazysearch: compiled core not built ({exc}); using plain Python", file=sys.stderr
            )

    def build_extension(self, ext) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:
            print(
                f"lazysearch: {ext.name} not compiled ({exc}); using plain Python", file=sys.stderr
            )


def extensions() -> list:
    if os.environ.get("LAZYSEARCH_PURE"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    modules = []
    for source in CORE:  # one at a time, so that one that fails does not stop the rest
        try:
            modules += cythonize(
                [source],
                language_level=3,
                compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
                quiet=True,
            )
        except Exception as exc:
            print(
                f"lazysearch: {source} not translated ({exc}); using plain Python", file=sys.stderr
            )
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
