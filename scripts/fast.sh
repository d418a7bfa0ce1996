#!/usr/bin/env bash
# The fast lane for developing: the unit tests in parallel (pytest-xdist, one worker per
# core), without the tests marked browser, cluster or slow (tests/conftest.py marks
# them). Not what CI runs: that is scripts/test.sh, which also lints, type-checks,
# checks the floors and builds the site. Extra arguments go to pytest
# (scripts/fast.sh tests/trees, scripts/fast.sh -x, ...). Needs the test extra in .venv
# (scripts/test.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."
exec .venv/bin/python -m pytest -n auto -m "not browser and not cluster and not slow" "$@"
