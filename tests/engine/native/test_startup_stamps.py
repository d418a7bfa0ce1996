"""Numba's cache follows what plies' compiled files import: a constant changed in an
imported module is compiled in again, not loaded stale from the cache."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")

#: Loads ``probe`` (a cached function returning a constant it imports) in a fresh
#: process and prints its value. ``follow``: the probe's folder stands for plies'
#: package, its import of ``probe_const`` for a plies import; else Numba's own stamps.
RUN = """
import sys
from pathlib import Path
folder = Path(sys.argv[1])
sys.path.insert(0, str(folder))
from plies.engine.native import _mapped, _startup
if sys.argv[2] == "follow":
    _startup._PACKAGE = folder
    _mapped.imported_sources = lambda source: (
        [folder / "probe_const.py"] if source.name == "probe.py" else []
    )
else:
    _startup._PACKAGE = folder / "elsewhere"
import probe
print(probe.value())
"""

PROBE = """
from numba import njit

from probe_const import VALUE


@njit(cache=True)
def value():
    return VALUE
"""


def _value(folder: Path, mode: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(folder), mode],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def _probe(folder: Path) -> None:
    folder.mkdir()
    (folder / "probe.py").write_text(PROBE)
    (folder / "probe_const.py").write_text("VALUE = 1\n")


def test_a_changed_import_is_compiled_in_again(tmp_path: Path) -> None:
    folder = tmp_path / "follow"
    _probe(folder)
    assert _value(folder, "follow") == 1
    (folder / "probe_const.py").write_text("VALUE = 22\n")
    assert _value(folder, "follow") == 22
    assert _value(folder, "follow") == 22  # and cached again under the new stamp


def test_numbas_own_stamp_would_load_the_old_constant(tmp_path: Path) -> None:
    # Why the stamp is needed: Numba alone stamps the function's own file only.
    folder = tmp_path / "numba"
    _probe(folder)
    assert _value(folder, "numba") == 1
    (folder / "probe_const.py").write_text("VALUE = 22\n")
    assert _value(folder, "numba") == 1
