"""The fork server of local clusters: started with SIGINT ignored, without losing a
Ctrl-C that comes meanwhile."""

from __future__ import annotations

from cluster_helpers import run_python


def test_a_ctrl_c_while_the_server_starts_reaches_this_process_after() -> None:
    # In a process of its own: the signal goes to that process, not to pytest.
    code = (
        "import os, signal\n"
        "from plies.cluster._forkserver import _sigint_ignored\n"
        "got = []\n"
        "signal.signal(signal.SIGINT, lambda *_: got.append('SIGINT'))\n"
        "with _sigint_ignored():\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN  # for the server\n"
        "    print(got)\n"
        "print(got)\n"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "['SIGINT']"]  # held, then handled here
