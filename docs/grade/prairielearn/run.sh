#!/usr/bin/env bash
# PrairieLearn's external grader runs this (the question's "entrypoint") in a container
# of an image that has plies installed: it grades the student's file with
# `plies grade` and writes /grade/results/results.json, PrairieLearn's results.
#
# The question sets the assignment in its info.json, under externalGradingOptions:
#   "environment": {"PLIES_FORM": "array", "PLIES_FUNCTION": "minimax",
#                   "PLIES_FILE": "minimax.py", "PLIES_OPTIONS": "--rule strict"}
# A trees file in the question's tests/ folder is /grade/tests/<name> here
# (PLIES_OPTIONS: --trees /grade/tests/exam.txt).
#
# GRADE_ROOT (default /grade) moves the whole layout: student/, tests/, results/.
set -euo pipefail

FORM="${PLIES_FORM:-array}"
FUNCTION="${PLIES_FUNCTION:-minimax}"
FILE="${PLIES_FILE:-minimax.py}"
OPTIONS="${PLIES_OPTIONS:-}"

ROOT="${GRADE_ROOT:-/grade}"
STUDENT="$ROOT/student"
RESULTS="$ROOT/results/results.json"

# Results for a submission plies cannot grade (no such file, a syntax error, no such
# function): "gradable": false, so the student loses no attempt, and the reason.
cannot_grade() {
  python3 - "$RESULTS" "$1" <<'PYTHON'
import json, sys
results, reason = sys.argv[1], sys.argv[2]
document = {"gradable": False, "format_errors": [reason], "message": reason}
with open(results, "w", encoding="utf-8") as out:
    json.dump(document, out, indent=2)
PYTHON
}

mkdir -p "$(dirname "$RESULTS")"   # PrairieLearn does not make it
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/student"
cp -R "$STUDENT/." "$scratch/student/"
cd "$scratch/student"

if [ ! -f "$FILE" ]; then
  cannot_grade "No file named $FILE was submitted."
  exit 0
fi

# shellcheck disable=SC2086  # OPTIONS is a list of options, split on purpose
if ! plies grade "$FILE" --form "$FORM" --function "$FUNCTION" $OPTIONS \
  --format prairielearn --out "$RESULTS" 2>"$scratch/plies.log"; then
  cannot_grade "$(sed 's/^error: //' "$scratch/plies.log")"
fi
cat "$scratch/plies.log" >&2
