#!/usr/bin/env bash
# Installs everything the test suite needs on a fresh machine, then runs lint, types and tests.
# Used verbatim by README.md and .ci/run. Safe to run again: installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"

# apt-get that waits (at most APT_LOCK_WAIT seconds, 300 by default) while another process
# (an unattended upgrade, another install) holds the apt or dpkg lock, instead of failing
# at once. DPkg::Lock::Timeout makes 'install' wait for dpkg's lock, but 'update' takes
# the package lists' lock, which no option waits for: retry while apt says a lock is held.
apt_get() {
  local deadline=$((SECONDS + ${APT_LOCK_WAIT:-300})) log status
  log=$(mktemp)
  while true; do
    status=0
    $sudo apt-get -o "DPkg::Lock::Timeout=${APT_LOCK_WAIT:-300}" "$@" 2>"$log" || status=$?
    if [ "$status" -eq 0 ] || ! grep -qiE "could not get lock|unable to (lock|acquire)" "$log" \
      || [ "$SECONDS" -ge "$deadline" ]; then
      cat "$log" >&2; rm -f "$log"; return "$status"
    fi
    echo "scripts/test.sh: another process holds the apt lock; waiting for it" >&2
    sleep "${APT_LOCK_POLL:-5}"
  done
}

# The package lists, read once a run (before the first install needs them).
apt_updated=0
apt_update_once() {
  if [ "$apt_updated" -eq 0 ]; then
    apt_get update -qq
    apt_updated=1
  fi
}

# A C++ compiler and a JDK build the worked examples of plies grade's program form
# (docs/grade/examples), which tests/grade grades. Installed only when missing.
compilers=()
command -v g++ >/dev/null 2>&1 || compilers+=(g++)
command -v javac >/dev/null 2>&1 || compilers+=(default-jdk-headless)
if [ ${#compilers[@]} -gt 0 ]; then
  echo "scripts/test.sh: installing Debian packages for plies grade's examples: ${compilers[*]}" >&2
  apt_update_once
  DEBIAN_FRONTEND=noninteractive apt_get install -y -qq --no-install-recommends "${compilers[@]}"
fi

# A project-local virtual environment keeps the machine's own Python untouched. Its
# packages install in the background while apt installs the system packages below
# (pip needs only the compiler above, for a source package with a C extension); the
# script waits for it before the npm packages.
[ -x .venv/bin/python ] || python3 -m venv .venv
pip_log=$(mktemp)
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]" >"$pip_log" 2>&1 &
pip_pid=$!

# System packages the tests use (Debian names). Installed only when missing.
# graphviz (dot) draws SVG/PNG; chromium runs the HTML stepper test; texlive-latex-base and
# texlive-pictures (TikZ) compile the LaTeX drawings and worksheets; fonts-dejavu-core has α,
# β and ∞; imagemagick is the library under Wand, which amc2moodle (the Moodle XML check) loads;
# stockfish (in /usr/games) is the UCI engine plies match plays against (tests/lab/test_match_uci.py).
system_packages=(graphviz chromium fonts-dejavu-core texlive-latex-base texlive-pictures imagemagick
  stockfish)
if [ ${#system_packages[@]} -gt 0 ]; then
  missing=()
  for pkg in "${system_packages[@]}"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  # npm (with Node.js) installs axe-core and Pyodide below; Debian's only when there is none.
  command -v npm >/dev/null 2>&1 || missing+=(npm)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "scripts/test.sh: installing Debian packages for the drawing and browser tests" \
      "(about 0.5 GB with their dependencies): ${missing[*]}" >&2
    apt_update_once
    DEBIAN_FRONTEND=noninteractive apt_get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# The Python packages started above.
if ! wait "$pip_pid"; then
  cat "$pip_log" >&2
  echo "scripts/test.sh: pip could not install plies and its test extra (above)" >&2
  exit 1
fi
cat "$pip_log" >&2; rm -f "$pip_log"

# axe-core, the accessibility checker the browser tests run in every page, from the npm
# registry at the exact version and checksum in tests/axe/package-lock.json (into
# tests/axe/node_modules). Installed only when that version is missing.
axe_wanted=$(node -p "require('./tests/axe/package-lock.json').packages['node_modules/axe-core'].version")
axe_found=$(node -p "require('./tests/axe/node_modules/axe-core/package.json').version" 2>/dev/null || true)
if [ "$axe_found" != "$axe_wanted" ]; then
  npm ci --prefix tests/axe --no-audit --no-fund --loglevel=error
fi
export PLIES_REQUIRE_AXE=1  # the accessibility tests fail, not skip, without axe-core

# Pyodide, the Python that plies site's pages run in the browser, from the npm registry
# at the exact version and checksum in tests/pyodide/package-lock.json (into
# tests/pyodide/node_modules): the static-site tests build with --pyodide from it, since
# CI has no internet. Installed only when that version is missing.
pyodide_wanted=$(node -p "require('./tests/pyodide/package-lock.json').packages['node_modules/pyodide'].version")
pyodide_found=$(node -p "require('./tests/pyodide/node_modules/pyodide/package.json').version" 2>/dev/null || true)
if [ "$pyodide_found" != "$pyodide_wanted" ]; then
  npm ci --prefix tests/pyodide --no-audit --no-fund --loglevel=error
fi
export PLIES_REQUIRE_PYODIDE=1  # the static-site tests fail, not skip, without it

.venv/bin/ruff check src tests benchmarks
.venv/bin/mypy
.venv/bin/lint-imports  # the floors ([tool.importlinter] in pyproject.toml)

# The documentation site (docs/, mkdocs.yml), every warning an error (a broken link, a
# page left out of the navigation, a docstring mkdocstrings cannot read). It must need no
# network: where this user may make a network namespace, it is built in one with none.
docs_site=$(mktemp -d)
trap 'rm -rf "$docs_site"' EXIT
offline=()
unshare --net --map-root-user true 2>/dev/null && offline=(unshare --net --map-root-user)
NO_MKDOCS_2_WARNING=1 "${offline[@]}" .venv/bin/mkdocs build --strict --site-dir "$docs_site"

# The tests in two runs: on every core (pytest-xdist) the unit tests and the slow tests
# that only compute, then, one at a time, those that drive Chromium, start a Dask cluster
# or are marked alone (markers from tests/conftest.py): they time replies and limits and
# start processes of their own. Both run even when the first fails; the status is the
# first failure's.
status=0
.venv/bin/python -m pytest -n auto -m "not browser and not cluster and not alone" || status=$?
.venv/bin/python -m pytest -m "browser or cluster or alone" || status=$?
exit "$status"
