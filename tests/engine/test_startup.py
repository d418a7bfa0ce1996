"""Start-up: Numba's BLAS probe is skipped in plies' own processes."""

from __future__ import annotations

import subprocess
import sys

from plies.games.connect4 import Connect4

PROBE = (
    "import sys\n"
    "from plies.engine.native._startup import skip_blas_probe\n"
    "skip_blas_probe()\n"
    "import numba.np.arraymath as arraymath\n"
    "assert not arraymath._HAVE_BLAS, 'probed'\n"
    "assert 'scipy.linalg.cython_blas' not in sys.modules, 'left marked absent'\n"
    "import numpy as np\n"
    "from numba import njit\n"
    "print(njit(lambda a: a.sum())(np.arange(4)))\n"
)


def test_the_probe_fails_at_once_and_numba_still_compiles() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "6"


def test_plies_own_process_solves_with_the_probe_skipped() -> None:
    game = Connect4()
    line = "2252576253462244111563365343671351441"
    done = subprocess.run(
        [sys.executable, "-m", "plies", "solve", "connect4", line, "--moves", "none"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert game.result_of_score(game.parse_position(line), -1)[0] in done.stdout


def test_an_easy_single_position_is_answered_before_numba_loads() -> None:
    code = (
        "import sys\n"
        "from plies.cli import main\n"
        "status = main(['solve', 'connect4', '2252576253462244111563365343671351441', '--json'])\n"
        "assert 'numba' not in sys.modules, 'numba loaded'\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert '"backend": "python"' in done.stdout
