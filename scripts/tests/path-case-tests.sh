#!/usr/bin/env bash
# Tests for scripts/check-path-case.sh, against throw-away git repositories.
#
#   bash scripts/tests/path-case-tests.sh
#
# Prints `ok - NAME` / `not ok - NAME` per case and ends with `N passed, M failed`; exits
# non-zero when a case failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
check=$(cd "$here/.." && pwd)/check-path-case.sh
tmp=$(mktemp -d "${TMPDIR:-/tmp}/path-case-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"

passed=0 failed=0
ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() { echo "not ok - $1"; failed=$((failed + 1)); }

# repository NAME PATH... : a repository at $tmp/NAME tracking an empty file at each PATH.
repository() {
    local dir=$tmp/$1
    shift
    git init -q "$dir"
    for path in "$@"; do
        mkdir -p "$dir/$(dirname "$path")"
        : >"$dir/$path"
    done
    git -C "$dir" add -A
}

# expect NAME STATUS [TEXT]: runs the check on repository NAME, wants STATUS and TEXT in stderr.
expect() {
    local name=$1 status=$2 text=${3:-} output actual
    output=$(bash "$check" "$tmp/$name" 2>&1)
    actual=$?
    if [[ $actual -ne $status ]]; then
        not_ok "$name: exit $actual, expected $status: $output"
    elif [[ -n $text && $output != *"$text"* ]]; then
        not_ok "$name: output lacks '$text': $output"
    else
        ok "$name"
    fi
}

repository folders-apart Sources/IPData/Client.swift Sources/ipdata-cli/main.swift
expect folders-apart 0

repository folder-clash Sources/IPData/Client.swift Sources/ipdata/main.swift
expect folder-clash 1 "Sources/IPData <-> Sources/ipdata"

repository file-clash README.md Readme.md
expect file-clash 1 "README.md <-> Readme.md"

repository deep-clash Tests/Fixtures/a.json Tests/fixtures/b.json
expect deep-clash 1 "Tests/Fixtures <-> Tests/fixtures"

repository file-against-folder docs docs2/x Docs/y
expect file-against-folder 1 "Docs <-> docs"

# The repository this script lives in passes its own check.
if bash "$check" "$here/../.." >/dev/null 2>&1; then ok "this repository"; else not_ok "this repository"; fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
