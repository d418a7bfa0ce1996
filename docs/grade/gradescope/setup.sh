#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu):
# it installs Python (3.11 or later) and plies in a virtual environment of its own.
#
# plies comes from the wheel you put in the autograder zip beside this file
# (plies-<version>-py3-none-any.whl, built from your plies checkout with
# `python -m pip wheel --no-deps -w . /path/to/plies`), so every submission is graded
# by the same plies. Without a wheel, set PLIES_REQUIREMENT below to what pip should
# install instead (a version of plies you can name to pip, such as a git URL).
#
# Paths can be moved with environment variables (the defaults are Gradescope's):
#   AUTOGRADER_ROOT    /autograder           where Gradescope lays out its files
#   AUTOGRADER_SOURCE  $AUTOGRADER_ROOT/source   the unzipped autograder (this folder)
#   PLIES_VENV         $AUTOGRADER_ROOT/plies-venv   the virtual environment made here
set -euo pipefail

ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="${AUTOGRADER_SOURCE:-$ROOT/source}"
VENV="${PLIES_VENV:-$ROOT/plies-venv}"
PLIES_REQUIREMENT="${PLIES_REQUIREMENT:-}"

# 1. What to install: the one wheel in the zip, or PLIES_REQUIREMENT. Checked first,
#    so that a zip without plies fails here, in a second, with a line that says so.
shopt -s nullglob
wheels=("$SOURCE"/plies-*.whl)
if [ ${#wheels[@]} -gt 1 ]; then
  echo "setup.sh: ${#wheels[@]} plies wheels in $SOURCE (${wheels[*]}); keep one" >&2
  exit 1
elif [ ${#wheels[@]} -eq 1 ]; then
  plies="${wheels[0]}"
elif [ -n "$PLIES_REQUIREMENT" ]; then
  plies="$PLIES_REQUIREMENT"
else
  echo "setup.sh: no plies wheel (plies-*.whl) in $SOURCE and no PLIES_REQUIREMENT:" \
    "put the wheel in the autograder zip" >&2
  exit 1
fi

# 2. Python 3.11 or later, with venv: Ubuntu 24.04's python3 is 3.12; on 22.04
#    (python3 is 3.10) Ubuntu's python3.11 package is installed beside it.
if python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  python=python3
  packages=(python3-venv)
else
  python=python3.11
  packages=(python3.11 python3.11-venv)
fi
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}"

# 3. plies, in a virtual environment of its own (run_autograder puts its bin/ on PATH).
"$python" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "$plies"
"$VENV/bin/plies" grade --help >/dev/null
echo "setup.sh: $("$VENV/bin/python" -m pip show plies | grep '^Version') installed in $VENV"
