"""What the fork server of plies' local clusters imports before it forks the workers.

The workers of a cluster that plies starts (``--workers N``) run plies' jobs only, so
they are plies' own processes: Numba's BLAS probe is skipped there as on the command
line (:mod:`plies.engine.native._startup`), and Numba is imported once, in the server,
rather than by every worker after it starts.
"""

from __future__ import annotations

import contextlib

from plies.engine.native._startup import skip_blas_probe

skip_blas_probe()
with contextlib.suppress(Exception):  # no Numba (or a broken one): workers say so
    import numba.np.arraymath  # noqa: F401
