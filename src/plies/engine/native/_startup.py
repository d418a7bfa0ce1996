"""Start-up of plies' own processes: what only they may change in Numba.

Two costs of a fresh process's first native search or solve, both of Numba preparing
to *compile* when plies' kernels are only *loaded* from its cache:

* Numba's ``numba.np.arraymath`` probes SciPy's BLAS by importing
  ``scipy.linalg.cython_blas`` (to know whether ``np.dot`` can compile). Where SciPy
  is installed that import takes 0.2-0.3 s, and plies' kernels use no BLAS: the probe
  is made to fail at once (Numba then compiles no ``np.dot`` in this process).
* Before loading a function from its cache, Numba refreshes the CPU target: it imports
  and installs every implementation it could compile (``numba.np``, ``numba.cpython``,
  ``numba.typed``, ...: 59 modules, 0.14 s of CPU and 11 MB for
  ``plies solve connect4 32164625``) and initialises its runtime (NRT), of which
  loaded code needs only the runtime. A load initialises only the runtime here; a
  compile refreshes the target itself as before (Numba's compiler does at its start),
  so compiling after a load still finds everything.

:func:`skip_blas_probe` does both, in plies' own process only (the command line, a
cluster's workers); a program that imports plies as a library keeps Numba as it is.

One change is made in every process, library or not (:func:`follow_imports`, when
:mod:`plies.engine.native` is imported): Numba stamps a cached function with its own
source file only, so a constant compiled in from another module (the chess
evaluation's tables, imported by its port from ``_tables.py``) could change while
Numba went on loading the code compiled with the old value, and the native search
silently disagreed with the Python one. For a file of plies' package the stamp also
holds a digest of the plies modules the file imports at its top (the one level
plies' own object cache follows, ``_mapped.imported_sources``): changing any of them
makes Numba compile again.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["follow_imports", "load_without_refresh", "skip_blas_probe"]

PROBING = "numba.np.arraymath"
PROBED = "scipy.linalg.cython_blas"
CACHING = "numba.core.caching"


# The loaders and the finder below are duck-typed, as the import system allows (it
# calls only these methods): importlib.abc imports importlib.resources, tempfile and
# shutil, 8-10 ms of every plies process's start.


class _Probe:
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


class _Then:
    """Runs a module, then ``action`` on it."""

    def __init__(self, loader: Any, action: Callable[[ModuleType], None]) -> None:
        self.loader = loader
        self.action = action

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)  # type: ignore[no-any-return]

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        self.action(module)


class _Finder:
    """Finds one module once, through the other finders, with the loader ``wrap``
    makes of its own."""

    def __init__(self, name: str, wrap: Callable[[Any], Any]) -> None:
        self.name = name
        self.wrap = wrap

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = self.wrap(spec.loader)
        return spec


def _hooked(name: str) -> bool:
    return any(isinstance(f, _Finder) and f.name == name for f in sys.meta_path)


def _load_overload(self: Any, sig: Any, target_context: Any) -> Any:
    """``Cache.load_overload`` initialising the CPU target's runtime only (see the
    module docstring); another target's load refreshes it as Numba does."""
    from numba.core.cpu import CPUContext
    from numba.core.runtime.nrt import rtsys

    if not isinstance(target_context, CPUContext):
        return _FULL_LOAD[0](self, sig, target_context)
    rtsys.initialize(target_context)  # what the refresh does that loaded code needs
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)
    return None  # the guard swallowed an I/O error: not in the cache  # pragma: no cover


#: Numba's own ``Cache.load_overload``, once replaced.
_FULL_LOAD: list[Any] = []


def _patch_caching(caching: ModuleType) -> None:
    """Make ``caching.Cache`` load without the refresh, where it is the Cache this
    module was written against (else leave it)."""
    cache = getattr(caching, "Cache", None)
    if _FULL_LOAD or cache is None:
        return
    needed = ("load_overload", "_load_overload", "_guard_against_spurious_io_errors")
    if not all(hasattr(cache, name) for name in needed):
        return
    _FULL_LOAD.append(cache.load_overload)
    cache.load_overload = _load_overload


#: What is to be done to Numba's cache module once it is imported.
_CACHING_PATCHES: list[Callable[[ModuleType], None]] = []


def _when_caching(patch: Callable[[ModuleType], None]) -> None:
    """Apply ``patch`` to Numba's cache module now if it is imported, else when it is."""
    caching = sys.modules.get(CACHING)
    if caching is not None:
        patch(caching)
        return
    if patch not in _CACHING_PATCHES:
        _CACHING_PATCHES.append(patch)
    if not _hooked(CACHING):
        sys.meta_path.insert(0, _Finder(CACHING, lambda loader: _Then(loader, _patch_all)))


def _patch_all(caching: ModuleType) -> None:
    for patch in _CACHING_PATCHES:
        patch(caching)


def load_without_refresh() -> None:
    """Make Numba load cached functions without refreshing its CPU target first (see
    the module docstring), now if Numba's cache module is imported, else when it is."""
    _when_caching(_patch_caching)


#: The folder of plies' package, whose files' stamps follow their imports.
_PACKAGE = Path(__file__).resolve().parents[2]


class _StampedLocator:
    """A Numba cache locator whose source stamp also holds ``digest``."""

    def __init__(self, locator: Any, digest: str) -> None:
        self._locator = locator
        self._digest = digest

    def get_source_stamp(self) -> Any:
        """The stamp of the function's own file, with the digest of its imports."""
        return (self._locator.get_source_stamp(), self._digest)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._locator, name)


@functools.cache
def imports_digest(source: Path) -> str:
    """A digest of the plies modules ``source`` imports at its top (empty: none)."""
    from plies.engine.native._mapped import imported_sources

    paths = imported_sources(source)
    if not paths:
        return ""
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:24]


def _stamp_imports(caching: ModuleType) -> None:
    """Make the stamps of plies' cached functions cover their files' imports."""
    impl = getattr(caching, "CacheImpl", None)
    if impl is None or getattr(impl, "_plies_follows_imports", False):
        return
    original = impl.__init__

    def __init__(self: Any, py_func: Any) -> None:
        original(self, py_func)
        locator = getattr(self, "_locator", None)
        source = Path(inspect.getfile(py_func)).resolve()
        if locator is not None and source.is_relative_to(_PACKAGE):
            digest = imports_digest(source)
            if digest:
                self._locator = _StampedLocator(locator, digest)

    impl.__init__ = __init__
    impl._plies_follows_imports = True


def follow_imports() -> None:
    """Make Numba's cache stamps of plies' files cover the plies modules each imports
    (see the module docstring), now if Numba's cache module is imported, else when
    it is."""
    _when_caching(_stamp_imports)


def skip_blas_probe() -> None:
    """Make Numba's BLAS probe fail at once in this process, and its loads skip the
    target's refresh (see the module docstring); call it only in plies' own process,
    before Numba loads."""
    if PROBING not in sys.modules and not _hooked(PROBING):
        sys.meta_path.insert(0, _Finder(PROBING, _Probe))
    load_without_refresh()
