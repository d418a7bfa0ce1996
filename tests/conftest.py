"""Test-wide settings.

Hypothesis: no per-example deadline (CI machines are shared and timing is measured in
benchmarks/, not in tests), and a fixed derandomised run under CI so a red build can be
reproduced exactly.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("plies", deadline=None)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "plies")
