"""Build the compiled core when a C compiler is present; install plain Python when not.

The engines are typed ``.py`` files in Cython's pure-Python mode.  Cython turns them
into C extension modules that sit beside the ``.py`` files (Python imports the
extension first).  If Cython or the compiler is missing, or ``LAZYSEARCH_PURE=1`` is set
at build time, the install carries only the ``.py`` files, which work the same, slower.
"""

import os
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_ext import build_ext

CORE = [
    "lazysearch/exactcover/_machine.py",  # first: the base of the engines in BASE
    "lazysearch/exactcover/_bits.py",
    "lazysearch/exactcover/_cells.py",
    "lazysearch/exactcover/_dlx.py",
    "lazysearch/exactcover/_mcc.py",
    "lazysearch/exactcover/_memo.py",
    "lazysearch/kakuro/_cdcl.py",
    "lazysearch/kakuro/_combos.py",  # not an engine: the digit sets each engine build reads
    "lazysearch/kakuro/_engine.py",
    "lazysearch/knights/_table.py",  # before the frontier programs that cimport it
    "lazysearch/knights/_count.py",
    "lazysearch/knights/_join.py",
    "lazysearch/knights/_openjoin.py",
    "lazysearch/knights/_order.py",
    "lazysearch/knights/_tour.py",
    "lazysearch/puzzles/_tiling.py",
    "lazysearch/puzzles/_units.py",
]

#: The engines whose compiled classes subclass a compiled base (they cimport it), and that
#: base: an engine is compiled only if its base was (a compiled engine cannot import over
#: a plain-Python base, and would leave the whole package unimportable).
BASE = {
    "lazysearch.exactcover._bits": "lazysearch.exactcover._machine",
    "lazysearch.exactcover._cells": "lazysearch.exactcover._machine",
    "lazysearch.exactcover._dlx": "lazysearch.exactcover._machine",
    "lazysearch.exactcover._mcc": "lazysearch.exactcover._machine",
    "lazysearch.puzzles._tiling": "lazysearch.exactcover._machine",
    "lazysearch.knights._tour": "lazysearch.exactcover._machine",
    "lazysearch.kakuro._engine": "lazysearch.exactcover._machine",
    "lazysearch.knights._count": "lazysearch.knights._table",
    "lazysearch.knights._order": "lazysearch.knights._table",
    "lazysearch.knights._join": "lazysearch.knights._table",
    "lazysearch.knights._openjoin": "lazysearch.knights._table",
}


#: Flags that leave the debug information out of the extensions (the build's CFLAGS often
#: carry -g: 1.9 MB per module instead of 0.3 MB), each used where the compiler takes it.
NO_DEBUG_COMPILE = ["-g0"]
NO_DEBUG_LINK = ["-s"]


class OptionalBuildExt(build_ext):
    """Compile what can be compiled; warn, and keep going, for what cannot."""

    _flags: tuple[list[str], list[str]] | None = None
    _not_built: set[str] | None = None

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(
                f"lazysearch: compiled core not built ({exc}); using plain Python", file=sys.stderr
            )

    def no_debug_flags(self) -> tuple[list[str], list[str]]:
        """The compile and link flags of NO_DEBUG_* that this compiler accepts: each is
        tried on a one-line C file (gcc and clang take both; others may take none)."""
        if self._flags is not None:
            return self._flags
        compile_flags: list[str] = []
        link_flags: list[str] = []
        if self.compiler.compiler_type in ("unix", "mingw32", "cygwin"):
            with tempfile.TemporaryDirectory() as folder:
                source = os.path.join(folder, "probe.c")
                with open(source, "w") as f:
                    f.write("int lazysearch_probe(void) { return 0; }\n")
                for flag in NO_DEBUG_COMPILE:
                    try:
                        self.compiler.compile([source], output_dir=folder, extra_postargs=[flag])
                    except Exception:
                        continue
                    compile_flags.append(flag)
                objects = self.compiler.compile(
                    [source], output_dir=folder, extra_postargs=compile_flags
                )
                if sys.platform != "darwin":  # Apple's linker takes -s but ignores it, warning
                    for i, flag in enumerate(NO_DEBUG_LINK):
                        # a new name each time: the linker skips an output newer than its input
                        library = f"probe{i}{self.compiler.shared_lib_extension}"
                        try:
                            self.compiler.link_shared_object(
                                objects, os.path.join(folder, library), extra_postargs=[flag]
                            )
                        except Exception:
                            continue
                        link_flags.append(flag)
        self._flags = (compile_flags, link_flags)
        return self._flags

    def build_extension(self, ext) -> None:
        if self._not_built is None:
            self._not_built = set()
        base = BASE.get(ext.name)
        if base in self._not_built:
            self._not_built.add(ext.name)
            print(
                f"lazysearch: {ext.name} not compiled ({base} was not); using plain Python",
                file=sys.stderr,
            )
            return
        try:
            compile_flags, link_flags = self.no_debug_flags()
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_flags]
            ext.extra_link_args = [*ext.extra_link_args, *link_flags]
            super().build_extension(ext)
        except Exception as exc:
            self._not_built.add(ext.name)
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
        base = BASE.get(source[:-3].replace("/", "."))
        if base is not None and base not in [m.name for m in modules]:
            print(f"lazysearch: {source} not translated ({base} was not)", file=sys.stderr)
            continue
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
