"""The fork server of local clusters (and of the web lab's workers): it and the
workers it forks ignore SIGINT, and a Ctrl-C that comes while it starts is not lost
for this process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from cluster_helpers import plies_env, run_python


def test_a_ctrl_c_while_the_server_starts_reaches_this_process_after() -> None:
    # In a process of its own: the signal goes to that process, not to pytest.
    code = (
        "import os, signal\n"
        "from plies._forkserver import starting_without_sigint\n"
        "got = []\n"
        "signal.signal(signal.SIGINT, lambda *_: got.append('SIGINT'))\n"
        "with starting_without_sigint():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN  # never here\n"
        "    print(got)\n"
        "print(got)\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "['SIGINT']"]  # held, then handled here


def test_a_ctrl_c_is_never_lost_to_another_thread() -> None:
    # A thread of another library (NumPy's OpenBLAS starts one) that does not block
    # SIGINT takes a signal sent to the process: it must still reach Python's handler.
    code = (
        "import os, signal, threading, time\n"
        "from plies._forkserver import starting_without_sigint\n"
        "got = []\n"
        "signal.signal(signal.SIGINT, lambda *_: got.append('SIGINT'))\n"
        "quiet = threading.Event()\n"
        "other = threading.Thread(target=quiet.wait)\n"
        "other.start()\n"
        "with starting_without_sigint():\n"
        "    for _ in range(20):\n"
        "        os.kill(os.getpid(), signal.SIGINT)\n"
        "        time.sleep(0.01)\n"
        "quiet.set()\n"
        "other.join()\n"
        "time.sleep(0.05)\n"
        "print(bool(got))\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True"


def test_the_server_and_its_workers_ignore_sigint(tmp_path: Path) -> None:
    code = (
        "import multiprocessing, signal\n"
        "from plies.cluster._forkserver import start_fork_server, stop_fork_server\n"
        "def report(queue):\n"
        "    queue.put(signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n"
        "if __name__ == '__main__':\n"
        # As an interactive shell leaves it (a shell's background job starts with
        # SIGINT ignored, and Python then keeps it so).
        "    signal.signal(signal.SIGINT, signal.default_int_handler)\n"
        "    start_fork_server()\n"
        "    context = multiprocessing.get_context('forkserver')\n"
        "    queue = context.Queue()\n"
        "    worker = context.Process(target=report, args=(queue,))\n"
        "    worker.start()\n"
        "    print(queue.get(timeout=60))\n"
        "    worker.join()\n"
        "    print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
        "    stop_fork_server()\n"
    )
    script = tmp_path / "server.py"  # a file: the workers import its function
    script.write_text(code, encoding="utf-8")
    command = [sys.executable, str(script)]
    done = subprocess.run(
        command, check=False, capture_output=True, text=True, env=plies_env(), timeout=180
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["True", "True"]  # the worker ignores; we do not
