"""What this machine can hold: the memory a process may still take."""

from __future__ import annotations

import os


def available_memory() -> int | None:
    """Bytes of memory this process can still take (Linux: MemAvailable; elsewhere the
    free physical pages), or None when the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
