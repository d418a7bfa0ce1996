"""Checks of the arguments of public functions, shared by every layer.

Each check raises :class:`~plies.errors.ArgumentTypeError` (a :class:`TypeError` too)
for a value of the wrong type and a :class:`~plies.errors.PliesError` of the caller's
choice for one out of range, naming the argument and quoting the value short, so that
a misuse ends in one clear line and never in an AttributeError, a TypeError or a typing
error of compiled code deep inside. :func:`check_memory` refuses an allocation larger
than the machine's memory before anything is allocated.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from plies.errors import ArgumentTypeError, LimitError, PliesError

__all__ = [
    "check_memory",
    "memory_bytes",
    "need_bool",
    "need_callable",
    "need_choice",
    "need_int",
    "need_number",
    "need_object",
    "need_path",
    "need_text",
    "shown",
]

#: Characters of a value's repr quoted in a message before it is cut short.
_SHOWN = 40


def shown(value: object) -> str:
    """``repr(value)``, cut short when long (a message stays one readable line)."""
    try:
        text = repr(value)
    except Exception:  # a broken __repr__ is the value's, not a reason to fail here
        text = f"<{type(value).__name__} object>"
    if len(text) > _SHOWN:
        text = f"{text[: _SHOWN - 3]}..."
    return text


def _type_error(name: str, wanted: str, value: object) -> ArgumentTypeError:
    return ArgumentTypeError(f"{name} must be {wanted}, not {shown(value)}")


def need_bool(value: object, name: str) -> bool:
    """``value``, which must be True or False (not 1, not "yes")."""
    if not isinstance(value, bool):
        raise _type_error(name, "True or False", value)
    return value


def need_int(
    value: object,
    name: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    error: type[PliesError] = PliesError,
) -> int:
    """``value``, a whole number (an int, not a bool) in ``[minimum, maximum]``;
    one out of range raises ``error``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _type_error(name, "a whole number", value)
    if minimum is not None and value < minimum:
        raise error(f"{name} must be at least {minimum}, not {shown(value)}")
    if maximum is not None and value > maximum:
        raise error(f"{name} must be at most {maximum:,}, not {shown(value)}")
    return value


def need_number(
    value: object,
    name: str,
    *,
    minimum: float | None = None,
    above: float | None = None,
    finite: bool = True,
    error: type[PliesError] = PliesError,
) -> float:
    """``value``, a real number (an int or a float, not a bool), not NaN, finite unless
    ``finite`` is False, at least ``minimum`` or above ``above``; one out of range
    raises ``error``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _type_error(name, "a number", value)
    number = float(value) if not isinstance(value, int) or abs(value) < 2**1000 else math.inf
    if math.isnan(number) or (finite and math.isinf(number)):
        raise error(f"{name} must be a finite number, not {shown(value)}")
    if minimum is not None and number < minimum:
        raise error(f"{name} must be at least {minimum:g}, not {shown(value)}")
    if above is not None and number <= above:
        raise error(f"{name} must be above {above:g}, not {shown(value)}")
    return number


def need_text(value: object, name: str) -> str:
    """``value``, which must be a string (not bytes)."""
    if not isinstance(value, str):
        raise _type_error(name, "a string", value)
    return value


def need_choice(
    value: object, name: str, choices: Iterable[str], *, error: type[PliesError] = PliesError
) -> str:
    """``value``, one of the strings ``choices``; another string raises ``error``
    listing them, another type :class:`ArgumentTypeError`."""
    known = tuple(choices)
    if not isinstance(value, str):
        raise _type_error(name, f"one of {', '.join(known)}", value)
    if value not in known:
        raise error(f"unknown {name} {shown(value)} (known: {', '.join(known)})")
    return value


def need_object(value: Any, kind: type, name: str) -> Any:
    """``value``, which must be an instance of ``kind`` (a Tree, a TreeResult...)."""
    if not isinstance(value, kind):
        raise _type_error(name, f"a {kind.__name__}", value)
    return value


def need_callable(value: object, name: str) -> Callable[..., Any]:
    """``value``, which must be callable."""
    if not callable(value):
        raise _type_error(name, "callable", value)
    return value


def need_path(value: object, name: str) -> Path:
    """``value``, a path given as a string or a :class:`~pathlib.Path`, as a Path."""
    if not isinstance(value, str | os.PathLike) or isinstance(value, bytes):
        raise _type_error(name, "a path (a string or a pathlib.Path)", value)
    path = Path(value)
    if not str(path) or "\0" in str(path):
        raise PliesError(f"{name} is not a usable path: {shown(value)}")
    return path


def memory_bytes() -> int:
    """The memory this process may use at most: the machine's physical memory, or
    less where an address-space limit (``ulimit -v``) or the container's (cgroup)
    limit is lower."""
    import resource  # here, not at the top: Pyodide's Python has no resource module

    found = [os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")]
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        found.append(soft)
    for limit_file in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            text = Path(limit_file).read_text().strip()
        except OSError:
            continue
        if text.isdigit():
            found.append(int(text))
    return min(found)


def check_memory(nbytes: int, what: str, *, advice: str | None = None) -> None:
    """Raise :class:`LimitError` when ``what`` (say, "a table of 10**12 entries") needs
    more than :func:`memory_bytes`: ``nbytes`` bytes."""
    available = memory_bytes()
    if nbytes > available:
        raise LimitError(
            f"{what} needs {_size(nbytes)}, more than the {_size(available)} of memory "
            "this machine has",
            advice=advice,
        )


def _size(nbytes: int) -> str:
    """Bytes in the largest unit up to PB that keeps a number of at least 1 (``1.5 GB``,
    ``5,000 PB``)."""
    size = float(nbytes)
    unit = "bytes"
    for larger in ("kB", "MB", "GB", "TB", "PB"):
        if size < 1000:
            break
        size, unit = size / 1000, larger
    if unit == "bytes":
        return f"{nbytes:,} bytes"
    return f"{size:,.0f} {unit}" if size >= 100 else f"{size:.3g} {unit}"
