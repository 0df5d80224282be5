#!/usr/bin/env bash
# Benchmarks/machinery/run.sh [ROUNDS] [EXPERIMENT...]: each piece of the library's machinery
# against the simpler code (issue #24), release builds side by side, interleaved rounds (default
# 5), against the test server whose run directory is $IPDATA_TEST_SERVER_DIR when one answers
# there, else one it starts (ports from 48543, /tmp/ipdata-machinery-server).
#
# Builds ipdata-benchmarks of this checkout and of the variant (make-variant.sh). For the `answer`
# experiment it builds ipdata-transport-benchmarks (the AsyncHTTPClient trait: needs the SwiftPM
# mirrors of .ci/run) of the variant, whose IPDATA_VARIANT=no-fast-path stands in for no wrapper,
# and of the commit $MACHINERY_TRANSPORT_COMMIT (default 70d7d35, the branch that replaced
# TransportAnswer with one transport requirement), checked out as a throwaway worktree at
# $MACHINERY_TRANSPORT_DIR (default /tmp/ipdata-transport-requirement) with these benchmarks.
# Experiments: json json-local json-bulk watch-h2 watch-h2-rtt watch-h1 answer floor floor-pair
# floor-debug (a debug build too) floor-steps (default: all). Prints one table per group; results
# also go to $MACHINERY_OUT (default /tmp/ipdata-machinery.jsonl). Builds go to
# $MACHINERY_SCRATCH-bench-base, -bench-var, -bench-debug, -ahc-var and -ahc-commit (default prefix
# /tmp/ipdata-machinery); the variant's worktree to $MACHINERY_VARIANT_DIR (default
# /tmp/ipdata-variant).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
rounds=${1:-5}
shift || true
experiments=("$@")
[ ${#experiments[@]} -gt 0 ] || experiments=(json-local json json-bulk watch-h2 watch-h2-rtt watch-h1 floor floor-pair floor-debug floor-steps answer)
variant=$("$here/make-variant.sh" "${MACHINERY_VARIANT_DIR:-/tmp/ipdata-variant}")
build() {  # build PACKAGE_DIR SCRATCH
    rm -f "$2/release.yaml"
    swift build -c release --package-path "$1" --scratch-path "$2" >&2
}
scratch=${MACHINERY_SCRATCH:-/tmp/ipdata-machinery}
build "$repo/Benchmarks" "$scratch-bench-base"
build "$variant/Benchmarks" "$scratch-bench-var"
export BENCH_BASE=$scratch-bench-base/release/ipdata-benchmarks
export BENCH_VARIANT=$scratch-bench-var/release/ipdata-benchmarks
if printf '%s\n' "${experiments[@]}" | grep -qx floor-debug; then
    rm -f "$scratch-bench-debug/debug.yaml"
    swift build --package-path "$repo/Benchmarks" --scratch-path "$scratch-bench-debug" >&2
    export BENCH_DEBUG=$scratch-bench-debug/debug/ipdata-benchmarks
fi
if printf '%s\n' "${experiments[@]}" | grep -qx answer; then
    commit_dir=${MACHINERY_TRANSPORT_DIR:-/tmp/ipdata-transport-requirement}
    [ -e "$commit_dir" ] || git -C "$repo" worktree add --detach "$commit_dir" "${MACHINERY_TRANSPORT_COMMIT:-70d7d35}"
    rm -rf "$commit_dir/Benchmarks" && cp -R "$repo/Benchmarks" "$commit_dir/Benchmarks"
    build "$variant/Benchmarks/AsyncHTTPClient" "$scratch-ahc-var"
    build "$commit_dir/Benchmarks/AsyncHTTPClient" "$scratch-ahc-commit"
    rm -f "$variant/Benchmarks/AsyncHTTPClient/Package.resolved" "$commit_dir/Benchmarks/AsyncHTTPClient/Package.resolved"
    export AHC_VARIANT=$scratch-ahc-var/release/ipdata-transport-benchmarks
    export AHC_COMMIT=$scratch-ahc-commit/release/ipdata-transport-benchmarks
fi
export IPDATA_TEST_SERVER_DIR=${IPDATA_TEST_SERVER_DIR:-/tmp/ipdata-machinery-server}
export IPDATA_TEST_SERVER_PORT_BASE=${IPDATA_TEST_SERVER_PORT_BASE:-48543}
server_up() {
    [ -s "$IPDATA_TEST_SERVER_DIR/env" ] || return 1
    # shellcheck disable=SC1091
    . "$IPDATA_TEST_SERVER_DIR/env"
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 --cacert "$IPDATA_TEST_CA" \
        "$IPDATA_TEST_URL_NORMAL/8.8.8.8?api-key=$IPDATA_TEST_KEY")" = 200 ]
}
if ! server_up; then
    "$repo/TestServer/start"
    trap '"$repo/TestServer/stop" >/dev/null 2>&1 || true' EXIT
    server_up
fi
# MACHINERY_NICE (for example -10): the server's processes and every benchmark run at that nice
# value, so that builds and tests of others on the same cores disturb the rounds less.
if [ -n "${MACHINERY_NICE:-}" ]; then
    nginx_pid=$(cat "$IPDATA_TEST_SERVER_DIR/nginx.pid")
    for pid in "$nginx_pid" $(pgrep -P "$nginx_pid") $(cat "$IPDATA_TEST_SERVER_DIR/backend.pid"); do
        for task in /proc/"$pid"/task/*; do renice -n "$MACHINERY_NICE" -p "${task##*/}" >/dev/null; done
    done
fi
for experiment in "${experiments[@]}"; do
    "$repo/TestServer/with-test-ca" python3 "$here/interleave.py" "$experiment" --rounds "$rounds" \
        --out "${MACHINERY_OUT:-/tmp/ipdata-machinery.jsonl}"
done
