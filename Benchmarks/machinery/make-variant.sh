#!/usr/bin/env bash
# Benchmarks/machinery/make-variant.sh [DIR]: a throwaway worktree of this checkout's HEAD at DIR
# (default /tmp/ipdata-variant), never committed, with variant.patch applied: the library with a
# switch, read once from IPDATA_VARIANT, for the simpler code that stands in for each piece of
# machinery (see interleave.py). The patch is made against the commit BENCHMARKS.md names (6c25a99); on a
# later library it may need its hunks moved by hand.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
dir=${1:-/tmp/ipdata-variant}
[ -e "$dir" ] || git -C "$repo" worktree add --detach "$dir" HEAD
git -C "$dir" apply --check "$here/variant.patch" 2>/dev/null && git -C "$dir" apply "$here/variant.patch"
# The benchmarks as they are here (the worktree has HEAD's).
rm -rf "$dir/Benchmarks" && cp -R "$repo/Benchmarks" "$dir/Benchmarks" && rm -rf "$dir/Benchmarks/.build"
echo "$dir"
