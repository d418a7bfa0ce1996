"""One transposition table per machine for the workers of a split solve.

The workers of a split solve (:mod:`plies.cluster._split`) on one machine map one file
of ``/dev/shm`` as their Connect Four table, so a position one worker proved is known
to all of them at once: with a table each, a worker re-proves what the others' probes
already proved. Workers on another machine share theirs with each other. The file is
named after the solve's token (a random UUID), readable by its owner only. The first
process to need it makes it (zeros, under a name of its own, then linked in place, so
no process maps a file not yet its size): plies' own, solving while a local cluster
would start, or a worker. At the end of the solve the client unlinks it and has every
worker do so (:func:`release`), and a worker unlinks its file when it moves on to
another solve or exits. A machine without ``/dev/shm``, or a file that cannot be made,
leaves the process a table of its own.

Entries are safe to share: the kernel seals each key with its value (``seal`` in
Pons' kernel, in Connect Four's home ``plies.games.connect4``), so an entry two
workers wrote at once is not read as one, and every entry is a proven bound whichever
worker stored it.
"""

from __future__ import annotations

import atexit
import contextlib
import mmap
import os
import threading
from pathlib import Path
from typing import Any

__all__ = ["SHM", "release", "shared_table"]

#: Where the tables are (a memory file system on Linux).
SHM = Path("/dev/shm")
_PREFIX = "plies-table-"
_LOCK = threading.Lock()
#: token -> the memory map of that solve's table in this process
_MAPPED: dict[str, mmap.mmap] = {}


def _path(token: str) -> Path:
    if not token.isalnum():
        raise ValueError(f"a split solve's token is alphanumeric, not {token!r}")
    return SHM / f"{_PREFIX}{token}"


def shared_table(token: str, table: Any, key_bits: int) -> bool:
    """Keep the keys and values of ``table`` (a fresh
    :class:`~plies.engine.native.NativeTable`) in this machine's file of the split
    solve ``token``, made if no worker made it yet. Whether it could (else the table
    is left as it was, to make its own arrays)."""
    size = table.shared_bytes(key_bits)
    path = _path(token)
    with _LOCK:
        try:
            mapped = _MAPPED.get(token) or _map(path, size)
        except OSError:
            return False
        if len(mapped) != size:  # another table size: not this solve's
            return False
        _MAPPED[token] = mapped
    table.share(mapped, key_bits)
    return True


def _map(path: Path, size: int) -> mmap.mmap:
    """The memory map of the table file at ``path``, made (``size`` zero bytes) if
    missing."""
    try:
        fd = os.open(path, os.O_RDWR)
    except FileNotFoundError:
        fd = _make(path, size)
    try:
        if os.fstat(fd).st_size != size:
            raise OSError(f"{path} is not {size} bytes")
        return mmap.mmap(fd, size)
    finally:
        os.close(fd)


def _make(path: Path, size: int) -> int:
    """Make the file at ``path``, ``size`` zero bytes (or open the one another process
    made first)."""
    own = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
    fd = os.open(own, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        # Its pages taken now: a full /dev/shm is an error here (the process keeps a
        # table of its own), not a SIGBUS when a search first writes to the page.
        os.posix_fallocate(fd, 0, size)
        os.link(own, path)
    except FileExistsError:
        os.close(fd)
        return os.open(path, os.O_RDWR)
    except BaseException:
        os.close(fd)
        raise
    finally:
        own.unlink()
    return fd


def release(token: str | None = None) -> None:
    """Unlink the table file of split solve ``token`` (every one this process mapped
    if None) and forget this process's map of it (processes that still use it keep
    their map; the memory goes with the last). Run on every worker at the end of a
    solve (``Client.run``), and here at exit."""
    with _LOCK:
        tokens = list(_MAPPED) if token is None else [token]
        for each in tokens:
            _MAPPED.pop(each, None)
            with contextlib.suppress(OSError, ValueError):
                _path(each).unlink()


atexit.register(release)
