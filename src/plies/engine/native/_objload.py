"""Compiled code without Numba: plies' own cache of C-ABI entries as object files.

Numba loading a kernel from its cache costs a fresh process 0.3-0.5 s and 90-150 MB
(``import numba`` alone: 0.30 s, 93 MB; LLVM's JIT: 73 MB more), where a one-off
Connect Four solve searches for 10 ms. So after Numba has compiled or loaded a
kernel once, its C-ABI entries (``numba.cfunc`` wrappers taking integers and
pointers) are written here as the ELF x86-64 relocatable object Numba's code
library emits, and a later process maps that object itself: its sections copied to
``mmap`` pages, its relocations applied, its external symbols (CPython's C API,
Numba's helper and runtime functions, taken from their extension modules without
importing Numba) resolved, and its code made executable; the entries are then
called through :mod:`ctypes` (which releases the GIL, as ``nogil`` kernels allow).

A cache file is named by everything its code depends on (:func:`cache_key`: the
sources' text, Numba's and llvmlite's versions, NumPy's, Python's, the CPU's
model and features and Numba's target variables), and holds that key again and
a digest of its objects: any mismatch, a truncated file, an object this loader
does not understand (another machine type, an unknown relocation) or a missing
symbol raises :class:`ObjectLoadError`, and the caller falls back to Numba.
Nothing compiled is shipped: each machine writes its own cache.
"""

from __future__ import annotations

import ctypes
import glob
import hashlib
import importlib.machinery
import importlib.util
import json
import mmap
import os
import struct
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from plies.errors import PliesError

__all__ = [
    "CEntry",
    "ObjectCacheMissing",
    "ObjectLoadError",
    "become_writer",
    "cache_enabled",
    "cache_key",
    "cache_path",
    "load_entries",
    "map_object",
    "numba_imported_here",
    "read_cache",
    "remember_numba_imports",
    "run_job",
    "runtime_symbol",
    "start_writer",
    "write_at_exit",
    "write_cache",
    "write_missing",
    "write_pending",
]

#: Set to ``0`` to make plies use Numba only (no object cache read or written).
DISABLE_VARIABLE = "PLIES_OBJECT_CACHE"
#: A directory for the cache files, instead of ``__pycache__`` beside the sources.
DIRECTORY_VARIABLE = "PLIES_OBJECT_CACHE_DIR"
#: The first bytes of a cache file (then a JSON header line, then the objects).
MAGIC = b"plies-objects-1\n"

# ELF constants (System V ABI, x86-64 supplement).
_ELF64_LE = b"\x7fELF\x02\x01"
_ET_REL, _EM_X86_64 = 1, 62
_SHT_SYMTAB, _SHT_RELA, _SHT_NOBITS = 2, 4, 8
_SHF_WRITE, _SHF_ALLOC, _SHF_EXECINSTR = 1, 2, 4
_SHN_UNDEF, _SHN_LORESERVE, _SHN_ABS = 0, 0xFF00, 0xFFF1
_R_64, _R_PC32, _R_PLT32, _R_GOTPCREL, _R_PC64 = 1, 2, 4, 9, 24
_R_GOTOFF64, _R_GOTPC32, _R_GOT64, _R_GOTPCREL64, _R_GOTPC64 = 25, 26, 27, 28, 29
_R_GOTPCRELX, _R_REX_GOTPCRELX = 41, 42
#: The symbol naming the global offset table (here: the external symbols' table).
_GOT = "_GLOBAL_OFFSET_TABLE_"
_PROT_R, _PROT_RW, _PROT_RX = 1, 3, 5
_SECTION = struct.Struct("<IIQQQQIIQQ")
_SYMBOL = struct.Struct("<IBBHQQ")
_RELA = struct.Struct("<QQq")
_PAGE = mmap.PAGESIZE
_UINT64 = (1 << 64) - 1

#: ctypes types of the entries' signature letters (``struct``'s, ``P`` a pointer).
_CTYPES: dict[str, Any] = {
    "Q": ctypes.c_uint64,
    "q": ctypes.c_int64,
    "?": ctypes.c_bool,
    "d": ctypes.c_double,
    "P": ctypes.c_void_p,
    "v": None,  # a result: none
}


class ObjectLoadError(PliesError):
    """A cached object cannot be used here (the caller falls back to Numba)."""


class ObjectCacheMissing(ObjectLoadError):
    """The cache file is missing, damaged or written for another key: worth writing
    again (unlike an object that does not map here, which would not map next time)."""


class CEntry(NamedTuple):
    """A C-ABI entry of a cached object: its symbol and signature (``struct``
    letters: the result's, then the arguments', ``P`` for a pointer, ``d`` a float64,
    ``v`` no result)."""

    symbol: str
    signature: str


class _Section(NamedTuple):
    kind: int
    flags: int
    offset: int
    size: int
    link: int
    info: int
    align: int


class _Symbol(NamedTuple):
    name: str
    section: int
    value: int


class MappedObject:
    """An object file mapped into this process: its defined symbols' addresses.
    The pages stay mapped as long as this object lives (keep it with the entries)."""

    def __init__(self, pages: mmap.mmap, symbols: dict[str, int]) -> None:
        self.pages = pages
        self.symbols = symbols


def map_object(data: bytes, resolve: Callable[[str], int]) -> MappedObject:
    """Map the ELF x86-64 relocatable object ``data``: sections laid out in pages
    (code, read-only data, writable data), relocations applied, external symbols
    from ``resolve(name)`` (an address, or :class:`ObjectLoadError`) through a table of
    their addresses beside the code, then the code made executable."""
    sections = _sections(data)
    symbols = _symbols(data, sections)
    layout, spans, table_at, size = _layout(sections, symbols)
    stubs_at = spans[-1][0]
    externals = _externals(symbols)
    pages = mmap.mmap(-1, size, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    base = ctypes.addressof(ctypes.c_char.from_buffer(pages))
    addresses = {name: base + table_at if name == _GOT else resolve(name) for name in externals}
    for index, at in layout.items():
        section = sections[index]
        if section.kind != _SHT_NOBITS:
            pages[at : at + section.size] = data[section.offset : section.offset + section.size]
    slots = {name: table_at + 8 * n for n, name in enumerate(externals)}
    stubs = {name: stubs_at + 8 * n for n, name in enumerate(externals)}
    for name, at in slots.items():
        struct.pack_into("<Q", pages, at, addresses[name])
        # A stub for calls through the PLT: jmp *[rip + to the slot], then int3 int3.
        stub = stubs[name]
        struct.pack_into("<BBiBB", pages, stub, 0xFF, 0x25, at - (stub + 6), 0xCC, 0xCC)

    def address(symbol: _Symbol) -> int:
        if symbol.section == _SHN_UNDEF:
            return addresses[symbol.name]
        if symbol.section == _SHN_ABS:
            return symbol.value
        if symbol.section not in layout:
            raise ObjectLoadError(f"symbol {symbol.name!r} lies in an unloaded section")
        return base + layout[symbol.section] + symbol.value

    for section in sections:
        if section.kind == _SHT_RELA and section.info in layout:
            jumps = (
                {name: base + at for name, at in slots.items()},
                {name: base + at for name, at in stubs.items()},
                base + table_at,
            )
            _relocate(data, section, layout[section.info], pages, base, symbols, address, jumps)
    _protect(base, spans)
    defined = {
        s.name: address(s)
        for s in symbols
        if s.name and s.section != _SHN_UNDEF and (s.section in layout or s.section == _SHN_ABS)
    }
    return MappedObject(pages, defined)


def _sections(data: bytes) -> list[_Section]:
    """The object's section headers; checks it is an x86-64 relocatable ELF64."""
    if len(data) < 64 or data[:6] != _ELF64_LE:
        raise ObjectLoadError("not a little-endian ELF64 object")
    kind, machine = struct.unpack_from("<HH", data, 16)
    if (kind, machine) != (_ET_REL, _EM_X86_64):
        raise ObjectLoadError(f"not an x86-64 relocatable object (type {kind}, machine {machine})")
    (table,) = struct.unpack_from("<Q", data, 0x28)
    entry_size, count = struct.unpack_from("<HH", data, 0x3A)
    if entry_size != _SECTION.size or table + count * entry_size > len(data):
        raise ObjectLoadError("truncated section table")
    sections = []
    for index in range(count):
        fields = _SECTION.unpack_from(data, table + index * entry_size)
        section = _Section(fields[1], fields[2], fields[4], fields[5], *fields[6:9])
        if section.kind != _SHT_NOBITS and section.offset + section.size > len(data):
            raise ObjectLoadError(f"section {index} lies past the end of the object")
        sections.append(section)
    return sections


def _symbols(data: bytes, sections: list[_Section]) -> list[_Symbol]:
    """The object's symbol table, names read."""
    tables = [s for s in sections if s.kind == _SHT_SYMTAB]
    if len(tables) != 1:
        raise ObjectLoadError(f"{len(tables)} symbol tables (one expected)")
    table, names = tables[0], sections[tables[0].link]
    symbols = []
    for at in range(table.offset, table.offset + table.size, _SYMBOL.size):
        name_at, _info, _other, section, value, _size = _SYMBOL.unpack_from(data, at)
        start = names.offset + name_at
        name = data[start : data.index(b"\0", start)].decode()
        symbols.append(_Symbol(name, section, value))
    return symbols


def _externals(symbols: list[_Symbol]) -> list[str]:
    """The names the object uses and does not define, sorted."""
    return sorted({s.name for s in symbols if s.section == _SHN_UNDEF and s.name})


def _layout(
    sections: list[_Section], symbols: list[_Symbol]
) -> tuple[dict[int, int], list[tuple[int, int, int]], int, int]:
    """``(offset of each loaded section, (start, end, protection) of each group of
    pages, offset of the external symbols' table, total size)``: code first, then
    read-only data, writable data, the external symbols' table and their stubs (the
    last group), each group on its own pages."""
    groups: tuple[list[int], list[int], list[int]] = ([], [], [])
    for index, section in enumerate(sections):
        if section.flags & _SHF_ALLOC and section.size:
            which = 0 if section.flags & _SHF_EXECINSTR else 2 if section.flags & _SHF_WRITE else 1
            groups[which].append(index)
    layout: dict[int, int] = {}
    spans = []
    offset = 0
    for group, protection in zip(groups, (_PROT_RX, _PROT_R, _PROT_RW), strict=True):
        start = offset
        for index in group:
            align = max(sections[index].align, 1)
            offset = -(-offset // align) * align
            layout[index] = offset
            offset += sections[index].size
        offset = -(-offset // _PAGE) * _PAGE
        spans.append((start, offset, protection))
    # The external symbols' addresses (read-only), then their stubs (code), 8 bytes each.
    table_at = offset
    stubs_at = -(-(offset + 8 * max(len(_externals(symbols)), 1)) // _PAGE) * _PAGE
    size = stubs_at + (stubs_at - table_at)
    spans.extend(((table_at, stubs_at, _PROT_R), (stubs_at, size, _PROT_RX)))
    return layout, spans, table_at, size


def _relocate(  # noqa: PLR0917
    data: bytes,
    section: _Section,
    target: int,
    pages: mmap.mmap,
    base: int,
    symbols: list[_Symbol],
    address: Callable[[_Symbol], int],
    jumps: tuple[dict[str, int], dict[str, int], int],
) -> None:
    """Apply one relocation section to its target section (at ``target``); ``jumps``:
    the addresses of each external symbol's slot in the table (the global offset
    table, GOT) and of its stub, and the table's."""
    slots, stubs, got = jumps
    for at in range(section.offset, section.offset + section.size, _RELA.size):
        offset, info, addend = _RELA.unpack_from(data, at)
        kind, symbol = info & 0xFFFFFFFF, symbols[info >> 32]
        place = target + offset
        here = base + place
        if kind == _R_64:
            struct.pack_into("<Q", pages, place, (address(symbol) + addend) & _UINT64)
        elif kind == _R_PC64:
            struct.pack_into("<q", pages, place, address(symbol) + addend - here)
        elif kind == _R_PLT32 and symbol.name in stubs:
            _put_int32(pages, place, stubs[symbol.name] + addend - here)
        elif kind in {_R_PC32, _R_PLT32}:
            _put_int32(pages, place, address(symbol) + addend - here)
        elif kind in {_R_GOTPCREL, _R_GOTPCRELX, _R_REX_GOTPCRELX} and symbol.name in slots:
            _put_int32(pages, place, slots[symbol.name] + addend - here)
        elif kind == _R_GOTPCREL64 and symbol.name in slots:
            struct.pack_into("<q", pages, place, slots[symbol.name] + addend - here)
        elif kind == _R_GOT64 and symbol.name in slots:
            struct.pack_into("<q", pages, place, slots[symbol.name] - got + addend)
        elif kind == _R_GOTPC32:
            _put_int32(pages, place, got + addend - here)
        elif kind == _R_GOTPC64:
            struct.pack_into("<q", pages, place, got + addend - here)
        elif kind == _R_GOTOFF64:
            struct.pack_into("<q", pages, place, address(symbol) + addend - got)
        else:
            raise ObjectLoadError(f"unsupported relocation type {kind} ({symbol.name!r})")


def _put_int32(pages: mmap.mmap, place: int, value: int) -> None:
    if not -(1 << 31) <= value < 1 << 31:
        raise ObjectLoadError(f"a 32-bit relocation out of range ({value:#x})")
    struct.pack_into("<i", pages, place, value)


def _protect(base: int, spans: list[tuple[int, int, int]]) -> None:
    """Give each group of pages its protection (code: read and execute)."""
    mprotect = ctypes.CDLL(None, use_errno=True).mprotect
    mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    for start, end, protection in spans:
        if end > start and mprotect(base + start, end - start, protection) != 0:
            raise ObjectLoadError(f"mprotect failed (errno {ctypes.get_errno()})")


_RUNTIME: dict[str, int] = {}


def runtime_symbol(name: str) -> int:
    """The address of an external symbol of Numba's code: Numba's helpers
    (``numba_*``) and runtime (``NRT_*``), from their extension modules' tables
    (loaded without importing Numba), else the process's (CPython's C API, libc's,
    libm's)."""
    if not _RUNTIME:
        _RUNTIME.update(_numba_helpers())
    if name in _RUNTIME:
        return _RUNTIME[name]
    # The process's global symbols: CPython's and the C libraries' it loaded (libc, libm).
    try:
        return int(ctypes.cast(getattr(ctypes.pythonapi, name), ctypes.c_void_p).value or 0)
    except AttributeError:
        raise ObjectLoadError(f"no symbol {name!r} in this process") from None


def _numba_helpers() -> dict[str, int]:
    """Numba's C helpers by the names its code calls: its ``_helperlib`` and
    ``_nrt_python`` extensions' ``c_helpers`` tables. The modules are the ones
    ``import numba`` uses (put in ``sys.modules`` under their names)."""
    root = _numba_root()
    helpers: dict[str, int] = {}
    for name, pattern, prefix in (
        ("numba._helperlib", "_helperlib.*", "numba_"),
        ("numba.core.runtime._nrt_python", "core/runtime/_nrt_python.*", "NRT_"),
    ):
        module = sys.modules.get(name) or _extension(name, root, pattern)
        for key, value in module.c_helpers.items():  # "_name": internal, not prefixed
            helpers[key if key.startswith("_") else prefix + key] = int(value)
    return helpers


def _numba_root() -> str:
    spec = importlib.util.find_spec("numba")
    if spec is None or not spec.submodule_search_locations:
        raise ObjectLoadError("numba is not installed")
    return str(spec.submodule_search_locations[0])


def _extension(name: str, root: str, pattern: str) -> Any:
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    paths = [p for p in glob.glob(os.path.join(root, pattern)) if p.endswith(tuple(suffixes))]
    if not paths:
        raise ObjectLoadError(f"no extension module {name} under {root}")
    loader = importlib.machinery.ExtensionFileLoader(name, paths[0])
    spec = importlib.util.spec_from_file_location(name, paths[0], loader=loader)
    if spec is None:
        raise ObjectLoadError(f"cannot load {paths[0]}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    return module


def cache_enabled() -> bool:
    """Whether the object cache is used: on x86-64 Linux, unless
    ``PLIES_OBJECT_CACHE=0`` or Numba's JIT is disabled."""
    return (
        os.environ.get(DISABLE_VARIABLE, "1") != "0"
        and os.environ.get("NUMBA_DISABLE_JIT", "0") in {"", "0"}
        and sys.platform.startswith("linux")
        and os.uname().machine == "x86_64"
    )


def cache_key(sources: Sequence[Path]) -> str:
    """A digest of everything compiled code depends on: the ``sources``' text,
    Numba's, llvmlite's and NumPy's versions, Python's, this CPU (model and
    features, as ``/proc/cpuinfo`` gives them) and Numba's target variables."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.read_bytes())
    digest.update(_environment_key().encode())
    digest.update(_cpu_description())
    for variable in ("NUMBA_CPU_NAME", "NUMBA_CPU_FEATURES", "NUMBA_OPT", "NUMBA_BOUNDSCHECK"):
        digest.update(f"{variable}={os.environ.get(variable, '')};".encode())
    return digest.hexdigest()[:24]


def _numpy_version() -> str:
    import numpy as np

    return str(np.__version__)


def _cpu_description() -> bytes:
    """The first processor's model and feature flags in ``/proc/cpuinfo``."""
    try:
        text = Path("/proc/cpuinfo").read_text()
    except OSError as exc:
        raise ObjectLoadError(f"cannot read /proc/cpuinfo ({exc})") from None
    first = text.split("\n\n", 1)[0]
    kept = [line for line in first.splitlines() if line.startswith(("model name", "flags"))]
    return "\n".join(kept).encode()


def cache_path(name: str, sources: Sequence[Path], directory: Path | None = None) -> Path:
    """The cache file of the entries called ``name`` compiled from ``sources``:
    in ``directory``, else :func:`cache_directory` of the first source."""
    folder = directory or cache_directory(sources[0])
    return folder / f"{name}.{cache_key(sources)}.objects"


def cache_directory(source: Path) -> Path:
    """Where the cache of code compiled from ``source`` lives: ``$PLIES_OBJECT_CACHE_DIR``,
    else ``__pycache__`` beside it (as Numba's cache) where this user may write, else
    ``plies`` in the user's cache directory (``$XDG_CACHE_HOME``, ``~/.cache``)."""
    chosen = os.environ.get(DIRECTORY_VARIABLE)
    if chosen:
        return Path(chosen)
    beside = source.parent / "__pycache__"
    if os.access(beside if beside.exists() else source.parent, os.W_OK):
        return beside
    user = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(user) / "plies"


def _environment_key() -> str:
    """A digest of the installed Numba, llvmlite and NumPy and of Python."""
    root = Path(_numba_root())
    digest = hashlib.sha256()
    for version_file in (root / "_version.py", root.parent / "llvmlite" / "_version.py"):
        digest.update(version_file.read_bytes() if version_file.exists() else b"?")
    digest.update(_numpy_version().encode())
    digest.update(sys.version.encode())
    return digest.hexdigest()[:24]


def _imports_marker() -> Path:
    return cache_directory(Path(__file__)) / f"numba-imports.{_environment_key()}"


def numba_imported_here() -> bool:
    """Whether Numba imported in an earlier process with the same Numba, llvmlite,
    NumPy and Python (:func:`remember_numba_imports`), known without importing it."""
    try:
        return cache_enabled() and _imports_marker().exists()
    except (ObjectLoadError, OSError):
        return False


def remember_numba_imports() -> None:
    """Note that Numba imports with these versions (for :func:`numba_imported_here`)."""
    try:
        marker = _imports_marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except (ObjectLoadError, OSError):
        pass


def write_cache(
    path: Path, objects: Sequence[bytes], entries: Mapping[str, tuple[int, CEntry]]
) -> None:
    """Write ``objects`` and their ``entries`` (name -> (index of the object, entry))
    to ``path`` at once (a temporary file renamed), removing older files of the
    same name (other keys)."""
    header = {
        "key": path.name,
        "objects": [[len(o), hashlib.sha256(o).hexdigest()] for o in objects],
        "entries": {name: [index, *entry] for name, (index, entry) in entries.items()},
    }
    import tempfile  # only here: its import took a solve's start-up 2 ms

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".objects")
    with os.fdopen(handle, "wb") as file:
        file.write(MAGIC + json.dumps(header).encode() + b"\n" + b"".join(objects))
    os.chmod(temporary, 0o644)  # as Numba's cache files: others may read
    os.replace(temporary, path)
    stem = path.name.split(".", 1)[0]
    for old in path.parent.glob(f"{stem}.*.objects"):
        if old != path:
            old.unlink(missing_ok=True)


def read_cache(path: Path) -> tuple[list[bytes], dict[str, tuple[int, CEntry]]]:
    """The objects and entries :func:`write_cache` wrote to ``path``, checked
    (its key, sizes and digests): :class:`ObjectCacheMissing` if it is missing or
    any is wrong."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ObjectCacheMissing(f"no object cache {path} ({exc.strerror})") from None
    if not data.startswith(MAGIC) or b"\n" not in data[len(MAGIC) :]:
        raise ObjectCacheMissing(f"{path} is not an object cache")
    end = data.index(b"\n", len(MAGIC))
    try:
        header = json.loads(data[len(MAGIC) : end])
        sizes = [(int(size), str(digest)) for size, digest in header["objects"]]
        entries = {
            str(name): (int(index), CEntry(str(symbol), str(signature)))
            for name, (index, symbol, signature) in header["entries"].items()
        }
    except (ValueError, KeyError, TypeError) as exc:
        raise ObjectCacheMissing(f"{path}'s header is damaged ({exc})") from None
    if header.get("key") != path.name:
        raise ObjectCacheMissing(f"{path} was written for another key")
    objects, at = [], end + 1
    for size, digest in sizes:
        blob = data[at : at + size]
        if hashlib.sha256(blob).hexdigest() != digest:
            raise ObjectCacheMissing(f"{path} is damaged (an object's digest differs)")
        objects.append(blob)
        at += size
    return objects, entries


def load_entries(path: Path) -> dict[str, Any]:
    """The entries cached in ``path`` as ctypes functions (name -> function), their
    objects mapped (kept alive by the functions): :class:`ObjectLoadError` if the
    cache is missing, stale, damaged or cannot be mapped here."""
    objects, entries = read_cache(path)
    mapped = [map_object(data, runtime_symbol) for data in objects]
    functions = {}
    for name, (index, entry) in entries.items():
        if not 0 <= index < len(mapped) or entry.symbol not in mapped[index].symbols:
            raise ObjectLoadError(f"{path} has no symbol {entry.symbol!r}")
        try:
            types = [_CTYPES[letter] for letter in entry.signature]
        except KeyError:
            raise ObjectLoadError(f"unknown signature {entry.signature!r}") from None
        function: Any = ctypes.CFUNCTYPE(*types)(mapped[index].symbols[entry.symbol])
        function.mapped = mapped[index]  # the pages live as long as the function
        functions[name] = function
    return functions


#: What compiles a cache's objects: ``(objects, entries)``, as :func:`write_cache` takes them.
Compile = Callable[[], tuple[list[bytes], dict[str, tuple[int, CEntry]]]]
#: What writes a cache, here or in a writer process: ``(module, function, arguments)``,
#: the function of a plies module called with those strings (see :func:`run_job`).
WriterJob = tuple[str, str, tuple[str, ...]]

#: The caches this process writes at exit: path -> the job that writes it.
_PENDING: dict[Path, WriterJob] = {}
#: Whether this process is a cache writer (it starts none at its own exit).
_WRITER: list[bool] = []
#: A writer's lock older than this (seconds) was left by a writer that died.
STALE_LOCK = 600.0


def write_at_exit(path: Path, job: WriterJob) -> None:
    """Have the cache ``path`` written once this process exits, Numba having loaded
    the code here: at exit a detached writer process (``python -m
    plies.engine.native._objwriter``) runs ``job``, which compiles the entries again
    and writes them (about 6 s of Numba for the kernel and a port), so that no
    command waits for it (:func:`write_pending` runs the jobs in this process
    instead). Never while the work runs: compiling the entries refreshes Numba's
    whole target (0.14 s, 11 MB, see ``_startup``), which this process's work should
    not pay."""
    if path in _PENDING or _WRITER or not cache_enabled():
        return
    if not _PENDING:
        import atexit

        atexit.register(start_writer)
    _PENDING[path] = job


def run_job(job: WriterJob) -> None:
    """Run ``job``: its function of a plies module (:class:`ValueError` for any other
    module), with its arguments."""
    module, function, arguments = job
    if not module.startswith("plies."):
        raise ValueError(f"a cache writer runs plies' functions only, not {module}")
    import importlib

    getattr(importlib.import_module(module), function)(*arguments)


def write_pending() -> None:
    """Write the caches :func:`write_at_exit` asked for, here and now."""
    while _PENDING:
        run_job(_PENDING.pop(next(iter(_PENDING))))


def start_writer() -> None:
    """Start a detached writer process for the pending caches not written yet (the
    exit hook :func:`write_at_exit` registers); failing that, leave them to a later
    process (the cache only saves time)."""
    jobs = [job for path, job in _PENDING.items() if not _present(path)]
    _PENDING.clear()
    if not jobs:
        return
    import subprocess

    root = str(Path(__file__).parents[3])  # the folder holding ``plies``
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (root, env.get("PYTHONPATH"))))
    try:
        subprocess.Popen(  # this Python, plies' own module
            [sys.executable, "-m", "plies.engine.native._objwriter", json.dumps(jobs)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # not stopped with this process's terminal
            env=env,
        )
    except OSError:
        return


def become_writer() -> None:
    """Mark this process as a cache writer: it asks for no writer at its own exit."""
    _WRITER[:] = [True]


def _present(path: Path) -> bool:
    """Whether the cache ``path`` is there and whole (one that is there but does not
    map here would not next time either: present too)."""
    try:
        read_cache(path)
    except ObjectCacheMissing:
        return False
    except (ObjectLoadError, OSError):
        return True
    return True


def write_missing(path: Path, compile_objects: Compile) -> None:
    """Write the cache ``path`` from ``compile_objects()`` unless it is there
    already, another writer holds its lock (``<path>.writing``, younger than
    :data:`STALE_LOCK`) or it cannot be written: the cache only saves time, so any
    failure leaves Numba's code to the next process too."""
    if _present(path):
        return
    lock = path.with_name(path.name + ".writing")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if lock.exists() and time.time() - lock.stat().st_mtime > STALE_LOCK:
            lock.unlink(missing_ok=True)
        os.close(os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
    except OSError:  # another writer's (or a folder this user may not write)
        return
    try:
        write_cache(path, *compile_objects())
    except Exception:  # Numba's code serves this process and the next
        return
    finally:
        lock.unlink(missing_ok=True)
