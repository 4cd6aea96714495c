"""The engine base, the bottom floor that every compiled engine stands on.

- :mod:`._machine` (and ``_machine.pxd``, its C fields): :class:`Machine`, the explicit
  stack, counters and replay that each search engine subclasses with its data and its
  ``run()`` loop;
- :mod:`.states`: the states of an engine's walk and the kinds of leaf it reports;
- ``bitops.pxd``: bit counting for the compiled engines, one machine instruction each
  (``from cython.cimports.lazysearch.engine.bitops import lowest64, popcount64``), and
  :mod:`.bitops`, the same functions as plain Python for an engine run uncompiled;
- :mod:`.registry`: the list of compiled modules that setup.py, the loader and
  ``lazysearch --version`` read;
- :mod:`._native`: the loader (an engine's compiled extension, or its source);
- :mod:`._cython`: stand-ins for the ``cython`` names where Cython is not installed;
- :mod:`._buffers`: the integer buffers an engine is built with;
- :mod:`.memory`: the memory a process may still take.

Nothing here imports a floor above it (the search protocol, the run machinery, the
families or the command line).
"""
