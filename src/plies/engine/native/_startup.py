"""Start-up of plies' own processes: what only they may change.

Numba's ``numba.np.arraymath``, which every compiled function loads before its first
call, probes SciPy's BLAS by importing ``scipy.linalg.cython_blas`` (to know whether
``np.dot`` can compile). Where SciPy is installed that import takes 0.2-0.3 s, a third
of ``plies solve connect4 POSITION``'s start-up, and plies' kernels use no BLAS. In
plies' own process the probe is made to fail at once (Numba then compiles no ``np.dot``
in it); a program that imports plies as a library keeps Numba as it is.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

__all__ = ["skip_blas_probe"]

PROBING = "numba.np.arraymath"
PROBED = "scipy.linalg.cython_blas"


class _Probe(importlib.abc.Loader):
    """Runs the probing module with the probed one marked absent, then unmarks it."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)  # type: ignore[no-any-return]

    def exec_module(self, module: ModuleType) -> None:
        absent = PROBED not in sys.modules
        if absent:
            sys.modules[PROBED] = None  # type: ignore[assignment]  # import raises at once
        try:
            self.loader.exec_module(module)
        finally:
            if absent and PROBED in sys.modules and sys.modules[PROBED] is None:
                del sys.modules[PROBED]


class _Finder(importlib.abc.MetaPathFinder):
    """Finds the probing module once, through the other finders, with :class:`_Probe`."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != PROBING:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _Probe(spec.loader)
        return spec


def skip_blas_probe() -> None:
    """Make Numba's BLAS probe fail at once in this process (see the module docstring);
    call it only in plies' own process, before Numba loads."""
    if PROBING not in sys.modules and not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
