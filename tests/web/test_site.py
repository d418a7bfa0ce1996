"""``plies site`` writes a folder of static files: the pages with relative links only,
their scripts, plies as a pure-Python wheel and, from a local copy, Pyodide's core
files; and refuses a folder or a runtime that will not do, in one line."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from plies.web import PYODIDE_CDN, PYODIDE_VERSION, SiteError, build_site
from plies.web._site import PYODIDE_FILES, plies_wheel
from pyodide_helpers import LOCKED, runtime


def _pyodide_tgz(tmp_path: Path) -> Path:
    """The runtime as ``npm pack`` packs it: a .tgz with every file under package/."""
    packed = tmp_path / f"pyodide-{PYODIDE_VERSION}.tgz"
    with tarfile.open(packed, "w:gz") as archive:
        for path in sorted(runtime().iterdir()):
            archive.add(path, arcname=f"package/{path.name}")
    return packed


def _html_attributes(page: str) -> dict[str, object]:
    found = dict(re.findall(r'data-(\w+)="([^"]*)"', page.split("<head>", maxsplit=1)[0]))
    return {k: json.loads(v.replace("&quot;", '"')) if v.startswith(("{", "[")) else v
            for k, v in found.items()}  # fmt: skip


def test_the_pinned_runtime_is_the_one_the_tests_install() -> None:
    assert PYODIDE_VERSION == LOCKED
    assert f"https://cdn.jsdelivr.net/pyodide/v{LOCKED}/full/" == PYODIDE_CDN


def test_a_site_from_a_local_runtime_holds_everything_it_loads(tmp_path: Path) -> None:
    site = build_site(tmp_path / "site", pyodide=str(runtime()))
    files = set(site.files)
    assert {"index.html", "practice.html", "static/transport.js", "static/worker.mjs"} <= files
    assert {f"pyodide/{name}" for name in PYODIDE_FILES} <= files
    for name in PYODIDE_FILES:  # the runtime's files, unchanged
        assert (site.folder / "pyodide" / name).read_bytes() == (runtime() / name).read_bytes()
    lab = (site.folder / "index.html").read_text()
    runtime_settings = _html_attributes(lab)["runtime"]
    assert isinstance(runtime_settings, dict)
    assert runtime_settings["pyodide"] == "pyodide/" and runtime_settings["seconds"] == 10.0
    assert runtime_settings["limits"] == {
        "max_body": 1_000_000, "max_nodes": 200_000, "max_step_nodes": 2_000,
        "max_mcts_iterations": 100_000}  # fmt: skip
    for page in ("index.html", "practice.html"):
        text = (site.folder / page).read_text()
        # Every link relative: the folder works at any sub-path of any host.
        links = re.findall(r'(?:href|src)="([^"]*)"', text)
        assert links and all(not link.startswith(("/", "http")) for link in links), links
        assert "/api/" not in text and '"/' not in text
        for link in links:
            if not link.startswith(("data:", "./", "#")):
                assert (site.folder / link).is_file(), link


def test_a_site_from_the_cdn_holds_no_runtime(tmp_path: Path) -> None:
    site = build_site(tmp_path / "site")
    assert not any(name.startswith("pyodide/") for name in site.files)
    assert site.pyodide == PYODIDE_CDN
    settings = _html_attributes((site.folder / "practice.html").read_text())["runtime"]
    assert isinstance(settings, dict) and settings["pyodide"] == PYODIDE_CDN


def test_npm_packs_tarball_gives_the_same_site(tmp_path: Path) -> None:
    from_folder = build_site(tmp_path / "a", pyodide=str(runtime()))
    from_tgz = build_site(tmp_path / "b", pyodide=str(_pyodide_tgz(tmp_path)))
    assert from_folder.files == from_tgz.files
    for name in from_folder.files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_the_wheel_is_plies_pure_python_and_the_same_each_time(tmp_path: Path) -> None:
    name, data = plies_wheel()
    assert name == "plies-0.1.0-py3-none-any.whl" and plies_wheel()[1] == data
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        names = wheel.namelist()
        assert "plies/web/_api.py" in names and "plies/trees/_loop.py" in names
        assert not [n for n in names if n.endswith((".pyc", ".so")) or "__pycache__" in n]
        record = wheel.read("plies-0.1.0.dist-info/RECORD").decode().splitlines()
        for line in record[:-1]:  # each file's hash and size, as pip checks them
            path, digest, size = line.rsplit(",", 2)
            content = wheel.read(path)
            expected = base64.urlsafe_b64encode(hashlib.sha256(content).digest()).rstrip(b"=")
            assert digest == "sha256=" + expected.decode() and int(size) == len(content)
    # pip installs it, and the lab's operations answer from it with no other package.
    wheel_path = tmp_path / name
    wheel_path.write_bytes(data)
    target = tmp_path / "installed"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--no-index",
         "--target", str(target), str(wheel_path)],
        check=True, capture_output=True,
    )  # fmt: skip
    script = (
        "import sys; sys.modules['numpy'] = sys.modules['numba'] = None\n"
        "from plies.web._api import Limits, answer\n"
        "print(answer('search', {'tree': '[[3,12,8],[2,4,6],[14,5,2]]'}, Limits()).body.decode())"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", script], capture_output=True, text=True, check=True,
        env={"PYTHONPATH": str(target)},
    )  # fmt: skip
    assert json.loads(done.stdout)["value"] == 3


def test_a_site_is_written_again_over_itself_and_nothing_stale_stays(tmp_path: Path) -> None:
    folder = tmp_path / "site"
    build_site(folder, pyodide=str(runtime()))
    (folder / "wheels" / "plies-0.0.1-py3-none-any.whl").write_bytes(b"old")
    again = build_site(folder)  # now from the CDN: the local runtime goes too
    assert not (folder / "pyodide").exists()
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()) == (
        list(again.files)
    )


@pytest.mark.parametrize(
    ("setup", "pyodide", "message"),
    [
        ("full", None, "is not empty and holds no site of plies"),
        ("file", None, "is a file, not a folder"),
        (None, "nowhere/pyodide", "no such file or folder, and not an http(s) URL"),
        (None, "EMPTY", "is not a Pyodide runtime: it lacks pyodide.mjs, pyodide.asm.mjs"),
        (None, "NOT_TGZ", "is not a folder or a .tgz of Pyodide"),
    ],
)
def test_a_folder_or_runtime_that_will_not_do_is_one_clear_error(
    tmp_path: Path, setup: str | None, pyodide: str | None, message: str
) -> None:
    folder = tmp_path / "site"
    if setup == "full":
        folder.mkdir()
        (folder / "notes.txt").write_text("a teacher's own file")
    elif setup == "file":
        folder.write_text("")
    if pyodide == "EMPTY":
        (tmp_path / "empty").mkdir()
        pyodide = str(tmp_path / "empty")
    elif pyodide == "NOT_TGZ":
        (tmp_path / "pyodide.tgz").write_text("not a tarball")
        pyodide = str(tmp_path / "pyodide.tgz")
    with pytest.raises(SiteError, match=re.escape(message)):
        build_site(folder, pyodide=pyodide or "https://example.org/pyodide/")
    if setup == "full":  # nothing of the teacher's is touched
        assert [p.name for p in folder.iterdir()] == ["notes.txt"]


def test_plies_site_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "course" / "alphabeta"
    done = subprocess.run(
        [sys.executable, "-m", "plies", "site", str(folder), "--pyodide", str(runtime()),
         "--max-seconds", "3", "--max-nodes", "5000"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "wrote 15 files" in done.stdout and "works offline" in done.stdout
    settings = _html_attributes((folder / "index.html").read_text())["runtime"]
    assert isinstance(settings, dict)
    assert settings["seconds"] == 3.0 and settings["limits"]["max_nodes"] == 5000  # type: ignore[index]
    bad = subprocess.run(
        [sys.executable, "-m", "plies", "site", str(folder), "--pyodide", str(tmp_path / "nope")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("error: --pyodide ")
