#!/usr/bin/env bash
# Tests for the one-line install from a GitHub release, as TheIpdataCommand.md gives it: the
# line is read from the article and run against a release folder made as the release job makes
# it (the binary under its release name, `sha256sum ipdata-* > SHA256SUMS`), reached through
# file:// in place of https://github.com/…/releases/latest/download. It installs the binary when
# its checksum matches, and nothing when the binary was altered or SHA256SUMS does not list it.
#
#   bash scripts/tests/install-line-tests.sh
#
# Needs bash, curl and coreutils. Prints `ok - NAME` / `not ok - NAME` per case and ends with
# `N passed, M failed`; exits non-zero when a case failed.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
article=$here/../../Sources/IPData/IPData.docc/TheIpdataCommand.md
download=https://github.com/ipdata/swift/releases/latest/download
line=$(grep -m 1 -F "$download/ipdata-linux-" "$article") || {
    echo "install-line-tests: no install line with $download/ipdata-linux- in $article" >&2
    exit 1
}
command -v curl >/dev/null 2>&1 || {
    echo "install-line-tests: curl not found" >&2
    exit 1
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/install-line-tests.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() { # check NAME CONDITION...
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok - $name"
    else
        failed=$((failed + 1))
        echo "not ok - $name"
    fi
}

# release NAME: a release folder holding a stand-in binary for this machine and its SHA256SUMS,
# as the release job writes them (next to the other platforms' binaries).
release() {
    local dir=$tmp/$1/release
    mkdir -p "$dir"
    printf '#!/bin/sh\necho "ipdata 9.9.9"\n' >"$dir/ipdata-linux-$(uname -m)"
    printf 'not this one\n' >"$dir/ipdata-macos-universal"
    (cd "$dir" && sha256sum ipdata-* >SHA256SUMS)
    printf '%s\n' "$dir"
}

# install NAME: runs the line against NAME's release, in a folder of its own with HOME there.
install_from() {
    local root=$tmp/$1
    mkdir -p "$root/work" "$root/home"
    (cd "$root/work" && HOME=$root/home bash -c "${line//"$download"/file://$root/release}") \
        >"$root/out" 2>&1
}

release good >/dev/null
install_from good
rc=$?
check "the line installs the binary when its checksum matches" test "$rc" -eq 0
check "  into ~/.local/bin/ipdata, executable" test -x "$tmp/good/home/.local/bin/ipdata"
check "  and it runs" test "$("$tmp/good/home/.local/bin/ipdata" 2>/dev/null)" = "ipdata 9.9.9"

dir=$(release altered)
printf 'echo pwned\n' >>"$dir/ipdata-linux-$(uname -m)"
install_from altered
rc=$?
check "an altered binary fails the line" test "$rc" -ne 0
check "  and nothing is installed" test ! -e "$tmp/altered/home/.local/bin/ipdata"

dir=$(release unlisted)
grep -v "ipdata-linux-" "$dir/SHA256SUMS" >"$dir/SUMS" && mv "$dir/SUMS" "$dir/SHA256SUMS"
install_from unlisted
rc=$?
check "a binary SHA256SUMS does not list fails the line" test "$rc" -ne 0
check "  and nothing is installed" test ! -e "$tmp/unlisted/home/.local/bin/ipdata"

dir=$(release missing)
rm "$dir/ipdata-linux-$(uname -m)"
install_from missing
rc=$?
check "no binary for this machine fails the line" test "$rc" -ne 0

printf '%d passed, %d failed\n' "$passed" "$failed"
((failed == 0))
