"""``plies site``: the tree lab and the practice room as a folder of static files.

The folder runs plies itself in the browser: the pages are those ``plies serve`` sends,
their scripts call the same API operations (:mod:`plies.web._api`), answered by plies
under Pyodide in a Web Worker (``static/worker.mjs``) instead of a server, byte for byte
the server's answers. The folder holds:

* ``index.html`` (the lab), ``practice.html`` (the practice room) and ``prune.html``
  (prune-and-search: selection and 2-D LP); every link is
  relative, so the folder works at any sub-path of any static host;
* ``static/``: the pages' style and scripts, the transport and the worker;
* ``wheels/plies-VERSION-py3-none-any.whl``: plies as a pure-Python wheel, made here
  from the installed package (its lab path needs no NumPy, Numba or other package);
* ``pyodide/``: the Pyodide runtime's core files, when built from a local copy
  (``--pyodide PATH``: the ``pyodide`` npm package, as ``npm pack pyodide@VERSION``
  gives it, unpacked or not); otherwise the pages load Pyodide from a URL, by default
  :data:`PYODIDE_CDN`.
"""

from __future__ import annotations

import base64
import hashlib
import io
import shlex
import shutil
import tarfile
import zipfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path, PurePosixPath

import plies
from plies.errors import PliesError
from plies.web._api import Limits
from plies.web._pages import Site, lab_page, practice_page, prune_page

__all__ = [
    "PYODIDE_CDN",
    "PYODIDE_FILES",
    "PYODIDE_VERSION",
    "BuiltSite",
    "SiteError",
    "build_site",
    "describe_site",
    "plies_wheel",
]

#: The Pyodide release the site is made and tested with (npm package ``pyodide``).
PYODIDE_VERSION = "314.0.7"

#: Where Pyodide documents its releases on a public CDN (jsDelivr).
PYODIDE_CDN = f"https://cdn.jsdelivr.net/pyodide/v{PYODIDE_VERSION}/full/"

#: The runtime's core files, those a page loads (the rest of the npm package is not).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: The pages' own static files that the site copies.
STATIC_FILES = ("lab.css", "lab.js", "practice.js", "prune.js", "transport.js", "worker.mjs")

#: What marks a folder as a site ``plies site`` wrote (so it may write it again).
MARK = "static/worker.mjs"


class SiteError(PliesError):
    """The site cannot be written: the folder or the Pyodide runtime named is wrong."""


@dataclass(frozen=True)
class BuiltSite:
    """A site written: its ``folder``, every ``files`` written in it (relative paths,
    sorted), and ``pyodide``, the URL (relative when local) its pages load Pyodide
    from."""

    folder: Path
    files: tuple[str, ...]
    pyodide: str


def _digest(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def plies_wheel() -> tuple[str, bytes]:
    """The installed plies as a pure-Python wheel: its file name and bytes. Made from
    the package's own files (no build backend, no network), the same bytes for the same
    files (every date 1980-01-01)."""
    package = Path(plies.__file__).parent
    version = plies.__version__
    info = f"plies-{version}.dist-info"
    files: dict[str, bytes] = {}
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
            files[f"plies/{path.relative_to(package).as_posix()}"] = path.read_bytes()
    files[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: plies\nVersion: {version}\n".encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: plies site\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in files.items())
    files[f"{info}/RECORD"] = f"{record}{info}/RECORD,,\n".encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files.items():
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data)
    return f"plies-{version}-py3-none-any.whl", buffer.getvalue()


def _runtime_files(source: Path) -> dict[str, bytes]:
    """Pyodide's core files from ``source``: a folder holding them (the npm package,
    unpacked: ``node_modules/pyodide`` or ``npm pack``'s ``package/``) or the ``.tgz``
    that ``npm pack pyodide@VERSION`` writes."""
    if source.is_dir():
        found = {name: source / name for name in PYODIDE_FILES if (source / name).is_file()}
        missing = [name for name in PYODIDE_FILES if name not in found]
        if missing:
            raise SiteError(
                f"{source} is not a Pyodide runtime: it lacks {', '.join(missing)} "
                f"(give the pyodide npm package: npm pack pyodide@{PYODIDE_VERSION})"
            )
        return {name: path.read_bytes() for name, path in found.items()}
    if not source.is_file():
        raise SiteError(f"--pyodide {source}: no such file or folder, and not an http(s) URL")
    try:
        with tarfile.open(source, "r:*") as archive:
            members = {PurePosixPath(m.name).name: m for m in archive.getmembers() if m.isfile()}
            missing = [name for name in PYODIDE_FILES if name not in members]
            if missing:
                raise SiteError(f"{source} holds no Pyodide runtime: it lacks {', '.join(missing)}")
            files: dict[str, bytes] = {}
            for name in PYODIDE_FILES:
                member = archive.extractfile(members[name])
                if member is None:
                    raise SiteError(f"{source}: cannot read {name}")
                files[name] = member.read()
            return files
    except (tarfile.TarError, OSError) as exc:
        raise SiteError(f"{source} is not a folder or a .tgz of Pyodide: {exc}") from None


def _check_folder(folder: Path) -> None:
    """A site is written into a new or empty folder, or over a site written before."""
    if folder.exists() and not folder.is_dir():
        raise SiteError(f"{folder} is a file, not a folder")
    if folder.is_dir() and any(folder.iterdir()) and not (folder / MARK).is_file():
        raise SiteError(
            f"{folder} is not empty and holds no site of plies: give a new or empty folder"
        )


def build_site(
    folder: str | Path,
    *,
    pyodide: str = PYODIDE_CDN,
    max_body: int = Limits.max_body,
    max_nodes: int = Limits.max_nodes,
    max_step_nodes: int = Limits.max_step_nodes,
    max_mcts_iterations: int = Limits.max_mcts_iterations,
    max_seconds: float = 10.0,
) -> BuiltSite:
    """Write the static site into ``folder`` (new, empty, or a site written before).

    ``pyodide`` is the URL of a Pyodide runtime (a folder of the public CDN by
    default), or the path of a local copy to put into the site (a folder or the
    ``.tgz`` of the ``pyodide`` npm package), for a site that needs nothing outside
    itself. ``max_body``, ``max_nodes``, ``max_step_nodes`` and
    ``max_mcts_iterations`` bound each request as
    ``plies serve``'s limits of those names do, and a request that takes longer than
    ``max_seconds`` is stopped (its worker ended and a fresh one
    started). :class:`SiteError` for a folder or runtime that will not do.
    """
    if max_seconds <= 0:
        raise SiteError(f"the time limit must be positive, not {max_seconds:g} s")
    target = Path(folder)
    _check_folder(target)
    remote = pyodide.startswith(("http://", "https://"))
    runtime = {} if remote else _runtime_files(Path(pyodide).expanduser())
    index_url = (pyodide if pyodide.endswith("/") else pyodide + "/") if remote else "pyodide/"
    wheel_name, wheel = plies_wheel()
    site = Site(
        root="",
        pages=(
            ("lab", "./", "Lab"),
            ("practice", "practice.html", "Practice"),
            ("prune", "prune.html", "Prune-and-search"),
        ),
        runtime={
            "worker": "static/worker.mjs",
            "pyodide": index_url,
            "wheel": f"wheels/{wheel_name}",
            # The sizes the worker makes its Limits of (the MCTS walk keeps its default).
            "limits": {
                "max_body": max_body,
                "max_nodes": max_nodes,
                "max_step_nodes": max_step_nodes,
                "max_mcts_iterations": max_mcts_iterations,
            },
            "seconds": max_seconds,
        },
    )
    static = resources.files("plies.web") / "static"
    files: dict[str, bytes] = {
        "index.html": lab_page(site).encode(),
        "practice.html": practice_page(site).encode(),
        "prune.html": prune_page(site).encode(),
        f"wheels/{wheel_name}": wheel,
        **{f"static/{name}": (static / name).read_bytes() for name in STATIC_FILES},
        **{f"pyodide/{name}": data for name, data in runtime.items()},
    }
    for owned in ("static", "wheels", "pyodide"):  # no file of a site written before
        shutil.rmtree(target / owned, ignore_errors=True)
    for name, data in files.items():
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return BuiltSite(target, tuple(sorted(files)), index_url)


def describe_site(site: BuiltSite) -> str:
    """What a site holds and how to try it, for the command line."""
    size = sum((site.folder / name).stat().st_size for name in site.files)
    where = (
        "Pyodide from this folder (works offline)"
        if site.pyodide == "pyodide/"
        else f"Pyodide from {site.pyodide}"
    )
    return (
        f"wrote {len(site.files)} files ({size / 2**20:.1f} MB) to {site.folder}: the lab "
        f"(index.html), the practice room (practice.html) and prune-and-search "
        f"(prune.html), {where}.\n"
        f"Try it: python -m http.server --directory {shlex.quote(str(site.folder))} 8000, "
        "then open http://127.0.0.1:8000/"
    )
