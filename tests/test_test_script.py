"""scripts/test.sh waits for a held apt lock instead of failing at once.

Its ``apt_get`` function is run here with a stand-in ``apt-get`` on PATH that says
what Debian's says while another process holds the lock, so no real lock is taken.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "test.sh"

LOCKED = (
    "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 4242 (apt-get)\n"
    "E: Unable to lock directory /var/lib/apt/lists/\n"
)


def shell_function(name: str) -> str:
    """The definition of the shell function ``name``, as test.sh has it."""
    match = re.search(rf"^{name}\(\) \{{\n.*?^\}}\n", SCRIPT.read_text(), re.S | re.M)
    assert match is not None, f"scripts/test.sh defines no {name}() function"
    return match.group(0)


def apt_get_function() -> str:
    """The ``apt_get`` function's definition, as test.sh has it."""
    return shell_function("apt_get")


def fake_apt_get(tmp_path: Path, *, locked_calls: int, then: str = "ok") -> Path:
    """A directory with an ``apt-get`` that reports a held lock ``locked_calls`` times,
    then succeeds (``then="ok"``) or fails for another reason (``"broken"``)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "calls"
    calls.write_text("")
    script = bin_dir / "apt-get"
    script.write_text(
        "#!/usr/bin/env bash\n"
        f'echo "$*" >> {calls}\n'
        f"n=$(wc -l < {calls})\n"
        f"if [ \"$n\" -le {locked_calls} ]; then printf '%s' '{LOCKED}' >&2; exit 100; fi\n"
        + (
            "exit 0\n"
            if then == "ok"
            else "echo 'E: Unable to locate package nosuch' >&2; exit 100\n"
        )
    )
    script.chmod(0o755)
    return bin_dir


def run_apt_get(bin_dir: Path, *, wait: float) -> subprocess.CompletedProcess[str]:
    """``apt_get update -qq`` with ``bin_dir`` first on PATH, polling every 0.05 s."""
    program = f'sudo=""\n{apt_get_function()}\napt_get update -qq\n'
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "APT_LOCK_WAIT": str(wait), "APT_LOCK_POLL": "0.05"}
    return subprocess.run(
        ["bash", "-c", program], check=False, capture_output=True, text=True, env=env, timeout=30
    )


def calls_made(bin_dir: Path) -> list[str]:
    return (bin_dir.parent / "calls").read_text().splitlines()


def test_a_held_lock_is_waited_for(tmp_path: Path) -> None:
    bin_dir = fake_apt_get(tmp_path, locked_calls=3)
    done = run_apt_get(bin_dir, wait=20)
    assert done.returncode == 0, done.stderr
    assert len(calls_made(bin_dir)) == 4
    assert "waiting for it" in done.stderr
    assert all("DPkg::Lock::Timeout=20" in call for call in calls_made(bin_dir))


def test_the_wait_is_bounded(tmp_path: Path) -> None:
    bin_dir = fake_apt_get(tmp_path, locked_calls=10**6)
    done = run_apt_get(bin_dir, wait=1)
    assert done.returncode == 100
    assert "Could not get lock" in done.stderr


def test_other_failures_are_not_retried(tmp_path: Path) -> None:
    bin_dir = fake_apt_get(tmp_path, locked_calls=0, then="broken")
    done = run_apt_get(bin_dir, wait=20)
    assert done.returncode == 100
    assert len(calls_made(bin_dir)) == 1
    assert "Unable to locate package" in done.stderr


def test_every_apt_get_in_the_script_goes_through_the_wait() -> None:
    body = SCRIPT.read_text().replace(apt_get_function(), "")
    bare = [line for line in body.splitlines() if re.search(r"\bapt-get\b", line)]
    assert not [line for line in bare if not line.lstrip().startswith("#")]


def test_the_package_lists_are_read_once_a_run(tmp_path: Path) -> None:
    bin_dir = fake_apt_get(tmp_path, locked_calls=0)
    program = (
        f'set -euo pipefail\nsudo=""\n{apt_get_function()}\napt_updated=0\n'
        f"{shell_function('apt_update_once')}\napt_update_once\napt_update_once\n"
    )
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin"}
    done = subprocess.run(
        ["bash", "-c", program], check=False, capture_output=True, text=True, env=env, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert [call.split()[-2:] for call in calls_made(bin_dir)] == [["update", "-qq"]]
    body = SCRIPT.read_text().replace(shell_function("apt_update_once"), "")
    assert not re.search(r"apt_get update", body)  # every update goes through it


def _pip_in_the_background(tmp_path: Path, status: int) -> subprocess.CompletedProcess[str]:
    """test.sh's lines that start pip in the background and wait for it, run in
    ``tmp_path`` with a stand-in ``.venv/bin/python`` that prints and exits ``status``."""
    text = SCRIPT.read_text()
    start = text[: text.index("pip_pid=$!")].rindex("pip_log=$(mktemp)")
    wait = text.index('if ! wait "$pip_pid"; then')
    waited = text.index('rm -f "$pip_log"', wait)
    program = (
        "set -euo pipefail\n"
        + text[start : text.index("\n", text.index("pip_pid=$!")) + 1]
        + "echo apt-ran >&2\n"
        + text[wait : text.index("\n", waited) + 1]
        + "echo after-pip\n"
    )
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/usr/bin/env bash\necho "pip says: $*"\nexit {status}\n')
    python.chmod(0o755)
    return subprocess.run(
        ["bash", "-c", program],
        cwd=tmp_path,
        check=False,
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_a_failed_pip_install_stops_the_script_with_its_output(tmp_path: Path) -> None:
    done = _pip_in_the_background(tmp_path, status=1)
    assert done.returncode == 1
    assert "apt-ran" in done.stderr and "pip says: -m pip install" in done.stderr
    assert "pip could not install plies" in done.stderr
    assert "after-pip" not in done.stdout


def test_a_pip_install_that_succeeds_lets_the_script_go_on(tmp_path: Path) -> None:
    done = _pip_in_the_background(tmp_path, status=0)
    assert done.returncode == 0, done.stderr
    assert "pip says: -m pip install" in done.stderr
    assert done.stdout == "after-pip\n"
