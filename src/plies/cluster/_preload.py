"""What the fork server of plies' local clusters imports before it forks the workers.

The workers of a cluster that plies starts (``--workers N``) run plies' jobs only, so
they are plies' own processes: Numba's BLAS probe is skipped there as on the command
line (:func:`plies.engine.native.skip_blas_probe`), Numba is imported once, in the server,
rather than by every worker after it starts, and so is the batch's compiled kernel,
loaded by warming the batch's job up (:func:`plies.cluster._forkserver.warm_job_from_environment`):
every worker forked then starts with it loaded.
"""

from __future__ import annotations

import contextlib

from plies._forkserver import ignore_sigint

ignore_sigint()  # first: the server started with SIGINT blocked, its workers ignore it

from plies.engine.native import skip_blas_probe  # noqa: E402

skip_blas_probe()
with contextlib.suppress(Exception):  # no Numba (or a broken one): workers say so
    import numba.np.arraymath  # noqa: F401
# The fork server stops at any exception but an ImportError here; a job that fails to
# warm up fails on the workers again, where its lines report it.
with contextlib.suppress(Exception):
    from plies.cluster._forkserver import warm_job_from_environment

    warm_job_from_environment()
