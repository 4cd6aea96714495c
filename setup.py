"""Build the compiled core when a C compiler is present; install plain Python when not.

The engines are typed ``.py`` files in Cython's pure-Python mode.  Cython turns them
into C extension modules that sit beside the ``.py`` files (Python imports the
extension first).  If Cython or the compiler is missing, or ``LAZYSEARCH_PURE=1`` is set
at build time, the install carries only the ``.py`` files, which work the same, slower.
"""

import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

from setuptools import setup
from setuptools.command.build_ext import build_ext


def registry() -> dict[str, object]:
    """The names of lazysearch/engine/registry.py, the list of compiled modules, read
    without importing the package (it imports its compiled modules)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lazysearch", "engine")
    path = os.path.join(path, "registry.py")
    names: dict[str, object] = {}
    with open(path, encoding="utf-8") as f:
        exec(compile(f.read(), path, "exec"), names)
    return names


REGISTRY = registry()

#: The sources to compile, each engine's base before it.
CORE = [name.replace(".", "/") + ".py" for name in (*REGISTRY["ENGINES"], *REGISTRY["HELPERS"])]

#: The engines whose compiled classes subclass a compiled base (they cimport it), and that
#: base: an engine is compiled only if its base was (a compiled engine cannot import over
#: a plain-Python base, and would leave the whole package unimportable).
BASE = {name: base for name, base in REGISTRY["ENGINES"].items() if base is not None}

#: Cython's shared utility code (memoryviews and its helpers) as a module of its own, which
#: every other compiled module imports: it is compiled first, and with it each module is
#: some 200 KB smaller. Cython 3.1 and later make it; with an older Cython each module
#: carries its own copy, as before.
SHARED = str(REGISTRY["SHARED"])


#: Flags that leave the debug information out of the extensions (the build's CFLAGS often
#: carry -g: 1.9 MB per module instead of 0.3 MB), each used where the compiler takes it.
NO_DEBUG_COMPILE = ["-g0"]
NO_DEBUG_LINK = ["-s"]


class OptionalBuildExt(build_ext):
    """Compile what can be compiled; warn, and keep going, for what cannot."""

    _flags: tuple[list[str], list[str]] | None = None
    _not_built: set[str] | None = None

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:  # unless -j N says otherwise: a compiler a core
            self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        """The shared utility module first, the compiled bases next, then every other
        module, side by side on ``parallel`` threads (each runs the compiler as a process
        of its own): a module is compiled only once what it imports is, as
        build_extension checks."""
        self.check_extensions_list(self.extensions)
        self.no_debug_flags()  # probed once, before the threads
        bases = set(BASE.values())
        shared = [ext for ext in self.extensions if ext.name == SHARED]
        first = [ext for ext in self.extensions if ext.name in bases]
        rest = [ext for ext in self.extensions if ext.name not in {*bases, SHARED}]
        with ThreadPoolExecutor(max(1, int(self.parallel))) as pool:
            for batch in (shared, first, rest):
                list(pool.map(self.build_extension, batch))

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
        if base is None and ext.name != SHARED:
            base = SHARED  # every compiled module imports it (when it is built)
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


def shared_module(cythonize, options: dict[str, object]) -> list:
    """The extension of Cython's shared utility code, its C generated, or none where this
    Cython cannot make it (before 3.1) or fails to: the modules then carry their own."""
    import re

    from Cython import __version__
    from setuptools import Extension

    version = re.match(r"(\d+)\.(\d+)", __version__)
    if version is None or (int(version[1]), int(version[2])) < (3, 1):
        return []
    try:
        return cythonize(
            [Extension(SHARED, sources=[])], shared_utility_qualified_name=SHARED, **options
        )
    except Exception as exc:
        print(
            f"lazysearch: {SHARED} not generated ({exc}); each module carries its own",
            file=sys.stderr,
        )
        return []


def extensions() -> list:
    if os.environ.get("LAZYSEARCH_PURE"):
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        return []
    options: dict[str, object] = {
        "language_level": 3,
        # auto_pickle: no pickling code for the compiled classes (a fifth of each module):
        # they hold memoryviews, which do not pickle, so it could never run
        "compiler_directives": {
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "auto_pickle": False,
        },
        "quiet": True,
    }
    modules = shared_module(cythonize, options)
    if modules:
        options["shared_utility_qualified_name"] = SHARED
    for source in CORE:  # one at a time, so that one that fails does not stop the rest
        base = BASE.get(source[:-3].replace("/", "."))
        if base is not None and base not in [m.name for m in modules]:
            print(f"lazysearch: {source} not translated ({base} was not)", file=sys.stderr)
            continue
        try:
            modules += cythonize([source], **options)
        except Exception as exc:
            print(
                f"lazysearch: {source} not translated ({exc}); using plain Python", file=sys.stderr
            )
    return modules


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
